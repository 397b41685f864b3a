import type { MessageCatalog } from "./tr.ts";

export const zh: MessageCatalog = {
  validation: {
    companyNameRequired: "公司名称为必填项。",
    min3: "至少需要 3 个字符。",
    max50: "最多只能包含 50 个字符。",
    max100: "最多只能包含 100 个字符。",
    emailInvalid: "请输入有效的电子邮件地址。",
    emailRequired: "电子邮件为必填项。",
    passwordMin8: "至少需要 8 个字符。",
    passwordRequired: "密码为必填项。",
    firstNameRequired: "名字为必填项。",
    lastNameRequired: "姓氏为必填项。",
    phoneRequired: "电话为必填项。",
    phoneInvalid: "请输入有效的电话号码。",
    erpTypeRequired: "会计软件为必填项。",
    ecommerceTypeRequired: "电商软件为必填项。",
    loginEmailRequired: "电子邮件为必填项。",
    loginMin3: "请至少输入 3 个字符。",
    loginMax50: "最多可输入 50 个字符。",
    forgotEmailInvalid: "电子邮件格式不正确",
    forgotEmailRequired: "电子邮件字段为必填项。",
    resetMin8: "请至少输入 8 个字符。",
    resetMax16: "最多可输入 16 个字符。",
    newPasswordRequired: "新密码字段为必填项。",
    confirmPasswordRequired: "确认新密码字段为必填项。",
    passwordsDoNotMatch: "两次输入的新密码不一致。",
    oldPasswordRequired: "当前密码为必填项。",
    rowIdRequired: "链接代码为必填项。",
    taxNumberInvalid: "税号必须为 10 位或 11 位数字。",
    fieldInvalid: "字段无效。",
    cronInvalid: "请输入有效的 cron 表达式（例如 0 */2 * * *）。",
    dateInvalid: "请输入有效的日期。",
    selectAtLeastOne: "请至少选择一条记录。",
  },
  api: {
    validationFailed: "请更正表单中的错误。",
    invalidEmailFormat: "电子邮件格式无效。请检查电子邮件地址。",
    emailHasTurkishCharacters: "您的电子邮件地址包含土耳其语字符。请输入不含土耳其语字符的地址。",
    emailAlreadyRegistered: "使用此电子邮件地址的用户已存在。",
    registrationFailed: "注册过程中发生错误。",
    registrationNetworkFailed: "注册失败...",
    autoLoginFailed: "注册已完成，但登录失败。请联系网站管理员。",
    registered: "注册成功。",
    loginFailed: "用户名或密码错误。",
    tooManyLoginAttempts: "Too many sign-in requests from this connection. Please try again in a minute.",
    captchaRequired: "请确认您不是机器人。",
    captchaHarderRequired:
      "Too many failed sign-in attempts. For your security an extra verification is needed; press Sign in again once it is complete.",
    captchaInvalid: "验证失败。请重试。",
    unauthorized: "您的会话已过期。请重新登录。",
    forbidden: "您无权执行此操作。",
    notFound: "未找到您要查找的记录。",
    conflict: "此记录已被其他操作更改。请重试。",
    rateLimited: "请求过多。请稍候再试。",
    internalError: "发生意外错误。请稍后再试。",
    recoverMailSent: "如果您的电子邮件地址已注册，密码重置链接已发送。",
    recoverMailFailed: "发送密码重置链接时出错。",
    resetLinkInvalid: "密码重置链接无效或已过期。",
    passwordReset: "您的密码已成功更改。正在跳转到登录页面...",
    passwordUpdated: "您的密码已更新。",
    oldPasswordWrong: "您的当前密码不正确。",
    loginCodeInvalid: "登录代码无效或已过期。",
    profileUpdated: "您的信息已更新。",
    companyUpdated: "您的公司信息已更新。",
    loggedOut: "已退出登录。",
    ok: "操作成功。",
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
    statusQueued: "排队中。",
    statusRunning: "运行中。",
    statusSucceeded: "已成功完成。",
    statusPartiallyFailed: "已完成；部分记录未能传输。",
    statusFailed: "失败。",
    statusCrashed: "已中断。",
    reportSummary: "读取 {{read}} 条记录，{{changed}} 条有变更，写入 {{written}} 条，{{failed}} 条未能传输。",
    reportCalls:
      "对 ERP 进行了 {{erpRead}} 次读取和 {{erpWrite}} 次写入调用，对店铺进行了 {{shopRead}} 次读取和 {{shopWrite}} 次写入调用。",
    reportNothingChanged: "没有变更；未向任何系统发出写入调用。",
    reportResolved: "之前运行中失败的 {{count}} 条记录已在本次运行中传输。",
    reportNotInShop: "{{count}} 条记录因店铺中不存在而被跳过（请先运行商品传输）。",
    reportTransientLeft: "{{count}} 条记录因临时错误留待下次运行处理。",
    reportCreateDisabled: "店铺中缺少 {{count}} 个商品，由于设置中已关闭创建，未予创建。",
    runFailed: "{{job}} 任务失败：{{reason}}",
    runPartiallyFailed: "{{job}} 任务已完成，但有 {{count}} 条记录未能传输。",
    runRecovered: "{{job}} 任务已再次成功运行。",
    runCrashed: "{{job}} 任务已中断（执行进程已停止）。下次运行将从中断处继续。",
    runRefusedLicence: "{{job}} 未运行：您的 {{licence}} 许可证已过期。",
    alreadyRunning: "此任务已在排队或运行中。",
    noShopStockLocation: "店铺中没有库存位置。",
    noErpPriceGroup: "ERP 中没有价格组。",
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
    resetSubject: "Entegrasyon Paneli 密码重置",
    resetBody:
      "{{name}}，您好：\n\n请点击下面的链接重置密码。该链接一小时内有效，且只能使用一次。\n\n{{link}}\n\n如果这不是您本人的操作，请忽略此邮件。",
    welcomeSubject: "欢迎使用 Entegrasyon Paneli",
    welcomeBody: "{{name}}，您好：\n\n{{company}} 的账户已创建，14 天试用许可证已生效。\n\n{{link}}",
  },
  activity: {
    signIn: "已登录面板。",
    settingsSaved: "设置已保存（{{detail}}）。",
    connectionChanged: "连接信息已更改（{{detail}}）。",
    jobEnabled: "任务 {{detail}} 已启用。",
    jobDisabled: "任务 {{detail}} 已停用。",
    jobScheduleChanged: "任务 {{detail}} 的计划已更改。",
    jobRun: "任务 {{detail}} 已手动运行。",
    failedTasksDeleted: "已删除 {{detail}} 条失败任务记录。",
    failedTasksRetried: "已重试 {{detail}} 条失败任务记录。",
    ticketCreated: "已创建支持工单：{{detail}}",
    ticketReplied: "已回复支持工单：{{detail}}",
    ticketClosed: "已关闭支持工单：{{detail}}",
    profileUpdated: "个人资料已更新。",
    companyUpdated: "公司信息已更新。",
    passwordChanged: "密码已更改。",
    erpMatchingChanged: "ERP 匹配已更改（{{detail}}）。",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "您的 {{licence}} 许可证将于 {{date}} 到期（剩余 {{days}} 天）。",
    licenceExpired: "您的 {{licence}} 许可证已过期，相关任务不再运行。",
    reportNever: "{{job}} 尚未运行。",
    reportSucceeded: "{{job}} 上次运行成功，写入了 {{written}} 条记录。",
    reportFailed: "{{job}} 上次运行失败，{{failed}} 条记录未能传输。",
    reportDisabled: "{{job}} 已停用。",
    connectionUntested: "连接尚未测试。",
    connectionNotSaved:
      "The connection settings are not saved yet. Enter your details in the connection settings and test them.",
    connectionRunOk: "The last job run on {{date}} reached this system without problems.",
    connectionRunFailed: "The last job run on {{date}} could not connect to this system. {{reason}}",
  },
  connectionSettings: {
    previewNothing: "下次运行不会有任何变化。",
    previewPriceOk: "将有 {{total}} 个价格变化；没有价格降幅超过 {{limit}}% 的限制。",
    previewPriceTripped: "{{flagged}} 个商品的价格降幅将超过 {{limit}}% 的限制。请在运行前检查并确认。",
    previewStockOk: "将有 {{total}} 条库存记录变化；{{flagged}} 个商品库存将变为 0。",
    previewStockTripped: "已读取商品中 {{share}}% 的库存将变为 0（限制 {{limit}}%）。请在运行前检查并确认。",
    connectionSaved: "连接设置已保存。",
    connectionSavedJobsReady: "连接设置已保存。您的集成任务已就绪。",
    testOk: "连接成功。{{description}}",
    testAuth: "已连接到 {{system}}，但凭据未被接受。请检查密钥、用户和密码。",
    testUnreachable:
      "{{system}} could not be reached. Please enter its address on the internet; our server does not connect to local or private network addresses, systems inside your company network connect through the on-site agent.",
    testTimeout: "{{system}} 未能及时响应。请稍后重试。",
    testRateLimited: "{{system}} 因请求过多拒绝了请求。请稍候再试。",
    testUnsupported: "尚不支持连接到 {{system}}。",
    testConfig: "{{system}} 的连接信息缺失或错误。请检查表单。",
    testFailed: "{{system}} 连接测试失败。请检查信息后重试。",
    notConnected: "请先保存此系统的连接设置。",
    listBusy: "已连接的系统当前繁忙或没有响应。请几秒钟后重试。",
    listFailed: "无法从已连接的系统读取列表。请测试连接设置。",
    unsupportedSystem: "尚不支持连接到此系统。",
    fieldRequired: "此字段为必填项。",
    urlInvalid: "请输入有效的地址（http:// 或 https://）。",
    numberInvalid: "请输入有效的数字。",
    unknownField: "此系统未定义该字段。",
    unknownSetting: "未知的设置键。",
    settingsSaved: "设置已保存。更改将从下次运行开始生效。",
  },
  tickets: {
    categoryRequired: "请选择类别。",
    subjectRequired: "主题为必填项。",
    subjectMax: "主题最多 150 个字符。",
    messageRequired: "消息为必填项。",
    messageMax: "消息最多 5000 个字符。",
    attachmentTooLarge: "每个文件最大 5 MB。",
    attachmentType: "只能附加图片（PNG、JPEG、GIF、WEBP）和 PDF 文件。",
    attachmentTooMany: "最多可附加 5 个文件。",
    ticketClosed: "此工单已关闭，无法添加新消息。",
    statusInvalid: "工单只能被关闭（状态 3）。",
    created: "您的工单已创建。",
    replied: "您的消息已发送。",
    closed: "工单已关闭。",
    announcementTypeRequired: "公告类型为必填项。",
    announcementContentRequired: "公告内容为必填项。",
    announcementCreated: "公告已发布。",
    licenseUpdated: "许可证已更新。",
    notifyAnswered: "支持团队已回复您的工单 #{{id}}“{{subject}}”。",
    mailAnsweredSubject: "您的工单 #{{id}} 已有回复",
    mailAnsweredBody:
      "{{name}}，您好：\n\n我们的支持团队已回复您的工单“{{subject}}”：\n\n{{message}}\n\n回复请访问：{{link}}\n\n如无回复，工单将在 24 小时后自动关闭。",
    mailAutoClosedSubject: "您的工单 #{{id}} 已关闭",
    mailAutoClosedBody:
      "{{name}}，您好：\n\n由于支持团队回复后 24 小时内未收到您的回复，您的工单“{{subject}}”已自动关闭。\n\n如有新问题，您可以新建工单：{{link}}",
    mailNewSubject: "新工单 #{{id}}：{{subject}}",
    mailNewBody:
      "{{company}} 的 {{name}} 新建了一个工单。\n\n类别：{{category}}\n主题：{{subject}}\n\n{{message}}\n\n支持控制台：{{link}}",
  },
  erpMatching: {
    saved: "匹配已保存。",
    deleted: "匹配已删除。",
    shopSkuNotFound: "店铺中未找到具有此库存代码的商品。",
    duplicate: "此 ERP 代码或店铺代码已存在匹配。",
    rowInvalid: "该行必须包含 ERP 和店铺库存代码。",
    imported: "已接受 {{accepted}} 行，已拒绝 {{refused}} 行。",
    tooManyRows: "一个文件最多可导入 5000 行。",
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
      "Pairing code created. Enter it in the on-site agent within 10 minutes: entegrasyon-agent pair CODE --server URL",
    paired: "The on-site agent is paired.",
    pairingCodeInvalid:
      "The pairing code is invalid, expired or already used. Get a new code in the panel and try again.",
    revoked: "The on-site agent's access was revoked. Get a new pairing code to connect it again.",
    offline:
      "The on-site agent is offline (last seen: {{lastSeen}}). Check the computer it runs on and its network connection.",
    cli: {
      usage:
        "Usage:\n  entegrasyon-agent pair CODE --server URL   Pairs with the code from the panel\n  entegrasyon-agent run                      Connects to the server and carries out requests\n  entegrasyon-agent status                   Shows the last state",
      paired: "Paired (agent no {{agentId}}). Now start it with 'entegrasyon-agent run'.",
      pairFailed: "Pairing failed: {{reason}}",
      notPaired:
        "This agent is not paired yet. Get a code in the panel and run 'entegrasyon-agent pair CODE --server URL' first.",
      refused:
        "The server refused this agent's credential (access may have been revoked). Get a new code in the panel and pair again.",
      status:
        "State: {{state}} · server: {{server}} · last connected: {{connectedAt}} · last error: {{lastError}}",
      serverUnreachable:
        "The server could not be reached ({{code}}). Check the address and this computer's internet connection.",
      noStatus: "No status recorded yet: the agent has never run.",
    },
  },
};
