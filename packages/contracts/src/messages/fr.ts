import type { MessageCatalog } from "./tr.ts";

export const fr: MessageCatalog = {
  validation: {
    companyNameRequired: "Le nom de l'entreprise est obligatoire.",
    min3: "Doit contenir au moins 3 caractères.",
    max50: "Doit contenir au plus 50 caractères.",
    max100: "Doit contenir au plus 100 caractères.",
    emailInvalid: "Veuillez saisir une adresse e-mail valide.",
    emailRequired: "L'adresse e-mail est obligatoire.",
    passwordMin8: "Doit contenir au moins 8 caractères.",
    passwordRequired: "Le mot de passe est obligatoire.",
    firstNameRequired: "Le prénom est obligatoire.",
    lastNameRequired: "Le nom est obligatoire.",
    phoneRequired: "Le téléphone est obligatoire.",
    phoneInvalid: "Veuillez saisir un numéro de téléphone valide.",
    erpTypeRequired: "Le logiciel de comptabilité est obligatoire.",
    ecommerceTypeRequired: "Le logiciel de e-commerce est obligatoire.",
    loginEmailRequired: "L'adresse e-mail est obligatoire.",
    loginMin3: "Saisissez au moins 3 caractères.",
    loginMax50: "Vous pouvez saisir au plus 50 caractères.",
    forgotEmailInvalid: "Format d'adresse e-mail incorrect",
    forgotEmailRequired: "Le champ e-mail est obligatoire.",
    resetMin8: "Saisissez au moins 8 caractères.",
    resetMax16: "Vous pouvez saisir au plus 16 caractères.",
    newPasswordRequired: "Le champ Nouveau mot de passe est obligatoire.",
    confirmPasswordRequired: "Le champ Nouveau mot de passe (confirmation) est obligatoire.",
    passwordsDoNotMatch: "Les nouveaux mots de passe ne correspondent pas.",
    oldPasswordRequired: "Le mot de passe actuel est obligatoire.",
    rowIdRequired: "Le code du lien est obligatoire.",
    taxNumberInvalid: "Le numéro fiscal doit comporter 10 ou 11 chiffres.",
    fieldInvalid: "Le champ n'est pas valide.",
    cronInvalid: "Saisissez une expression cron valide (par ex. 0 */2 * * *).",
    dateInvalid: "Saisissez une date valide.",
    selectAtLeastOne: "Sélectionnez au moins un enregistrement.",
  },
  api: {
    validationFailed: "Veuillez corriger les erreurs du formulaire.",
    invalidEmailFormat: "Format d'adresse e-mail non valide. Veuillez vérifier l'adresse e-mail.",
    emailHasTurkishCharacters:
      "Votre adresse e-mail contient des caractères turcs. Veuillez saisir une adresse sans caractères turcs.",
    emailAlreadyRegistered: "Un utilisateur avec cette adresse e-mail existe déjà.",
    registrationFailed: "Une erreur s'est produite lors de l'inscription.",
    registrationNetworkFailed: "L'inscription a échoué...",
    autoLoginFailed:
      "L'inscription est terminée mais la connexion a échoué. Veuillez contacter l'administrateur du site.",
    registered: "Inscription réussie.",
    loginFailed: "Nom d'utilisateur ou mot de passe incorrect.",
    tooManyLoginAttempts: "Too many sign-in requests from this connection. Please try again in a minute.",
    captchaRequired: "Veuillez confirmer que vous n'êtes pas un robot.",
    captchaHarderRequired:
      "Too many failed sign-in attempts. For your security an extra verification is needed; press Sign in again once it is complete.",
    captchaInvalid: "La vérification a échoué. Veuillez réessayer.",
    unauthorized: "Votre session a expiré. Veuillez vous reconnecter.",
    forbidden: "Vous n'êtes pas autorisé à effectuer cette opération.",
    notFound: "L'enregistrement recherché est introuvable.",
    conflict: "Cet enregistrement a été modifié par une autre opération. Veuillez réessayer.",
    rateLimited: "Trop de requêtes. Veuillez patienter un instant puis réessayer.",
    internalError: "Une erreur inattendue s'est produite. Veuillez réessayer plus tard.",
    recoverMailSent:
      "Si votre adresse e-mail est enregistrée, un lien de réinitialisation du mot de passe a été envoyé.",
    recoverMailFailed:
      "Une erreur s'est produite lors de l'envoi du lien de réinitialisation du mot de passe.",
    resetLinkInvalid: "Le lien de réinitialisation du mot de passe n'est pas valide ou a expiré.",
    passwordReset: "Votre mot de passe a été modifié. Redirection vers la page de connexion...",
    passwordUpdated: "Votre mot de passe a été mis à jour.",
    oldPasswordWrong: "Votre mot de passe actuel est incorrect.",
    loginCodeInvalid: "Le code de connexion n'est pas valide ou a expiré.",
    profileUpdated: "Vos informations ont été mises à jour.",
    companyUpdated: "Les informations de votre entreprise ont été mises à jour.",
    loggedOut: "Vous êtes déconnecté.",
    ok: "Opération réussie.",
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
    statusQueued: "En file d'attente.",
    statusRunning: "En cours.",
    statusSucceeded: "Terminé avec succès.",
    statusPartiallyFailed: "Terminé ; certains enregistrements n'ont pas pu être transférés.",
    statusFailed: "Échec.",
    statusCrashed: "Interrompu.",
    reportSummary:
      "{{read}} enregistrements lus, {{changed}} modifiés, {{written}} écrits, {{failed}} n'ont pas pu être transférés.",
    reportCalls:
      "{{erpRead}} appels de lecture et {{erpWrite}} d'écriture vers l'ERP, {{shopRead}} de lecture et {{shopWrite}} d'écriture vers la boutique.",
    reportNothingChanged: "Aucun changement ; aucun appel d'écriture n'a été fait vers les systèmes.",
    reportResolved:
      "{{count}} enregistrements en échec lors des exécutions précédentes ont été transférés lors de cette exécution.",
    reportNotInShop:
      "{{count}} enregistrements ont été ignorés car la boutique ne les a pas (lancez d'abord le transfert des produits).",
    reportTransientLeft:
      "{{count}} enregistrements ont été reportés à la prochaine exécution après une erreur temporaire.",
    reportCreateDisabled:
      "{{count}} produits manquent dans la boutique et n'ont pas été créés (la création est désactivée dans les paramètres).",
    runFailed: "La tâche {{job}} a échoué : {{reason}}",
    runPartiallyFailed:
      "La tâche {{job}} est terminée mais {{count}} enregistrements n'ont pas pu être transférés.",
    runRecovered: "La tâche {{job}} s'est de nouveau exécutée avec succès.",
    runCrashed:
      "La tâche {{job}} a été interrompue (son processus s'est arrêté). La prochaine exécution reprendra là où elle s'est arrêtée.",
    runRefusedLicence: "{{job}} n'a pas été exécutée : votre licence {{licence}} a expiré.",
    alreadyRunning: "Cette tâche est déjà en file d'attente ou en cours.",
    noShopStockLocation: "La boutique n'a aucun emplacement de stock.",
    noErpPriceGroup: "L'ERP n'a aucun groupe de prix.",
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
    resetSubject: "Entegrasyon Paneli : réinitialisation du mot de passe",
    resetBody:
      "Bonjour {{name}},\n\nCliquez sur le lien ci-dessous pour réinitialiser votre mot de passe. Le lien est valable une heure et ne peut être utilisé qu'une seule fois.\n\n{{link}}\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
    welcomeSubject: "Bienvenue sur Entegrasyon Paneli",
    welcomeBody:
      "Bonjour {{name}},\n\nLe compte de {{company}} a été créé. Vos licences d'essai de 14 jours sont actives.\n\n{{link}}",
  },
  activity: {
    signIn: "Connexion au panneau.",
    settingsSaved: "Paramètres enregistrés ({{detail}}).",
    connectionChanged: "Informations de connexion modifiées ({{detail}}).",
    jobEnabled: "La tâche {{detail}} a été activée.",
    jobDisabled: "La tâche {{detail}} a été désactivée.",
    jobScheduleChanged: "La planification de la tâche {{detail}} a été modifiée.",
    jobRun: "La tâche {{detail}} a été lancée manuellement.",
    failedTasksDeleted: "{{detail}} tâches en échec ont été supprimées.",
    failedTasksRetried: "{{detail}} tâches en échec ont été relancées.",
    ticketCreated: "Ticket de support ouvert : {{detail}}",
    ticketReplied: "Ticket de support répondu : {{detail}}",
    ticketClosed: "Ticket de support fermé : {{detail}}",
    profileUpdated: "Informations du profil mises à jour.",
    companyUpdated: "Informations de l'entreprise mises à jour.",
    passwordChanged: "Mot de passe modifié.",
    erpMatchingChanged: "Correspondance ERP modifiée ({{detail}}).",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "Votre licence {{licence}} expire le {{date}} ({{days}} jours restants).",
    licenceExpired: "Votre licence {{licence}} a expiré ; ses tâches ne s'exécutent plus.",
    reportNever: "{{job}} ne s'est pas encore exécutée.",
    reportSucceeded: "{{job}} a réussi lors de sa dernière exécution ; {{written}} enregistrements écrits.",
    reportFailed:
      "{{job}} a échoué lors de sa dernière exécution ; {{failed}} enregistrements non transférés.",
    reportDisabled: "{{job}} est désactivée.",
    connectionUntested: "La connexion n'a pas encore été testée.",
    connectionNotSaved:
      "The connection settings are not saved yet. Enter your details in the connection settings and test them.",
    connectionRunOk: "The last job run on {{date}} reached this system without problems.",
    connectionRunFailed: "The last job run on {{date}} could not connect to this system. {{reason}}",
  },
  connectionSettings: {
    previewNothing: "Rien ne changerait lors de la prochaine exécution.",
    previewPriceOk: "{{total}} prix changeraient ; aucun ne baisse de plus de la limite de {{limit}} %.",
    previewPriceTripped:
      "Le prix de {{flagged}} produits baisserait de plus de la limite de {{limit}} %. Vérifiez et confirmez avant d'exécuter.",
    previewStockOk:
      "{{total}} enregistrements de stock changeraient ; {{flagged}} produits passeraient à un stock de 0.",
    previewStockTripped:
      "{{share}} % des articles lus passeraient à un stock de 0 (limite {{limit}} %). Vérifiez et confirmez avant d'exécuter.",
    connectionSaved: "Paramètres de connexion enregistrés.",
    connectionSavedJobsReady: "Paramètres de connexion enregistrés. Vos tâches d'intégration sont prêtes.",
    testOk: "Connexion réussie. {{description}}",
    testAuth:
      "{{system}} a été atteint mais les identifiants n'ont pas été acceptés. Vérifiez la clé, l'utilisateur et le mot de passe.",
    testUnreachable:
      "{{system}} could not be reached. Please enter its address on the internet; our server does not connect to local or private network addresses, systems inside your company network connect through the on-site agent.",
    testTimeout: "{{system}} n'a pas répondu à temps. Veuillez réessayer plus tard.",
    testRateLimited:
      "{{system}} a refusé la demande en raison d'un trop grand nombre de requêtes. Patientez un peu puis réessayez.",
    testUnsupported: "La connexion à {{system}} n'est pas encore prise en charge.",
    testConfig:
      "Les informations de connexion de {{system}} sont manquantes ou erronées. Vérifiez le formulaire.",
    testFailed: "Le test de connexion de {{system}} a échoué. Vérifiez les informations et réessayez.",
    notConnected: "Enregistrez d'abord les paramètres de connexion de ce système.",
    listBusy:
      "Le système connecté est occupé ou ne répond pas pour le moment. Réessayez dans quelques secondes.",
    listFailed:
      "La liste n'a pas pu être lue depuis le système connecté. Testez les paramètres de connexion.",
    unsupportedSystem: "La connexion à ce système n'est pas encore prise en charge.",
    fieldRequired: "Ce champ est obligatoire.",
    urlInvalid: "Saisissez une adresse valide (http:// ou https://).",
    numberInvalid: "Saisissez un nombre valide.",
    unknownField: "Ce champ n'est pas défini pour ce système.",
    unknownSetting: "Clé de paramètre inconnue.",
    settingsSaved: "Paramètres enregistrés. Les modifications s'appliquent à la prochaine exécution.",
  },
  tickets: {
    categoryRequired: "Veuillez choisir une catégorie.",
    subjectRequired: "L'objet est obligatoire.",
    subjectMax: "L'objet peut contenir au maximum 150 caractères.",
    messageRequired: "Le message est obligatoire.",
    messageMax: "Le message peut contenir au maximum 5000 caractères.",
    attachmentTooLarge: "Chaque fichier peut faire au maximum 5 Mo.",
    attachmentType: "Seules les images (PNG, JPEG, GIF, WEBP) et les fichiers PDF peuvent être joints.",
    attachmentTooMany: "Au maximum 5 fichiers peuvent être joints.",
    ticketClosed: "Ce ticket est fermé ; aucun nouveau message ne peut être ajouté.",
    statusInvalid: "Un ticket peut seulement être fermé (statut 3).",
    created: "Votre ticket a été créé.",
    replied: "Votre message a été envoyé.",
    closed: "Le ticket a été fermé.",
    announcementTypeRequired: "Le type d'annonce est obligatoire.",
    announcementContentRequired: "Le texte de l'annonce est obligatoire.",
    announcementCreated: "L'annonce a été publiée.",
    licenseUpdated: "La licence a été mise à jour.",
    notifyAnswered: "L'équipe d'assistance a répondu à votre ticket n° {{id}} « {{subject}} ».",
    mailAnsweredSubject: "Votre ticket n° {{id}} a reçu une réponse",
    mailAnsweredBody:
      "Bonjour {{name}},\n\nNotre équipe d'assistance a répondu à votre ticket « {{subject}} » :\n\n{{message}}\n\nPour répondre : {{link}}\n\nSans réponse, le ticket sera fermé automatiquement après 24 heures.",
    mailAutoClosedSubject: "Votre ticket n° {{id}} a été fermé",
    mailAutoClosedBody:
      "Bonjour {{name}},\n\nVotre ticket « {{subject}} » a été fermé automatiquement faute de réponse dans les 24 heures suivant la réponse de l'équipe d'assistance.\n\nPour une nouvelle question, vous pouvez ouvrir un nouveau ticket : {{link}}",
    mailNewSubject: "Nouveau ticket n° {{id}} : {{subject}}",
    mailNewBody:
      "{{name}} de {{company}} a ouvert un nouveau ticket.\n\nCatégorie : {{category}}\nObjet : {{subject}}\n\n{{message}}\n\nConsole d'assistance : {{link}}",
  },
  erpMatching: {
    saved: "Correspondance enregistrée.",
    deleted: "Correspondance supprimée.",
    shopSkuNotFound: "Aucun produit avec ce code de stock n'a été trouvé dans la boutique.",
    duplicate: "Une correspondance existe déjà pour ce code ERP ou boutique.",
    rowInvalid: "La ligne doit contenir un code de stock ERP et un code boutique.",
    imported: "{{accepted}} lignes acceptées, {{refused}} lignes refusées.",
    tooManyRows: "5000 lignes au plus peuvent être importées depuis un fichier.",
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
      "Code d'appairage créé. Saisissez-le dans l'agent local sous 10 minutes : entegrasyon-agent pair CODE --server URL",
    paired: "L'agent local est appairé.",
    pairingCodeInvalid:
      "Le code d'appairage est invalide, expiré ou déjà utilisé. Obtenez un nouveau code dans le panneau et réessayez.",
    revoked:
      "L'accès de l'agent local a été révoqué. Obtenez un nouveau code d'appairage pour le reconnecter.",
    offline:
      "L'agent local est hors ligne (vu pour la dernière fois : {{lastSeen}}). Vérifiez l'ordinateur sur lequel il tourne et sa connexion réseau.",
    cli: {
      usage:
        "Utilisation :\n  entegrasyon-agent pair CODE --server URL   Appaire avec le code du panneau\n  entegrasyon-agent run                      Se connecte au serveur et exécute les requêtes\n  entegrasyon-agent status                   Affiche le dernier état",
      paired: "Appairé (agent n° {{agentId}}). Démarrez-le maintenant avec 'entegrasyon-agent run'.",
      pairFailed: "Échec de l'appairage : {{reason}}",
      notPaired:
        "Cet agent n'est pas encore appairé. Obtenez un code dans le panneau et lancez d'abord 'entegrasyon-agent pair CODE --server URL'.",
      refused:
        "Le serveur a refusé l'identifiant de cet agent (l'accès a peut-être été révoqué). Obtenez un nouveau code dans le panneau et appairez à nouveau.",
      status:
        "État : {{state}} · serveur : {{server}} · dernière connexion : {{connectedAt}} · dernière erreur : {{lastError}}",
      serverUnreachable:
        "Le serveur est injoignable ({{code}}). Vérifiez l'adresse et la connexion internet de cet ordinateur.",
      noStatus: "Aucun état enregistré : l'agent n'a jamais été lancé.",
    },
  },
};
