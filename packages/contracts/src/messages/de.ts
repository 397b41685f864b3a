import type { MessageCatalog } from "./tr.ts";

export const de: MessageCatalog = {
  validation: {
    companyNameRequired: "Der Firmenname ist erforderlich.",
    min3: "Muss mindestens 3 Zeichen enthalten.",
    max50: "Darf höchstens 50 Zeichen enthalten.",
    max100: "Darf höchstens 100 Zeichen enthalten.",
    emailInvalid: "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
    emailRequired: "Die E-Mail-Adresse ist erforderlich.",
    passwordMin8: "Muss mindestens 8 Zeichen enthalten.",
    passwordRequired: "Das Passwort ist erforderlich.",
    firstNameRequired: "Der Vorname ist erforderlich.",
    lastNameRequired: "Der Nachname ist erforderlich.",
    phoneRequired: "Die Telefonnummer ist erforderlich.",
    phoneInvalid: "Bitte geben Sie eine gültige Telefonnummer ein.",
    erpTypeRequired: "Das Buchhaltungsprogramm ist erforderlich.",
    ecommerceTypeRequired: "Die E-Commerce-Software ist erforderlich.",
    loginEmailRequired: "Die E-Mail-Adresse ist erforderlich.",
    loginMin3: "Geben Sie mindestens 3 Zeichen ein.",
    loginMax50: "Es können höchstens 50 Zeichen eingegeben werden.",
    forgotEmailInvalid: "Ungültiges E-Mail-Format",
    forgotEmailRequired: "Das E-Mail-Feld ist erforderlich.",
    resetMin8: "Geben Sie mindestens 8 Zeichen ein.",
    resetMax16: "Es können höchstens 16 Zeichen eingegeben werden.",
    newPasswordRequired: "Das Feld „Neues Passwort“ ist erforderlich.",
    confirmPasswordRequired: "Das Feld „Neues Passwort (Wiederholung)“ ist erforderlich.",
    passwordsDoNotMatch: "Die neuen Passwörter stimmen nicht überein.",
    oldPasswordRequired: "Das aktuelle Passwort ist erforderlich.",
    rowIdRequired: "Der Link-Code ist erforderlich.",
    taxNumberInvalid: "Die Steuernummer muss 10 oder 11 Ziffern haben.",
    fieldInvalid: "Das Feld ist ungültig.",
    cronInvalid: "Geben Sie einen gültigen Cron-Ausdruck ein (z. B. 0 */2 * * *).",
    dateInvalid: "Geben Sie ein gültiges Datum ein.",
    selectAtLeastOne: "Wählen Sie mindestens einen Datensatz aus.",
  },
  api: {
    validationFailed: "Bitte korrigieren Sie die Fehler im Formular.",
    invalidEmailFormat: "Ungültiges E-Mail-Format. Bitte überprüfen Sie die E-Mail-Adresse.",
    emailHasTurkishCharacters:
      "Ihre E-Mail-Adresse enthält türkische Zeichen. Bitte geben Sie eine Adresse ohne türkische Zeichen ein.",
    emailAlreadyRegistered: "Es gibt bereits einen Benutzer mit dieser E-Mail-Adresse.",
    registrationFailed: "Bei der Registrierung ist ein Fehler aufgetreten.",
    registrationNetworkFailed: "Registrierung fehlgeschlagen...",
    autoLoginFailed:
      "Die Registrierung ist abgeschlossen, die Anmeldung ist jedoch fehlgeschlagen. Bitte wenden Sie sich an den Administrator der Website.",
    registered: "Registrierung erfolgreich.",
    loginFailed: "Benutzername oder Passwort ist falsch.",
    tooManyLoginAttempts: "Too many sign-in requests from this connection. Please try again in a minute.",
    captchaRequired: "Bitte bestätigen Sie, dass Sie kein Roboter sind.",
    captchaHarderRequired:
      "Too many failed sign-in attempts. For your security an extra verification is needed; press Sign in again once it is complete.",
    captchaInvalid: "Die Überprüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.",
    unauthorized: "Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.",
    forbidden: "Sie sind für diesen Vorgang nicht berechtigt.",
    notFound: "Der gesuchte Datensatz wurde nicht gefunden.",
    conflict: "Dieser Datensatz wurde durch einen anderen Vorgang geändert. Bitte versuchen Sie es erneut.",
    rateLimited: "Zu viele Anfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.",
    internalError: "Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.",
    recoverMailSent:
      "Falls Ihre E-Mail-Adresse registriert ist, wurde ein Link zum Zurücksetzen des Passworts gesendet.",
    recoverMailFailed: "Beim Senden des Links zum Zurücksetzen des Passworts ist ein Fehler aufgetreten.",
    resetLinkInvalid: "Der Link zum Zurücksetzen des Passworts ist ungültig oder abgelaufen.",
    passwordReset: "Ihr Passwort wurde erfolgreich geändert. Sie werden zur Anmeldeseite weitergeleitet...",
    passwordUpdated: "Ihr Passwort wurde aktualisiert.",
    oldPasswordWrong: "Ihr aktuelles Passwort ist falsch.",
    loginCodeInvalid: "Der Anmeldecode ist ungültig oder abgelaufen.",
    profileUpdated: "Ihre Angaben wurden aktualisiert.",
    companyUpdated: "Ihre Firmendaten wurden aktualisiert.",
    loggedOut: "Sie wurden abgemeldet.",
    ok: "Vorgang erfolgreich.",
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
    statusQueued: "In der Warteschlange.",
    statusRunning: "Läuft.",
    statusSucceeded: "Erfolgreich abgeschlossen.",
    statusPartiallyFailed: "Abgeschlossen; einige Datensätze konnten nicht übertragen werden.",
    statusFailed: "Fehlgeschlagen.",
    statusCrashed: "Unterbrochen.",
    reportSummary:
      "{{read}} Datensätze gelesen, {{changed}} mit Änderungen, {{written}} geschrieben, {{failed}} konnten nicht übertragen werden.",
    reportCalls:
      "{{erpRead}} Lese- und {{erpWrite}} Schreibaufrufe an das ERP, {{shopRead}} Lese- und {{shopWrite}} Schreibaufrufe an den Shop.",
    reportNothingChanged: "Keine Änderungen; an kein System wurde ein Schreibaufruf gesendet.",
    reportResolved:
      "{{count}} Datensätze, die in früheren Läufen fehlgeschlagen waren, wurden in diesem Lauf übertragen.",
    reportNotInShop:
      "{{count}} Datensätze wurden übersprungen, weil der Shop sie nicht kennt (zuerst die Produktübertragung ausführen).",
    reportTransientLeft:
      "{{count}} Datensätze wurden nach einem vorübergehenden Fehler für den nächsten Lauf zurückgestellt.",
    reportCreateDisabled:
      "{{count}} Produkte fehlen im Shop und wurden nicht angelegt (das Anlegen ist in den Einstellungen ausgeschaltet).",
    runFailed: "Der Auftrag {{job}} ist fehlgeschlagen: {{reason}}",
    runPartiallyFailed:
      "Der Auftrag {{job}} wurde abgeschlossen, aber {{count}} Datensätze konnten nicht übertragen werden.",
    runRecovered: "Der Auftrag {{job}} ist wieder erfolgreich gelaufen.",
    runCrashed:
      "Der Auftrag {{job}} wurde unterbrochen (der ausführende Prozess wurde beendet). Der nächste Lauf setzt dort fort, wo er aufgehört hat.",
    runRefusedLicence: "{{job}} wurde nicht ausgeführt: Ihre Lizenz {{licence}} ist abgelaufen.",
    alreadyRunning: "Dieser Auftrag ist bereits in der Warteschlange oder läuft.",
    noShopStockLocation: "Der Shop hat keinen Lagerort.",
    noErpPriceGroup: "Im ERP gibt es keine Preisgruppe.",
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
    resetSubject: "Entegrasyon Paneli – Passwort zurücksetzen",
    resetBody:
      "Hallo {{name}},\n\nklicken Sie auf den folgenden Link, um Ihr Passwort zurückzusetzen. Der Link ist eine Stunde gültig und kann nur einmal verwendet werden.\n\n{{link}}\n\nFalls Sie dies nicht angefordert haben, ignorieren Sie bitte diese E-Mail.",
    welcomeSubject: "Willkommen bei Entegrasyon Paneli",
    welcomeBody:
      "Hallo {{name}},\n\ndas Konto von {{company}} wurde angelegt. Ihre 14-tägigen Testlizenzen sind eingerichtet.\n\n{{link}}",
  },
  activity: {
    signIn: "Im Panel angemeldet.",
    settingsSaved: "Einstellungen gespeichert ({{detail}}).",
    connectionChanged: "Verbindungsdaten geändert ({{detail}}).",
    jobEnabled: "Der Auftrag {{detail}} wurde aktiviert.",
    jobDisabled: "Der Auftrag {{detail}} wurde deaktiviert.",
    jobScheduleChanged: "Der Zeitplan des Auftrags {{detail}} wurde geändert.",
    jobRun: "Der Auftrag {{detail}} wurde manuell gestartet.",
    failedTasksDeleted: "{{detail}} fehlgeschlagene Aufgaben wurden gelöscht.",
    failedTasksRetried: "{{detail}} fehlgeschlagene Aufgaben wurden erneut versucht.",
    ticketCreated: "Support-Ticket eröffnet: {{detail}}",
    ticketReplied: "Support-Ticket beantwortet: {{detail}}",
    ticketClosed: "Support-Ticket geschlossen: {{detail}}",
    profileUpdated: "Profildaten aktualisiert.",
    companyUpdated: "Firmendaten aktualisiert.",
    passwordChanged: "Passwort geändert.",
    erpMatchingChanged: "ERP-Zuordnung geändert ({{detail}}).",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "Ihre Lizenz {{licence}} läuft am {{date}} ab (noch {{days}} Tage).",
    licenceExpired: "Ihre Lizenz {{licence}} ist abgelaufen; die zugehörigen Aufträge laufen nicht mehr.",
    reportNever: "{{job}} ist noch nicht gelaufen.",
    reportSucceeded: "{{job}} war beim letzten Lauf erfolgreich; {{written}} Datensätze wurden geschrieben.",
    reportFailed:
      "{{job}} ist beim letzten Lauf fehlgeschlagen; {{failed}} Datensätze konnten nicht übertragen werden.",
    reportDisabled: "{{job}} ist deaktiviert.",
    connectionUntested: "Die Verbindung wurde noch nicht getestet.",
    connectionNotSaved:
      "The connection settings are not saved yet. Enter your details in the connection settings and test them.",
    connectionRunOk: "The last job run on {{date}} reached this system without problems.",
    connectionRunFailed: "The last job run on {{date}} could not connect to this system. {{reason}}",
  },
  connectionSettings: {
    previewNothing: "Beim nächsten Lauf würde sich nichts ändern.",
    previewPriceOk:
      "{{total}} Preise würden sich ändern; keiner fällt um mehr als die Grenze von {{limit}} %.",
    previewPriceTripped:
      "Bei {{flagged}} Produkten würde der Preis um mehr als {{limit}} % fallen. Bitte vor dem Ausführen prüfen und bestätigen.",
    previewStockOk:
      "{{total}} Bestandseinträge würden sich ändern; {{flagged}} Produkte fielen auf Bestand 0.",
    previewStockTripped:
      "{{share}} % der gelesenen Artikel fielen auf Bestand 0 (Grenze {{limit}} %). Bitte vor dem Ausführen prüfen und bestätigen.",
    connectionSaved: "Verbindungseinstellungen gespeichert.",
    connectionSavedJobsReady: "Verbindungseinstellungen gespeichert. Ihre Integrationsaufgaben sind bereit.",
    testOk: "Verbindung erfolgreich. {{description}}",
    testAuth:
      "{{system}} wurde erreicht, aber die Zugangsdaten wurden nicht akzeptiert. Bitte prüfen Sie Schlüssel, Benutzer und Passwort.",
    testUnreachable:
      "{{system}} could not be reached. Please enter its address on the internet; our server does not connect to local or private network addresses, systems inside your company network connect through the on-site agent.",
    testTimeout: "{{system}} hat nicht rechtzeitig geantwortet. Bitte versuchen Sie es später erneut.",
    testRateLimited:
      "{{system}} hat die Anfrage wegen zu vieler Anfragen abgelehnt. Bitte warten Sie kurz und versuchen Sie es erneut.",
    testUnsupported: "Die Verbindung zu {{system}} wird noch nicht unterstützt.",
    testConfig: "Die Verbindungsdaten für {{system}} fehlen oder sind falsch. Bitte prüfen Sie das Formular.",
    testFailed:
      "Der Verbindungstest für {{system}} ist fehlgeschlagen. Bitte prüfen Sie die Angaben und versuchen Sie es erneut.",
    notConnected: "Bitte speichern Sie zuerst die Verbindungseinstellungen dieses Systems.",
    listBusy:
      "Das verbundene System ist gerade ausgelastet oder antwortet nicht. Bitte versuchen Sie es in einigen Sekunden erneut.",
    listFailed:
      "Die Liste konnte nicht aus dem verbundenen System gelesen werden. Bitte testen Sie die Verbindung.",
    unsupportedSystem: "Die Verbindung zu diesem System wird noch nicht unterstützt.",
    fieldRequired: "Dieses Feld ist erforderlich.",
    urlInvalid: "Bitte geben Sie eine gültige Adresse ein (http:// oder https://).",
    numberInvalid: "Bitte geben Sie eine gültige Zahl ein.",
    unknownField: "Dieses Feld ist für dieses System nicht definiert.",
    unknownSetting: "Unbekannter Einstellungsschlüssel.",
    settingsSaved: "Einstellungen gespeichert. Änderungen gelten ab dem nächsten Lauf.",
  },
  tickets: {
    categoryRequired: "Bitte wählen Sie eine Kategorie.",
    subjectRequired: "Betreff ist erforderlich.",
    subjectMax: "Der Betreff darf höchstens 150 Zeichen lang sein.",
    messageRequired: "Nachricht ist erforderlich.",
    messageMax: "Die Nachricht darf höchstens 5000 Zeichen lang sein.",
    attachmentTooLarge: "Jede Datei darf höchstens 5 MB groß sein.",
    attachmentType: "Nur Bilder (PNG, JPEG, GIF, WEBP) und PDF-Dateien können angehängt werden.",
    attachmentTooMany: "Es können höchstens 5 Dateien angehängt werden.",
    ticketClosed: "Dieses Ticket ist geschlossen; es kann keine neue Nachricht hinzugefügt werden.",
    statusInvalid: "Ein Ticket kann nur geschlossen werden (Status 3).",
    created: "Ihr Ticket wurde erstellt.",
    replied: "Ihre Nachricht wurde gesendet.",
    closed: "Das Ticket wurde geschlossen.",
    announcementTypeRequired: "Die Art der Ankündigung ist erforderlich.",
    announcementContentRequired: "Der Ankündigungstext ist erforderlich.",
    announcementCreated: "Die Ankündigung wurde veröffentlicht.",
    licenseUpdated: "Die Lizenz wurde aktualisiert.",
    notifyAnswered: "Ihr Ticket #{{id}} „{{subject}}“ wurde vom Support-Team beantwortet.",
    mailAnsweredSubject: "Ihr Ticket #{{id}} wurde beantwortet",
    mailAnsweredBody:
      "Hallo {{name}},\n\nunser Support-Team hat Ihr Ticket „{{subject}}“ beantwortet:\n\n{{message}}\n\nZum Antworten: {{link}}\n\nOhne Antwort wird das Ticket nach 24 Stunden automatisch geschlossen.",
    mailAutoClosedSubject: "Ihr Ticket #{{id}} wurde geschlossen",
    mailAutoClosedBody:
      "Hallo {{name}},\n\nIhr Ticket „{{subject}}“ wurde automatisch geschlossen, da innerhalb von 24 Stunden nach der Antwort des Support-Teams keine Rückmeldung kam.\n\nBei einer neuen Frage können Sie ein neues Ticket eröffnen: {{link}}",
    mailNewSubject: "Neues Ticket #{{id}}: {{subject}}",
    mailNewBody:
      "{{name}} von {{company}} hat ein neues Ticket eröffnet.\n\nKategorie: {{category}}\nBetreff: {{subject}}\n\n{{message}}\n\nSupport-Konsole: {{link}}",
  },
  erpMatching: {
    saved: "Zuordnung gespeichert.",
    deleted: "Zuordnung gelöscht.",
    shopSkuNotFound: "Im Shop wurde kein Produkt mit diesem Lagercode gefunden.",
    duplicate: "Für diesen ERP- oder Shop-Code gibt es bereits eine Zuordnung.",
    rowInvalid: "Die Zeile muss einen ERP- und einen Shop-Lagercode enthalten.",
    imported: "{{accepted}} Zeilen übernommen, {{refused}} Zeilen abgelehnt.",
    tooManyRows: "Aus einer Datei können höchstens 5000 Zeilen importiert werden.",
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
      "Kopplungscode erstellt. Geben Sie ihn innerhalb von 10 Minuten im Vor-Ort-Agenten ein: entegrasyon-agent pair CODE --server URL",
    paired: "Der Vor-Ort-Agent ist gekoppelt.",
    pairingCodeInvalid:
      "Der Kopplungscode ist ungültig, abgelaufen oder bereits verwendet. Holen Sie im Panel einen neuen Code und versuchen Sie es erneut.",
    revoked:
      "Der Zugang des Vor-Ort-Agenten wurde entzogen. Holen Sie einen neuen Kopplungscode, um ihn wieder zu verbinden.",
    offline:
      "Der Vor-Ort-Agent ist offline (zuletzt gesehen: {{lastSeen}}). Prüfen Sie den Rechner, auf dem er läuft, und seine Netzwerkverbindung.",
    cli: {
      usage:
        "Verwendung:\n  entegrasyon-agent pair CODE --server URL   Koppelt mit dem Code aus dem Panel\n  entegrasyon-agent run                      Verbindet sich mit dem Server und führt Anfragen aus\n  entegrasyon-agent status                   Zeigt den letzten Zustand",
      paired: "Gekoppelt (Agent Nr. {{agentId}}). Starten Sie ihn jetzt mit 'entegrasyon-agent run'.",
      pairFailed: "Kopplung fehlgeschlagen: {{reason}}",
      notPaired:
        "Dieser Agent ist noch nicht gekoppelt. Holen Sie im Panel einen Code und führen Sie zuerst 'entegrasyon-agent pair CODE --server URL' aus.",
      refused:
        "Der Server hat die Zugangsdaten dieses Agenten abgelehnt (der Zugang wurde eventuell entzogen). Holen Sie im Panel einen neuen Code und koppeln Sie erneut.",
      status:
        "Zustand: {{state}} · Server: {{server}} · zuletzt verbunden: {{connectedAt}} · letzter Fehler: {{lastError}}",
      serverUnreachable:
        "Der Server ist nicht erreichbar ({{code}}). Prüfen Sie die Adresse und die Internetverbindung dieses Rechners.",
      noStatus: "Noch kein Zustand gespeichert: Der Agent lief noch nie.",
    },
  },
};
