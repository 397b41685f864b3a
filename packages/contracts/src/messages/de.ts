import { type MessageCatalog, tr } from "./tr.ts";

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
    websiteInvalid: "Geben Sie eine gültige Webadresse ein (z. B. https://meinshop.com).",
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
    tooManyRegistrations:
      "Zu viele Registrierungen von dieser Verbindung. Bitte versuchen Sie es später erneut.",
    tooManyLoginAttempts:
      "Zu viele Anmeldeanfragen von dieser Verbindung. Bitte versuchen Sie es in einer Minute erneut.",
    captchaRequired: "Bitte bestätigen Sie, dass Sie kein Roboter sind.",
    captchaHarderRequired:
      "Zu viele fehlgeschlagene Anmeldeversuche. Zu Ihrer Sicherheit ist eine zusätzliche Überprüfung nötig; klicken Sie nach deren Abschluss erneut auf „Anmelden“.",
    captchaInvalid: "Die Überprüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.",
    unauthorized: "Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.",
    forbidden: "Sie sind für diesen Vorgang nicht berechtigt.",
    notFound: "Der gesuchte Datensatz wurde nicht gefunden.",
    conflict: "Dieser Datensatz wurde durch einen anderen Vorgang geändert. Bitte versuchen Sie es erneut.",
    rateLimited: "Zu viele Anfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.",
    busy: "Für Ihr Unternehmen werden gerade sehr viele Anfragen bearbeitet. Bitte versuchen Sie es in einigen Sekunden erneut.",
    internalError: "Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.",
    recoverMailSent:
      "Falls Ihre E-Mail-Adresse registriert ist, wurde ein Link zum Zurücksetzen des Passworts gesendet.",
    recoverMailFailed: "Beim Senden des Links zum Zurücksetzen des Passworts ist ein Fehler aufgetreten.",
    resetLinkInvalid: "Der Link zum Zurücksetzen des Passworts ist ungültig oder abgelaufen.",
    passwordReset: "Ihr Passwort wurde erfolgreich geändert. Sie werden zur Anmeldeseite weitergeleitet...",
    passwordUpdated: "Ihr Passwort wurde aktualisiert.",
    oldPasswordWrong: "Ihr aktuelles Passwort ist falsch.",
    loginCodeInvalid: "Der Anmeldecode ist ungültig oder abgelaufen.",
    partnerInstallFailed: "Die Shop-Installation konnte nicht abgeschlossen werden.",
    profileUpdated: "Ihre Angaben wurden aktualisiert.",
    companyUpdated: "Ihre Firmendaten wurden aktualisiert.",
    loggedOut: "Sie wurden abgemeldet.",
    ok: "Vorgang erfolgreich.",
  },
  /** Requests refused before any handler runs: transport, format and shared field rules. */
  request: {
    badRequest:
      "Die Anfrage konnte nicht gelesen werden. Bitte laden Sie die Seite neu und versuchen Sie es erneut.",
    badUrl:
      "Die Adresse enthält ungültige Zeichen. Bitte prüfen Sie die Adresse und versuchen Sie es erneut.",
    uriTooLong: "Die Adresse ist zu lang. Bitte versuchen Sie es mit einer kürzeren Adresse erneut.",
    headersTooLarge:
      "Die Kopfzeilen der Anfrage sind zu groß. Bitte löschen Sie die Cookies Ihres Browsers und versuchen Sie es erneut.",
    unsupportedMediaType:
      "Dieser Inhaltstyp wird nicht unterstützt. Bitte senden Sie die Daten als JSON oder als Formular.",
    malformedJson:
      "Die gesendeten Daten sind kein gültiges JSON. Bitte prüfen Sie den Inhalt und versuchen Sie es erneut.",
    malformedMultipart:
      "Die Formulardaten konnten nicht gelesen werden. Bitte senden Sie das Formular und seine Anhänge erneut.",
    bodyTooLarge: "Die gesendeten Daten sind zu groß. Bitte versuchen Sie es mit kleinerem Inhalt erneut.",
    timeout:
      "Die Anfrage wurde nicht rechtzeitig abgeschlossen. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.",
    textControlCharacter:
      "Der Text enthält ein nicht zulässiges Steuerzeichen. Bitte geben Sie den Text erneut ein.",
    idOutOfRange: "Eine Datensatznummer muss eine ganze Zahl zwischen 1 und 2.147.483.647 sein.",
    numberOutOfRange:
      "Die Zahl liegt außerhalb des zulässigen Bereichs. Bitte geben Sie einen kleineren Wert ein.",
    dateOutOfRange: "Das Datum muss zwischen den Jahren 1900 und 2999 liegen.",
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
    usageCredit:
      "{{system}}: {{calls}} kostenpflichtige Aufrufe in diesem Lauf; diesen Monat: {{month}} Aufrufe ({{credits}} Kontingentpunkte).",
    usageQuota:
      "{{system}}: {{read}} Lese- und {{write}} Schreibaufrufe in diesem Lauf; verbleibendes Kontingent: Lesen {{readLeft}} / Schreiben {{writeLeft}}.",
    quotaRefused:
      "Geplanter Lauf nicht gestartet: Der heutige Anteil am monatlichen Kontingent von {{system}} (Lesen {{readAllowance}} / Schreiben {{writeAllowance}}) reicht für einen Lauf (Lesen {{readNeed}} / Schreiben {{writeNeed}}) nicht aus. Verbleibend: Lesen {{readLeft}} / Schreiben {{writeLeft}}. Manuelle Läufe sind weiterhin möglich.",
    quotaWarning:
      "{{percent}} % des monatlichen API-Kontingents von {{system}} sind verbraucht (übrig: Lesen {{readLeft}} / Schreiben {{writeLeft}}). Ist es aufgebraucht, stoppen die Übertragungen bis Monatsende.",
    reportResolved:
      "{{count}} Datensätze, die in früheren Läufen fehlgeschlagen waren, wurden in diesem Lauf übertragen.",
    reportNotInShop:
      "{{count}} Datensätze wurden übersprungen, weil der Shop sie nicht kennt (zuerst die Produktübertragung ausführen).",
    reportReturnsCancelledInErp: "{{count}} stornierte Bestellungen wurden aus dem ERP entfernt.",
    reportReturnsPartial:
      "Bei {{count}} Bestellungen wurden einzelne Positionen retourniert ({{units}} Stück); buchen Sie diese Stückzahl im ERP als Retoure.",
    reportReturnsKeptInErp:
      "{{count}} stornierte oder retournierte Bestellungen bleiben im ERP (fakturiert oder nicht löschbar); buchen Sie die Retoure im ERP.",
    reportTransientLeft:
      "{{count}} Datensätze wurden nach einem vorübergehenden Fehler für den nächsten Lauf zurückgestellt.",
    reportCreateDisabled:
      "{{count}} Produkte fehlen im Shop und wurden nicht angelegt (das Anlegen ist in den Einstellungen ausgeschaltet).",
    reportCategoriesAdopted:
      "{{count}} Kategorien gab es im Shop bereits: nicht neu angelegt, mit den vorhandenen verknüpft.",
    retryUntouched:
      "Erneut versucht, aber der Datensatz wurde in diesem Lauf nicht übertragen: Er wurde nicht aus dem ERP gelesen oder hat kein Gegenstück im Shop. Prüfen Sie, ob er im ERP noch existiert und einem Shop-Produkt zugeordnet ist; wird er nicht mehr gebraucht, schließen Sie die Aufgabe.",
    runFailed: "Der Auftrag {{job}} ist fehlgeschlagen: {{reason}}",
    runPartiallyFailed:
      "Der Auftrag {{job}} wurde abgeschlossen, aber {{count}} Datensätze konnten nicht übertragen werden.",
    runRecovered: "Der Auftrag {{job}} ist wieder erfolgreich gelaufen.",
    runCrashed:
      "Der Auftrag {{job}} wurde unterbrochen (der ausführende Prozess wurde beendet). Der nächste Lauf setzt dort fort, wo er aufgehört hat.",
    runRefusedLicence: "{{job}} wurde nicht ausgeführt: Ihre Lizenz {{licence}} ist abgelaufen.",
    alreadyRunning: "Dieser Auftrag ist bereits in der Warteschlange oder läuft.",
    noShopStockLocation: "Der Shop hat keinen Lagerort.",
    vatRateMissing:
      "Bestellung wartet: Für die Artikelnummer {{skus}} gibt es im ERP keinen MwSt.-Satz (der Verkaufskanal liefert keinen; es gilt der Satz der ERP-Lagerkarte). Legen Sie die Lagerkarte mit MwSt.-Satz im ERP an; die Bestellung wird beim nächsten Lauf übertragen.",
    noErpPriceGroup: "Im ERP gibt es keine Preisgruppe.",
  },
  fileExchange: {
    notFileShop:
      "Dieser Shop arbeitet nicht mit Dateien: eine Bestelldatei wird nur für Shops ohne API wie JetStok hochgeladen.",
    unreadable: "Die Datei konnte nicht gelesen werden: Excel (.xlsx), CSV oder XML mit Kopfzeile.",
    tooLarge: "Die Datei ist zu groß: höchstens 20 MB.",
    notFileSystem:
      "Dieses ERP arbeitet nicht mit Dateien: Dateien gelten nur für Systeme ohne API (konfigurierte Zuordnung).",
    empty: "Die Datei ist leer.",
    tooManyRows: "Eine Datei darf höchstens 100.000 Zeilen haben (ohne Kopfzeile); teilen Sie die Datei auf.",
    tooManyColumns: "Eine Datei darf höchstens 100 Spalten haben.",
    cellTooLong: "Eine Zelle darf höchstens 32.767 Zeichen enthalten.",
    unpackedTooLarge:
      "Die Datei ist entpackt zu groß (höchstens 100 MB); sie ist beschädigt oder größer als nötig.",
    deleted: "Die Datei wurde gelöscht.",
  },
  connectors: {
    jetstok: {
      card: {
        cardTitle: "JetStok wird über Dateien verbunden",
        cardBody:
          "JetStok hat keine öffentliche API: die Verbindung läuft über die Dateien, die JetStok als Excel importiert und exportiert. Keine Einstellungen nötig.",
        stepStock:
          'Bestand und Preise: nach einer Bestands- oder Preisübertragung hier auf "Bestands- und Preisdatei herunterladen" klicken und die Datei im JetStok-Panel als Excel-Massenaktualisierung importieren.',
        stepOrders:
          "Bestellungen: die Bestellungen im JetStok-Panel als Excel exportieren und die Datei hier hochladen; die Bestellübertragung schreibt jede Bestellung einmal ins ERP (auch wenn dieselbe Datei oder Bestellung zweimal hochgeladen wird).",
        stockFile: "Bestands- und Preisdatei herunterladen",
        noStockFile:
          "Noch keine Bestands- und Preisdatei: zuerst die Bestands- oder Preisübertragung ausführen.",
        stockFileAt: "Zuletzt aktualisiert: {{at}} ({{count}} Produkte)",
        ordersHelp:
          "Die Bestelldatei, die Sie aus dem JetStok-Panel exportiert haben (Excel oder CSV, Kopfzeile in der ersten Zeile). Jede Zeile wird geprüft und gespeichert; dieselbe Datei wird nicht zweimal übernommen.",
        ordersUsed:
          "Die nächste Bestellübertragung liest die Bestellungen dieser Datei; jede Bestellung wird einmal ins ERP geschrieben.",
        ordersUpload: "JetStok-Bestelldatei hochladen",
        ordersFiles: "Hochgeladene Bestelldateien",
      },
      connected:
        "JetStok über Dateien verbunden: die Bestands- und Preisdatei wird heruntergeladen, die Bestelldatei hochgeladen.",
      noCatalogue:
        "Produkte und Kategorien werden nicht per Datei an JetStok gesendet; Produkte in JetStok anlegen, die Bestands- und Preisdatei ordnet sie über den Artikelcode zu.",
      noStatus:
        "Bestellstatus können nicht an JetStok gesendet werden (keine API); sie werden in JetStok aktualisiert.",
      noInvoice:
        "Rechnungen können nicht an JetStok gesendet werden (keine API); sie werden in der Rechnungsansicht heruntergeladen.",
      location: "JetStok-Bestand",
      rows: {
        missing: "{{column}} ist leer",
        badNumber: "{{column}} ist keine Zahl: {{value}}",
        badDate: "{{column}} ist kein Datum: {{value}}",
        notPositive: "{{column}} muss größer als null sein",
        noColumn: "Die Datei hat keine Spalte {{column}}",
      },
    },
    genericSql: {
      queries: {
        products: "Produkt",
        stock: "Bestand",
        prices: "Preis",
        categories: "Kategorie",
        orderLookup: "Bestellsuche",
        orderWrite: "Bestellschreiben",
      },
      unknownParam: "Unbekannter Parameter in der Abfrage {{what}}: @{{name}}. Erlaubt: {{allowed}}.",
      empty: "Die Abfrage {{what}} ist leer.",
      oneStatement: "Schreiben Sie für {{what}} eine einzige SQL-Anweisung.",
      guard: {
        refused: "Nicht erlaubte Anweisung in der Abfrage {{what}}: {{part}}",
        char: "Nicht erlaubtes Zeichen in der Abfrage {{what}}: {{part}} (nur in Texten in Anführungszeichen).",
        lookalike:
          "Name mit ähnlich aussehenden Buchstaben eines anderen Alphabets in der Abfrage {{what}}: {{part}}",
        unterminated: "Nicht geschlossenes {{part}} in der Abfrage {{what}}",
        nestedComment:
          "Verschachtelter Kommentar in der Abfrage {{what}}: {{part}} (Kommentarzeichen sind im Kommentar nicht erlaubt).",
        stacked: "Schreiben Sie für {{what}} eine einzige SQL-Anweisung (zweite Anweisung: {{part}}).",
        shape:
          "Die Abfrage {{what}} muss ein SELECT oder ein WITH nur aus SELECTs sein; nicht erlaubt: {{part}}",
        linkedServer: "Name, der auf einen anderen Server zugreift, in der Abfrage {{what}}: {{part}}",
        procedure: "Nicht erlaubter Prozeduraufruf in der Abfrage {{what}}: {{part}}",
        parseAt:
          'Die Abfrage {{what}} konnte nicht gelesen werden: "{{found}}" in Zeile {{line}}, Spalte {{column}} nicht erwartet.',
      },
      parse: "Die Abfrage {{what}} konnte nicht gelesen werden: {{detail}}",
      selectOnly:
        "Die Abfrage {{what}} darf nur ein SELECT sein (datenändernde Anweisungen werden nicht ausgeführt).",
      writeKind:
        "Das Schreiben der Bestellung muss ein Prozeduraufruf (EXECUTE PROCEDURE / EXEC) oder ein einzelnes INSERT sein.",
      insertParamsOnly: "In der INSERT-Vorlage der Bestellung dürfen Werte nur @Parameter sein.",
      missingColumn: "Keine Spalte für {{field}} in der Zuordnung {{what}} gewählt.",
      unknownField: "Unbekanntes Feld in der Zuordnung {{what}}: {{field}}.",
      badIdentifier: '{{what}}: "{{column}}" ist kein gültiger Spaltenname (Buchstaben, Ziffern und _).',
      configJson: "Die SQL-Verbindungseinstellungen konnten nicht gelesen werden (ungültiges JSON).",
      lookupRequired:
        "Legen Sie vor dem Schreiben die Bestellsuche (mit @ref) an: die Bestellung wird vor dem Schreiben gesucht, damit sie nie doppelt geschrieben wird.",
      badNumber: "{{field}} muss eine ganze Zahl zwischen 1 und 10 sein.",
      columnAbsent: "Das Abfrageergebnis hat keine Spalte {{column}} (zugeordnet zu {{field}}).",
      rowEmpty: "{{field}} ist leer.",
      rowNotNumber: '{{field}} ist keine Zahl: "{{value}}".',
      rowNotBool: '{{field}} ist kein Ja/Nein-Wert: "{{value}}".',
      rowVat: "Ungültiger MwSt.-Satz: {{value}} (0, 1, 10 oder 20).",
      rowNegative: "{{field}} darf nicht negativ sein.",
      readFromFile:
        "{{what}} aus einer Datei gelesen: {{file}} ({{source}}, {{at}}, {{rows}} Zeilen); statt der Abfrage gilt die zuletzt angenommene Datei.",
      fileSource: { panel: "im Panel hochgeladen", agent: "aus dem überwachten Ordner" },
      filesOnly:
        "{{system}}: keine Abfrage definiert; Produkte, Bestand und Preise kommen aus den hochgeladenen Dateien.",
      ordersFile:
        "Bestellungen in eine Datei geschrieben: {{file}} ({{count}} Bestellungen); im Panel herunterladen.",
      noTransport:
        "Die Datenbank ist über das lokale Verbindungsprogramm nicht erreichbar: koppeln Sie es und geben Sie den Datenbank-Alias ein.",
      queryFailed: "Die Abfrage {{what}} schlug in der Datenbank fehl: {{detail}}",
      notConfigured:
        'Keine Abfrage {{what}} definiert; fügen Sie sie im Abschnitt "Mit SQL verbinden" hinzu.',
      tooManyRows:
        "Die Abfrage {{what}} lieferte mehr als {{cap}} Zeilen; legen Sie eine Schlüsselspalte fest, um seitenweise zu lesen.",
      connected: "Die {{system}}-Datenbank wird über eine konfigurierte Zuordnung gelesen.",
      orderNotFound:
        "Bestellung {{orderNo}} wurde geschrieben, aber die Suchabfrage findet sie nicht; prüfen Sie die Suchabfrage. Die Bestellung wurde nicht erneut gesendet, damit sie nicht doppelt geschrieben wird.",
    },
    einvoiceNotProductSource:
      "Diese Verbindung ist ein E-Rechnungsdienst und keine Produktquelle. Produkte, Bestände, Preise und Bestellungen werden daraus nicht gelesen; sie sendet nur e-Fatura-/e-Arşiv-Rechnungen und fragt deren Status ab. Verbinden Sie Ihr ERP für Produkte separat.",
    mikroMethodMissing:
      "Ihr Mikro-Server ({{version}}) bietet die Methode {{method}} nicht an; das Lesen von Beständen, Preisen, Kategorien und Bestellungen hängt davon ab. Aktualisieren Sie auf Mikro Jump V17 oder lassen Sie {{method}} von Ihrem Mikro-Händler im API-Dienst freischalten, und testen Sie dann die Verbindung erneut.",
    mikroVatRateMissing:
      "Der MwSt.-Satz von {{rate}} % steht nicht in der Steuertabelle von Mikro (VergiListesiV2); die Bestellung {{orderNo}} wurde nicht in Mikro geschrieben. Legen Sie den Satz in Mikro an oder korrigieren Sie den MwSt.-Satz des Produkts; die Bestellung wird beim nächsten Lauf erneut versucht.",
    mikroVatPointerUnknown:
      "Einige Mikro-Lagerkarten verweisen auf einen MwSt.-Eintrag ({{pointer}}), der nicht in der Steuertabelle steht: {{skus}}. Korrigieren Sie in Mikro das Einzelhandels-Steuerfeld dieser Karten; bis dahin werden diese Produkte nicht übertragen.",
    mikroOrderNotFound:
      "Die Bestellung {{orderNo}} wurde an Mikro gesendet, konnte aber über ihre Belegnummer nicht wiedergefunden werden. Prüfen Sie in Mikro die Bestellung mit dieser Belegnummer; sie wurde nicht erneut gesendet, damit sie nicht doppelt geschrieben wird.",
    d365VatGroupUnknown:
      'D365-Produkt {{sku}}: Die Artikel-Mehrwertsteuergruppe "{{group}}" hat in der Zuordnung keinen MwSt.-Satz. Fügen Sie die Gruppe mit ihrem Satz unter "Artikel-Mehrwertsteuergruppen" in den Verbindungseinstellungen hinzu; bis dahin wird das Produkt nicht übertragen.',
    d365VariantUnknown:
      "Die D365-Bestandszeile {{key}} gehört zu keiner freigegebenen Produktvariante. Geben Sie die Variante für diese Dimensionskombination in D365 frei; bis dahin wird ihr Bestand nicht übertragen.",
    d365ItemsUnknown:
      "In D365 wurde kein freigegebenes Produkt und keine Variante gefunden: {{skus}}. Geben Sie die Produkte im Unternehmen frei oder korrigieren Sie die Artikelnummern der Bestellzeilen; die Bestellung wurde nicht geschrieben.",
    d365VatGroupsMalformed:
      'Die Zuordnung der Artikel-Mehrwertsteuergruppen konnte nicht gelesen werden: "{{entry}}". Das Format ist GRUPPE=SATZ;GRUPPE=SATZ, z. B. KDV20=20;KDV10=10.',
    entegraWriteUnsupported:
      "Die Entegra-Verbindung ist schreibgeschützt: Produkte, Bestände, Preise und Kategorien werden aus Entegra gelesen. Es gibt keinen geprüften Weg, Bestellungen und Kunden in Entegra zu schreiben, daher werden Bestellungen nicht übertragen. Verbinden Sie ein ERP, das Bestellungen annimmt, um sie zu übertragen.",
    shopierOrderWriteUnsupported:
      "Als ERP verbunden ist Shopier die Quelle für Produkte, Bestände und Preise. Auf Shopier aufgegebene Bestellungen sind dort bereits erfasst; Bestellungen und Kunden aus anderen Shops können nicht in Shopier geschrieben werden, und Rechnungen werden nicht aus Shopier gelesen (die Shopier-API bietet diese Vorgänge nicht).",
    shopierAuthMissing:
      "Die Shopier-Verbindung braucht entweder ein persönliches Zugriffstoken (PAT) oder client_id, client_secret und Refresh-Token der OAuth-App.",
    shopierVatRateInvalid:
      'Der MwSt.-Satz "{{rate}}" in der Shopier-Verbindung ist ungültig. Geben Sie 0, 1, 10 oder 20 ein; bis dahin werden keine Produkte übertragen.',
    n11ListingUnsupported:
      "Produkte werden auf n11 über das Produkt-Listing des Kanals eingestellt: Ordnen Sie Ihre ERP-Kategorien in der Kategoriezuordnung des Kanals n11-Kategorien zu. Einzelne Produktschreibvorgänge und das Anlegen von Kategorien auf n11 gibt es nicht.",
    n11ShipmentTemplateMissing:
      "Um Produkte auf n11 einzustellen, tragen Sie in den Verbindungseinstellungen den Namen Ihrer Versandvorlage aus dem n11 Seller Office ein; n11 stellt jedes Produkt mit einer Versandvorlage ein.",
    n11InvoiceLinkUnsupported:
      "n11 nimmt Rechnungslinks nur über seinen alten SOAP-Dienst (SellerInvoiceService) an; diese Verbindung sendet die Rechnung nicht an n11, laden Sie sie im n11 Seller Office hoch.",
    n11TrackingNumberIsN11s:
      "Bei n11 vergibt n11 die Sendungsnummer (Kampagnencode); sie wird mit der Bestellung gelesen und nicht an n11 gesendet.",
    lucaKozaOrderUnsupported:
      "LucaKoza hat keinen Dienst zum Anlegen von Verkaufsaufträgen; Bestellungen, Kundenkarten und Rechnungen werden über diese Verbindung nicht an LucaKoza übertragen. Aus LucaKoza werden Lagerkarten, Lagerbestände, Preise und Kategorien gelesen.",
    lucaKozaBranchChoice:
      'Der Luca-Koza-Benutzer hat mehr als ein Unternehmen/eine Filiale; tragen Sie eines im Feld "Unternehmens-/Filial-ID" der Verbindungseinstellungen ein: {{names}}',
    amazonListingUnknown:
      "Auf Amazon.com.tr gibt es kein Angebot mit der SKU {{sku}}. Legen Sie das Produkt in Seller Central an oder gleichen Sie den Lagercode an die Amazon-SKU an; Bestand und Preis werden bis dahin nicht gesendet.",
    amazonFeedRefused: "Amazon hat den für {{sku}} gesendeten Wert abgelehnt: {{reason}}",
    amazonFeedPending:
      "Der Amazon-Feed ist noch nicht verarbeitet ({{sku}}); der Wert wird im nächsten Lauf erneut gesendet.",
    amazonTrackingRequired:
      "Den Status einer Amazon-Bestellung setzt Amazon; geben Sie eine Sendungsnummer ein, um den Versand zu bestätigen.",
    amazonListingUnsupported:
      "Produkte werden nicht einzeln zu Amazon geschrieben und Produkttypen nicht angelegt: Ordnen Sie Ihre ERP-Kategorie in der Kategoriezuordnung des Kanals einem Amazon-Produkttyp, einer Marke und Attributen zu; der Produktübertragungs-Job legt die Produkte auf Amazon an, Bestand und Preise fließen mit den Jobs des Kanals.",
    amazonInvoiceUnsupported:
      "Rechnungen zu Bestellungen bei Amazon Türkiye werden in Seller Central hochgeladen: Die Amazon-API bietet für die Türkei keinen Weg, einen Rechnungslink zu senden.",
  },
  failure: {
    someSystem: "Das ERP oder der Shop",
    network:
      "Keine Verbindung zu {{system}} möglich. Prüfen Sie die Verbindungseinstellungen und versuchen Sie es mit „Verbindung testen“ erneut.",
    timeout:
      "{{system}} hat nicht rechtzeitig geantwortet. Die Aufgabe wird beim nächsten Lauf erneut versucht; besteht das Problem weiter, prüfen Sie, ob das System läuft und die Verbindungseinstellungen stimmen.",
    serverError:
      "{{system}} hat auf seiner Seite einen Fehler gemeldet. Die Aufgabe wird beim nächsten Lauf erneut versucht; besteht das Problem weiter, wenden Sie sich an den Anbieter des Systems.",
    rateLimited:
      "{{system}} hat wegen zu vieler Anfragen vorübergehend Anfragen abgewiesen. Die Aufgabe macht beim nächsten Lauf dort weiter, wo sie aufgehört hat; Sie müssen nichts tun.",
    lock: "Der Datensatz war in {{system}} durch einen anderen Vorgang gesperrt. Die Aufgabe wird beim nächsten Lauf erneut versucht.",
    blocked:
      "{{system}} hat den Zugriff vorübergehend gesperrt. Warten Sie etwas und versuchen Sie es erneut; besteht das Problem weiter, wenden Sie sich an den Anbieter des Systems.",
    unavailable:
      "{{system}} ist gerade nicht erreichbar (Wartung oder hohe Auslastung). Die Aufgabe wird beim nächsten Lauf erneut versucht.",
    auth: "{{system}} hat die Zugangsdaten nicht akzeptiert. Prüfen Sie Benutzer, Passwort und Schlüssel in den Verbindungseinstellungen und versuchen Sie es mit „Verbindung testen“ erneut.",
    validation:
      "{{system}} hat diesen Datensatz nicht akzeptiert. Korrigieren Sie die Angaben des Datensatzes (Name, Preis, Barcode, MwSt. usw.) und versuchen Sie es im Bildschirm „Fehlgeschlagene Aufgaben“ erneut.",
    notFound:
      "Dieser Datensatz wurde in {{system}} nicht gefunden. Prüfen Sie, ob er in beiden Systemen vorhanden ist, und versuchen Sie es im Bildschirm „Fehlgeschlagene Aufgaben“ erneut.",
    unknownItem:
      "Eine Definition, die dieser Datensatz verwendet (Lagerkarte, Lager, Kundenkonto usw.), wurde in {{system}} nicht gefunden. Legen Sie sie an oder korrigieren Sie die Zuordnungen und versuchen Sie es dann im Bildschirm „Fehlgeschlagene Aufgaben“ erneut.",
    conflict:
      "{{system}} hat diesen Datensatz nicht akzeptiert, weil er mit einem vorhandenen Datensatz kollidiert. Prüfen Sie den Datensatz und versuchen Sie es im Bildschirm „Fehlgeschlagene Aufgaben“ erneut.",
    unsupported: "{{system}} unterstützt diesen Vorgang nicht. Sie können ein Support-Ticket erstellen.",
    jobUnsupported:
      "{{system}} kann diese Aufgabe nicht ausführen: {{why}} Die Aufgabe wurde nicht ausgeführt; Sie können sie im Bereich Aufgaben deaktivieren.",
    badResponse:
      "{{system}} hat eine unverständliche Antwort gegeben. Die Aufgabe wird beim nächsten Lauf erneut versucht; besteht das Problem weiter, erstellen Sie ein Support-Ticket.",
    config:
      "Die Verbindungsdaten von {{system}} fehlen oder sind falsch. Prüfen Sie die Verbindungseinstellungen und versuchen Sie es mit „Verbindung testen“ erneut.",
    database:
      "Beim Speichern der Datensätze in der Datenbank des Panels ist ein Problem aufgetreten. Die Aufgabe wird beim nächsten Lauf erneut versucht; besteht das Problem weiter, erstellen Sie ein Support-Ticket.",
    unexpected:
      "Die Aufgabe konnte wegen eines unerwarteten Problems nicht abgeschlossen werden. Sie wird beim nächsten Lauf erneut versucht; besteht das Problem weiter, erstellen Sie ein Support-Ticket.",
    systemSaid: "{{text}} Antwort des Systems: „{{said}}“",
    bindingConflict:
      "{{key}} wurde nicht übertragen: Dasselbe Shop-Produkt ist dem ERP-Code {{heldBy}} zugeordnet. Ein Shop-Produkt kann nur einem ERP-Artikel entsprechen; korrigieren Sie die Zuordnung im Bildschirm „ERP-Zuordnungen“ und versuchen Sie es dann im Bildschirm „Fehlgeschlagene Aufgaben“ erneut.",
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
    fileImportDeleted: "Hochgeladene Datei gelöscht: {{detail}}",
    failedTasksRetried: "{{detail}} fehlgeschlagene Aufgaben wurden erneut versucht.",
    ticketCreated: "Support-Ticket eröffnet: {{detail}}",
    ticketReplied: "Support-Ticket beantwortet: {{detail}}",
    ticketClosed: "Support-Ticket geschlossen: {{detail}}",
    profileUpdated: "Profildaten aktualisiert.",
    companyUpdated: "Firmendaten aktualisiert.",
    passwordChanged: "Passwort geändert.",
    erpMatchingChanged: "ERP-Zuordnung geändert ({{detail}}).",
    retentionChanged: "Aufbewahrungsfristen geändert ({{detail}}).",
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
      "Die Verbindungseinstellungen sind noch nicht gespeichert. Geben Sie Ihre Daten in den Verbindungseinstellungen ein und testen Sie sie.",
    connectionRunOk: "Der letzte Aufgabenlauf am {{date}} hat dieses System ohne Probleme erreicht.",
    connectionRunFailed:
      "Der letzte Aufgabenlauf am {{date}} konnte keine Verbindung zu diesem System herstellen. {{reason}}",
  },
  connectionSettings: {
    supportEnded:
      "Der Herstellersupport für {{system}} ({{version}}) endete am {{date}}: Sicherheits- und Fehlerkorrekturen werden nicht mehr veröffentlicht. Die Verbindung funktioniert weiter; bitte planen Sie den Wechsel auf eine unterstützte Version.",
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
      "{{system}} war nicht erreichbar. Bitte geben Sie seine über das Internet erreichbare Adresse ein; unser Server verbindet sich nicht mit lokalen oder privaten Netzwerkadressen, Systeme in Ihrem Firmennetz verbinden sich über den vor Ort laufenden Agenten.",
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
    systemRequestSubject: "Verbindungsanfrage für {{system}}",
    systemRequestBody:
      "Für {{system}} gibt es noch keinen fertigen Connector. Da Sie das System bei der Registrierung gewählt haben, haben wir diese Anfrage für Sie eröffnet: Unser Team meldet sich und richtet die Verbindung mit Ihnen ein (bei Bedarf über den lokalen Agenten oder eine SQL-/Datei-Zuordnung). Bis dahin können Sie das Produkt mit „Mit Testsystemen verbinden“ unter Einstellungen → API-Verbindungseinstellungen ausprobieren.",
    mailNewSubject: "Neues Ticket #{{id}}: {{subject}}",
    mailNewBody:
      "{{name}} von {{company}} hat ein neues Ticket eröffnet.\n\nKategorie: {{category}}\nBetreff: {{subject}}\n\n{{message}}\n\nSupport-Konsole: {{link}}",
  },
  partnerInstall: {
    logoCompanyName: "Logo-Is-Basi-Firma {{tenant}}",
    causes: {
      partner_not_configured:
        "Die {{system}}-App-Daten ({{missing}}) sind auf dem Server nicht gesetzt; bitten Sie Ihren Administrator, sie als Umgebungsvariablen zu setzen (README, Konfigurationstabelle) und den Server neu zu starten.",
      partner_unavailable:
        "Die {{system}}-Verbindung ist noch nicht verfügbar (demnächst). Verbinden Sie vorerst eines der anderen Shopsysteme im Panel.",
      store_missing:
        "Der Link enthält keine gültige {{system}}-Shopadresse. Starten Sie die Installation erneut über die App-Seite in Ihrem {{system}}-Verwaltungsbereich.",
      state_mismatch:
        "Diese Installation wurde nicht in diesem Browser gestartet oder ihre 15 Minuten sind abgelaufen. Starten Sie sie im selben Browser erneut über {{system}}.",
      callback_invalid:
        "Die Signatur der {{system}}-Antwort konnte nicht geprüft werden; der Link ist eventuell verändert oder alt. Starten Sie die Installation erneut über {{system}}.",
      code_refused:
        "{{system}} hat den Freigabecode nicht angenommen (er gilt einmal und kurz). Starten Sie die Installation erneut; wiederholt es sich, prüfe Ihr Administrator Client-ID und Secret der App.",
      store_unreachable:
        "Ihr {{system}}-Shop ist gerade nicht erreichbar. Versuchen Sie die Installation in einigen Minuten erneut.",
    },
  },
  webhooks: {
    tooManyDeliveries: "Zu viele Benachrichtigungen; Bestellungen werden in Kürze geprüft.",
    badSignature: "Die Signatur der Benachrichtigung konnte nicht geprüft werden.",
    noShopConnection: "Bitte speichern Sie zuerst die Shop-Verbindung.",
    unsupported:
      "Dieses Shopsystem unterstützt keine Webhooks; Bestellungen werden alle 5 Minuten abgefragt.",
    noSecret:
      "Geben Sie den geheimen Schlüssel der App in den Shop-Verbindungseinstellungen ein, damit Benachrichtigungen geprüft werden können.",
    registered: "Webhooks wurden registriert.",
    registerFailed:
      "Webhooks konnten nicht registriert werden; Bestellungen werden weiterhin alle 5 Minuten abgefragt.",
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
      "Dieses Shop-Produkt ist bereits einem anderen ERP-Lagercode zugeordnet. Ein Shop-Produkt kann nur einem ERP-Artikel entsprechen: Wählen Sie ein anderes Shop-Produkt.",
    bindingTakenRow:
      "Das Shop-Produkt {{shopSku}} ist bereits dem ERP-Code {{heldBy}} zugeordnet; ein Shop-Produkt kann nur einem ERP-Artikel entsprechen.",
  },
  einvoices: {
    sellerIncomplete:
      "In den Firmeneinstellungen fehlen Angaben für die E-Rechnung (Steuernummer, Finanzamt, Adresse). Ergänzen Sie sie unter Einstellungen › Firma und versuchen Sie es erneut.",
    title: "Rechnungen",
    notFound: "Rechnung nicht gefunden.",
    noProvider:
      "Für diese Firma ist kein E-Rechnungsdienst verbunden. Fügen Sie die Uyumsoft-, Trendyol e-Faturam- oder LucaPortal-Verbindung im Abschnitt „E-Rechnungsdienst“ unter Einstellungen › API-Verbindungen hinzu.",
    cancelNotEArchive:
      "Nur e-Archiv-Rechnungen können storniert werden; eine e-Rechnung muss der Käufer ablehnen oder per Retourenrechnung ausgeglichen werden.",
    cancelTooLate:
      "Die Stornofrist ist abgelaufen (8 Tage nach Ausstellung der e-Archiv-Rechnung). Die Rückgabe wird mit der Rückgaberechnung des Käufers oder einem Ausgabenbeleg belegt.",
    cancelState: "Diese Rechnung kann in ihrem aktuellen Status nicht storniert werden.",
    linkInvalid: "Der Link ist ungültig oder abgelaufen. Fordern Sie beim Shop einen neuen Link an.",
    pdfUnavailable:
      "Das Rechnungs-PDF kann gerade nicht vom E-Rechnungsdienst abgerufen werden. Versuchen Sie es in einigen Minuten erneut.",
    colNumber: "Rechnungsnr.",
    colOrder: "Bestellung",
    colBuyer: "Käufer",
    colTotal: "Betrag",
    colType: "Art",
    colStatus: "GİB-Status",
    colDate: "Datum",
    pdf: "PDF",
    cancel: "Stornieren",
    cancelReason: "Stornogrund",
    from: "Von",
    to: "Bis",
    status: "Status",
    all: "Alle",
    empty: "Keine Rechnungen passen zu diesem Filter.",
    run: "Jetzt fakturieren",
    runDone: "{{prepared}} Rechnungen vorbereitet, {{sent}} gesendet.",
    typeEArchive: "e-Archiv",
    typeEInvoice: "e-Rechnung",
    st_prepared: "Vorbereitet",
    st_draft: "Entwurf (wartet auf Freigabe)",
    st_queued: "In der Warteschlange",
    st_sent: "An GİB übermittelt",
    st_approved: "Angenommen",
    st_rejected: "Abgelehnt",
    st_cancelled: "Storniert",
    st_error: "Fehler",
    st_generated: "Erstellt (zum Hochladen ins Portal)",
    kind_SATIS: "Verkauf",
    kind_IADE: "Rückgabe",
    colKind: "Rechnungsart",
    returnOf: "Storniert: {{number}}",
    exportTitle: "Exportieren",
    exportHint:
      "Die Rechnungen des gewählten Zeitraums (ohne Datum: heute) werden als Excel-Liste oder als UBL-TR-XML-Dateien (zip) heruntergeladen. Laden Sie diese Dateien in Portale ohne API (LucaPortal) hoch.",
    exportXlsx: "Excel herunterladen",
    exportUbl: "UBL (zip) herunterladen",
    exportRangeInvalid:
      "Das Startdatum darf nicht nach dem Enddatum liegen; der Zeitraum umfasst höchstens 366 Tage.",
    export_sheet: "Rechnungen",
    export_number: "Rechnungsnr.",
    export_ettn: "ETTN",
    export_date: "Datum",
    export_type: "Art",
    export_profile: "Szenario",
    export_returnOf: "Zurückgegebene Rechnung",
    export_orderNo: "Bestellnr.",
    export_buyer: "Käufer",
    export_buyerId: "Steuernr.",
    export_net: "Bemessungsgrundlage",
    export_vat: "MwSt.",
    export_total: "Summe",
    export_currency: "Währung",
    export_state: "Status",
    why_rejected:
      "Der Käufer hat die Rechnung abgelehnt. Prüfen Sie die Bestellung und stellen Sie bei Bedarf eine korrigierte Rechnung aus.",
    why_error:
      "Der E-Rechnungsdienst hat die Rechnung nicht angenommen. Korrigieren Sie Firmeneinstellungen oder Bestelldaten laut Fehlertext; sie wird nicht automatisch wiederholt, wenden Sie sich an den Support.",
    why_prepared:
      "Die Nummer ist reserviert, der Versand läuft. Kommt keine Antwort, wird per ETTN nachgefragt; für dieselbe Bestellung entsteht keine zweite Rechnung.",
    documentNotOut:
      "Diese Rechnung hat den E-Rechnungsdienst noch nicht erreicht (oder wurde abgelehnt); es gibt kein Dokument zum Anzeigen.",
    exportEmpty:
      "Im gewählten Zeitraum gibt es keine Rechnungen zum Exportieren. Wählen Sie einen anderen Zeitraum.",
    rateSaved: "Kurs gespeichert.",
    rateCurrencyInvalid:
      "Die Währung muss ein 3-stelliger ISO-Code sein (z. B. USD, EUR); für TRY ist kein Kurs nötig.",
    rateInvalid: "Der Kurs muss eine Zahl größer als null sein (TRY je Einheit).",
    returnCancelNote: "Bestellung zurückgegeben / storniert",
    waitingRate:
      "{{count}} Fremdwährungsbestellungen warten auf einen Kurs ({{currencies}}). Geben Sie den Kurs im Abschnitt Wechselkurse der Rechnungsseite ein; sie werden beim nächsten Lauf fakturiert.",
    waitingVat:
      "{{count}} Bestellungen warten auf einen MwSt.-Satz: Für die Artikelnummern {{skus}} gibt es im ERP keinen (der Verkaufskanal liefert keinen). Legen Sie die Lagerkarten im ERP an; die Rechnungen werden beim nächsten Lauf erstellt.",
    waitingData:
      "{{count}} Bestellungen warten auf ihr e-Archiv: {{reasons}}. Ergänzen Sie das Fehlende; sie werden beim nächsten Lauf fakturiert.",
    ratesTitle: "Wechselkurse",
    ratesHint:
      "Eine Fremdwährungsbestellung ohne eigenen Kurs wird zum neuesten Kurs fakturiert, den Sie am oder vor dem Rechnungsdatum eingegeben haben. Kurse werden nie geschätzt: ohne Kurs wartet die Rechnung.",
    rateCurrency: "Währung",
    rateDate: "Kursdatum",
    rateValue: "Kurs (1 Einheit = TRY)",
    rateAdd: "Kurs speichern",
    rateDelete: "Löschen",
    ratesEmpty: "Sie haben noch keinen Kurs eingegeben.",
    waitingRateAlert:
      "Kein {{currency}}-Kurs: {{orders}} Bestellungen warten auf die Rechnung. Geben Sie unten den {{currency}}-Kurs ein; sie werden beim nächsten Lauf fakturiert.",
    colRate: "Kurs",
    rateFrom_order: "Kurs der Bestellung",
    rateFrom_merchant: "Ihr Kurs",
    returnPart: "Teilretoure: {{lines}} — {{amount}}",
    return_cancel: "Rückgabe: e-Archiv-Stornierung",
    return_iade: "Rückgabe: der Käufer stellt eine Rückgaberechnung aus",
    return_none: "Rückgabe: Ausgabenbeleg",
    st_delivered: "ERP-Rechnung an den Shop übertragen",
    sourceErp: "ERP-Rechnung",
    trackingNumber: "Sendungsnummer",
    carrier: "Versanddienstleister",
    shipmentSave: "Speichern",
    trackingSent: "An den Marktplatz gesendet",
    trackingWaiting: "Wird nach dem Rechnungslink an den Marktplatz gesendet",
    count: "{{total}} Rechnungen in diesem Zeitraum",
    countSplit: "(E-Rechnungsdienst: {{service}}, ERP: {{erp}})",
    route_service: "Webbestellungen werden über Ihren E-Rechnungsdienst fakturiert.",
    route_erpService: "Rechnungen werden über den als ERP verbundenen E-Rechnungsdienst ausgestellt.",
    route_erp:
      "Ihr ERP stellt die Rechnungen aus; das Panel überträgt die ERP-Rechnung zur Shop-Bestellung. Stellt Ihr ERP keine E-Rechnungen aus, fügen Sie einen E-Rechnungsdienst hinzu.",
    addService: "E-Rechnungsdienst hinzufügen",
    view: "Anzeigen",
    customerLink: "Kundenlink",
    linkCopied: "Kundenlink kopiert.",
    pdfDownload: "Als PDF herunterladen",
    returnWhy: {
      cancelWithinPeriod:
        "Die e-Archiv-Rechnung lag in ihrer 8-tägigen Stornofrist: nach den GİB-Regeln wurde sie beim E-Rechnungsdienst storniert.",
      buyerIssuesIade:
        "Der Käufer ist E-Rechnungsnutzer: er stellt die Rückgaberechnung (TEMELFATURA) aus und sendet sie Ihnen; Sie stellen nichts aus.",
      companyBuyerIssues:
        "Der Käufer ist eine Firma: er stellt die Rückgaberechnung aus; Sie stellen nichts aus.",
      partialConsumer:
        "Teilretoure eines Verbrauchers: das e-Arşiv wurde nicht storniert (nur als Ganzes möglich); belegen Sie die retournierten Positionen mit einem Gider Pusulası.",
      consumerAfterPeriod:
        "Rückgabe eines Verbrauchers nach der 8-tägigen Stornofrist: Verbraucher stellen keine Rechnung aus; belegen Sie die Rückgabe mit einem Ausgabenbeleg (gider pusulası).",
      cancelRefused:
        "Der E-Rechnungsdienst hat die Stornierung abgelehnt: prüfen Sie den Status der Rechnung im Portal des Dienstes.",
      noApi:
        "Das Portal hat keine API: stornieren Sie die e-Archiv-Rechnung innerhalb von 8 Tagen im Portal (LucaPortal).",
    },
    settings: "Rechnungseinstellungen",
    series: "Rechnungsserie",
    draft: "Als Entwurf senden (im Dienstportal freigeben)",
    invoiceWhen: "Welche Bestellungen fakturieren",
    when_paid: "Bezahlte",
    when_shipped: "Versandte",
    when_all: "Alle",
    save: "Speichern",
    saved: "Gespeichert.",
    seriesInvalid: "Die Serie muss aus 3 Buchstaben oder Ziffern bestehen (z. B. WEB).",
  },
  salesExport: {
    rangeInvalid:
      "Das Startdatum darf nicht nach dem Enddatum liegen. Korrigieren Sie die Daten und versuchen Sie es erneut.",
    sheet: "Verkaufsbericht",
    orderNo: "Bestellnr.",
    date: "Datum",
    customer: "Kunde",
    state: "Status",
    amount: "Betrag",
    currency: "Währung",
    total: "Summe",
    received: "Eingegangen",
    mapped: "Zugeordnet",
    sent: "An ERP gesendet",
    confirmed: "Bestätigt",
    failed: "Fehlgeschlagen",
    needs_review: "Prüfung ausstehend",
  },
  einvoice: {
    doc: {
      return: {
        cancelWithinPeriod:
          "Die e-Arşiv-Rechnung liegt in ihrer 8-tägigen Stornofrist: Sie wird storniert, keine Rückgaberechnung.",
        buyerIssuesIade:
          "Der Käufer ist e-Fatura-Nutzer: Er stellt die Rückgaberechnung (TEMELFATURA) aus; das Panel stellt keine aus.",
        companyBuyerIssues:
          "Der Käufer ist ein Unternehmen: Er stellt die Rückgaberechnung aus (Papier oder e-Arşiv); das Panel stellt keine aus.",
        partialConsumer:
          "Teilretoure eines Verbrauchers: ein e-Arşiv kann nur ganz storniert werden; belegen Sie die retournierten Positionen mit einem Gider Pusulası.",
        consumerAfterPeriod:
          "Die Stornofrist (8 Tage) ist abgelaufen und der Käufer ist Verbraucher und stellt keine Rechnung aus: Erfassen Sie die Rückgabe mit einem Ausgabenbeleg (gider pusulası).",
      },
    },
  },
  retention: {
    daysInvalid: "Die Anzahl der Tage muss eine ganze Zahl sein.",
    daysTooFew: "Der Zeitraum darf nicht kürzer sein als das unter dem Feld angegebene Minimum.",
    daysTooMany: "Der Zeitraum darf nicht länger sein als das unter dem Feld angegebene Maximum.",
    saved: "Aufbewahrungsfristen gespeichert. Abgelaufene Einträge werden heute Nacht entfernt.",
  },
  // The KVKK export is a record under Turkish law, written in Turkish whatever the interface language.
  privacyExport: tr.privacyExport,
  privacy: {
    deletionRequested:
      "Ihr Antrag auf Kontolöschung ist eingegangen. Ihr Konto und alle seine Daten werden in 30 Tagen endgültig gelöscht; bis dahin können Sie den Antrag auf der Seite „Datenschutz und KVKK“ widerrufen.",
    deletionCancelled:
      "Ihr Antrag auf Kontolöschung wurde widerrufen. Ihr Konto und Ihre Daten bleiben erhalten.",
    alreadyPending:
      "Für dieses Konto liegt bereits ein offener Löschantrag vor. Auf der Seite „Datenschutz und KVKK“ sehen Sie sein Datum oder können ihn widerrufen.",
    passwordIncorrect:
      "Das Passwort konnte nicht bestätigt werden. Geben Sie das aktuelle Passwort Ihres Kontos ein, um den Löschantrag zu bestätigen.",
    notPending:
      "Dieser Löschantrag kann nicht mehr widerrufen werden: Er wurde bereits widerrufen oder ausgeführt.",
    confirmRequired: "Bestätigen Sie, dass das Konto und seine Daten gelöscht werden, um fortzufahren.",
    mailRequestedSubject: "Ihr Antrag auf Kontolöschung ist eingegangen",
    mailRequestedBody:
      "Hallo {{name}},\n\nwir haben einen Antrag auf Löschung des Kontos {{company}} erhalten. Das Konto, seine Verbindungen, Verbindungspasswörter und personenbezogenen Daten werden am {{date}} endgültig gelöscht.\n\nBis dahin können Sie eine Kopie Ihrer Daten herunterladen. Wenn Sie diesen Antrag nicht gestellt haben oder es sich anders überlegt haben, widerrufen Sie ihn vor diesem Datum auf der Seite „Datenschutz und KVKK“: {{link}}",
    mailCancelledSubject: "Ihr Antrag auf Kontolöschung wurde widerrufen",
    mailCancelledBody:
      "Hallo {{name}},\n\nder Löschantrag für das Konto {{company}} wurde widerrufen. Ihr Konto und Ihre Daten bleiben erhalten; Sie müssen nichts weiter tun.\n\nPanel: {{link}}",
  },
  liveUpdates: {
    tooManyPanels:
      "Zu viele geöffnete Panel-Tabs dieser Firma verfolgen Live-Aktualisierungen. Schließen Sie die Tabs, die Sie nicht verwenden; dieser Tab verbindet sich in einigen Sekunden neu.",
  },
  connectionCheck: {
    status: {
      ok: "kompatibel",
      drift: "inkompatibel",
      untried: "nicht versucht",
    },
    operation: {
      products: "Produkte",
      stock: "Lagerbestände",
      prices: "Preise",
      priceGroups: "Preisgruppen",
      categories: "Kategorien",
      stockLocations: "Lager",
      orders: "Bestellungen",
      orderStatuses: "Bestellstatus",
      priceLists: "Preislisten",
      shopStockLocations: "Lagerorte des Shops",
      shopCategories: "Shop-Kategorien",
    },
    expect: {
      code: "ein nicht leerer Code",
      name: "ein nicht leerer Name",
      text: "Text",
      number: "eine Zahl",
      nonNegative: "null oder eine positive Zahl",
      boolean: "ein Ja/Nein-Wert",
      date: "ein Datum",
      currency: "ein dreistelliger Währungscode (wie TRY)",
      list: "eine Liste",
      textList: "eine Liste von Texten",
    },
    got: {
      missing: "das Feld fehlte",
      empty: "es kam leer",
      text: "Text kam",
      number: "eine Zahl kam",
      invalidNumber: "eine ungültige Zahl kam",
      boolean: "Ja/Nein kam",
      list: "eine Liste kam",
      object: "ein Objekt kam",
    },
    drift:
      "In der Antwort von {{system}} ist das Feld «{{field}}» nicht wie erwartet: erwartet war {{expect}}, {{got}}. Funktioniert nicht: {{jobs}} (Feld {{field}}).",
    unreadable:
      "Die Antwort von {{system}} konnte nicht gelesen werden: sie weicht von der bekannten Form ab. Funktioniert nicht: {{jobs}}.",
    rawRule: "Die Antwort von {{system}} weicht von der bekannten Form ab. Funktioniert nicht: {{jobs}}.",
    rule: {
      diaSelectedColumns:
        "In den Zeilen der Listenantwort von {{system}} fehlen einige der angeforderten Spalten (etwa Artikelnummer oder Name). Funktioniert nicht: {{jobs}}.",
      nebimProcedureColumns:
        "In den Zeilen der Prozedur von {{system}} fehlen einige der im Verbindungsformular verlangten Spalten (etwa Artikelnummer oder MwSt.-Satz). Funktioniert nicht: {{jobs}}.",
    },
    untried: {
      budget:
        "Die Prüfung kündigte höchstens {{planned}} Aufrufe an; dieser Lesevorgang passte nicht hinein und wurde zum Schutz Ihres Kontingents nicht versucht.",
      auth: "Das System hat die Anmeldung abgelehnt. Prüfen Sie die Verbindungsdaten und prüfen Sie erneut.",
      network:
        "Das System war nicht erreichbar. Prüfen Sie Adresse, Netzwerk und (falls genutzt) den lokalen Agenten und prüfen Sie erneut.",
      rate_limited: "Das System hat sein Anfragelimit erreicht. Prüfen Sie in einigen Minuten erneut.",
      unsupported:
        "Dieses System bietet diesen Lesevorgang nicht an; der darauf beruhende Auftrag funktioniert mit diesem System nicht.",
      other: "Der Lesevorgang wurde nicht abgeschlossen ({{reason}}). Prüfen Sie in einigen Minuten erneut.",
      notConnected: "Für diese Seite ist keine Verbindung gespeichert. Speichern Sie zuerst die Verbindung.",
    },
    none: "Kein aktiver Auftrag benötigt auf dieser Seite einen Lesevorgang.",
    firstSyncHeld:
      "Die erste Übertragung wartet: die Verbindungsprüfung fand {{operations}} inkompatibel. Details in den Verbindungseinstellungen; mit «Trotzdem fortfahren» starten.",
    checked: "Die Verbindung wurde geprüft.",
    proceeded:
      "Die erste Übertragung darf trotz der Abweichung starten. Inkompatible Felder können bei der Übertragung fehlschlagen.",
    supportMailSubject:
      "Verbindungsprüfung: Antwort {{system}} {{operation}} weicht bei {{companies}} Firmen ab",
    supportMailBody:
      "Regel: {{rule}}\nFeld: {{field}}\nZuerst gesehen: {{firstSeen}}\nFirmen: {{companies}}\nEine Änderung des Anbieters oder ein Fehler in unserem Prüfer. Eintrag: {{verified}}\nKonsole: {{link}}",
  },
  channels: {
    added: "Der Vertriebskanal {{name}} wurde gespeichert.",
    addedJobsReady:
      "Der Vertriebskanal {{name}} wurde gespeichert. Seine Bestands-, Preis- und Bestellaufgaben sind bereit.",
    removed: "Der Vertriebskanal {{name}} wurde entfernt.",
    unknownSystem: "Die Anbindung dieses Marktplatzes wird noch nicht unterstützt.",
    notFound: "Vertriebskanal nicht gefunden.",
    settingsSaved: "Einstellungen des Vertriebskanals gespeichert. Änderungen gelten ab dem nächsten Lauf.",
    shop: "Shop",
    all: "Alle Kanäle",
  },
  listing: {
    notSupportedChannel:
      "Das Einstellen von Produkten ist für diesen Marktplatz über diese Verbindung nicht verfügbar; Kategorien können nicht zugeordnet werden.",
    mappingSaved: "Kategorie {{category}} zugeordnet: {{target}}.",
    mappingRemoved: "Kategoriezuordnung entfernt.",
    notSupported:
      "Für {{name}} ist das Einstellen von Produkten über diese Verbindung nicht verfügbar; Kategorien können nicht zugeordnet werden.",
    unknownCategory:
      "Diese Kategorie steht nicht in der Kategorieliste des Marktplatzes (oder hat Unterkategorien): Wählen Sie die unterste Kategorie.",
    unknownBrand: "Diese Marke steht nicht in der Markenliste des Marktplatzes.",
    missingAttribute:
      "Wählen Sie für das Pflichtmerkmal einen Wert aus der Liste des Marktplatzes: {{name}}.",
    invalidValue: "Wählen Sie für das Merkmal {{name}} einen Wert aus der Liste des Marktplatzes.",
    unknownAttribute: "Diese Kategorie hat kein Merkmal {{name}}.",
    started:
      "Einstellen gestartet: Produkte zugeordneter Kategorien, die der Marktplatz noch nicht hat, werden gesendet.",
    noMappings:
      "Keine zugeordnete Kategorie: Ordnen Sie die Kategorien des Kanals zu, um Produkte einzustellen.",
    noBarcode:
      "Kein Barcode: {{marketplace}} stellt Produkte per Barcode ein. Tragen Sie im ERP-Artikel einen Barcode ein.",
    noPrice: "Kein Preis in der ERP-Preisgruppe: Ein Produkt kann ohne Preis nicht eingestellt werden.",
    reportCreated:
      "{{count}} Produkte auf {{marketplace}} eingestellt; nach der Freigabe durch den Marktplatz sind sie im Verkauf.",
    reportListed: "{{count}} Produkte sind bereits auf dem Marktplatz.",
    reportInReview:
      "{{count}} Produkte wurden an den Marktplatz gesendet und warten auf Freigabe; sie werden in der Zwischenzeit nicht erneut gesendet.",
    unmappedVariantValue:
      'Der Wert "{{value}}" der Option {{option}} ist dem Merkmal {{attribute}} nicht zugeordnet: Wählen Sie in der Kategoriezuordnung den Wert des Marktplatzes dafür.',
    notVariantAttribute:
      "{{name}} ist auf dem Marktplatz kein Variantenmerkmal: Ordnen Sie einen festen Wert zu.",
    attributeTwice:
      "Das Merkmal {{name}} ist zweimal zugeordnet (als fester Wert oder ERP-Option): Behalten Sie eine Zuordnung.",
    duplicateVariantValue: "Der ERP-Wert {{value}} ist für das Merkmal {{name}} zweimal zugeordnet.",
  },
  sandbox: {
    driftNoSandbox:
      "Die Übung ist nur auf einer mit dem Testsystem verbundenen Seite möglich; diese Seite ist nicht mit dem Testsystem verbunden.",
    connected:
      "Sie sind mit den Testsystemen verbunden. Starten Sie Übertragungen auf den Seiten Produktintegration und Auftragsintegration; sobald Ihr echtes System bereit ist, geben Sie seine Zugangsdaten über „Zum echten System wechseln“ ein.",
    connectFailed:
      "Die Testsysteme wurden gespeichert, aber der Verbindungstest ist fehlgeschlagen. Versuchen Sie es in einigen Minuten in den API-Verbindungseinstellungen mit „Verbindung testen“ erneut.",
  },
  agents: {
    updateWindowSaved:
      "Aktualisierungszeiten gespeichert. Der Agent installiert eine neue Version nur in diesen Stunden und wenn keine Übertragung läuft.",
    downloadNotBuilt:
      "Die Installationsdateien des lokalen Agenten wurden auf diesem Server noch nicht erstellt. Die Download-Links erscheinen hier, sobald der Administrator des Servers 'npm run build:agent' ausführt.",
    pairingCodeLimit:
      "In der letzten Stunde wurden zu viele Kopplungscodes erstellt. Verwenden Sie den bereits erhaltenen Code oder versuchen Sie es später erneut.",
    agentLimit:
      "Ein Unternehmen kann höchstens 10 lokale Agenten koppeln. Entziehen Sie einem nicht mehr genutzten Agenten den Zugriff und versuchen Sie es erneut.",
    pairingCodeCreated:
      "Kopplungscode erstellt. Geben Sie ihn innerhalb von 10 Minuten im Vor-Ort-Agenten ein: entegrasyon-agent pair CODE --server URL",
    paired: "Der Vor-Ort-Agent ist gekoppelt.",
    pairingCodeInvalid:
      "Der Kopplungscode ist ungültig, abgelaufen oder bereits verwendet. Holen Sie im Panel einen neuen Code und versuchen Sie es erneut.",
    servesConnection:
      "Der lokale Agent bedient jetzt diese Verbindung. Die Aufrufe laufen über einen ihrer Agenten, der online ist; fällt einer aus, macht ein anderer weiter.",
    leftConnection:
      "Der lokale Agent bedient diese Verbindung nicht mehr. Ihre anderen Agenten (falls vorhanden) arbeiten weiter.",
    revoked:
      "Der Zugang des Vor-Ort-Agenten wurde entzogen. Holen Sie einen neuen Kopplungscode, um ihn wieder zu verbinden.",
    offline:
      "Der Vor-Ort-Agent ist offline (zuletzt gesehen: {{lastSeen}}). Prüfen Sie den Rechner, auf dem er läuft, und seine Netzwerkverbindung.",
    offlineNotice:
      'Der lokale Agent auf "{{machine}}" ist seit mehr als 10 Minuten offline (zuletzt gesehen: {{lastSeen}}) und fällige Übertragungen warten. Prüfen Sie den Rechner, auf dem er läuft, und dessen Netzwerkverbindung.',
    backOnline:
      'Der lokale Agent auf "{{machine}}" ist wieder online; die wartenden Übertragungen laufen weiter.',
    cli: {
      askServer: "Paneladresse (z. B. https://panel.beispiel.de): ",
      askCode: "Kopplungscode aus dem Panel: ",
      stateOnline: "online",
      stateOffline: "offline",
      stateConnecting: "verbindet",
      stateRefused: "abgewiesen",
      stateStopped: "gestoppt",
      serviceInstalled:
        "Dienst installiert und gestartet ({{name}}). Er startet mit dem Computer und wird neu gestartet, wenn er endet. Zustand: entegrasyon-agent service status",
      serviceUninstalled: "Dienst entfernt ({{name}}).",
      dataKept:
        "Kopplung, Einstellungen und Protokolle bleiben in {{home}} für eine spätere Installation. Zum Löschen: entegrasyon-agent service uninstall --delete-data",
      dataDeleted: "Kopplung, Einstellungen und Protokolle gelöscht ({{home}}).",
      serviceStatus:
        "Dienst: {{service}} · Agent: {{state}} · Server: {{server}} · zuletzt verbunden: {{connectedAt}} · letzter Fehler: {{lastError}}",
      serviceRunning: "läuft",
      serviceStopped: "gestoppt",
      serviceMissing: "nicht installiert",
      serviceFailed: "Die Dienstaktion ist fehlgeschlagen: {{reason}}",
      serviceNeedsAdmin:
        "Dafür sind Administratorrechte nötig: unter Windows die Eingabeaufforderung mit 'Als Administrator ausführen' öffnen, unter Linux mit sudo ausführen.",
      serviceUsage:
        "Verwendung:\n  entegrasyon-agent service install [--code CODE --server ADRESSE] [--proxy ADRESSE]\n  entegrasyon-agent service status\n  entegrasyon-agent service uninstall [--delete-data]",
      proxyRefused:
        "Der Proxy {{proxy}} hat die Windows-Authentifizierung (NTLM) nicht angenommen (HTTP {{status}}). Prüfen Sie das auf diesem Rechner gespeicherte Konto (entegrasyon-agent http-auth list) oder speichern Sie es neu: entegrasyon-agent http-auth add {{proxy}} --ntlm --domain DOMÄNE --user BENUTZER --password PASSWORT",
      proxyInvalid: "Ungültige Proxy-Adresse: {{proxy}} (z. B. http://benutzer:passwort@proxy:8080)",
      usage:
        "Verwendung:\n  entegrasyon-agent pair CODE --server URL   Koppelt mit dem Code aus dem Panel\n  entegrasyon-agent run                      Verbindet sich mit dem Server und führt Anfragen aus\n  entegrasyon-agent status                   Zeigt den letzten Zustand\n  Überwachte Ordner: entegrasyon-agent folder add|list|remove",
      paired: "Gekoppelt (Agent Nr. {{agentId}}). Starten Sie ihn jetzt mit 'entegrasyon-agent run'.",
      dbSaved:
        "Datenbank '{{alias}}' gespeichert ({{dialect}}, {{host}}:{{database}}). Tragen Sie diesen Namen im Panel ein.",
      dbRemoved: "Datenbank '{{alias}}' entfernt.",
      dbNone: "Keine Datenbanken gespeichert.",
      dbLine: "{{alias}}: {{dialect}} {{host}}:{{database}} (Benutzer {{user}})",
      folderUsage:
        "Verwendung:\n  entegrasyon-agent folder add ORDNER --kind products|stock|prices [--outbox ORDNER]\n  entegrasyon-agent folder list\n  entegrasyon-agent folder remove ORDNER\nVerarbeitete Dateien wandern nach islenen/, abgelehnte nach hatali/, jeweils mit Ergebnis pro Zeile (.sonuc.csv).",
      folderSaved: "Ordner wird überwacht: {{path}} ({{kind}}).",
      folderRemoved: "Ordner wird nicht mehr überwacht: {{path}}.",
      folderNone: "Keine überwachten Ordner.",
      folderLine: "{{path}}  Art: {{kind}}  Bestellausgang: {{outbox}}",
      dbUsage:
        "Verwendung:\n  entegrasyon-agent db add NAME --dialect firebird|mssql --host HOST [--port N] --database DATENBANK --user BENUTZER --password PASSWORT\n  entegrasyon-agent db list\n  entegrasyon-agent db remove NAME\nPasswörter bleiben auf diesem Rechner, in einer nur für das Dienstkonto lesbaren Datei.",
      httpAuthSaved:
        "Windows-Anmeldung für '{{host}}' gespeichert ({{scheme}}, {{domain}}\\{{user}}). Der Agent stellt seine Anfragen an diese Adresse mit diesem Konto.",
      httpAuthRemoved: "Anmeldung für '{{host}}' entfernt.",
      httpAuthNone: "Keine Anmeldung gespeichert.",
      httpAuthLine: "{{host}}: {{scheme}} {{domain}}\\{{user}}",
      httpAuthUsage:
        "Verwendung:\n  entegrasyon-agent http-auth add HOST[:PORT] --ntlm --domain DOMÄNE --user BENUTZER --password PASSWORT\n  entegrasyon-agent http-auth list\n  entegrasyon-agent http-auth remove HOST[:PORT]\nDas Windows-Passwort bleibt auf diesem Rechner, in einer nur für das Dienstkonto lesbaren Datei; es geht nie an das Panel.",
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
