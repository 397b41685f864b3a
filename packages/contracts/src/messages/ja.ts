import type { MessageCatalog } from "./tr.ts";

export const ja: MessageCatalog = {
  validation: {
    companyNameRequired: "会社名は必須です。",
    min3: "3文字以上で入力してください。",
    max50: "50文字以内で入力してください。",
    max100: "100文字以内で入力してください。",
    emailInvalid: "有効なメールアドレスを入力してください。",
    emailRequired: "メールアドレスは必須です。",
    passwordMin8: "8文字以上で入力してください。",
    passwordRequired: "パスワードは必須です。",
    firstNameRequired: "名は必須です。",
    lastNameRequired: "姓は必須です。",
    phoneRequired: "電話番号は必須です。",
    phoneInvalid: "有効な電話番号を入力してください。",
    erpTypeRequired: "会計ソフトは必須です。",
    ecommerceTypeRequired: "ECソフトは必須です。",
    loginEmailRequired: "メールアドレスは必須です。",
    loginMin3: "3文字以上入力してください。",
    loginMax50: "入力できるのは50文字までです。",
    forgotEmailInvalid: "メールアドレスの形式が正しくありません",
    forgotEmailRequired: "メールアドレス欄は必須です。",
    resetMin8: "8文字以上入力してください。",
    resetMax16: "入力できるのは16文字までです。",
    newPasswordRequired: "新しいパスワード欄は必須です。",
    confirmPasswordRequired: "新しいパスワード（確認）欄は必須です。",
    passwordsDoNotMatch: "新しいパスワードが一致しません。",
    oldPasswordRequired: "現在のパスワードは必須です。",
    rowIdRequired: "リンクコードは必須です。",
    taxNumberInvalid: "税番号は10桁または11桁で入力してください。",
    fieldInvalid: "入力値が正しくありません。",
    cronInvalid: "有効なcron式を入力してください（例: 0 */2 * * *）。",
    dateInvalid: "有効な日付を入力してください。",
    selectAtLeastOne: "1件以上のレコードを選択してください。",
  },
  api: {
    validationFailed: "フォームの誤りを修正してください。",
    invalidEmailFormat: "メールアドレスの形式が正しくありません。メールアドレスを確認してください。",
    emailHasTurkishCharacters:
      "メールアドレスにトルコ語の文字が含まれています。トルコ語の文字を含まないアドレスを入力してください。",
    emailAlreadyRegistered: "このメールアドレスのユーザーはすでに登録されています。",
    registrationFailed: "登録処理中にエラーが発生しました。",
    registrationNetworkFailed: "登録に失敗しました...",
    autoLoginFailed: "登録は完了しましたが、ログインできませんでした。サイト管理者にお問い合わせください。",
    registered: "登録が完了しました。",
    loginFailed: "ユーザー名またはパスワードが正しくありません。",
    tooManyLoginAttempts: "Too many sign-in requests from this connection. Please try again in a minute.",
    captchaRequired: "ロボットではないことを確認してください。",
    captchaHarderRequired:
      "Too many failed sign-in attempts. For your security an extra verification is needed; press Sign in again once it is complete.",
    captchaInvalid: "確認に失敗しました。もう一度お試しください。",
    unauthorized: "セッションの有効期限が切れました。もう一度ログインしてください。",
    forbidden: "この操作を行う権限がありません。",
    notFound: "お探しのレコードが見つかりません。",
    conflict: "このレコードは別の操作によって変更されました。もう一度お試しください。",
    rateLimited: "リクエストが多すぎます。しばらく待ってからもう一度お試しください。",
    internalError: "予期しないエラーが発生しました。しばらくしてからもう一度お試しください。",
    recoverMailSent: "メールアドレスが登録されている場合、パスワード再設定用のリンクを送信しました。",
    recoverMailFailed: "パスワード再設定用リンクの送信中にエラーが発生しました。",
    resetLinkInvalid: "パスワード再設定用リンクが無効か、有効期限が切れています。",
    passwordReset: "パスワードを変更しました。ログインページに移動しています...",
    passwordUpdated: "パスワードを更新しました。",
    oldPasswordWrong: "現在のパスワードが正しくありません。",
    loginCodeInvalid: "ログインコードが無効か、有効期限が切れています。",
    profileUpdated: "登録情報を更新しました。",
    companyUpdated: "会社情報を更新しました。",
    loggedOut: "ログアウトしました。",
    ok: "処理が完了しました。",
  },
  /** Requests refused before any handler runs: transport, format and shared field rules. */
  request: {
    badRequest: "The request could not be read. Please reload the page and try again.",
    badUrl: "The address contains invalid characters. Please check it and try again.",
    uriTooLong: "The address is too long. Please try again with a shorter address.",
    headersTooLarge: "The request headers are too large. Please clear your browser's cookies and try again.",
    unsupportedMediaType: "This content type is not supported. Please send the data as JSON or a form.",
    malformedJson: "The data sent is not valid JSON. Please check the content and try again.",
    malformedMultipart: "The form data could not be read. Please send the form and its attachments again.",
    bodyTooLarge: "The data sent is too large. Please try again with smaller content.",
    timeout: "The request did not complete in time. Please check your connection and try again.",
    textControlCharacter: "The text contains a control character that is not allowed. Please retype it.",
    idOutOfRange: "A record number must be a whole number between 1 and 2,147,483,647.",
    numberOutOfRange: "The number is outside the allowed range. Please enter a smaller value.",
    dateOutOfRange: "The date must be between the years 1900 and 2999.",
  },
  engine: {
    statusQueued: "待機中です。",
    statusRunning: "実行中です。",
    statusSucceeded: "正常に完了しました。",
    statusPartiallyFailed: "完了しましたが、一部のレコードを転送できませんでした。",
    statusFailed: "失敗しました。",
    statusCrashed: "中断されました。",
    reportSummary:
      "{{read}}件を読み込み、{{changed}}件に変更があり、{{written}}件を書き込み、{{failed}}件を転送できませんでした。",
    reportCalls:
      "ERPへの読み込み呼び出し{{erpRead}}回と書き込み呼び出し{{erpWrite}}回、ショップへの読み込み呼び出し{{shopRead}}回と書き込み呼び出し{{shopWrite}}回を行いました。",
    reportNothingChanged: "変更はありません。どのシステムにも書き込み呼び出しは行っていません。",
    reportResolved: "以前の実行で転送できなかった{{count}}件を今回の実行で転送しました。",
    reportNotInShop:
      "ショップに存在しないため{{count}}件をスキップしました（先に商品転送を実行してください）。",
    reportTransientLeft: "一時的なエラーのため、{{count}}件を次回の実行に持ち越しました。",
    reportCreateDisabled:
      "{{count}}件の商品がショップにありませんが、設定で作成が無効のため作成しませんでした。",
    runFailed: "{{job}}タスクが失敗しました: {{reason}}",
    runPartiallyFailed: "{{job}}タスクは完了しましたが、{{count}}件を転送できませんでした。",
    runRecovered: "{{job}}タスクが再び正常に実行されました。",
    runCrashed:
      "{{job}}タスクが中断されました（実行プロセスが停止しました）。次回の実行は中断した箇所から再開します。",
    runRefusedLicence: "{{job}}は実行されませんでした: {{licence}}ライセンスの有効期限が切れています。",
    alreadyRunning: "このタスクはすでに待機中または実行中です。",
    noShopStockLocation: "ショップに在庫ロケーションがありません。",
    noErpPriceGroup: "ERPに価格グループがありません。",
  },
  connectors: {
    mikroMethodMissing:
      "Your Mikro server ({{version}}) does not offer the {{method}} method; stock, price, category and order reads depend on it. Upgrade to Mikro Jump V17 or ask your Mikro dealer to enable {{method}} in the API service, then test the connection again.",
    mikroVatRateMissing:
      "The {{rate}} % VAT rate is not in Mikro's tax table (VergiListesiV2); order {{orderNo}} was not written to Mikro. Define the rate in Mikro or correct the product's VAT rate; the order is retried in the next run.",
    mikroVatPointerUnknown:
      "Some Mikro stock cards point to a VAT entry ({{pointer}}) that is not in the tax table: {{skus}}. Correct their retail VAT field in Mikro; these products are not transferred until then.",
    mikroOrderNotFound:
      "Order {{orderNo}} was sent to Mikro but could not be found again by its document number. Check the order with this document number in Mikro; it was not sent again so that it is not written twice.",
  },
  failure: {
    someSystem: "The ERP or the shop",
    network:
      "Could not connect to {{system}}. Check the connection settings and try again with 'Test connection'.",
    timeout:
      "{{system}} did not answer in time. The job will try again on its next run; if this persists, check that the system is up and the connection settings are right.",
    serverError:
      "{{system}} reported an error on its side. The job will try again on its next run; if this persists, contact the system's provider.",
    rateLimited:
      "{{system}} turned requests away for a while because there were too many. The job will continue where it left off on its next run; nothing for you to do.",
    lock: "The record was locked by another operation in {{system}}. The job will try again on its next run.",
    blocked:
      "{{system}} blocked access for a while. Wait a little and try again; if this persists, contact the system's provider.",
    unavailable:
      "{{system}} is not available right now (maintenance or load). The job will try again on its next run.",
    auth: "{{system}} did not accept the credentials. Check the user, password and key in the connection settings and try again with 'Test connection'.",
    validation:
      "{{system}} did not accept this record. Correct the record's details (name, price, barcode, VAT…) and retry it from the failed tasks screen.",
    notFound:
      "This record was not found in {{system}}. Check that it exists in both systems and retry it from the failed tasks screen.",
    unknownItem:
      "A definition this record uses (stock card, warehouse, customer account…) was not found in {{system}}. Create it or correct the mappings, then retry it from the failed tasks screen.",
    conflict:
      "{{system}} did not accept this record because it clashes with an existing one. Check the record and retry it from the failed tasks screen.",
    unsupported: "{{system}} does not support this operation. You can open a support ticket.",
    badResponse:
      "{{system}} gave an answer that could not be understood. The job will try again on its next run; if this persists, open a support ticket.",
    config:
      "The connection details of {{system}} are missing or wrong. Check the connection settings and try again with 'Test connection'.",
    database:
      "Something went wrong while saving records in the panel's database. The job will try again on its next run; if this persists, open a support ticket.",
    unexpected:
      "The job could not finish because of an unexpected problem. It will try again on its next run; if this persists, open a support ticket.",
    systemSaid: '{{text}} The system said: "{{said}}"',
    bindingConflict:
      "{{key}} was not moved: the same shop product is bound to the ERP code {{heldBy}}. A shop product can match only one ERP item; correct the matching on the ERP matchings screen, then retry it from the failed tasks screen.",
  },
  mail: {
    resetSubject: "Entegrasyon Paneli パスワードの再設定",
    resetBody:
      "{{name}} 様\n\n下のリンクをクリックしてパスワードを再設定してください。リンクの有効期限は1時間で、1回のみ使用できます。\n\n{{link}}\n\nこの操作に心当たりがない場合は、このメールを無視してください。",
    welcomeSubject: "Entegrasyon Paneli へようこそ",
    welcomeBody:
      "{{name}} 様\n\n{{company}} のアカウントを作成しました。14日間の試用ライセンスが有効になっています。\n\n{{link}}",
  },
  activity: {
    signIn: "パネルにサインインしました。",
    settingsSaved: "設定を保存しました（{{detail}}）。",
    connectionChanged: "接続情報を変更しました（{{detail}}）。",
    jobEnabled: "ジョブ {{detail}} を有効にしました。",
    jobDisabled: "ジョブ {{detail}} を無効にしました。",
    jobScheduleChanged: "ジョブ {{detail}} のスケジュールを変更しました。",
    jobRun: "ジョブ {{detail}} を手動で実行しました。",
    failedTasksDeleted: "失敗したタスク {{detail}} 件を削除しました。",
    failedTasksRetried: "失敗したタスク {{detail}} 件を再試行しました。",
    ticketCreated: "サポートチケットを作成しました: {{detail}}",
    ticketReplied: "サポートチケットに返信しました: {{detail}}",
    ticketClosed: "サポートチケットをクローズしました: {{detail}}",
    profileUpdated: "プロフィール情報を更新しました。",
    companyUpdated: "会社情報を更新しました。",
    passwordChanged: "パスワードを変更しました。",
    erpMatchingChanged: "ERP の対応付けを変更しました（{{detail}}）。",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "{{licence}} ライセンスは {{date}} に期限切れになります（残り {{days}} 日）。",
    licenceExpired: "{{licence}} ライセンスの期限が切れました。関連するジョブは実行されません。",
    reportNever: "{{job}} はまだ実行されていません。",
    reportSucceeded: "{{job}} の前回の実行は成功し、{{written}} 件を書き込みました。",
    reportFailed: "{{job}} の前回の実行は失敗し、{{failed}} 件を転送できませんでした。",
    reportDisabled: "{{job}} は無効です。",
    connectionUntested: "接続はまだテストされていません。",
    connectionNotSaved:
      "The connection settings are not saved yet. Enter your details in the connection settings and test them.",
    connectionRunOk: "The last job run on {{date}} reached this system without problems.",
    connectionRunFailed: "The last job run on {{date}} could not connect to this system. {{reason}}",
  },
  connectionSettings: {
    previewNothing: "次回の実行で変更されるものはありません。",
    previewPriceOk: "{{total}} 件の価格が変わります。{{limit}}% の上限を超えて下がるものはありません。",
    previewPriceTripped:
      "{{flagged}} 件の商品の価格が上限 {{limit}}% を超えて下がります。実行前に確認して承認してください。",
    previewStockOk: "{{total}} 件の在庫が変わります。{{flagged}} 件の商品が在庫 0 になります。",
    previewStockTripped:
      "読み込んだ品目の {{share}}% が在庫 0 になります (上限 {{limit}}%)。実行前に確認して承認してください。",
    connectionSaved: "接続設定を保存しました。",
    connectionSavedJobsReady: "接続設定を保存しました。連携ジョブの準備ができました。",
    testOk: "接続に成功しました。{{description}}",
    testAuth:
      "{{system}} に到達しましたが、認証情報が受け付けられませんでした。キー、ユーザー、パスワードを確認してください。",
    testUnreachable:
      "{{system}} could not be reached. Please enter its address on the internet; our server does not connect to local or private network addresses, systems inside your company network connect through the on-site agent.",
    testTimeout: "{{system}} が時間内に応答しませんでした。しばらくしてから再度お試しください。",
    testRateLimited:
      "{{system}} はリクエストが多すぎるため要求を拒否しました。少し待ってから再度お試しください。",
    testUnsupported: "{{system}} への接続はまだサポートされていません。",
    testConfig: "{{system}} の接続情報が不足しているか誤っています。フォームを確認してください。",
    testFailed: "{{system}} の接続テストに失敗しました。情報を確認して再度お試しください。",
    notConnected: "先にこのシステムの接続設定を保存してください。",
    listBusy: "接続先システムが混み合っているか応答していません。数秒後にもう一度お試しください。",
    listFailed: "接続先システムから一覧を取得できませんでした。接続設定をテストしてください。",
    unsupportedSystem: "このシステムへの接続はまだサポートされていません。",
    fieldRequired: "この項目は必須です。",
    urlInvalid: "有効なアドレスを入力してください (http:// または https://)。",
    numberInvalid: "有効な数値を入力してください。",
    unknownField: "このシステムには定義されていない項目です。",
    unknownSetting: "不明な設定キーです。",
    settingsSaved: "設定を保存しました。変更は次回の実行から適用されます。",
  },
  tickets: {
    categoryRequired: "カテゴリを選択してください。",
    subjectRequired: "件名は必須です。",
    subjectMax: "件名は150文字以内で入力してください。",
    messageRequired: "メッセージは必須です。",
    messageMax: "メッセージは5000文字以内で入力してください。",
    attachmentTooLarge: "各ファイルは5 MB以下にしてください。",
    attachmentType: "添付できるのは画像（PNG、JPEG、GIF、WEBP）とPDFファイルのみです。",
    attachmentTooMany: "添付できるファイルは最大5件です。",
    ticketClosed: "このチケットはクローズされています。新しいメッセージは追加できません。",
    statusInvalid: "チケットはクローズ（ステータス3）のみ可能です。",
    created: "チケットを作成しました。",
    replied: "メッセージを送信しました。",
    closed: "チケットをクローズしました。",
    announcementTypeRequired: "お知らせの種類は必須です。",
    announcementContentRequired: "お知らせの本文は必須です。",
    announcementCreated: "お知らせを公開しました。",
    licenseUpdated: "ライセンスを更新しました。",
    notifyAnswered: "チケット #{{id}}「{{subject}}」にサポートチームが回答しました。",
    mailAnsweredSubject: "チケット #{{id}} に回答がありました",
    mailAnsweredBody:
      "{{name}} 様\n\nチケット「{{subject}}」にサポートチームが回答しました:\n\n{{message}}\n\n返信はこちら: {{link}}\n\n返信がない場合、チケットは24時間後に自動的にクローズされます。",
    mailAutoClosedSubject: "チケット #{{id}} がクローズされました",
    mailAutoClosedBody:
      "{{name}} 様\n\nチケット「{{subject}}」は、サポートチームの回答から24時間以内に返信がなかったため自動的にクローズされました。\n\n新しいご質問は新しいチケットでお送りください: {{link}}",
    mailNewSubject: "新しいチケット #{{id}}: {{subject}}",
    mailNewBody:
      "{{company}} の {{name}} が新しいチケットを作成しました。\n\nカテゴリ: {{category}}\n件名: {{subject}}\n\n{{message}}\n\nサポートコンソール: {{link}}",
  },
  erpMatching: {
    saved: "対応付けを保存しました。",
    deleted: "対応付けを削除しました。",
    shopSkuNotFound: "この在庫コードの商品はショップに見つかりませんでした。",
    duplicate: "この ERP コードまたはショップコードには既に対応付けがあります。",
    rowInvalid: "行には ERP とショップの在庫コードが必要です。",
    imported: "{{accepted}} 行を受け付け、{{refused}} 行を拒否しました。",
    tooManyRows: "1 つのファイルから取り込めるのは最大 5000 行です。",
    bindingTaken:
      "This shop product is already bound to another ERP stock code. A shop product can match only one ERP item: choose another shop product.",
    bindingTakenRow:
      "The shop product {{shopSku}} is already bound to the ERP code {{heldBy}}; a shop product can match only one ERP item.",
  },
  salesExport: {
    rangeInvalid: "The start date cannot be after the end date. Correct the dates and try again.",
    sheet: "Sales Report",
    orderNo: "Order No",
    date: "Date",
    customer: "Customer",
    state: "Status",
    amount: "Amount",
    currency: "Currency",
    total: "Total",
    received: "Received",
    mapped: "Matched",
    sent: "Sent to ERP",
    confirmed: "Confirmed",
    failed: "Failed",
    needs_review: "Awaiting review",
  },
  privacy: {
    deletionRequested:
      "Your account deletion request was received. Your account and all its data will be deleted permanently in 30 days; until then you can cancel the request on the Privacy and KVKK page.",
    deletionCancelled: "Your account deletion request was cancelled. Your account and data are kept.",
    alreadyPending:
      "A deletion request for this account is already pending. See its date or cancel it on the Privacy and KVKK page.",
    passwordIncorrect:
      "The password could not be verified. Enter your account's current password to confirm the deletion request.",
    notPending: "This deletion request can no longer be cancelled: it was already cancelled or completed.",
    confirmRequired: "Confirm that the account and its data will be deleted to continue.",
    mailRequestedSubject: "Your account deletion request was received",
    mailRequestedBody:
      "Hello {{name}},\n\nWe received a request to delete the {{company}} account. The account, its connections, connection passwords and personal data will be deleted permanently on {{date}}.\n\nYou can download a copy of your data before then. If you did not make this request or changed your mind, cancel it on the Privacy and KVKK page before that date: {{link}}",
    mailCancelledSubject: "Your account deletion request was cancelled",
    mailCancelledBody:
      "Hello {{name}},\n\nThe deletion request for the {{company}} account was cancelled. Your account and data are kept; nothing else is needed.\n\nPanel: {{link}}",
  },
  liveUpdates: {
    tooManyPanels:
      "Too many open panel tabs of this company are following live updates. Close the tabs you do not use; this tab reconnects in a few seconds.",
  },
  agents: {
    pairingCodeCreated:
      "ペアリングコードを発行しました。10分以内にオンサイトエージェントで入力してください: entegrasyon-agent pair CODE --server URL",
    paired: "オンサイトエージェントのペアリングが完了しました。",
    pairingCodeInvalid:
      "ペアリングコードが無効、期限切れ、または使用済みです。パネルで新しいコードを取得して再試行してください。",
    revoked:
      "オンサイトエージェントのアクセスを取り消しました。再接続するには新しいペアリングコードを取得してください。",
    offline:
      "オンサイトエージェントはオフラインです（最終確認: {{lastSeen}}）。実行中のコンピューターとネットワーク接続を確認してください。",
    cli: {
      usage:
        "使い方:\n  entegrasyon-agent pair CODE --server URL   パネルのコードでペアリングします\n  entegrasyon-agent run                      サーバーに接続してリクエストを実行します\n  entegrasyon-agent status                   最後の状態を表示します",
      paired:
        "ペアリングしました（エージェント番号 {{agentId}}）。'entegrasyon-agent run' で起動してください。",
      pairFailed: "ペアリングに失敗しました: {{reason}}",
      notPaired:
        "このエージェントはまだペアリングされていません。パネルでコードを取得し、先に 'entegrasyon-agent pair CODE --server URL' を実行してください。",
      refused:
        "サーバーがこのエージェントの資格情報を拒否しました（アクセスが取り消された可能性があります）。パネルで新しいコードを取得して再度ペアリングしてください。",
      status:
        "状態: {{state}} · サーバー: {{server}} · 最終接続: {{connectedAt}} · 最後のエラー: {{lastError}}",
      serverUnreachable:
        "サーバーに接続できません（{{code}}）。アドレスとこのコンピューターのインターネット接続を確認してください。",
      noStatus: "状態の記録はまだありません。エージェントは一度も実行されていません。",
    },
  },
};
