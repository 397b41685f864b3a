import { type MessageCatalog, tr } from "./tr.ts";

export const en: MessageCatalog = {
  validation: {
    companyNameRequired: "Company name is required.",
    min3: "Must contain at least 3 characters.",
    max50: "Must contain at most 50 characters.",
    max100: "Must contain at most 100 characters.",
    emailInvalid: "Please enter a valid e-mail address.",
    emailRequired: "E-mail is required.",
    passwordMin8: "Must contain at least 8 characters.",
    passwordRequired: "Password is required.",
    firstNameRequired: "First name is required.",
    lastNameRequired: "Last name is required.",
    phoneRequired: "Phone is required.",
    phoneInvalid: "Please enter a valid phone number.",
    erpTypeRequired: "Accounting program is required.",
    ecommerceTypeRequired: "E-commerce software is required.",
    loginEmailRequired: "E-mail is required.",
    loginMin3: "Enter at least 3 characters.",
    loginMax50: "At most 50 characters can be entered.",
    forgotEmailInvalid: "Invalid e-mail format",
    forgotEmailRequired: "E-mail is required.",
    resetMin8: "Enter at least 8 characters.",
    resetMax16: "At most 16 characters can be entered.",
    newPasswordRequired: "New password is required.",
    confirmPasswordRequired: "New password (again) is required.",
    passwordsDoNotMatch: "The new password fields do not match.",
    oldPasswordRequired: "Current password is required.",
    rowIdRequired: "Link code is required.",
    taxNumberInvalid: "Tax number must have 10 or 11 digits.",
    websiteInvalid: "Enter a valid web address (e.g. https://myshop.com).",
    fieldInvalid: "Field is not valid.",
    cronInvalid: "Enter a valid cron expression (e.g. 0 */2 * * *).",
    dateInvalid: "Enter a valid date.",
    selectAtLeastOne: "Select at least one record.",
  },
  api: {
    validationFailed: "Please correct the errors in the form.",
    invalidEmailFormat: "Invalid e-mail format. Please check the e-mail address.",
    emailHasTurkishCharacters:
      "Your e-mail address contains Turkish characters. Please enter an address without them.",
    emailAlreadyRegistered: "A user with this e-mail address already exists.",
    registrationFailed: "Registration failed.",
    registrationNetworkFailed: "Registration failed...",
    autoLoginFailed: "Registration completed but signing in failed. Please contact the site administrator.",
    registered: "Registration successful.",
    loginFailed: "User name or password is wrong.",
    tooManyRegistrations: "Too many registrations from this connection. Please try again later.",
    tooManyLoginAttempts: "Too many sign-in requests from this connection. Please try again in a minute.",
    captchaRequired: "Please confirm that you are not a robot.",
    captchaHarderRequired:
      "Too many failed sign-in attempts. For your security an extra verification is needed; press Sign in again once it is complete.",
    captchaInvalid: "Verification failed. Please try again.",
    unauthorized: "Your session has expired. Please sign in again.",
    forbidden: "You are not allowed to do this.",
    notFound: "The record you are looking for was not found.",
    conflict: "This record was changed by another action. Please try again.",
    rateLimited: "Too many requests. Please wait a moment and try again.",
    busy: "Your company has many requests in progress right now. Please try again in a few seconds.",
    internalError: "An unexpected error occurred. Please try again later.",
    recoverMailSent: "If your e-mail address is registered, a password reset link has been sent.",
    recoverMailFailed: "An error occurred while sending the password reset link.",
    resetLinkInvalid: "The password reset link is invalid or has expired.",
    passwordReset: "Your password has been changed. Redirecting to the sign-in page...",
    passwordUpdated: "Your password has been updated.",
    oldPasswordWrong: "Your current password is wrong.",
    loginCodeInvalid: "The sign-in code is invalid or has expired.",
    partnerInstallFailed: "The store installation could not be completed.",
    profileUpdated: "Your details have been updated.",
    companyUpdated: "Your company details have been updated.",
    loggedOut: "Signed out.",
    ok: "Done.",
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
    statusQueued: "Queued.",
    statusRunning: "Running.",
    statusSucceeded: "Completed successfully.",
    statusPartiallyFailed: "Completed; some records could not be moved.",
    statusFailed: "Failed.",
    statusCrashed: "Interrupted.",
    reportSummary:
      "{{read}} records read, {{changed}} changed, {{written}} written, {{failed}} could not be moved.",
    reportCalls:
      "{{erpRead}} read and {{erpWrite}} write calls to the ERP, {{shopRead}} read and {{shopWrite}} write calls to the shop.",
    reportNothingChanged: "Nothing changed; no write call was made to either system.",
    usageCredit:
      "{{system}}: {{calls}} billable calls in this run; this month: {{month}} calls ({{credits}} credits).",
    usageQuota:
      "{{system}}: {{read}} read and {{write}} write calls in this run; quota left: read {{readLeft}} / write {{writeLeft}}.",
    quotaRefused:
      "Scheduled run not started: today's share of the {{system}} monthly quota (read {{readAllowance}} / write {{writeAllowance}}) does not cover what a run needs (read {{readNeed}} / write {{writeNeed}}). Quota left: read {{readLeft}} / write {{writeLeft}}. Manual runs are still possible.",
    quotaWarning:
      "{{percent}}% of the {{system}} monthly API quota is used (read {{readLeft}} / write {{writeLeft}} left). When it runs out, transfers stop until the end of the month.",
    reportResolved: "{{count}} records that failed in earlier runs were moved in this run.",
    reportNotInShop:
      "{{count}} records were skipped because the shop does not have them (run Product Transfer first).",
    reportReturnsCancelledInErp: "{{count}} cancelled orders were removed from the ERP.",
    reportReturnsPartial:
      "{{count}} orders had some of their lines returned ({{units}} units); book those units as returns in the ERP.",
    reportReturnsKeptInErp:
      "{{count}} cancelled or returned orders stay in the ERP (invoiced, or the ERP cannot remove them); book the return in the ERP.",
    reportTransientLeft: "{{count}} records were left for the next run after a temporary error.",
    reportCreateDisabled:
      "{{count}} products are missing in the shop and were not created (creation is off in the settings).",
    reportCategoriesAdopted:
      "{{count}} categories already existed in the shop: not created again, matched to the existing ones.",
    retryUntouched:
      "Retried, but the record was not transferred in this run: it was not read from the ERP or has no counterpart in the shop. Check that it still exists in the ERP and matches a shop product; if it is no longer needed, close the task.",
    runFailed: "The {{job}} job failed: {{reason}}",
    runPartiallyFailed: "The {{job}} job completed but {{count}} records could not be moved.",
    runRecovered: "The {{job}} job ran successfully again.",
    runCrashed:
      "The {{job}} job was interrupted (its worker stopped). The next run continues where it left off.",
    runRefusedLicence: "{{job}} did not run: your {{licence}} licence has expired.",
    alreadyRunning: "This job is already queued or running.",
    noShopStockLocation:
      "The shop has no stock location. Define one in your shop's panel and run the job again.",
    vatRateMissing:
      "Order waiting: no VAT rate for SKU {{skus}} in the ERP (the sales channel gives no VAT rate on its orders; the ERP stock card's rate is used). Define the stock card with its VAT rate in the ERP; the order is transferred on the next run.",
    noErpPriceGroup:
      "The ERP has no price group. Define a sales price list in the ERP and run the job again.",
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
    jobUnsupported:
      "{{system}} cannot do this job: {{why}} The job was not run; you can switch it off on the Jobs screen.",
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
  fileExchange: {
    notFileShop:
      "This shop does not work with files: an orders file is uploaded only for shops without an API, such as JetStok.",
    unreadable: "The file could not be read: it must be Excel (.xlsx), CSV or XML with a header row.",
    tooLarge: "The file is too large: 20 MB at most.",
    notFileSystem:
      "This ERP does not work with files: files are used only by the systems with no API (configured mapping).",
    empty: "The file is empty.",
    tooManyRows:
      "A file may have at most 100,000 rows (besides the header row); split the file and upload the parts.",
    tooManyColumns: "A file may have at most 100 columns.",
    cellTooLong: "A cell may hold at most 32,767 characters.",
    unpackedTooLarge:
      "The file is too large once unpacked (100 MB at most); it may be damaged or larger than needed.",
    deleted: "The file was deleted.",
  },
  connectors: {
    jetstok: {
      card: {
        cardTitle: "JetStok connects through files",
        cardBody:
          "JetStok has no public API: the connection works through the files JetStok imports and exports as Excel. No settings needed.",
        stepStock:
          'Stock and prices: after a stock or price transfer has run, click "Download the stock and price file" here and import it in the JetStok panel as an Excel bulk update.',
        stepOrders:
          "Orders: export the orders from the JetStok panel as Excel and upload the file here; the order transfer writes each order to the ERP once (even if the same file or order is uploaded twice).",
        stockFile: "Download the stock and price file",
        noStockFile: "No stock and price file yet: run the stock or price transfer first.",
        stockFileAt: "Last updated: {{at}} ({{count}} products)",
        ordersHelp:
          "The orders file you exported from the JetStok panel (Excel or CSV, header in the first row). Each row is checked and kept; the same file is not taken twice.",
        ordersUsed:
          "The next order transfer reads this file's orders; each order is written to the ERP once.",
        ordersUpload: "Upload a JetStok orders file",
        ordersFiles: "Uploaded orders files",
      },
      connected:
        "JetStok connected through files: the stock and price file is downloaded, the orders file uploaded.",
      noCatalogue:
        "Products and categories are not sent to JetStok by file; open the products in JetStok, the stock and price file matches them by stock code.",
      noStatus: "Order statuses cannot be sent to JetStok (no API); update them in JetStok.",
      noInvoice: "Invoices cannot be sent to JetStok (no API); download them from the Invoices screen.",
      location: "JetStok stock",
      rows: {
        missing: "{{column}} is empty",
        badNumber: "{{column}} is not a number: {{value}}",
        badDate: "{{column}} is not a date: {{value}}",
        notPositive: "{{column}} must be greater than zero",
        noColumn: "The file has no {{column}} column",
      },
    },
    genericSql: {
      queries: {
        products: "Product",
        stock: "Stock",
        prices: "Price",
        categories: "Category",
        orderLookup: "Order lookup",
        orderWrite: "Order write",
      },
      unknownParam: "Unknown parameter in the {{what}} query: @{{name}}. Allowed: {{allowed}}.",
      empty: "The {{what}} query is empty.",
      oneStatement: "Write a single SQL statement for {{what}}.",
      guard: {
        refused: "Statement not allowed in the {{what}} query: {{part}}",
        char: "Character not allowed in the {{what}} query: {{part}} (only inside quoted text).",
        lookalike: "Name written with look-alike letters of another alphabet in the {{what}} query: {{part}}",
        unterminated: "Unterminated {{part}} in the {{what}} query",
        nestedComment:
          "Nested comment in the {{what}} query: {{part}} (comment marks cannot appear inside a comment).",
        stacked: "Write a single SQL statement for {{what}} (second statement: {{part}}).",
        shape: "The {{what}} query must be a SELECT or a WITH of SELECTs only; not allowed: {{part}}",
        linkedServer: "Name reaching another server in the {{what}} query: {{part}}",
        procedure: "Procedure call not allowed in the {{what}} query: {{part}}",
        parseAt:
          'The {{what}} query could not be read: "{{found}}" was not expected at line {{line}}, column {{column}}.',
      },
      parse: "The {{what}} query could not be read: {{detail}}",
      selectOnly: "The {{what}} query may only be a SELECT (statements that change data are not run).",
      writeKind: "The order write must be a stored procedure call (EXECUTE PROCEDURE / EXEC) or one INSERT.",
      insertParamsOnly: "In the order INSERT template, values may only be @parameters.",
      missingColumn: "No column chosen for {{field}} in the {{what}} mapping.",
      unknownField: "Unknown field in the {{what}} mapping: {{field}}.",
      badIdentifier: '{{what}}: "{{column}}" is not a valid column name (letters, digits and _).',
      configJson: "The SQL connection settings could not be read (invalid JSON).",
      lookupRequired:
        "Define the order lookup query (with @ref) before the order write: the order is looked up before writing so it is never written twice.",
      badNumber: "{{field}} must be a whole number between 1 and 10.",
      columnAbsent: "The query result has no {{column}} column (mapped to {{field}}).",
      rowEmpty: "{{field}} is empty.",
      rowNotNumber: '{{field}} is not a number: "{{value}}".',
      rowNotBool: '{{field}} is not a yes/no value: "{{value}}".',
      rowVat: "Invalid VAT rate: {{value}} (must be 0, 1, 10 or 20).",
      rowNegative: "{{field}} cannot be negative.",
      readFromFile:
        "{{what}} read from a file: {{file}} ({{source}}, {{at}}, {{rows}} rows); the latest accepted file is used instead of the query.",
      fileSource: { panel: "uploaded in the panel", agent: "from the watched folder" },
      filesOnly: "{{system}}: no query defined; products, stock and prices are read from the uploaded files.",
      ordersFile: "Orders written to a file: {{file}} ({{count}} orders); download it in the panel.",
      noTransport:
        "The database cannot be reached through the on-site agent: pair the agent and enter the database alias.",
      queryFailed: "The {{what}} query failed in the database: {{detail}}",
      notConfigured: 'No {{what}} query is defined; add it in the "Connect with SQL" section.',
      tooManyRows:
        "The {{what}} query returned more than {{cap}} rows; set a key column to read it page by page.",
      connected: "The {{system}} database is read through a configured mapping.",
      orderNotFound:
        "Order {{orderNo}} was written but the lookup query does not find it; check the lookup query. The order was not sent again so it is not written twice.",
    },
    einvoiceNotProductSource:
      "This connection is an e-invoice service, not a product source. Products, stock, prices and orders are not read from it; it only sends e-Fatura / e-Arşiv invoices and queries their status. Connect your ERP separately for products.",
    mikroMethodMissing:
      "Your Mikro server ({{version}}) does not offer the {{method}} method; stock, price, category and order reads depend on it. Upgrade to Mikro Jump V17 or ask your Mikro dealer to enable {{method}} in the API service, then test the connection again.",
    mikroVatRateMissing:
      "The {{rate}} % VAT rate is not in Mikro's tax table (VergiListesiV2); order {{orderNo}} was not written to Mikro. Define the rate in Mikro or correct the product's VAT rate; the order is retried in the next run.",
    mikroVatPointerUnknown:
      "Some Mikro stock cards point to a VAT entry ({{pointer}}) that is not in the tax table: {{skus}}. Correct their retail VAT field in Mikro; these products are not transferred until then.",
    mikroOrderNotFound:
      "Order {{orderNo}} was sent to Mikro but could not be found again by its document number. Check the order with this document number in Mikro; it was not sent again so that it is not written twice.",
    d365VatGroupUnknown:
      'D365 product {{sku}}: item sales tax group "{{group}}" has no VAT rate in the mapping. Add the group with its rate to "Item sales tax groups" in the connection settings; the product is not transferred until then.',
    d365VariantUnknown:
      "D365 stock row {{key}} does not belong to a released product variant. Release the variant for this dimension combination in D365; its stock is not transferred until then.",
    d365ItemsUnknown:
      "No released product or variant found in D365: {{skus}}. Release the products in the company or correct the order lines' stock codes; the order was not written.",
    d365VatGroupsMalformed:
      'The item sales tax group mapping could not be read: "{{entry}}". The format is GROUP=RATE;GROUP=RATE, e.g. KDV20=20;KDV10=10.',
    entegraWriteUnsupported:
      "The Entegra connection is read-only: products, stock, prices and categories are read from Entegra. There is no verified way to write orders and customers to Entegra, so orders are not transferred to it. Connect an ERP that accepts orders to transfer them.",
    shopierOrderWriteUnsupported:
      "Connected as the ERP, Shopier is the source of products, stock and prices. Orders placed on Shopier are already recorded there; orders and customers from other shops cannot be written to Shopier, and no invoices are read from it (the Shopier API has no such operations).",
    shopierAuthMissing:
      "The Shopier connection needs either a personal access token (PAT) or the OAuth app's client_id, client_secret and refresh token.",
    shopierVatRateInvalid:
      'The VAT rate "{{rate}}" in the Shopier connection is not valid. Enter 0, 1, 10 or 20; products are not transferred until it is corrected.',
    n11ListingUnsupported:
      "Products are opened on n11 by the channel's product listing: map your ERP categories to n11 categories in the channel's category mapping. Single product writes and adding categories to n11 are not available.",
    n11ShipmentTemplateMissing:
      "To open products on n11, enter the name of your shipment template from the n11 Seller Office in the connection settings; n11 opens every product with a shipment template.",
    n11InvoiceLinkUnsupported:
      "n11 takes invoice links only through its old SOAP service (SellerInvoiceService); this connection does not send the invoice to n11, upload it in the n11 Seller Office.",
    n11TrackingNumberIsN11s:
      "On n11 the cargo tracking number is issued by n11 (campaign code); it is read with the order and not sent to n11.",
    lucaKozaOrderUnsupported:
      "LucaKoza has no service that creates sales orders; orders, customer cards and invoices are not transferred to LucaKoza by this connection. Stock cards, depot quantities, prices and categories are read from LucaKoza.",
    lucaKozaBranchChoice:
      'The LucaKoza user has more than one company/branch; enter one in the "Company/branch id" field of the connection settings: {{names}}',
    amazonListingUnknown:
      "You have no listing with SKU {{sku}} on Amazon.com.tr. Create the product in Seller Central or make the stock code equal to the Amazon SKU; stock and price are not sent until then.",
    amazonFeedRefused: "Amazon refused the value sent for {{sku}}: {{reason}}",
    amazonFeedPending:
      "The Amazon feed has not been processed yet ({{sku}}); the value is sent again in the next run.",
    amazonTrackingRequired:
      "Amazon sets an Amazon order's status; enter a tracking number to confirm the shipment.",
    amazonListingUnsupported:
      "Products are not written to Amazon one by one and product types are not added: map your ERP category to an Amazon product type, brand and attributes in the channel's category mapping; the Product Transfer job opens the products on Amazon, stock and prices flow with the channel's jobs.",
    amazonInvoiceUnsupported:
      "Invoices of Amazon Türkiye orders are uploaded in Seller Central: Amazon's API has no way to send an invoice link for Turkey.",
  },
  mail: {
    resetSubject: "Entegrasyon Paneli password reset",
    resetBody:
      "Hello {{name}},\n\nClick the link below to reset your password. The link is valid for one hour and can be used once.\n\n{{link}}\n\nIf you did not ask for this, ignore this e-mail.",
    welcomeSubject: "Welcome to Entegrasyon Paneli",
    welcomeBody:
      "Hello {{name}},\n\nThe account of {{company}} has been created with 14-day trial licences.\n\n{{link}}",
  },
  activity: {
    signIn: "Signed in to the panel.",
    settingsSaved: "Settings saved ({{detail}}).",
    connectionChanged: "Connection details changed ({{detail}}).",
    jobEnabled: "The {{detail}} job was enabled.",
    jobDisabled: "The {{detail}} job was disabled.",
    jobScheduleChanged: "The schedule of the {{detail}} job was changed.",
    jobRun: "The {{detail}} job was run manually.",
    failedTasksDeleted: "{{detail}} failed task records were deleted.",
    fileImportDeleted: "Uploaded file deleted: {{detail}}",
    failedTasksRetried: "{{detail}} failed task records were retried.",
    ticketCreated: "Support ticket opened: {{detail}}",
    ticketReplied: "Support ticket answered: {{detail}}",
    ticketClosed: "Support ticket closed: {{detail}}",
    profileUpdated: "Profile details updated.",
    companyUpdated: "Company details updated.",
    passwordChanged: "Password changed.",
    erpMatchingChanged: "ERP matching changed ({{detail}}).",
    retentionChanged: "Record retention periods changed ({{detail}}).",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "Your {{licence}} licence expires on {{date}} ({{days}} days left).",
    licenceExpired: "Your {{licence}} licence has expired; its jobs no longer run.",
    reportNever: "{{job}} has not run yet.",
    reportSucceeded: "{{job}} succeeded in its last run; {{written}} records were written.",
    reportFailed: "{{job}} failed in its last run; {{failed}} records could not be moved.",
    reportDisabled: "{{job}} is disabled.",
    connectionUntested: "The connection has not been tested yet.",
    connectionNotSaved:
      "The connection settings are not saved yet. Enter your details in the connection settings and test them.",
    connectionRunOk: "The last job run on {{date}} reached this system without problems.",
    connectionRunFailed: "The last job run on {{date}} could not connect to this system. {{reason}}",
  },
  connectionSettings: {
    supportEnded:
      "The vendor's support for {{system}} ({{version}}) ended on {{date}}: security and bug fixes are no longer published. The connection keeps working; please plan your move to a supported version.",
    previewNothing: "Nothing would change in the next run.",
    previewPriceOk: "{{total}} prices would change; none falls by more than the {{limit}}% limit.",
    previewPriceTripped:
      "The price of {{flagged}} products would fall by more than the {{limit}}% limit. Please check and confirm before running.",
    previewStockOk: "{{total}} stock records would change; {{flagged}} products would go to 0 stock.",
    previewStockTripped:
      "{{share}}% of the items read would go to 0 stock (limit {{limit}}%). Please check and confirm before running.",
    connectionSaved: "Connection settings saved.",
    connectionSavedJobsReady: "Connection settings saved. Your integration jobs are ready.",
    testOk: "Connection successful. {{description}}",
    testAuth:
      "{{system}} was reached but the credentials were not accepted. Please check the key, user and password.",
    testUnreachable:
      "{{system}} could not be reached. Please enter its address on the internet; our server does not connect to local or private network addresses, systems inside your company network connect through the on-site agent.",
    testTimeout: "{{system}} did not answer in time. Please try again later.",
    testRateLimited:
      "{{system}} refused the request because of too many requests. Please wait a little and try again.",
    testUnsupported: "Connecting to {{system}} is not supported yet.",
    testConfig: "The {{system}} connection details are missing or wrong. Please check the form.",
    testFailed: "The {{system}} connection test failed. Please check the details and try again.",
    notConnected: "Please save this system's connection settings first.",
    listBusy: "The connected system is busy or not answering right now. Please try again in a few seconds.",
    listFailed: "The list could not be read from the connected system. Please test the connection settings.",
    unsupportedSystem: "Connecting to this system is not supported yet.",
    fieldRequired: "This field is required.",
    urlInvalid: "Please enter a valid address (http:// or https://).",
    numberInvalid: "Please enter a valid number.",
    unknownField: "This field is not defined for this system.",
    unknownSetting: "Unknown setting key.",
    settingsSaved: "Settings saved. Changes apply from the next run.",
  },
  tickets: {
    categoryRequired: "Please select a category.",
    subjectRequired: "Subject is required.",
    subjectMax: "Subject can be at most 150 characters.",
    messageRequired: "Message is required.",
    messageMax: "Message can be at most 5000 characters.",
    attachmentTooLarge: "Each file can be at most 5 MB.",
    attachmentType: "Only images (PNG, JPEG, GIF, WEBP) and PDF files can be attached.",
    attachmentTooMany: "At most 5 files can be attached.",
    ticketClosed: "This ticket is closed; no new message can be added.",
    statusInvalid: "A ticket can only be closed (status 3).",
    created: "Your ticket has been created.",
    replied: "Your message has been sent.",
    closed: "The ticket has been closed.",
    announcementTypeRequired: "Announcement type is required.",
    announcementContentRequired: "Announcement text is required.",
    announcementCreated: "The announcement has been published.",
    licenseUpdated: "The licence has been updated.",
    notifyAnswered: 'Your ticket #{{id}} "{{subject}}" was answered by the support team.',
    mailAnsweredSubject: "Your ticket #{{id}} has been answered",
    mailAnsweredBody:
      'Hello {{name}},\n\nOur support team answered your ticket "{{subject}}":\n\n{{message}}\n\nTo reply: {{link}}\n\nWithout a reply the ticket is closed automatically after 24 hours.',
    mailAutoClosedSubject: "Your ticket #{{id}} has been closed",
    mailAutoClosedBody:
      'Hello {{name}},\n\nYour ticket "{{subject}}" was closed automatically because there was no reply within 24 hours of the support team\'s answer.\n\nIf you have a new question you can open a new ticket: {{link}}',
    systemRequestSubject: "{{system}} connection request",
    systemRequestBody:
      'We do not have a ready connector for {{system}} yet. Because you picked it at registration, we opened this request for you: our team will contact you and set up the connection with you (through the on-site agent or an SQL / file mapping if needed). Meanwhile you can try the product with "Connect to sandbox systems" on Settings → API Connection Settings.',
    mailNewSubject: "New ticket #{{id}}: {{subject}}",
    mailNewBody:
      "{{name}} from {{company}} opened a new ticket.\n\nCategory: {{category}}\nSubject: {{subject}}\n\n{{message}}\n\nSupport console: {{link}}",
  },
  partnerInstall: {
    logoCompanyName: "Logo Is Basi company {{tenant}}",
    causes: {
      partner_not_configured:
        "The {{system}} app details ({{missing}}) are not set on the server; ask your administrator to set them as environment variables (README, Configuration table) and restart the server.",
      partner_unavailable:
        "The {{system}} connection is not ready yet (coming soon). For now you can connect one of the other shop systems listed in the panel.",
      store_missing:
        "The link has no valid {{system}} store address. Start the installation again from the app page in your {{system}} admin panel.",
      state_mismatch:
        "This installation was not started in this browser or its 15 minutes have passed. Start it again from {{system}} in the same browser.",
      callback_invalid:
        "The signature of the {{system}} answer could not be verified; the link may be altered or old. Start the installation again from {{system}}.",
      code_refused:
        "{{system}} did not accept the approval code (it is single-use and short-lived). Start the installation again; if it repeats, your administrator should check the app's client id and secret.",
      store_unreachable:
        "{{system}} is not answering or cannot be reached right now. Try again in a few minutes; if it persists, tell your administrator.",
    },
  },
  webhooks: {
    tooManyDeliveries: "Too many notifications; orders will be checked shortly.",
    badSignature: "The notification's signature could not be verified.",
    noShopConnection: "Please save the shop connection first.",
    unsupported: "This shop system has no webhook support; orders are checked every 5 minutes.",
    noSecret: "Enter the app's secret key in the shop connection settings so notifications can be verified.",
    registered: "Webhooks registered.",
    registerFailed: "Webhooks could not be registered; orders are still checked every 5 minutes.",
  },
  erpMatching: {
    saved: "Match saved.",
    deleted: "Match deleted.",
    shopSkuNotFound: "No product with this stock code was found in the shop.",
    duplicate: "A match already exists for this ERP or shop code.",
    rowInvalid: "The row must contain an ERP and a shop stock code.",
    imported: "{{accepted}} rows accepted, {{refused}} rows refused.",
    tooManyRows: "At most 5000 rows can be imported from one file.",
    bindingTaken:
      "This shop product is already bound to another ERP stock code. A shop product can match only one ERP item: choose another shop product.",
    bindingTakenRow:
      "The shop product {{shopSku}} is already bound to the ERP code {{heldBy}}; a shop product can match only one ERP item.",
  },
  einvoices: {
    sellerIncomplete:
      "The company settings lack what an e-invoice needs (tax number, tax office, address). Complete them in Settings › Company and try again.",
    title: "Invoices",
    notFound: "Invoice not found.",
    noProvider:
      'This company has no e-invoice service connected. Add the Uyumsoft, Trendyol e-Faturam or LucaPortal connection in the "E-invoice service" section of Settings › API connections.',
    cancelNotEArchive:
      "Only e-Archive invoices can be cancelled; an e-Invoice must be rejected by the buyer or reversed with a return invoice.",
    cancelTooLate:
      "The cancellation period has passed (8 days after the e-Archive invoice was issued). The return is documented by the buyer's return invoice or an expense voucher.",
    cancelState: "This invoice cannot be cancelled in its current state.",
    linkInvalid: "The link is invalid or has expired. Ask the shop for a new link.",
    pdfUnavailable:
      "The invoice PDF cannot be fetched from the e-invoice service right now. Try again in a few minutes.",
    colNumber: "Invoice No",
    colOrder: "Order",
    colBuyer: "Buyer",
    colTotal: "Total",
    colType: "Type",
    colStatus: "GİB status",
    colDate: "Date",
    pdf: "PDF",
    cancel: "Cancel",
    cancelReason: "Cancellation reason",
    from: "From",
    to: "To",
    status: "Status",
    all: "All",
    empty: "No invoices match this filter.",
    run: "Invoice now",
    runDone: "{{prepared}} invoices prepared, {{sent}} sent.",
    typeEArchive: "e-Archive",
    typeEInvoice: "e-Invoice",
    st_prepared: "Prepared",
    st_draft: "Draft (awaiting approval)",
    st_queued: "Queued",
    st_sent: "Sent to GİB",
    st_approved: "Approved",
    st_rejected: "Rejected",
    st_cancelled: "Cancelled",
    st_error: "Error",
    st_generated: "Generated (to upload to the portal)",
    kind_SATIS: "Sale",
    kind_IADE: "Return",
    colKind: "Invoice type",
    returnOf: "Returns: {{number}}",
    exportTitle: "Export",
    exportHint:
      "The invoices of the selected date range (today if no date is chosen) download as an Excel list or as UBL-TR XML files (zip). Upload these files to portals without an API (LucaPortal).",
    exportXlsx: "Download Excel",
    exportUbl: "Download UBL (zip)",
    exportRangeInvalid: "The start date cannot be after the end date; the range is at most 366 days.",
    export_sheet: "Invoices",
    export_number: "Invoice No",
    export_ettn: "ETTN",
    export_date: "Date",
    export_type: "Type",
    export_profile: "Scenario",
    export_returnOf: "Returned invoice",
    export_orderNo: "Order No",
    export_buyer: "Buyer",
    export_buyerId: "Tax ID",
    export_net: "Taxable amount",
    export_vat: "VAT",
    export_total: "Total",
    export_currency: "Currency",
    export_state: "Status",
    why_rejected: "The buyer rejected the invoice. Check the order and issue a corrected invoice if needed.",
    why_error:
      "The e-invoice service refused the invoice. Fix the company settings or the order details according to the error text; it will not be retried automatically, contact support.",
    why_prepared:
      "The number is reserved and sending is in progress. If no answer comes, it is looked up by ETTN; no second invoice is issued for the same order.",
    documentNotOut:
      "This invoice has not reached the e-invoice service yet (or was refused); there is no document to show.",
    exportEmpty: "There are no invoices to export in the chosen date range. Choose another range.",
    rateSaved: "Rate saved.",
    rateCurrencyInvalid: "The currency must be a 3-letter ISO code (e.g. USD, EUR); TRY needs no rate.",
    rateInvalid: "The rate must be a number above zero (TRY per unit).",
    returnCancelNote: "Order returned / cancelled",
    waitingRate:
      "{{count}} foreign-currency orders wait for a rate ({{currencies}}). Enter the rate in the Exchange rates section of the Invoices screen; they are invoiced on the next run.",
    waitingVat:
      "{{count}} orders are waiting for a VAT rate: no VAT rate in the ERP for SKUs {{skus}} (the sales channel gives none on its orders). Define the stock cards in the ERP; the invoices are issued on the next run.",
    waitingData:
      "{{count}} orders wait for their e-Archive: {{reasons}}. Complete what is missing; they are invoiced on the next run.",
    ratesTitle: "Exchange rates",
    ratesHint:
      "A foreign-currency order without its own rate is invoiced at the newest rate you entered on or before the invoice date. Rates are never guessed: without one the invoice waits.",
    rateCurrency: "Currency",
    rateDate: "Rate date",
    rateValue: "Rate (1 unit = TRY)",
    rateAdd: "Save rate",
    rateDelete: "Delete",
    ratesEmpty: "You have not entered a rate yet.",
    waitingRateAlert:
      "No {{currency}} rate: {{orders}} orders wait to be invoiced. Enter the {{currency}} rate below; they are invoiced on the next run.",
    colRate: "Rate",
    rateFrom_order: "order's rate",
    rateFrom_merchant: "your rate",
    returnPart: "Partial return: {{lines}} — {{amount}}",
    return_cancel: "Return: e-Archive cancellation",
    return_iade: "Return: the buyer issues a return invoice",
    return_none: "Return: expense voucher",
    st_delivered: "ERP invoice delivered to the shop",
    sourceErp: "ERP invoice",
    trackingNumber: "Tracking number",
    carrier: "Carrier",
    shipmentSave: "Save",
    trackingSent: "Sent to the marketplace",
    trackingWaiting: "Sent to the marketplace after the invoice link",
    count: "{{total}} invoices in this range",
    countSplit: "(e-invoice service: {{service}}, ERP: {{erp}})",
    route_service: "Web orders are invoiced through your e-invoice service.",
    route_erpService: "Invoices are issued through the e-invoice service connected as your ERP.",
    route_erp:
      "Your ERP issues the invoices; the panel delivers the ERP's invoice to the shop order. If your ERP does not issue e-invoices, add an e-invoice service.",
    addService: "Add e-invoice service",
    view: "View",
    customerLink: "Customer link",
    linkCopied: "Customer link copied.",
    pdfDownload: "Download as PDF",
    returnWhy: {
      cancelWithinPeriod:
        "The e-Archive invoice was within its 8-day cancellation period: by GİB's rules it was cancelled at the e-invoice service.",
      buyerIssuesIade:
        "The buyer is an e-Invoice user: the buyer issues the return invoice (TEMELFATURA) and sends it to you; you issue nothing.",
      companyBuyerIssues: "The buyer is a company: the buyer issues the return invoice; you issue nothing.",
      partialConsumer:
        "Partial return by a consumer: the e-Arşiv was not cancelled (it can only be cancelled as a whole); document the returned lines with a gider pusulası.",
      consumerAfterPeriod:
        "A consumer's return after the 8-day cancellation period: consumers issue no invoice; document the return with an expense voucher (gider pusulası).",
      cancelRefused:
        "The e-invoice service refused the cancellation: check the invoice's state on the service's portal.",
      noApi: "The portal has no API: cancel the e-Archive invoice on the portal (LucaPortal) within 8 days.",
    },
    settings: "Invoice settings",
    series: "Invoice series",
    draft: "Send as draft (approve in the service portal)",
    invoiceWhen: "Which orders to invoice",
    when_paid: "Paid",
    when_shipped: "Shipped",
    when_all: "All",
    save: "Save",
    saved: "Saved.",
    seriesInvalid: "The series must be 3 letters or digits (e.g. WEB).",
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
  einvoice: {
    doc: {
      return: {
        cancelWithinPeriod:
          "The e-Arşiv invoice is within its 8-day cancellation period: it is cancelled, no return invoice is issued.",
        buyerIssuesIade:
          "The buyer is an e-Fatura user: the buyer issues the return invoice (TEMELFATURA); the panel issues none.",
        companyBuyerIssues:
          "The buyer is a company: the buyer issues the return invoice (paper or e-Arşiv); the panel issues none.",
        partialConsumer:
          "Partial return by a consumer: an e-Arşiv can only be cancelled as a whole; document the returned lines with a gider pusulası.",
        consumerAfterPeriod:
          "The cancellation period (8 days) has passed and the buyer is a consumer, who issues no invoice: record the return with an expense voucher (gider pusulası).",
      },
    },
  },
  retention: {
    daysInvalid: "The number of days must be a whole number.",
    daysTooFew: "The period cannot be shorter than the minimum shown under the field.",
    daysTooMany: "The period cannot be longer than the maximum shown under the field.",
    saved: "Retention periods saved. Records past their period will be removed tonight.",
  },
  // The KVKK export is a record under Turkish law, written in Turkish whatever the interface language.
  privacyExport: tr.privacyExport,
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
  connectionCheck: {
    status: {
      ok: "compatible",
      drift: "incompatible",
      untried: "not tried",
    },
    operation: {
      products: "Products",
      stock: "Stock quantities",
      prices: "Prices",
      priceGroups: "Price groups",
      categories: "Categories",
      stockLocations: "Warehouses",
      orders: "Orders",
      orderStatuses: "Order statuses",
      priceLists: "Price lists",
      shopStockLocations: "Shop stock locations",
      shopCategories: "Shop categories",
    },
    expect: {
      code: "a non-empty code",
      name: "a non-empty name",
      text: "text",
      number: "a number",
      nonNegative: "zero or a positive number",
      boolean: "a yes/no value",
      date: "a date",
      currency: "a three-letter currency code (like TRY)",
      list: "a list",
      textList: "a list of texts",
    },
    got: {
      missing: "the field did not come",
      empty: "it came empty",
      text: "text came",
      number: "a number came",
      invalidNumber: "an invalid number came",
      boolean: "yes/no came",
      list: "a list came",
      object: "an object came",
    },
    drift:
      "In the {{system}} answer the field «{{field}}» is not as expected: {{expect}} was expected, {{got}}. Will not work: {{jobs}} ({{field}} field).",
    unreadable:
      "The {{system}} answer could not be read: it differs from the shape the connection knows. Will not work: {{jobs}}.",
    rawRule: "The {{system}} answer differs from the shape the connection knows. Will not work: {{jobs}}.",
    rule: {
      diaSelectedColumns:
        "Rows of the {{system}} list answer lack some of the columns asked for (such as the stock card code or name). Will not work: {{jobs}}.",
      nebimProcedureColumns:
        "Rows returned by the {{system}} procedure lack some of the columns the connection form asks for (such as the item code or VAT rate). Will not work: {{jobs}}.",
    },
    untried: {
      budget:
        "The check said it would make at most {{planned}} calls; this read did not fit, so it was not tried to protect your credits/quota.",
      auth: "The system refused the login. Check the connection details and check again.",
      network:
        "The system could not be reached. Check the address, the network and (if used) the on-site agent, then check again.",
      rate_limited: "The system reached its request limit. Check again in a few minutes.",
      unsupported:
        "This system does not offer this read; the job relying on it does not work with this system.",
      other: "The read could not be completed ({{reason}}). Check again in a few minutes.",
      notConnected: "No connection is saved for this side. Save the connection first.",
    },
    none: "No enabled job needs a read on this side.",
    firstSyncHeld:
      "The first transfer is on hold: the connection check found {{operations}} incompatible. See the details in Connection Settings and start it with «Continue anyway».",
    checked: "The connection was checked.",
    proceeded:
      "The first transfer may start despite the difference. Incompatible fields may fail in the transfer.",
    supportMailSubject:
      "Connection check: {{system}} {{operation}} answer differs at {{companies}} companies",
    supportMailBody:
      "Rule: {{rule}}\nField: {{field}}\nFirst seen: {{firstSeen}}\nCompanies: {{companies}}\nA vendor change or a mistake in our judge. Entry: {{verified}}\nConsole: {{link}}",
  },
  channels: {
    added: "The {{name}} sales channel was saved.",
    addedJobsReady: "The {{name}} sales channel was saved. Its stock, price and order jobs are ready.",
    removed: "The {{name}} sales channel was removed.",
    unknownSystem: "Connecting this marketplace is not supported yet.",
    notFound: "Sales channel not found.",
    settingsSaved: "Sales channel settings saved. Changes apply on the next run.",
    shop: "Shop",
    all: "All channels",
  },
  listing: {
    notSupportedChannel:
      "Product listing is not available for this marketplace on this connection; categories cannot be mapped.",
    mappingSaved: "Category {{category}} mapped to {{target}}.",
    mappingRemoved: "Category mapping removed.",
    notSupported:
      "Product listing is not available for {{name}} on this connection; categories cannot be mapped.",
    unknownCategory:
      "This category is not in the marketplace's category list (or has subcategories): pick the lowest category.",
    unknownBrand: "This brand is not in the marketplace's brand list.",
    missingAttribute: "Pick a value from the marketplace's list for the required attribute: {{name}}.",
    invalidValue: "Pick a value from the marketplace's list for the attribute {{name}}.",
    unknownAttribute: "This category has no attribute {{name}}.",
    started:
      "Listing started: the products of mapped categories that the marketplace does not have yet are being sent.",
    noMappings: "No mapped category: map the channel's categories to list products.",
    noBarcode:
      "No barcode: {{marketplace}} lists products by barcode. Enter a barcode on the ERP stock card.",
    noPrice: "No price in the ERP price group: a product cannot be listed without a price.",
    reportCreated:
      "{{count}} products listed on {{marketplace}}; they go on sale after the marketplace approves them.",
    reportListed: "{{count}} products are already on the marketplace.",
    reportInReview:
      "{{count}} products were sent to the marketplace and await its approval; they are not sent again meanwhile.",
    unmappedVariantValue:
      'The value "{{value}}" of option {{option}} is not mapped to attribute {{attribute}}: choose the marketplace\'s value for it in the category mapping.',
    notVariantAttribute: "{{name}} is not a variant attribute on the marketplace: map it to a fixed value.",
    attributeTwice: "Attribute {{name}} is mapped twice (as a fixed value or an ERP option): keep one.",
    duplicateVariantValue: "ERP value {{value}} is mapped twice for attribute {{name}}.",
  },
  sandbox: {
    driftNoSandbox:
      "The drill can only run on a side connected to the sandbox; this side is not connected to the sandbox.",
    connected:
      'You are connected to the sandbox systems. Start transfers from the Product Integration and Order Integration screens; when your real system is ready, enter its details with "Switch to the real system".',
    connectFailed:
      'The sandbox systems were saved but the connection test failed. Try again in a few minutes with "Test connection" in the connection settings.',
  },
  agents: {
    updateWindowSaved:
      "Update hours saved. The agent installs a new version only within these hours and when no transfer is running.",
    downloadNotBuilt:
      "The on-site agent's installation files have not been prepared on this server yet. The download links appear here once the server's administrator runs 'npm run build:agent'.",
    pairingCodeLimit:
      "Too many pairing codes were issued in the last hour. Use the code you already have or try again later.",
    agentLimit:
      "A company can pair at most 10 on-site agents. Revoke an agent you no longer use and try again.",
    pairingCodeCreated:
      "Pairing code created. Enter it in the on-site agent within 10 minutes: entegrasyon-agent pair CODE --server URL",
    paired: "The on-site agent is paired.",
    pairingCodeInvalid:
      "The pairing code is invalid, expired or already used. Get a new code in the panel and try again.",
    servesConnection:
      "The on-site agent now serves this connection. Whichever of the connection's agents is online carries its calls; if one stops, another carries on.",
    leftConnection: "The on-site agent no longer serves this connection. Its other agents (if any) carry on.",
    revoked: "The on-site agent's access was revoked. Get a new pairing code to connect it again.",
    offline:
      "The on-site agent is offline (last seen: {{lastSeen}}). Check the computer it runs on and its network connection.",
    offlineNotice:
      'The on-site agent on "{{machine}}" has been offline for more than 10 minutes (last seen: {{lastSeen}}) and scheduled transfers are waiting. Check the computer it runs on and its network connection.',
    backOnline: 'The on-site agent on "{{machine}}" is back online; the waiting transfers continue.',
    cli: {
      askServer: "Panel address (e.g. https://panel.example.com): ",
      askCode: "Pairing code from the panel: ",
      stateOnline: "online",
      stateOffline: "offline",
      stateConnecting: "connecting",
      stateRefused: "refused",
      stateStopped: "stopped",
      serviceInstalled:
        "Service installed and started ({{name}}). It starts with the computer and is restarted if it stops. To see its state: entegrasyon-agent service status",
      serviceUninstalled: "Service removed ({{name}}).",
      dataKept:
        "Pairing, settings and logs stay in {{home}} for a later installation. To delete them: entegrasyon-agent service uninstall --delete-data",
      dataDeleted: "Pairing, settings and logs deleted ({{home}}).",
      serviceStatus:
        "Service: {{service}} · Agent: {{state}} · server: {{server}} · last connected: {{connectedAt}} · last error: {{lastError}}",
      serviceRunning: "running",
      serviceStopped: "stopped",
      serviceMissing: "not installed",
      serviceFailed: "The service action failed: {{reason}}",
      serviceNeedsAdmin:
        "This needs administrator rights: on Windows open the command prompt with 'Run as administrator', on Linux run it with sudo.",
      serviceUsage:
        "Usage:\n  entegrasyon-agent service install [--code CODE --server URL] [--proxy URL]\n  entegrasyon-agent service status\n  entegrasyon-agent service uninstall [--delete-data]",
      proxyRefused:
        "The proxy {{proxy}} did not accept the Windows (NTLM) authentication (HTTP {{status}}). Check the account kept on this computer (entegrasyon-agent http-auth list) or save it again: entegrasyon-agent http-auth add {{proxy}} --ntlm --domain DOMAIN --user USER --password PASSWORD",
      proxyInvalid: "Invalid proxy address: {{proxy}} (e.g. http://user:password@proxy:8080)",
      usage:
        "Usage:\n  entegrasyon-agent pair CODE --server URL   Pairs with the code from the panel\n  entegrasyon-agent run                      Connects to the server and carries out requests\n  entegrasyon-agent status                   Shows the last state\n  entegrasyon-agent service install|status|uninstall   Installs as a service, shows its state, removes it\n  Watched folders: entegrasyon-agent folder add|list|remove\n  Proxy: --proxy http://user:password@proxy:8080 or HTTPS_PROXY\n  Started without arguments it asks for the pairing code and connects.",
      paired: "Paired (agent no {{agentId}}). Now start it with 'entegrasyon-agent run'.",
      dbSaved:
        "Database '{{alias}}' saved ({{dialect}}, {{host}}:{{database}}). Enter this name in the panel's 'Veritabanı takma adı' (database alias) field.",
      dbRemoved: "Database '{{alias}}' removed.",
      dbNone: "No databases saved.",
      dbLine: "{{alias}}: {{dialect}} {{host}}:{{database}} (user {{user}})",
      folderUsage:
        "Usage:\n  entegrasyon-agent folder add FOLDER --kind products|stock|prices [--outbox FOLDER]\n  entegrasyon-agent folder list\n  entegrasyon-agent folder remove FOLDER\nProcessed files move to islenen/, rejected ones to hatali/, each with a per-row result (.sonuc.csv).",
      folderSaved: "Folder watched: {{path}} ({{kind}}).",
      folderRemoved: "Folder no longer watched: {{path}}.",
      folderNone: "No watched folders.",
      folderLine: "{{path}}  kind: {{kind}}  orders outbox: {{outbox}}",
      dbUsage:
        "Usage:\n  entegrasyon-agent db add NAME --dialect firebird|mssql --host HOST [--port N] --database DATABASE --user USER --password PASSWORD\n  entegrasyon-agent db list\n  entegrasyon-agent db remove NAME\nPasswords stay on this machine, in a file only the service account can read.",
      httpAuthSaved:
        "Windows authentication saved for '{{host}}' ({{scheme}}, {{domain}}\\{{user}}). The agent makes its requests to this address with this account.",
      httpAuthRemoved: "Authentication for '{{host}}' removed.",
      httpAuthNone: "No authentication saved.",
      httpAuthLine: "{{host}}: {{scheme}} {{domain}}\\{{user}}",
      httpAuthUsage:
        "Usage:\n  entegrasyon-agent http-auth add HOST[:PORT] --ntlm --domain DOMAIN --user USER --password PASSWORD\n  entegrasyon-agent http-auth list\n  entegrasyon-agent http-auth remove HOST[:PORT]\nThe Windows password stays on this machine, in a file only the service account can read; it is never sent to the panel.",
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
