import { type MessageCatalog, tr } from "./tr.ts";

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
    websiteInvalid: "有効なウェブアドレスを入力してください（例: https://myshop.com）。",
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
    tooManyRegistrations: "この接続からの登録が多すぎます。しばらくしてからもう一度お試しください。",
    tooManyLoginAttempts: "この接続からのログイン要求が多すぎます。1 分後にもう一度お試しください。",
    captchaRequired: "ロボットではないことを確認してください。",
    captchaHarderRequired:
      "ログインの失敗が多すぎます。安全のため追加の確認が必要です。確認が完了したら、もう一度「ログイン」を押してください。",
    captchaInvalid: "確認に失敗しました。もう一度お試しください。",
    unauthorized: "セッションの有効期限が切れました。もう一度ログインしてください。",
    forbidden: "この操作を行う権限がありません。",
    notFound: "お探しのレコードが見つかりません。",
    conflict: "このレコードは別の操作によって変更されました。もう一度お試しください。",
    rateLimited: "リクエストが多すぎます。しばらく待ってからもう一度お試しください。",
    busy: "現在、貴社のリクエストが多数処理中です。数秒後にもう一度お試しください。",
    internalError: "予期しないエラーが発生しました。しばらくしてからもう一度お試しください。",
    recoverMailSent: "メールアドレスが登録されている場合、パスワード再設定用のリンクを送信しました。",
    recoverMailFailed: "パスワード再設定用リンクの送信中にエラーが発生しました。",
    resetLinkInvalid: "パスワード再設定用リンクが無効か、有効期限が切れています。",
    passwordReset: "パスワードを変更しました。ログインページに移動しています...",
    passwordUpdated: "パスワードを更新しました。",
    oldPasswordWrong: "現在のパスワードが正しくありません。",
    loginCodeInvalid: "ログインコードが無効か、有効期限が切れています。",
    partnerInstallFailed: "ストアのインストールを完了できませんでした。",
    profileUpdated: "登録情報を更新しました。",
    companyUpdated: "会社情報を更新しました。",
    loggedOut: "ログアウトしました。",
    ok: "処理が完了しました。",
  },
  /** Requests refused before any handler runs: transport, format and shared field rules. */
  request: {
    badRequest: "リクエストを読み取れませんでした。ページを再読み込みして、もう一度お試しください。",
    badUrl: "アドレスに無効な文字が含まれています。アドレスを確認して、もう一度お試しください。",
    uriTooLong: "アドレスが長すぎます。短いアドレスでもう一度お試しください。",
    headersTooLarge:
      "リクエストヘッダーが大きすぎます。ブラウザーの Cookie を削除して、もう一度お試しください。",
    unsupportedMediaType:
      "このコンテンツタイプには対応していません。データは JSON またはフォーム形式で送信してください。",
    malformedJson: "送信されたデータは有効な JSON ではありません。内容を確認して、もう一度お試しください。",
    malformedMultipart:
      "フォームのデータを読み取れませんでした。フォームと添付ファイルをもう一度送信してください。",
    bodyTooLarge: "送信されたデータが大きすぎます。より小さな内容でもう一度お試しください。",
    timeout: "リクエストが時間内に完了しませんでした。接続を確認して、もう一度お試しください。",
    textControlCharacter: "テキストに使用できない制御文字が含まれています。テキストを入力し直してください。",
    idOutOfRange: "レコード番号は 1 から 2,147,483,647 までの整数である必要があります。",
    numberOutOfRange: "数値が許容範囲外です。より小さい値を入力してください。",
    dateOutOfRange: "日付は 1900 年から 2999 年の間である必要があります。",
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
    usageCredit:
      "{{system}}: この実行で課金対象の呼び出し {{calls}} 回、今月: {{month}} 回（{{credits}} クレジット）。",
    usageQuota:
      "{{system}}: この実行で読み取り {{read}} 回、書き込み {{write}} 回。残りの割り当て: 読み取り {{readLeft}} / 書き込み {{writeLeft}}。",
    quotaRefused:
      "スケジュール実行を開始しませんでした: {{system}} の月間割り当てのうち本日分（読み取り {{readAllowance}} / 書き込み {{writeAllowance}}）では 1 回の実行に必要な量（読み取り {{readNeed}} / 書き込み {{writeNeed}}）に足りません。残り: 読み取り {{readLeft}} / 書き込み {{writeLeft}}。手動実行は可能です。",
    quotaWarning:
      "{{system}} の月間 API 割り当ての {{percent}}% を使用しました（残り 読み取り {{readLeft}} / 書き込み {{writeLeft}}）。使い切ると月末まで転送が止まります。",
    reportResolved: "以前の実行で転送できなかった{{count}}件を今回の実行で転送しました。",
    reportNotInShop:
      "ショップに存在しないため{{count}}件をスキップしました（先に商品転送を実行してください）。",
    reportReturnsCancelledInErp: "キャンセルされた{{count}}件の注文をERPから削除しました。",
    reportReturnsPartial:
      "{{count}}件の注文で一部の明細が返品されました（{{units}}点）。ERPでその数量を返品として処理してください。",
    reportReturnsKeptInErp:
      "キャンセルまたは返品された{{count}}件の注文はERPに残っています（請求済み、またはERPで削除できないため）。ERPで返品を処理してください。",
    reportTransientLeft: "一時的なエラーのため、{{count}}件を次回の実行に持ち越しました。",
    reportCreateDisabled:
      "{{count}}件の商品がショップにありませんが、設定で作成が無効のため作成しませんでした。",
    reportCategoriesAdopted:
      "{{count}}件のカテゴリはショップに既に存在したため、新規作成せず既存のカテゴリと関連付けました。",
    retryUntouched:
      "再試行しましたが、この実行ではレコードは転送されませんでした。ERPから読み取られなかったか、ショップに対応する商品がありません。ERPにまだ存在し、ショップの商品と対応しているか確認してください。不要になった場合はタスクを閉じてください。",
    runFailed: "{{job}}タスクが失敗しました: {{reason}}",
    runPartiallyFailed: "{{job}}タスクは完了しましたが、{{count}}件を転送できませんでした。",
    runRecovered: "{{job}}タスクが再び正常に実行されました。",
    runCrashed:
      "{{job}}タスクが中断されました（実行プロセスが停止しました）。次回の実行は中断した箇所から再開します。",
    runRefusedLicence: "{{job}}は実行されませんでした: {{licence}}ライセンスの有効期限が切れています。",
    alreadyRunning: "このタスクはすでに待機中または実行中です。",
    noShopStockLocation: "ショップに在庫ロケーションがありません。",
    vatRateMissing:
      "注文は保留中です：ERPにSKU {{skus}} の消費税率がありません（販売チャネルは注文に税率を含めないため、ERPの在庫カードの税率を使います）。ERPで税率付きの在庫カードを定義してください。次回の実行で注文が転送されます。",
    noErpPriceGroup: "ERPに価格グループがありません。",
  },
  fileExchange: {
    notFileShop:
      "このショップはファイルで動作しません。注文ファイルは JetStok のような API のないショップでのみアップロードします。",
    unreadable: "ファイルを読めません: 見出し行のある Excel (.xlsx)、CSV、XML にしてください。",
    tooLarge: "ファイルが大きすぎます（最大 20 MB）。",
    notFileSystem:
      "この ERP はファイルでは動作しません: ファイルは API のないシステム（設定したマッピング）専用です。",
    empty: "ファイルが空です。",
    tooManyRows: "ファイルの行数は最大 100,000 行です（見出し行を除く）。ファイルを分割してください。",
    tooManyColumns: "ファイルの列数は最大 100 列です。",
    cellTooLong: "1 つのセルは最大 32,767 文字です。",
    unpackedTooLarge: "展開後のファイルが大きすぎます（最大 100 MB）。破損している可能性があります。",
    deleted: "ファイルを削除しました。",
  },
  connectors: {
    jetstok: {
      card: {
        cardTitle: "JetStok はファイルで接続します",
        cardBody:
          "JetStok には公開 API がありません。JetStok が Excel でインポート・エクスポートするファイルで接続します。設定は不要です。",
        stepStock:
          "在庫と価格: 在庫または価格の転送が実行された後、ここで「在庫・価格ファイルをダウンロード」を押し、JetStok パネルで Excel 一括更新としてインポートしてください。",
        stepOrders:
          "注文: JetStok パネルで注文を Excel としてエクスポートし、ここにアップロードしてください。注文転送は各注文を ERP に一度だけ書き込みます(同じファイルや注文を二度アップロードしても)。",
        stockFile: "在庫・価格ファイルをダウンロード",
        noStockFile: "在庫・価格ファイルはまだありません。先に在庫または価格の転送を実行してください。",
        stockFileAt: "最終更新: {{at}}({{count}} 商品)",
        ordersHelp:
          "JetStok パネルからエクスポートした注文ファイル(Excel または CSV、1 行目が見出し)。各行を確認して保存します。同じファイルは二度取り込みません。",
        ordersUsed: "次の注文転送がこのファイルの注文を読み込みます。各注文は ERP に一度だけ書き込まれます。",
        ordersUpload: "JetStok の注文ファイルをアップロード",
        ordersFiles: "アップロードした注文ファイル",
      },
      connected:
        "JetStok はファイルで接続されています: 在庫・価格ファイルをダウンロードし、注文ファイルをアップロードします。",
      noCatalogue:
        "商品とカテゴリはファイルで JetStok に送られません。商品は JetStok で作成してください。在庫・価格ファイルは在庫コードで照合されます。",
      noStatus: "注文ステータスは JetStok に送れません(API なし)。JetStok で更新してください。",
      noInvoice: "請求書は JetStok に送れません(API なし)。請求書画面からダウンロードしてください。",
      location: "JetStok 在庫",
      rows: {
        missing: "{{column}} が空です",
        badNumber: "{{column}} が数値ではありません: {{value}}",
        badDate: "{{column}} が日付ではありません: {{value}}",
        notPositive: "{{column}} は 0 より大きくなければなりません",
        noColumn: "ファイルに {{column}} 列がありません",
      },
    },
    genericSql: {
      queries: {
        products: "商品",
        stock: "在庫",
        prices: "価格",
        categories: "カテゴリ",
        orderLookup: "注文検索",
        orderWrite: "注文書き込み",
      },
      unknownParam: "{{what}}クエリに不明なパラメーターがあります: @{{name}}。使用可能: {{allowed}}。",
      empty: "{{what}}クエリが空です。",
      oneStatement: "{{what}}にはSQL文を1つだけ書いてください。",
      guard: {
        refused: "{{what}}クエリで許可されていない文: {{part}}",
        char: "{{what}}クエリで許可されていない文字: {{part}}(引用符内のテキストでのみ使用可)。",
        lookalike: "{{what}}クエリに他の文字体系の似た文字で書かれた名前: {{part}}",
        unterminated: "{{what}}クエリで閉じられていない{{part}}",
        nestedComment: "{{what}}クエリの入れ子コメント: {{part}}(コメント内にコメント記号は使えません)。",
        stacked: "{{what}}にはSQL文を1つだけ書いてください(2つ目の文: {{part}})。",
        shape:
          "{{what}}クエリはSELECT、またはSELECTのみのWITHである必要があります。許可されない箇所: {{part}}",
        linkedServer: "{{what}}クエリで別サーバーに届く名前: {{part}}",
        procedure: "{{what}}クエリで許可されていないプロシージャ呼び出し: {{part}}",
        parseAt: '{{what}}クエリを読み取れませんでした: {{line}}行{{column}}列の"{{found}}"は想定外です。',
      },
      parse: "{{what}}クエリを読み取れませんでした: {{detail}}",
      selectOnly: "{{what}}クエリはSELECTのみ使用できます(データを変更する文は実行されません)。",
      writeKind:
        "注文書き込みはストアドプロシージャ呼び出し(EXECUTE PROCEDURE / EXEC)または単一のINSERTである必要があります。",
      insertParamsOnly: "注文INSERTテンプレートの値は@パラメーターのみ使用できます。",
      missingColumn: "{{what}}のマッピングで{{field}}の列が選択されていません。",
      unknownField: "{{what}}のマッピングに不明な項目があります: {{field}}。",
      badIdentifier: "{{what}}: 「{{column}}」は有効な列名ではありません(英字、数字、_)。",
      configJson: "SQL接続設定を読み取れませんでした(無効なJSON)。",
      lookupRequired:
        "注文書き込みの前に注文検索クエリ(@ref付き)を定義してください。二重書き込みを防ぐため、書き込み前に検索します。",
      badNumber: "{{field}}は1から10までの整数である必要があります。",
      columnAbsent: "クエリ結果に{{column}}列がありません({{field}}にマッピング)。",
      rowEmpty: "{{field}}が空です。",
      rowNotNumber: "{{field}}が数値ではありません: 「{{value}}」。",
      rowNotBool: "{{field}}がはい/いいえの値ではありません: 「{{value}}」。",
      rowVat: "無効な税率: {{value}}(0、1、10、20のいずれか)。",
      rowNegative: "{{field}}は負の値にできません。",
      readFromFile:
        "{{what}}をファイルから読み込みました: {{file}}（{{source}}、{{at}}、{{rows}} 行）。クエリの代わりに最後に受け付けたファイルを使います。",
      fileSource: { panel: "パネルでアップロード", agent: "監視フォルダーから" },
      filesOnly: "{{system}}: クエリ未定義。商品・在庫・価格はアップロードされたファイルから読みます。",
      ordersFile:
        "注文をファイルに書き出しました: {{file}}（{{count}} 件）。パネルからダウンロードできます。",
      noTransport:
        "ローカル接続ツール経由でデータベースに接続できません。ツールをペアリングし、データベースのエイリアスを入力してください。",
      queryFailed: "{{what}}クエリがデータベースでエラーになりました: {{detail}}",
      notConfigured: "{{what}}クエリが定義されていません。「SQLで接続」セクションで追加してください。",
      tooManyRows: "{{what}}クエリが{{cap}}行を超えました。キー列を設定してページごとに読み取ってください。",
      connected: "{{system}}のデータベースは設定済みマッピングで読み取られます。",
      orderNotFound:
        "注文{{orderNo}}は書き込まれましたが検索クエリで見つかりません。検索クエリを確認してください。二重書き込みを防ぐため再送信していません。",
    },
    einvoiceNotProductSource:
      "この接続は電子請求書サービスであり、商品ソースではありません。商品・在庫・価格・注文は読み取られず、e-Fatura / e-Arşiv 請求書の送信とステータス照会のみに使われます。商品には ERP を別途接続してください。",
    mikroMethodMissing:
      "お使いの Mikro サーバー（{{version}}）は {{method}} メソッドを提供していません。在庫・価格・カテゴリ・注文の読み取りはこのメソッドに依存します。Mikro Jump V17 にアップグレードするか、Mikro 販売店に API サービスで {{method}} を有効にしてもらってから、接続をもう一度テストしてください。",
    mikroVatRateMissing:
      "{{rate}}% の付加価値税率が Mikro の税テーブル（VergiListesiV2）にありません。注文 {{orderNo}} は Mikro に書き込まれませんでした。Mikro でこの税率を定義するか、商品の税率を修正してください。注文は次回の実行で再試行されます。",
    mikroVatPointerUnknown:
      "一部の Mikro 在庫カードが税テーブルにない税項目（{{pointer}}）を参照しています: {{skus}}。Mikro でこれらのカードの小売税フィールドを修正してください。修正されるまでこれらの商品は転送されません。",
    mikroOrderNotFound:
      "注文 {{orderNo}} は Mikro に送信されましたが、伝票番号で再度見つけることができませんでした。Mikro でこの伝票番号の注文を確認してください。二重に書き込まれないよう、再送信はしていません。",
    d365VatGroupUnknown:
      "D365 の製品 {{sku}}: 品目売上税グループ「{{group}}」の VAT 税率が対応表にありません。接続設定の「品目売上税グループ」にこのグループと税率を追加してください。追加されるまでこの製品は転送されません。",
    d365VariantUnknown:
      "D365 の在庫行 {{key}} はリリース済みの製品バリアントに属していません。D365 でこのディメンションの組み合わせのバリアントをリリースしてください。それまで在庫は転送されません。",
    d365ItemsUnknown:
      "D365 にリリース済みの製品またはバリアントが見つかりません: {{skus}}。会社で製品をリリースするか、注文明細の在庫コードを修正してください。注文は書き込まれていません。",
    d365VatGroupsMalformed:
      "品目売上税グループの対応表を読み取れません:「{{entry}}」。形式は グループ=税率;グループ=税率 です（例: KDV20=20;KDV10=10）。",
    entegraWriteUnsupported:
      "Entegra 接続は読み取り専用です。製品、在庫、価格、カテゴリは Entegra から読み取られます。Entegra に注文や顧客を書き込む検証済みの方法がないため、注文は Entegra に転送されません。注文を転送するには、注文を受け付ける ERP を接続してください。",
    shopierOrderWriteUnsupported:
      "ERP として接続した Shopier は、製品・在庫・価格の取得元です。Shopier で受けた注文は既に Shopier に記録されています。他のショップの注文や顧客を Shopier に書き込むことはできず、請求書も Shopier から読み取りません（Shopier API にこれらの操作はありません）。",
    shopierAuthMissing:
      "Shopier 接続には個人アクセストークン (PAT)、または OAuth アプリの client_id・client_secret・リフレッシュトークンが必要です。",
    shopierVatRateInvalid:
      "Shopier 接続の VAT 税率「{{rate}}」は無効です。0、1、10、20 のいずれかを入力してください。修正されるまで製品は転送されません。",
    n11ListingUnsupported:
      "n11 への商品出品はチャネルの商品出品で行います。チャネルのカテゴリ対応付けで ERP のカテゴリを n11 のカテゴリに対応付けてください。商品の個別書き込みと n11 へのカテゴリ追加はできません。",
    n11ShipmentTemplateMissing:
      "n11 に商品を出品するには、接続設定に n11 セラーオフィスの配送テンプレート名を入力してください。n11 はすべての商品を配送テンプレート付きで出品します。",
    n11InvoiceLinkUnsupported:
      "n11 は請求書リンクを旧 SOAP サービス（SellerInvoiceService）でのみ受け付けます。この接続は請求書を n11 に送信しません。n11 セラーオフィスでアップロードしてください。",
    n11TrackingNumberIsN11s:
      "n11 では配送追跡番号は n11 が発行します（キャンペーンコード）。注文とともに読み込まれ、n11 には送信されません。",
    lucaKozaOrderUnsupported:
      "LucaKoza には販売注文を作成するサービスがないため、この接続では注文・顧客カード・請求書を LucaKoza に転送しません。LucaKoza からは在庫カード、倉庫別数量、価格、カテゴリを読み取ります。",
    lucaKozaBranchChoice:
      "LucaKoza ユーザーには複数の会社/支店があります。接続設定の「会社/支店 ID」欄にいずれかを入力してください: {{names}}",
    amazonListingUnknown:
      "Amazon.com.tr に SKU {{sku}} の出品がありません。Seller Central で商品を作成するか、在庫コードを Amazon の SKU と同じにしてください。それまで在庫と価格は送信されません。",
    amazonFeedRefused: "Amazon は {{sku}} に送信した値を拒否しました: {{reason}}",
    amazonFeedPending: "Amazon のフィードはまだ処理されていません ({{sku}})。値は次回の実行で再送されます。",
    amazonTrackingRequired:
      "Amazon の注文ステータスは Amazon が設定します。出荷を確定するには追跡番号を入力してください。",
    amazonListingUnsupported:
      "商品は 1 件ずつ Amazon に書き込まれず、商品タイプも追加されません。チャネルのカテゴリ対応付けで ERP カテゴリを Amazon の商品タイプ・ブランド・属性に対応付けてください。商品転送ジョブが Amazon に商品を作成し、在庫と価格はチャネルのジョブで連携されます。",
    amazonInvoiceUnsupported:
      "Amazon Türkiye の注文の請求書は Seller Central でアップロードします。Amazon の API にはトルコ向けに請求書リンクを送る手段がありません。",
  },
  failure: {
    someSystem: "ERP またはショップ",
    network:
      "{{system}} に接続できませんでした。接続設定を確認し、「接続をテスト」でもう一度お試しください。",
    timeout:
      "{{system}} が時間内に応答しませんでした。タスクは次回の実行で再試行されます。問題が続く場合は、システムが稼働しているか、接続設定が正しいかを確認してください。",
    serverError:
      "{{system}} 側でエラーが報告されました。タスクは次回の実行で再試行されます。問題が続く場合は、システムの提供元にお問い合わせください。",
    rateLimited:
      "{{system}} はリクエストが多すぎるため、一時的にリクエストを拒否しました。タスクは次回の実行で中断したところから続行します。お客様の操作は不要です。",
    lock: "{{system}} でレコードが別の処理によってロックされていました。タスクは次回の実行で再試行されます。",
    blocked:
      "{{system}} がアクセスを一時的にブロックしました。しばらく待ってから、もう一度お試しください。問題が続く場合は、システムの提供元にお問い合わせください。",
    unavailable:
      "{{system}} は現在利用できません（メンテナンスまたは高負荷）。タスクは次回の実行で再試行されます。",
    auth: "{{system}} が認証情報を受け付けませんでした。接続設定のユーザー、パスワード、キーを確認し、「接続をテスト」でもう一度お試しください。",
    validation:
      "{{system}} がこのレコードを受け付けませんでした。レコードの情報（名前、価格、バーコード、税率など）を修正してから、「失敗したタスク」画面で再試行してください。",
    notFound:
      "このレコードは {{system}} に見つかりませんでした。両方のシステムに存在することを確認してから、「失敗したタスク」画面で再試行してください。",
    unknownItem:
      "このレコードが使用する定義（在庫カード、倉庫、取引先アカウントなど）が {{system}} に見つかりませんでした。定義を作成するか対応付けを修正してから、「失敗したタスク」画面で再試行してください。",
    conflict:
      "{{system}} は、既存のレコードと競合するため、このレコードを受け付けませんでした。レコードを確認してから、「失敗したタスク」画面で再試行してください。",
    unsupported: "{{system}} はこの操作に対応していません。サポートチケットを作成できます。",
    jobUnsupported:
      "{{system}} はこのジョブを実行できません: {{why}} ジョブは実行されませんでした。ジョブ画面で無効にできます。",
    badResponse:
      "{{system}} から解釈できない応答がありました。タスクは次回の実行で再試行されます。問題が続く場合は、サポートチケットを作成してください。",
    config:
      "{{system}} の接続情報が不足しているか、誤っています。接続設定を確認し、「接続をテスト」でもう一度お試しください。",
    database:
      "パネルのデータベースにレコードを保存する際に問題が発生しました。タスクは次回の実行で再試行されます。問題が続く場合は、サポートチケットを作成してください。",
    unexpected:
      "予期しない問題により、タスクを完了できませんでした。次回の実行で再試行されます。問題が続く場合は、サポートチケットを作成してください。",
    systemSaid: "{{text}} システムの応答:「{{said}}」",
    bindingConflict:
      "{{key}} は転送されませんでした。同じショップ商品が ERP コード {{heldBy}} に紐付けられています。1 つのショップ商品は 1 つの ERP 商品にしか対応付けできません。「ERP 対応付け」画面で対応付けを修正してから、「失敗したタスク」画面で再試行してください。",
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
    fileImportDeleted: "アップロードしたファイルを削除しました: {{detail}}",
    failedTasksRetried: "失敗したタスク {{detail}} 件を再試行しました。",
    ticketCreated: "サポートチケットを作成しました: {{detail}}",
    ticketReplied: "サポートチケットに返信しました: {{detail}}",
    ticketClosed: "サポートチケットをクローズしました: {{detail}}",
    profileUpdated: "プロフィール情報を更新しました。",
    companyUpdated: "会社情報を更新しました。",
    passwordChanged: "パスワードを変更しました。",
    erpMatchingChanged: "ERP の対応付けを変更しました（{{detail}}）。",
    retentionChanged: "記録の保存期間を変更しました（{{detail}}）。",
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
    connectionNotSaved: "接続設定はまだ保存されていません。接続設定に情報を入力して、テストしてください。",
    connectionRunOk: "{{date}} の最後のタスク実行は、このシステムに問題なく接続できました。",
    connectionRunFailed: "{{date}} の最後のタスク実行は、このシステムに接続できませんでした。{{reason}}",
  },
  connectionSettings: {
    supportEnded:
      "{{system}}（{{version}}）のメーカーサポートは {{date}} に終了しました。セキュリティ修正や不具合修正は公開されなくなりました。接続は引き続き動作しますが、サポート対象のバージョンへの移行を計画してください。",
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
      "{{system}} に接続できませんでした。インターネットからアクセスできるアドレスを入力してください。当社のサーバーはローカルまたはプライベートネットワークのアドレスには接続しません。社内ネットワークのシステムは、現地で動作するエージェントを通じて接続します。",
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
    systemRequestSubject: "{{system}} 接続のリクエスト",
    systemRequestBody:
      "{{system}} 用のコネクタはまだ準備できていません。登録時にこのシステムを選択されたため、このリクエストを自動で作成しました。担当チームからご連絡し、接続を一緒に設定します（必要に応じてローカル接続エージェントまたは SQL / ファイルのマッピングを使用）。それまでは、設定 → API 接続設定の「テストシステムに接続」で製品をお試しいただけます。",
    mailNewSubject: "新しいチケット #{{id}}: {{subject}}",
    mailNewBody:
      "{{company}} の {{name}} が新しいチケットを作成しました。\n\nカテゴリ: {{category}}\n件名: {{subject}}\n\n{{message}}\n\nサポートコンソール: {{link}}",
  },
  partnerInstall: {
    logoCompanyName: "Logo Is Basi の会社 {{tenant}}",
    causes: {
      partner_not_configured:
        "{{system}} アプリの情報（{{missing}}）がサーバーに設定されていません。管理者に環境変数として設定し（README の設定表）、サーバーを再起動するよう依頼してください。",
      partner_unavailable:
        "{{system}} との連携はまだ準備中です（近日公開）。当面はパネルにある他のストアシステムを接続できます。",
      store_missing:
        "リンクに有効な {{system}} ストアのアドレスがありません。{{system}} 管理画面のアプリページからインストールをやり直してください。",
      state_mismatch:
        "このインストールはこのブラウザーで開始されていないか、15 分の期限が切れました。同じブラウザーで {{system}} からやり直してください。",
      callback_invalid:
        "{{system}} からの応答の署名を確認できませんでした。リンクが改ざんされているか古い可能性があります。{{system}} からやり直してください。",
      code_refused:
        "{{system}} が承認コードを受け付けませんでした（1 回限りで有効期間が短いコードです）。やり直してください。繰り返す場合は管理者がアプリのクライアント ID とシークレットを確認してください。",
      store_unreachable: "{{system}} ストアに現在接続できません。数分後にもう一度お試しください。",
    },
  },
  webhooks: {
    tooManyDeliveries: "通知が多すぎます。注文はまもなく確認されます。",
    badSignature: "通知の署名を検証できませんでした。",
    noShopConnection: "先にショップ接続を保存してください。",
    unsupported: "このショップシステムはWebhookに対応していません。注文は5分ごとに確認されます。",
    noSecret: "通知を検証できるよう、ショップ接続設定にアプリのシークレットキーを入力してください。",
    registered: "Webhookを登録しました。",
    registerFailed: "Webhookを登録できませんでした。注文は引き続き5分ごとに確認されます。",
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
      "このショップ商品は、すでに別の ERP 在庫コードに紐付けられています。1 つのショップ商品は 1 つの ERP 商品にしか対応付けできません。別のショップ商品を選択してください。",
    bindingTakenRow:
      "ショップ商品 {{shopSku}} は、すでに ERP コード {{heldBy}} に紐付けられています。1 つのショップ商品は 1 つの ERP 商品にしか対応付けできません。",
  },
  einvoices: {
    sellerIncomplete:
      "会社設定に電子請求書に必要な情報（税番号、税務署、住所）が不足しています。設定 › 会社 で入力してから再試行してください。",
    title: "請求書",
    notFound: "請求書が見つかりません。",
    noProvider:
      "この会社には電子請求書サービスが接続されていません。設定 › API 接続 の「電子請求書サービス」で Uyumsoft、Trendyol e-Faturam または LucaPortal の接続を追加してください。",
    cancelNotEArchive:
      "取り消せるのは e-アーカイブ請求書のみです。e-請求書は購入者が拒否するか、返品請求書で相殺する必要があります。",
    cancelTooLate:
      "取消期間（e-Arşiv 請求書の発行から 8 日）を過ぎています。返品は買い手の返品請求書または経費伝票で記録します。",
    cancelState: "この請求書は現在の状態では取り消せません。",
    linkInvalid: "リンクが無効か期限切れです。ショップに新しいリンクを依頼してください。",
    pdfUnavailable: "現在、電子請求書サービスから請求書の PDF を取得できません。数分後に再試行してください。",
    colNumber: "請求書番号",
    colOrder: "注文",
    colBuyer: "購入者",
    colTotal: "金額",
    colType: "種類",
    colStatus: "GİB ステータス",
    colDate: "日付",
    pdf: "PDF",
    cancel: "取消",
    cancelReason: "取消理由",
    from: "開始日",
    to: "終了日",
    status: "ステータス",
    all: "すべて",
    empty: "この条件に一致する請求書はありません。",
    run: "今すぐ請求",
    runDone: "{{prepared}} 件の請求書を準備し、{{sent}} 件を送信しました。",
    typeEArchive: "e-アーカイブ",
    typeEInvoice: "e-請求書",
    st_prepared: "準備済み",
    st_draft: "下書き（承認待ち）",
    st_queued: "待機中",
    st_sent: "GİB へ送信済み",
    st_approved: "承認済み",
    st_rejected: "拒否",
    st_cancelled: "取消済み",
    st_error: "エラー",
    st_generated: "作成済み（ポータルにアップロード）",
    kind_SATIS: "販売",
    kind_IADE: "返品",
    colKind: "請求書種別",
    returnOf: "返品元: {{number}}",
    exportTitle: "エクスポート",
    exportHint:
      "選択した期間（日付未選択なら今日）の請求書を Excel 一覧または UBL-TR XML ファイル（zip）でダウンロードします。API のないポータル（LucaPortal）にはこれらのファイルをアップロードしてください。",
    exportXlsx: "Excel をダウンロード",
    exportUbl: "UBL (zip) をダウンロード",
    exportRangeInvalid: "開始日は終了日より後にできません。期間は最大 366 日です。",
    export_sheet: "請求書",
    export_number: "請求書番号",
    export_ettn: "ETTN",
    export_date: "日付",
    export_type: "種別",
    export_profile: "シナリオ",
    export_returnOf: "返品元請求書",
    export_orderNo: "注文番号",
    export_buyer: "購入者",
    export_buyerId: "税番号",
    export_net: "課税標準額",
    export_vat: "付加価値税",
    export_total: "合計",
    export_currency: "通貨",
    export_state: "状態",
    why_rejected:
      "購入者が請求書を拒否しました。注文を確認し、必要に応じて修正した請求書を発行してください。",
    why_error:
      "電子請求書サービスが請求書を受け付けませんでした。エラー内容に従って会社設定または注文情報を修正してください。自動では再送されないため、サポートに連絡してください。",
    why_prepared:
      "番号は確保済みで送信中です。応答がない場合は ETTN で照会し、同じ注文に 2 通目の請求書は発行されません。",
    documentNotOut:
      "この請求書はまだ電子請求書サービスに届いていない（または拒否された）ため、表示する文書がありません。",
    exportEmpty: "選択した期間にエクスポートする請求書はありません。別の期間を選んでください。",
    rateSaved: "為替レートを保存しました。",
    rateCurrencyInvalid:
      "通貨は 3 文字の ISO コードで入力してください（例: USD、EUR）。TRY にレートは不要です。",
    rateInvalid: "レートはゼロより大きい数値で入力してください（1 単位あたりの TRY）。",
    returnCancelNote: "注文が返品 / キャンセルされました",
    waitingRate:
      "外貨建ての注文 {{count}} 件がレート待ちです（{{currencies}}）。請求書画面の為替レート欄でレートを入力してください。次回の実行で請求書が発行されます。",
    waitingVat:
      "{{count}} 件の注文が税率待ちです：ERPにSKU {{skus}} の税率がありません（販売チャネルは税率を含めません）。ERPで在庫カードを定義してください。次回の実行で請求書が発行されます。",
    waitingData:
      "{{count}} 件の注文が e-Arşiv を待っています: {{reasons}}。不足を補ってください。次回の実行で請求書が発行されます。",
    ratesTitle: "為替レート",
    ratesHint:
      "独自のレートがない外貨建て注文は、請求日以前に入力された最新のレートで請求されます。レートを推測することはありません。レートがなければ請求書は待機します。",
    rateCurrency: "通貨",
    rateDate: "レートの日付",
    rateValue: "レート（1 単位 = TRY）",
    rateAdd: "レートを保存",
    rateDelete: "削除",
    ratesEmpty: "まだレートが入力されていません。",
    waitingRateAlert:
      "{{currency}} のレートがありません: {{orders}} 件の注文が請求待ちです。下で {{currency}} のレートを入力してください。次回の実行で請求書が発行されます。",
    colRate: "レート",
    rateFrom_order: "注文のレート",
    rateFrom_merchant: "入力したレート",
    returnPart: "一部返品：{{lines}} — {{amount}}",
    return_cancel: "返品: e-Arşiv の取消",
    return_iade: "返品: 買い手が返品請求書を発行",
    return_none: "返品: 経費伝票",
    st_delivered: "ERP の請求書をショップに転送済み",
    sourceErp: "ERP の請求書",
    trackingNumber: "追跡番号",
    carrier: "配送業者",
    shipmentSave: "保存",
    trackingSent: "マーケットプレイスに送信済み",
    trackingWaiting: "請求書リンクの後にマーケットプレイスへ送信されます",
    count: "この期間の請求書 {{total}} 件",
    countSplit: "（電子請求書サービス: {{service}}、ERP: {{erp}}）",
    route_service: "ウェブ注文の請求書は電子請求書サービス経由で発行されます。",
    route_erpService: "請求書は ERP として接続された電子請求書サービス経由で発行されます。",
    route_erp:
      "請求書は ERP が発行し、パネルが ERP の請求書をショップの注文に転送します。ERP が電子請求書を発行しない場合は電子請求書サービスを追加してください。",
    addService: "電子請求書サービスを追加",
    view: "表示",
    customerLink: "顧客用リンク",
    linkCopied: "顧客用リンクをコピーしました。",
    pdfDownload: "PDF でダウンロード",
    returnWhy: {
      cancelWithinPeriod:
        "e-Arşiv 請求書は 8 日間の取消期間内でした。GİB の規則に従い、電子請求書サービスで取り消されました。",
      buyerIssuesIade:
        "買い手は e-Fatura 利用者です。返品請求書（TEMELFATURA）は買い手が発行してあなたに送ります。あなたが発行する必要はありません。",
      companyBuyerIssues:
        "買い手は法人です。返品請求書は買い手が発行します。あなたが発行する必要はありません。",
      partialConsumer:
        "消費者による一部返品：e-Arşivは全体でしか取り消せないため取り消していません。返品された明細はgider pusulasıで記録してください。",
      consumerAfterPeriod:
        "8 日間の取消期間を過ぎた消費者の返品です。消費者は請求書を発行しないため、経費伝票（gider pusulası）で返品を記録してください。",
      cancelRefused:
        "電子請求書サービスが取消を受け付けませんでした。サービスのポータルで請求書の状態を確認してください。",
      noApi:
        "ポータルに API がありません。8 日以内にポータル（LucaPortal）で e-Arşiv 請求書を取り消してください。",
    },
    settings: "請求書設定",
    series: "請求書シリーズ",
    draft: "下書きとして送信（サービスのポータルで承認）",
    invoiceWhen: "請求する注文",
    when_paid: "支払済み",
    when_shipped: "発送済み",
    when_all: "すべて",
    save: "保存",
    saved: "保存しました。",
    seriesInvalid: "シリーズは英数字 3 文字です（例: WEB）。",
  },
  salesExport: {
    rangeInvalid: "開始日を終了日より後にすることはできません。日付を修正して、もう一度お試しください。",
    sheet: "売上レポート",
    orderNo: "注文番号",
    date: "日付",
    customer: "顧客",
    state: "ステータス",
    amount: "金額",
    currency: "通貨",
    total: "合計",
    received: "受信済み",
    mapped: "対応付け済み",
    sent: "ERP に送信済み",
    confirmed: "確認済み",
    failed: "失敗",
    needs_review: "確認待ち",
  },
  einvoice: {
    doc: {
      return: {
        cancelWithinPeriod:
          "e-Arşiv 請求書は 8 日間の取消期間内です: 請求書を取り消し、返品請求書は発行しません。",
        buyerIssuesIade:
          "買い手は e-Fatura 利用者です: 返品請求書 (TEMELFATURA) は買い手が発行します。パネルは発行しません。",
        companyBuyerIssues:
          "買い手は会社です: 返品請求書は買い手が発行します (紙または e-Arşiv)。パネルは発行しません。",
        partialConsumer:
          "消費者による一部返品：e-Arşivは全体でしか取り消せません。返品された明細はgider pusulasıで記録してください。",
        consumerAfterPeriod:
          "取消期間 (8 日) が過ぎ、買い手は請求書を発行しない消費者です: 返品は経費伝票 (gider pusulası) で記録してください。",
      },
    },
  },
  retention: {
    daysInvalid: "日数は整数で入力してください。",
    daysTooFew: "期間は欄の下に示す最小値より短くできません。",
    daysTooMany: "期間は欄の下に示す最大値より長くできません。",
    saved: "保存期間を保存しました。期限を過ぎた記録は今夜削除されます。",
  },
  // The KVKK export is a record under Turkish law, written in Turkish whatever the interface language.
  privacyExport: tr.privacyExport,
  privacy: {
    deletionRequested:
      "アカウント削除のリクエストを受け付けました。アカウントとそのすべてのデータは 30 日後に完全に削除されます。それまでは「プライバシーと KVKK」ページでリクエストを取り消せます。",
    deletionCancelled: "アカウント削除のリクエストを取り消しました。アカウントとデータは保持されます。",
    alreadyPending:
      "このアカウントには、すでに保留中の削除リクエストがあります。「プライバシーと KVKK」ページで日付を確認するか、リクエストを取り消してください。",
    passwordIncorrect:
      "パスワードを確認できませんでした。削除リクエストを確定するには、アカウントの現在のパスワードを入力してください。",
    notPending: "この削除リクエストはもう取り消せません。すでに取り消されたか、完了しています。",
    confirmRequired: "続行するには、アカウントとデータが削除されることを確認してください。",
    mailRequestedSubject: "アカウント削除のリクエストを受け付けました",
    mailRequestedBody:
      "{{name}} 様\n\n{{company}} アカウントの削除リクエストを受け付けました。アカウント、接続、接続パスワード、個人データは {{date}} に完全に削除されます。\n\nそれまでにデータのコピーをダウンロードできます。このリクエストに心当たりがない場合や取りやめる場合は、この日付までに「プライバシーと KVKK」ページで取り消してください: {{link}}",
    mailCancelledSubject: "アカウント削除のリクエストを取り消しました",
    mailCancelledBody:
      "{{name}} 様\n\n{{company}} アカウントの削除リクエストは取り消されました。アカウントとデータは保持されます。これ以上の操作は必要ありません。\n\nパネル: {{link}}",
  },
  liveUpdates: {
    tooManyPanels:
      "この会社のパネルタブが多数開かれ、ライブ更新を受信しています。使用していないタブを閉じてください。このタブは数秒後に再接続します。",
  },
  connectionCheck: {
    status: {
      ok: "互換",
      drift: "非互換",
      untried: "未実行",
    },
    operation: {
      products: "商品",
      stock: "在庫数",
      prices: "価格",
      priceGroups: "価格グループ",
      categories: "カテゴリ",
      stockLocations: "倉庫",
      orders: "注文",
      orderStatuses: "注文ステータス",
      priceLists: "価格リスト",
      shopStockLocations: "ショップの在庫拠点",
      shopCategories: "ショップのカテゴリ",
    },
    expect: {
      code: "空でないコード",
      name: "空でない名前",
      text: "テキスト",
      number: "数値",
      nonNegative: "0 以上の数値",
      boolean: "はい/いいえの値",
      date: "日付",
      currency: "3 文字の通貨コード（TRY など）",
      list: "リスト",
      textList: "テキストのリスト",
    },
    got: {
      missing: "項目がありませんでした",
      empty: "空でした",
      text: "テキストでした",
      number: "数値でした",
      invalidNumber: "無効な数値でした",
      boolean: "はい/いいえでした",
      list: "リストでした",
      object: "オブジェクトでした",
    },
    drift:
      "{{system}} の応答の項目「{{field}}」が想定と異なります：{{expect}} を想定していましたが、{{got}}。動作しないもの：{{jobs}}（{{field}} 項目）。",
    unreadable: "{{system}} の応答を読み取れませんでした：既知の形式と異なります。動作しないもの：{{jobs}}。",
    rawRule: "{{system}} の応答が既知の形式と異なります。動作しないもの：{{jobs}}。",
    rule: {
      diaSelectedColumns:
        "{{system}} の一覧応答の行に、要求した列の一部（品目コードや名称など）がありません。動作しないもの：{{jobs}}。",
      nebimProcedureColumns:
        "{{system}} のプロシージャが返す行に、接続フォームで指定した列の一部（品目コードや税率など）がありません。動作しないもの：{{jobs}}。",
    },
    untried: {
      budget:
        "検証は最大 {{planned}} 回の呼び出しと予告しました。この読み取りは収まらないため、クレジット/クォータを守るために実行しませんでした。",
      auth: "システムがログインを拒否しました。接続情報を確認して再検証してください。",
      network:
        "システムに接続できませんでした。アドレス、ネットワーク、（使用している場合は）ローカルエージェントを確認して再検証してください。",
      rate_limited: "システムがリクエスト上限に達しました。数分後に再検証してください。",
      unsupported:
        "このシステムはこの読み取りを提供していません。これに依存するジョブはこのシステムでは動作しません。",
      other: "読み取りを完了できませんでした（{{reason}}）。数分後に再検証してください。",
      notConnected: "この側の接続が保存されていません。先に接続を保存してください。",
    },
    none: "この側で読み取りを必要とする有効なジョブはありません。",
    firstSyncHeld:
      "初回転送を保留しました：接続検証で {{operations}} が非互換でした。接続設定で詳細を確認し、「それでも続行」で開始できます。",
    checked: "接続を検証しました。",
    proceeded: "差異があっても初回転送を開始できます。非互換の項目は転送で失敗する可能性があります。",
    supportMailSubject: "接続検証：{{system}} {{operation}} の応答が {{companies}} 社で異なります",
    supportMailBody:
      "ルール：{{rule}}\n項目：{{field}}\n初回検出：{{firstSeen}}\n企業数：{{companies}}\nベンダーの変更、または判定側の誤りの可能性があります。該当項目：{{verified}}\nコンソール：{{link}}",
  },
  channels: {
    added: "販売チャネル {{name}} を保存しました。",
    addedJobsReady: "販売チャネル {{name}} を保存しました。在庫・価格・注文のジョブが準備できました。",
    removed: "販売チャネル {{name}} を削除しました。",
    unknownSystem: "このマーケットプレイスへの接続はまだサポートされていません。",
    notFound: "販売チャネルが見つかりません。",
    settingsSaved: "販売チャネルの設定を保存しました。次回の実行から反映されます。",
    shop: "ショップ",
    all: "すべてのチャネル",
  },
  listing: {
    notSupportedChannel:
      "この接続ではこのマーケットプレイスへの商品出品は利用できないため、カテゴリを対応付けられません。",
    mappingSaved: "カテゴリ {{category}} を {{target}} に対応付けました。",
    mappingRemoved: "カテゴリの対応付けを削除しました。",
    notSupported: "この接続では {{name}} への商品出品は利用できないため、カテゴリを対応付けられません。",
    unknownCategory:
      "このカテゴリはマーケットプレイスのカテゴリ一覧にありません（または下位カテゴリがあります）。最下位のカテゴリを選んでください。",
    unknownBrand: "このブランドはマーケットプレイスのブランド一覧にありません。",
    missingAttribute: "必須属性の値をマーケットプレイスの一覧から選んでください: {{name}}。",
    invalidValue: "属性 {{name}} の値をマーケットプレイスの一覧から選んでください。",
    unknownAttribute: "このカテゴリに属性 {{name}} はありません。",
    started:
      "出品を開始しました。対応付けたカテゴリのうち、マーケットプレイスにまだない商品を送信しています。",
    noMappings: "対応付けたカテゴリがありません。商品を出品するにはチャネルのカテゴリを対応付けてください。",
    noBarcode:
      "バーコードがありません。{{marketplace}} はバーコードで商品を出品します。ERP の在庫カードにバーコードを入力してください。",
    noPrice: "ERP の価格グループに価格がありません。価格のない商品は出品できません。",
    reportCreated:
      "{{count}} 件の商品を {{marketplace}} に出品しました。マーケットプレイスの承認後に販売されます。",
    reportListed: "{{count}} 件の商品はすでにマーケットプレイスにあります。",
    reportInReview: "{{count}} 件の商品をマーケットプレイスに送信し、承認待ちです。その間は再送信しません。",
    unmappedVariantValue:
      "オプション {{option}} の値「{{value}}」は属性 {{attribute}} に対応付けられていません。カテゴリ対応付けでマーケットプレイスの値を選んでください。",
    notVariantAttribute:
      "{{name}} はマーケットプレイスのバリエーション属性ではありません。固定値で対応付けてください。",
    attributeTwice:
      "属性 {{name}} が二重に対応付けられています（固定値または ERP オプション）。一方だけにしてください。",
    duplicateVariantValue: "ERP の値 {{value}} が属性 {{name}} で二重に対応付けられています。",
  },
  sandbox: {
    driftNoSandbox:
      "この訓練はテスト環境に接続した側でのみ実行できます。この側はテスト環境に接続されていません。",
    connected:
      "テスト環境に接続しました。商品連携・注文連携の画面から転送を開始できます。実際のシステムの準備ができたら、「実際のシステムに切り替える」から接続情報を入力してください。",
    connectFailed:
      "テスト環境は保存されましたが、接続テストに失敗しました。数分後に API 接続設定の「接続をテスト」でもう一度お試しください。",
  },
  agents: {
    updateWindowSaved:
      "更新時間を保存しました。エージェントは、この時間内かつ転送が実行されていないときにのみ新しいバージョンをインストールします。",
    downloadNotBuilt:
      "このサーバーではオンサイトエージェントのインストールファイルがまだ用意されていません。サーバー管理者が 'npm run build:agent' を実行すると、ここにダウンロードリンクが表示されます。",
    pairingCodeLimit:
      "この1時間に発行されたペアリングコードが多すぎます。既に取得したコードを使うか、しばらくしてから再試行してください。",
    agentLimit:
      "1社あたりペアリングできるオンサイトエージェントは最大 10 台です。使っていないエージェントのアクセスを取り消してから再試行してください。",
    pairingCodeCreated:
      "ペアリングコードを発行しました。10分以内にオンサイトエージェントで入力してください: entegrasyon-agent pair CODE --server URL",
    paired: "オンサイトエージェントのペアリングが完了しました。",
    pairingCodeInvalid:
      "ペアリングコードが無効、期限切れ、または使用済みです。パネルで新しいコードを取得して再試行してください。",
    servesConnection:
      "このオンサイトエージェントがこの接続を担当するようになりました。接続のエージェントのうちオンラインのものが呼び出しを処理し、1台が停止しても別のエージェントが引き継ぎます。",
    leftConnection:
      "このオンサイトエージェントはこの接続の担当から外れました。接続の他のエージェント（あれば）が引き続き処理します。",
    revoked:
      "オンサイトエージェントのアクセスを取り消しました。再接続するには新しいペアリングコードを取得してください。",
    offline:
      "オンサイトエージェントはオフラインです（最終確認: {{lastSeen}}）。実行中のコンピューターとネットワーク接続を確認してください。",
    offlineNotice:
      "「{{machine}}」のローカルエージェントが10分以上オフラインです（最終確認: {{lastSeen}}）。予定された転送が待機しています。実行中のコンピューターとネットワーク接続を確認してください。",
    backOnline: "「{{machine}}」のローカルエージェントがオンラインに戻りました。待機中の転送を再開します。",
    cli: {
      askServer: "パネルのアドレス (例: https://panel.example.jp): ",
      askCode: "パネルで取得したペアリングコード: ",
      stateOnline: "オンライン",
      stateOffline: "オフライン",
      stateConnecting: "接続中",
      stateRefused: "拒否",
      stateStopped: "停止",
      serviceInstalled:
        "サービスをインストールして開始しました ({{name}})。コンピューターの起動時に開始し、停止すると再起動されます。状態: entegrasyon-agent service status",
      serviceUninstalled: "サービスを削除しました ({{name}})。",
      dataKept:
        "ペアリング、設定、ログは後の再インストール用に {{home}} に残ります。削除するには: entegrasyon-agent service uninstall --delete-data",
      dataDeleted: "ペアリング、設定、ログを削除しました ({{home}})。",
      serviceStatus:
        "サービス: {{service}} · エージェント: {{state}} · サーバー: {{server}} · 最終接続: {{connectedAt}} · 最終エラー: {{lastError}}",
      serviceRunning: "実行中",
      serviceStopped: "停止",
      serviceMissing: "未インストール",
      serviceFailed: "サービス操作に失敗しました: {{reason}}",
      serviceNeedsAdmin:
        "管理者権限が必要です。Windows では「管理者として実行」でコマンドプロンプトを開き、Linux では sudo で実行してください。",
      serviceUsage:
        "使い方:\n  entegrasyon-agent service install [--code コード --server アドレス] [--proxy アドレス]\n  entegrasyon-agent service status\n  entegrasyon-agent service uninstall [--delete-data]",
      proxyRefused:
        "プロキシ {{proxy}} が Windows（NTLM）認証を受け付けませんでした（HTTP {{status}}）。このコンピューターに保存したアカウントを確認するか（entegrasyon-agent http-auth list）、保存し直してください: entegrasyon-agent http-auth add {{proxy}} --ntlm --domain ドメイン --user ユーザー --password パスワード",
      proxyInvalid: "プロキシのアドレスが無効です: {{proxy}} (例: http://user:password@proxy:8080)",
      usage:
        "使い方:\n  entegrasyon-agent pair CODE --server URL   パネルのコードでペアリングします\n  entegrasyon-agent run                      サーバーに接続してリクエストを実行します\n  entegrasyon-agent status                   最後の状態を表示します\n  監視フォルダー: entegrasyon-agent folder add|list|remove",
      paired:
        "ペアリングしました（エージェント番号 {{agentId}}）。'entegrasyon-agent run' で起動してください。",
      dbSaved:
        "データベース '{{alias}}' を保存しました（{{dialect}}、{{host}}:{{database}}）。この名前をパネルに入力してください。",
      dbRemoved: "データベース '{{alias}}' を削除しました。",
      dbNone: "保存されたデータベースはありません。",
      dbLine: "{{alias}}: {{dialect}} {{host}}:{{database}}（ユーザー {{user}}）",
      folderUsage:
        "使い方:\n  entegrasyon-agent folder add フォルダー --kind products|stock|prices [--outbox フォルダー]\n  entegrasyon-agent folder list\n  entegrasyon-agent folder remove フォルダー\n処理済みファイルは islenen/、拒否されたファイルは hatali/ に移動し、行ごとの結果（.sonuc.csv）を書きます。",
      folderSaved: "フォルダーを監視します: {{path}}（{{kind}}）。",
      folderRemoved: "フォルダーの監視をやめました: {{path}}。",
      folderNone: "監視中のフォルダーはありません。",
      folderLine: "{{path}}  種類: {{kind}}  注文出力先: {{outbox}}",
      dbUsage:
        "使い方:\n  entegrasyon-agent db add 名前 --dialect firebird|mssql --host ホスト [--port N] --database DB --user ユーザー --password パスワード\n  entegrasyon-agent db list\n  entegrasyon-agent db remove 名前\nパスワードはこのマシン上の、サービスアカウントだけが読めるファイルに保存されます。",
      httpAuthSaved:
        "'{{host}}' の Windows 認証を保存しました（{{scheme}}、{{domain}}\\{{user}}）。エージェントはこのアドレスへの要求をこのアカウントで行います。",
      httpAuthRemoved: "'{{host}}' の認証を削除しました。",
      httpAuthNone: "保存された認証はありません。",
      httpAuthLine: "{{host}}: {{scheme}} {{domain}}\\{{user}}",
      httpAuthUsage:
        "使い方:\n  entegrasyon-agent http-auth add ホスト[:ポート] --ntlm --domain ドメイン --user ユーザー --password パスワード\n  entegrasyon-agent http-auth list\n  entegrasyon-agent http-auth remove ホスト[:ポート]\nWindows パスワードはこのマシン上の、サービスアカウントだけが読めるファイルに保存され、パネルには送られません。",
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
