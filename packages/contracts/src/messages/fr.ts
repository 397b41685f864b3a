import { type MessageCatalog, tr } from "./tr.ts";

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
    websiteInvalid: "Saisissez une adresse web valide (p. ex. https://maboutique.com).",
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
    tooManyRegistrations: "Trop d'inscriptions depuis cette connexion. Veuillez réessayer plus tard.",
    tooManyLoginAttempts:
      "Trop de demandes de connexion depuis cette connexion réseau. Veuillez réessayer dans une minute.",
    captchaRequired: "Veuillez confirmer que vous n'êtes pas un robot.",
    captchaHarderRequired:
      "Trop de tentatives de connexion échouées. Pour votre sécurité, une vérification supplémentaire est nécessaire ; une fois terminée, cliquez à nouveau sur « Se connecter ».",
    captchaInvalid: "La vérification a échoué. Veuillez réessayer.",
    unauthorized: "Votre session a expiré. Veuillez vous reconnecter.",
    forbidden: "Vous n'êtes pas autorisé à effectuer cette opération.",
    notFound: "L'enregistrement recherché est introuvable.",
    conflict: "Cet enregistrement a été modifié par une autre opération. Veuillez réessayer.",
    rateLimited: "Trop de requêtes. Veuillez patienter un instant puis réessayer.",
    busy: "Votre entreprise a actuellement de nombreuses requêtes en cours. Veuillez réessayer dans quelques secondes.",
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
    partnerInstallFailed: "L'installation de la boutique n'a pas pu être terminée.",
    profileUpdated: "Vos informations ont été mises à jour.",
    companyUpdated: "Les informations de votre entreprise ont été mises à jour.",
    loggedOut: "Vous êtes déconnecté.",
    ok: "Opération réussie.",
  },
  /** Requests refused before any handler runs: transport, format and shared field rules. */
  request: {
    badRequest: "La requête n'a pas pu être lue. Veuillez recharger la page et réessayer.",
    badUrl: "L'adresse contient des caractères non valides. Veuillez la vérifier et réessayer.",
    uriTooLong: "L'adresse est trop longue. Veuillez réessayer avec une adresse plus courte.",
    headersTooLarge:
      "Les en-têtes de la requête sont trop volumineux. Veuillez effacer les cookies de votre navigateur et réessayer.",
    unsupportedMediaType:
      "Ce type de contenu n'est pas pris en charge. Veuillez envoyer les données en JSON ou sous forme de formulaire.",
    malformedJson:
      "Les données envoyées ne sont pas un JSON valide. Veuillez vérifier le contenu et réessayer.",
    malformedMultipart:
      "Les données du formulaire n'ont pas pu être lues. Veuillez renvoyer le formulaire et ses pièces jointes.",
    bodyTooLarge:
      "Les données envoyées sont trop volumineuses. Veuillez réessayer avec un contenu plus petit.",
    timeout: "La requête n'a pas abouti à temps. Veuillez vérifier votre connexion et réessayer.",
    textControlCharacter: "Le texte contient un caractère de contrôle non autorisé. Veuillez le ressaisir.",
    idOutOfRange: "Un numéro d'enregistrement doit être un nombre entier compris entre 1 et 2 147 483 647.",
    numberOutOfRange:
      "Le nombre est en dehors de la plage autorisée. Veuillez saisir une valeur plus petite.",
    dateOutOfRange: "La date doit être comprise entre les années 1900 et 2999.",
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
    usageCredit:
      "{{system}} : {{calls}} appels facturés pendant cette exécution ; ce mois-ci : {{month}} appels ({{credits}} crédits).",
    usageQuota:
      "{{system}} : {{read}} appels de lecture et {{write}} d'écriture pendant cette exécution ; quota restant : lecture {{readLeft}} / écriture {{writeLeft}}.",
    quotaRefused:
      "Exécution planifiée non lancée : la part du jour du quota mensuel de {{system}} (lecture {{readAllowance}} / écriture {{writeAllowance}}) ne couvre pas les besoins d'une exécution (lecture {{readNeed}} / écriture {{writeNeed}}). Quota restant : lecture {{readLeft}} / écriture {{writeLeft}}. Les exécutions manuelles restent possibles.",
    quotaWarning:
      "{{percent}} % du quota mensuel d'API de {{system}} est utilisé (reste lecture {{readLeft}} / écriture {{writeLeft}}). Une fois épuisé, les transferts s'arrêtent jusqu'à la fin du mois.",
    reportResolved:
      "{{count}} enregistrements en échec lors des exécutions précédentes ont été transférés lors de cette exécution.",
    reportNotInShop:
      "{{count}} enregistrements ont été ignorés car la boutique ne les a pas (lancez d'abord le transfert des produits).",
    reportReturnsCancelledInErp: "{{count}} commandes annulées ont été supprimées de l'ERP.",
    reportReturnsPartial:
      "{{count}} commandes ont eu une partie de leurs lignes retournée ({{units}} unités) ; enregistrez ces unités comme retour dans l'ERP.",
    reportReturnsKeptInErp:
      "{{count}} commandes annulées ou retournées restent dans l'ERP (facturées ou non supprimables) ; enregistrez le retour dans l'ERP.",
    reportTransientLeft:
      "{{count}} enregistrements ont été reportés à la prochaine exécution après une erreur temporaire.",
    reportCreateDisabled:
      "{{count}} produits manquent dans la boutique et n'ont pas été créés (la création est désactivée dans les paramètres).",
    reportCategoriesAdopted:
      "{{count}} catégories existaient déjà dans la boutique : non recréées, associées aux existantes.",
    retryUntouched:
      "Réessayé, mais l'enregistrement n'a pas été transféré lors de cette exécution : il n'a pas été lu dans l'ERP ou n'a pas d'équivalent dans la boutique. Vérifiez qu'il existe toujours dans l'ERP et qu'il correspond à un produit de la boutique ; s'il n'est plus utile, fermez la tâche.",
    runFailed: "La tâche {{job}} a échoué : {{reason}}",
    runPartiallyFailed:
      "La tâche {{job}} est terminée mais {{count}} enregistrements n'ont pas pu être transférés.",
    runRecovered: "La tâche {{job}} s'est de nouveau exécutée avec succès.",
    runCrashed:
      "La tâche {{job}} a été interrompue (son processus s'est arrêté). La prochaine exécution reprendra là où elle s'est arrêtée.",
    runRefusedLicence: "{{job}} n'a pas été exécutée : votre licence {{licence}} a expiré.",
    alreadyRunning: "Cette tâche est déjà en file d'attente ou en cours.",
    noShopStockLocation: "La boutique n'a aucun emplacement de stock.",
    vatRateMissing:
      "Commande en attente : l'ERP n'a pas de taux de TVA pour le SKU {{skus}} (le canal de vente n'en donne pas sur ses commandes ; le taux de la fiche article de l'ERP s'applique). Définissez la fiche avec son taux de TVA dans l'ERP ; la commande sera transférée à la prochaine exécution.",
    noErpPriceGroup: "L'ERP n'a aucun groupe de prix.",
  },
  fileExchange: {
    notFileShop:
      "Cette boutique ne fonctionne pas par fichiers : un fichier de commandes n'est téléversé que pour les boutiques sans API, comme JetStok.",
    unreadable: "Le fichier est illisible : Excel (.xlsx), CSV ou XML avec une ligne d'en-tête.",
    tooLarge: "Le fichier est trop volumineux : 20 Mo au plus.",
    notFileSystem:
      "Cet ERP ne fonctionne pas avec des fichiers : ils servent uniquement aux systèmes sans API (correspondance configurée).",
    empty: "Le fichier est vide.",
    tooManyRows: "Un fichier peut avoir au plus 100 000 lignes (hors en-tête) ; divisez le fichier.",
    tooManyColumns: "Un fichier peut avoir au plus 100 colonnes.",
    cellTooLong: "Une cellule peut contenir au plus 32 767 caractères.",
    unpackedTooLarge:
      "Le fichier décompressé est trop volumineux (100 Mo au plus) ; il est peut-être endommagé.",
    deleted: "Le fichier a été supprimé.",
  },
  connectors: {
    jetstok: {
      card: {
        cardTitle: "JetStok se connecte par fichiers",
        cardBody:
          "JetStok n'a pas d'API publique : la connexion passe par les fichiers que JetStok importe et exporte en Excel. Aucun réglage n'est nécessaire.",
        stepStock:
          "Stock et prix : après un transfert de stock ou de prix, cliquez ici sur « Télécharger le fichier de stock et de prix » et importez-le dans le panneau JetStok comme mise à jour groupée Excel.",
        stepOrders:
          "Commandes : exportez les commandes depuis le panneau JetStok en Excel et téléversez le fichier ici ; le transfert des commandes écrit chaque commande une seule fois dans l'ERP (même si le même fichier ou la même commande est téléversé deux fois).",
        stockFile: "Télécharger le fichier de stock et de prix",
        noStockFile:
          "Pas encore de fichier de stock et de prix : lancez d'abord le transfert de stock ou de prix.",
        stockFileAt: "Dernière mise à jour : {{at}} ({{count}} produits)",
        ordersHelp:
          "Le fichier de commandes exporté depuis le panneau JetStok (Excel ou CSV, en-tête en première ligne). Chaque ligne est vérifiée et conservée ; le même fichier n'est pas pris deux fois.",
        ordersUsed:
          "Le prochain transfert des commandes lit les commandes de ce fichier ; chaque commande est écrite une fois dans l'ERP.",
        ordersUpload: "Téléverser un fichier de commandes JetStok",
        ordersFiles: "Fichiers de commandes téléversés",
      },
      connected:
        "JetStok connecté par fichiers : le fichier de stock et de prix est téléchargé, le fichier de commandes téléversé.",
      noCatalogue:
        "Les produits et catégories ne sont pas envoyés à JetStok par fichier ; créez les produits dans JetStok, le fichier de stock et de prix les associe par code article.",
      noStatus:
        "Les statuts de commande ne peuvent pas être envoyés à JetStok (pas d'API) ; mettez-les à jour dans JetStok.",
      noInvoice:
        "Les factures ne peuvent pas être envoyées à JetStok (pas d'API) ; téléchargez-les depuis l'écran Factures.",
      location: "Stock JetStok",
      rows: {
        missing: "{{column}} est vide",
        badNumber: "{{column}} n'est pas un nombre : {{value}}",
        badDate: "{{column}} n'est pas une date : {{value}}",
        notPositive: "{{column}} doit être supérieur à zéro",
        noColumn: "Le fichier n'a pas de colonne {{column}}",
      },
    },
    genericSql: {
      queries: {
        products: "Produit",
        stock: "Stock",
        prices: "Prix",
        categories: "Catégorie",
        orderLookup: "Recherche de commande",
        orderWrite: "Écriture de commande",
      },
      unknownParam: "Paramètre inconnu dans la requête {{what}} : @{{name}}. Autorisés : {{allowed}}.",
      empty: "La requête {{what}} est vide.",
      oneStatement: "Écrivez une seule instruction SQL pour {{what}}.",
      guard: {
        refused: "Instruction non autorisée dans la requête {{what}} : {{part}}",
        char: "Caractère non autorisé dans la requête {{what}} : {{part}} (uniquement dans un texte entre guillemets).",
        lookalike:
          "Nom écrit avec des lettres semblables d'un autre alphabet dans la requête {{what}} : {{part}}",
        unterminated: "{{part}} non fermé dans la requête {{what}}",
        nestedComment:
          "Commentaire imbriqué dans la requête {{what}} : {{part}} (les marques de commentaire ne peuvent pas figurer dans un commentaire).",
        stacked: "Écrivez une seule instruction SQL pour {{what}} (deuxième instruction : {{part}}).",
        shape:
          "La requête {{what}} doit être un SELECT ou un WITH de SELECT uniquement ; non autorisé : {{part}}",
        linkedServer: "Nom atteignant un autre serveur dans la requête {{what}} : {{part}}",
        procedure: "Appel de procédure non autorisé dans la requête {{what}} : {{part}}",
        parseAt:
          "La requête {{what}} n'a pas pu être lue : « {{found}} » inattendu ligne {{line}}, colonne {{column}}.",
      },
      parse: "La requête {{what}} n'a pas pu être lue : {{detail}}",
      selectOnly:
        "La requête {{what}} ne peut être qu'un SELECT (les instructions qui modifient les données ne sont pas exécutées).",
      writeKind:
        "L'écriture de commande doit être un appel de procédure (EXECUTE PROCEDURE / EXEC) ou un seul INSERT.",
      insertParamsOnly: "Dans le modèle INSERT de commande, les valeurs ne peuvent être que des @paramètres.",
      missingColumn: "Aucune colonne choisie pour {{field}} dans le mappage {{what}}.",
      unknownField: "Champ inconnu dans le mappage {{what}} : {{field}}.",
      badIdentifier: "{{what}} : « {{column}} » n'est pas un nom de colonne valide (lettres, chiffres et _).",
      configJson: "Les paramètres de connexion SQL n'ont pas pu être lus (JSON invalide).",
      lookupRequired:
        "Définissez la requête de recherche de commande (avec @ref) avant l'écriture : la commande est recherchée avant d'écrire pour ne jamais l'écrire deux fois.",
      badNumber: "{{field}} doit être un entier entre 1 et 10.",
      columnAbsent: "Le résultat n'a pas de colonne {{column}} (mappée à {{field}}).",
      rowEmpty: "{{field}} est vide.",
      rowNotNumber: "{{field}} n'est pas un nombre : « {{value}} ».",
      rowNotBool: "{{field}} n'est pas une valeur oui/non : « {{value}} ».",
      rowVat: "Taux de TVA invalide : {{value}} (0, 1, 10 ou 20).",
      rowNegative: "{{field}} ne peut pas être négatif.",
      readFromFile:
        "{{what}} lu depuis un fichier : {{file}} ({{source}}, {{at}}, {{rows}} lignes) ; le dernier fichier accepté remplace la requête.",
      fileSource: { panel: "téléversé dans le panneau", agent: "du dossier surveillé" },
      filesOnly:
        "{{system}} : aucune requête définie ; produits, stock et prix viennent des fichiers téléversés.",
      ordersFile:
        "Commandes écrites dans un fichier : {{file}} ({{count}} commandes) ; téléchargez-le dans le panneau.",
      noTransport:
        "La base de données est injoignable via l'agent local : appairez l'agent et saisissez l'alias de la base.",
      queryFailed: "La requête {{what}} a échoué dans la base : {{detail}}",
      notConfigured: "Aucune requête {{what}} définie ; ajoutez-la dans la section « Connexion par SQL ».",
      tooManyRows:
        "La requête {{what}} a renvoyé plus de {{cap}} lignes ; définissez une colonne clé pour lire page par page.",
      connected: "La base {{system}} est lue via un mappage configuré.",
      orderNotFound:
        "La commande {{orderNo}} a été écrite mais la requête de recherche ne la trouve pas ; vérifiez-la. Elle n'a pas été renvoyée pour ne pas l'écrire deux fois.",
    },
    einvoiceNotProductSource:
      "Cette connexion est un service de facture électronique, pas une source de produits. Les produits, stocks, prix et commandes n'y sont pas lus ; elle envoie seulement les factures e-Fatura / e-Arşiv et interroge leur statut. Connectez votre ERP séparément pour les produits.",
    mikroMethodMissing:
      "Votre serveur Mikro ({{version}}) ne propose pas la méthode {{method}} ; la lecture des stocks, prix, catégories et commandes en dépend. Passez à Mikro Jump V17 ou demandez à votre revendeur Mikro d'activer {{method}} dans le service API, puis testez à nouveau la connexion.",
    mikroVatRateMissing:
      "Le taux de TVA de {{rate}} % ne figure pas dans la table des taxes de Mikro (VergiListesiV2) ; la commande {{orderNo}} n'a pas été écrite dans Mikro. Définissez ce taux dans Mikro ou corrigez le taux de TVA du produit ; la commande sera retentée lors de la prochaine exécution.",
    mikroVatPointerUnknown:
      "Certaines fiches de stock Mikro renvoient à une entrée de TVA ({{pointer}}) absente de la table des taxes : {{skus}}. Corrigez leur champ de TVA de vente au détail dans Mikro ; ces produits ne sont pas transférés d'ici là.",
    mikroOrderNotFound:
      "La commande {{orderNo}} a été envoyée à Mikro mais n'a pas pu être retrouvée par son numéro de pièce. Vérifiez dans Mikro la commande portant ce numéro de pièce ; elle n'a pas été renvoyée afin de ne pas être écrite deux fois.",
    d365VatGroupUnknown:
      "Produit D365 {{sku}} : le groupe de taxe d'article « {{group}} » n'a pas de taux de TVA dans la correspondance. Ajoutez le groupe et son taux dans « Groupes de taxe d'article » des paramètres de connexion ; le produit n'est pas transféré d'ici là.",
    d365VariantUnknown:
      "La ligne de stock D365 {{key}} n'appartient à aucune variante de produit lancée. Lancez la variante pour cette combinaison de dimensions dans D365 ; son stock n'est pas transféré d'ici là.",
    d365ItemsUnknown:
      "Aucun produit ni variante lancé trouvé dans D365 : {{skus}}. Lancez les produits dans la société ou corrigez les codes des lignes de commande ; la commande n'a pas été écrite.",
    d365VatGroupsMalformed:
      "La correspondance des groupes de taxe d'article est illisible : « {{entry}} ». Le format est GROUPE=TAUX;GROUPE=TAUX, par ex. KDV20=20;KDV10=10.",
    entegraWriteUnsupported:
      "La connexion Entegra est en lecture seule : produits, stocks, prix et catégories sont lus depuis Entegra. Aucun moyen vérifié n'existe pour écrire des commandes et des clients dans Entegra ; les commandes n'y sont donc pas transférées. Connectez un ERP qui accepte les commandes pour les transférer.",
    shopierOrderWriteUnsupported:
      "Connecté comme ERP, Shopier est la source des produits, des stocks et des prix. Les commandes passées sur Shopier y sont déjà enregistrées ; les commandes et clients d'autres boutiques ne peuvent pas être écrits dans Shopier, et aucune facture n'y est lue (l'API Shopier ne propose pas ces opérations).",
    shopierAuthMissing:
      "La connexion Shopier exige soit un jeton d'accès personnel (PAT), soit le client_id, le client_secret et le jeton d'actualisation de l'application OAuth.",
    shopierVatRateInvalid:
      "Le taux de TVA « {{rate}} » de la connexion Shopier n'est pas valide. Saisissez 0, 1, 10 ou 20 ; les produits ne sont pas transférés tant qu'il n'est pas corrigé.",
    n11ListingUnsupported:
      "Les produits sont mis en vente sur n11 par la mise en vente du canal : associez vos catégories ERP à des catégories n11 dans l'association de catégories du canal. L'écriture de produits un par un et l'ajout de catégories sur n11 ne sont pas disponibles.",
    n11ShipmentTemplateMissing:
      "Pour mettre des produits en vente sur n11, saisissez dans les paramètres de la connexion le nom de votre modèle d'expédition du Seller Office de n11 ; n11 met chaque produit en vente avec un modèle d'expédition.",
    n11InvoiceLinkUnsupported:
      "n11 n'accepte les liens de facture que par son ancien service SOAP (SellerInvoiceService) ; cette connexion n'envoie pas la facture à n11, téléversez-la dans le Seller Office de n11.",
    n11TrackingNumberIsN11s:
      "Sur n11, le numéro de suivi est attribué par n11 (code de campagne) ; il est lu avec la commande et n'est pas envoyé à n11.",
    lucaKozaOrderUnsupported:
      "LucaKoza n'a aucun service de création de commandes client ; cette connexion ne transfère ni commandes, ni fiches client, ni factures vers LucaKoza. Les fiches de stock, quantités par dépôt, prix et catégories sont lus depuis LucaKoza.",
    lucaKozaBranchChoice:
      "L'utilisateur LucaKoza a plusieurs sociétés/agences ; indiquez-en une dans le champ « Id société/agence » des paramètres de connexion : {{names}}",
    amazonListingUnknown:
      "Vous n'avez aucune offre avec le SKU {{sku}} sur Amazon.com.tr. Créez le produit dans Seller Central ou alignez le code de stock sur le SKU Amazon ; le stock et le prix ne sont pas envoyés d'ici là.",
    amazonFeedRefused: "Amazon a refusé la valeur envoyée pour {{sku}} : {{reason}}",
    amazonFeedPending:
      "Le flux Amazon n'est pas encore traité ({{sku}}) ; la valeur est renvoyée à la prochaine exécution.",
    amazonTrackingRequired:
      "Amazon fixe le statut d'une commande Amazon ; saisissez un numéro de suivi pour confirmer l'expédition.",
    amazonListingUnsupported:
      "Les produits ne sont pas écrits un par un sur Amazon et aucun type de produit n'est ajouté : associez votre catégorie ERP à un type de produit Amazon, une marque et des attributs dans l'association des catégories du canal ; la tâche Transfert de produits crée les produits sur Amazon, le stock et les prix suivent avec les tâches du canal.",
    amazonInvoiceUnsupported:
      "Les factures des commandes Amazon Türkiye se téléversent dans Seller Central : l'API d'Amazon n'offre aucun moyen d'envoyer un lien de facture pour la Turquie.",
  },
  failure: {
    someSystem: "L'ERP ou la boutique",
    network:
      "Impossible de se connecter à {{system}}. Vérifiez les paramètres de connexion et réessayez avec « Tester la connexion ».",
    timeout:
      "{{system}} n'a pas répondu à temps. La tâche sera retentée lors de la prochaine exécution ; si le problème persiste, vérifiez que le système fonctionne et que les paramètres de connexion sont corrects.",
    serverError:
      "{{system}} a signalé une erreur de son côté. La tâche sera retentée lors de la prochaine exécution ; si le problème persiste, contactez le fournisseur du système.",
    rateLimited:
      "{{system}} a temporairement refusé des requêtes parce qu'elles étaient trop nombreuses. La tâche reprendra là où elle s'est arrêtée lors de la prochaine exécution ; vous n'avez rien à faire.",
    lock: "L'enregistrement était verrouillé par une autre opération dans {{system}}. La tâche sera retentée lors de la prochaine exécution.",
    blocked:
      "{{system}} a temporairement bloqué l'accès. Patientez un peu et réessayez ; si le problème persiste, contactez le fournisseur du système.",
    unavailable:
      "{{system}} n'est pas disponible pour le moment (maintenance ou forte charge). La tâche sera retentée lors de la prochaine exécution.",
    auth: "{{system}} n'a pas accepté les identifiants. Vérifiez l'utilisateur, le mot de passe et la clé dans les paramètres de connexion et réessayez avec « Tester la connexion ».",
    validation:
      "{{system}} n'a pas accepté cet enregistrement. Corrigez ses informations (nom, prix, code-barres, TVA…) puis relancez-le depuis l'écran « Tâches en échec ».",
    notFound:
      "Cet enregistrement est introuvable dans {{system}}. Vérifiez qu'il existe dans les deux systèmes puis relancez-le depuis l'écran « Tâches en échec ».",
    unknownItem:
      "Une définition utilisée par cet enregistrement (fiche de stock, entrepôt, compte client…) est introuvable dans {{system}}. Créez-la ou corrigez les correspondances, puis relancez-le depuis l'écran « Tâches en échec ».",
    conflict:
      "{{system}} n'a pas accepté cet enregistrement car il entre en conflit avec un enregistrement existant. Vérifiez-le puis relancez-le depuis l'écran « Tâches en échec ».",
    unsupported:
      "{{system}} ne prend pas en charge cette opération. Vous pouvez ouvrir un ticket d'assistance.",
    jobUnsupported:
      "{{system}} ne peut pas effectuer cette tâche : {{why}} La tâche n'a pas été exécutée ; vous pouvez la désactiver dans l'écran Tâches.",
    badResponse:
      "{{system}} a renvoyé une réponse incompréhensible. La tâche sera retentée lors de la prochaine exécution ; si le problème persiste, ouvrez un ticket d'assistance.",
    config:
      "Les informations de connexion de {{system}} sont manquantes ou erronées. Vérifiez les paramètres de connexion et réessayez avec « Tester la connexion ».",
    database:
      "Un problème est survenu lors de l'enregistrement des données dans la base du panneau. La tâche sera retentée lors de la prochaine exécution ; si le problème persiste, ouvrez un ticket d'assistance.",
    unexpected:
      "La tâche n'a pas pu se terminer à cause d'un problème inattendu. Elle sera retentée lors de la prochaine exécution ; si le problème persiste, ouvrez un ticket d'assistance.",
    systemSaid: "{{text}} Réponse du système : « {{said}} »",
    bindingConflict:
      "{{key}} n'a pas été transféré : le même produit de la boutique est lié au code ERP {{heldBy}}. Un produit de la boutique ne peut correspondre qu'à un seul article de l'ERP ; corrigez la correspondance dans l'écran « Correspondances ERP », puis relancez-le depuis l'écran « Tâches en échec ».",
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
    fileImportDeleted: "Fichier importé supprimé : {{detail}}",
    failedTasksRetried: "{{detail}} tâches en échec ont été relancées.",
    ticketCreated: "Ticket de support ouvert : {{detail}}",
    ticketReplied: "Ticket de support répondu : {{detail}}",
    ticketClosed: "Ticket de support fermé : {{detail}}",
    profileUpdated: "Informations du profil mises à jour.",
    companyUpdated: "Informations de l'entreprise mises à jour.",
    passwordChanged: "Mot de passe modifié.",
    erpMatchingChanged: "Correspondance ERP modifiée ({{detail}}).",
    retentionChanged: "Durées de conservation modifiées ({{detail}}).",
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
      "Les paramètres de connexion ne sont pas encore enregistrés. Saisissez vos informations dans les paramètres de connexion et testez-les.",
    connectionRunOk: "La dernière exécution des tâches du {{date}} a atteint ce système sans problème.",
    connectionRunFailed:
      "La dernière exécution des tâches du {{date}} n'a pas pu se connecter à ce système. {{reason}}",
  },
  connectionSettings: {
    supportEnded:
      "Le support de l'éditeur pour {{system}} ({{version}}) a pris fin le {{date}} : les correctifs de sécurité et de bogues ne sont plus publiés. La connexion continue de fonctionner ; planifiez le passage à une version prise en charge.",
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
      "{{system}} est injoignable. Veuillez saisir son adresse accessible depuis Internet ; notre serveur ne se connecte pas aux adresses de réseau locales ou privées, les systèmes du réseau de votre entreprise se connectent via l'agent installé sur site.",
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
    systemRequestSubject: "Demande de connexion {{system}}",
    systemRequestBody:
      "Nous n'avons pas encore de connecteur prêt pour {{system}}. Comme vous l'avez choisi à l'inscription, nous avons ouvert cette demande pour vous : notre équipe vous contactera et mettra en place la connexion avec vous (via l'agent local ou un mappage SQL / fichier si nécessaire). En attendant, vous pouvez essayer le produit avec « Se connecter aux systèmes de test » dans Paramètres → Paramètres de connexion API.",
    mailNewSubject: "Nouveau ticket n° {{id}} : {{subject}}",
    mailNewBody:
      "{{name}} de {{company}} a ouvert un nouveau ticket.\n\nCatégorie : {{category}}\nObjet : {{subject}}\n\n{{message}}\n\nConsole d'assistance : {{link}}",
  },
  partnerInstall: {
    logoCompanyName: "Société Logo Is Basi {{tenant}}",
    causes: {
      partner_not_configured:
        "Les informations de l'application {{system}} ({{missing}}) ne sont pas définies sur le serveur ; demandez à votre administrateur de les définir comme variables d'environnement (README, tableau de configuration) et de redémarrer le serveur.",
      partner_unavailable:
        "La connexion {{system}} n'est pas encore prête (bientôt). En attendant, vous pouvez connecter un autre système de boutique du panneau.",
      store_missing:
        "Le lien ne contient pas d'adresse de boutique {{system}} valide. Relancez l'installation depuis la page de l'application dans votre administration {{system}}.",
      state_mismatch:
        "Cette installation n'a pas été lancée dans ce navigateur ou ses 15 minutes sont écoulées. Relancez-la depuis {{system}} dans le même navigateur.",
      callback_invalid:
        "La signature de la réponse de {{system}} n'a pas pu être vérifiée ; le lien est peut-être modifié ou ancien. Relancez l'installation depuis {{system}}.",
      code_refused:
        "{{system}} a refusé le code d'approbation (à usage unique et de courte durée). Relancez l'installation ; si cela se répète, votre administrateur doit vérifier l'identifiant et le secret de l'application.",
      store_unreachable:
        "Votre boutique {{system}} est injoignable pour le moment. Réessayez l'installation dans quelques minutes.",
    },
  },
  webhooks: {
    tooManyDeliveries: "Trop de notifications ; les commandes seront vérifiées sous peu.",
    badSignature: "La signature de la notification n'a pas pu être vérifiée.",
    noShopConnection: "Veuillez d'abord enregistrer la connexion de la boutique.",
    unsupported:
      "Ce système de boutique ne prend pas en charge les webhooks ; les commandes sont vérifiées toutes les 5 minutes.",
    noSecret:
      "Saisissez la clé secrète de l'application dans les paramètres de connexion de la boutique afin de pouvoir vérifier les notifications.",
    registered: "Webhooks enregistrés.",
    registerFailed:
      "Les webhooks n'ont pas pu être enregistrés ; les commandes sont toujours vérifiées toutes les 5 minutes.",
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
      "Ce produit de la boutique est déjà lié à un autre code de stock de l'ERP. Un produit de la boutique ne peut correspondre qu'à un seul article de l'ERP : choisissez un autre produit de la boutique.",
    bindingTakenRow:
      "Le produit de la boutique {{shopSku}} est déjà lié au code ERP {{heldBy}} ; un produit de la boutique ne peut correspondre qu'à un seul article de l'ERP.",
  },
  einvoices: {
    sellerIncomplete:
      "Il manque dans les paramètres de la société des données nécessaires à la facture électronique (numéro fiscal, centre des impôts, adresse). Complétez-les dans Paramètres › Société puis réessayez.",
    title: "Factures",
    notFound: "Facture introuvable.",
    noProvider:
      "Aucun service de facture électronique n'est connecté pour cette société. Ajoutez la connexion Uyumsoft, Trendyol e-Faturam ou LucaPortal dans la section « Service de facture électronique » de Paramètres › Connexions API.",
    cancelNotEArchive:
      "Seules les factures e-Archive peuvent être annulées ; une e-Facture doit être refusée par l'acheteur ou compensée par une facture de retour.",
    cancelTooLate:
      "Le délai d'annulation est dépassé (8 jours après l'émission de la facture e-Archive). Le retour est documenté par la facture de retour de l'acheteur ou un bon de dépense.",
    cancelState: "Cette facture ne peut pas être annulée dans son état actuel.",
    linkInvalid: "Le lien est invalide ou a expiré. Demandez un nouveau lien à la boutique.",
    pdfUnavailable:
      "Le PDF de la facture ne peut pas être récupéré auprès du service pour le moment. Réessayez dans quelques minutes.",
    colNumber: "N° de facture",
    colOrder: "Commande",
    colBuyer: "Acheteur",
    colTotal: "Montant",
    colType: "Type",
    colStatus: "Statut GİB",
    colDate: "Date",
    pdf: "PDF",
    cancel: "Annuler",
    cancelReason: "Motif d'annulation",
    from: "Du",
    to: "Au",
    status: "Statut",
    all: "Tous",
    empty: "Aucune facture ne correspond à ce filtre.",
    run: "Facturer maintenant",
    runDone: "{{prepared}} factures préparées, {{sent}} envoyées.",
    typeEArchive: "e-Archive",
    typeEInvoice: "e-Facture",
    st_prepared: "Préparée",
    st_draft: "Brouillon (en attente d'approbation)",
    st_queued: "En file d'attente",
    st_sent: "Transmise à GİB",
    st_approved: "Approuvée",
    st_rejected: "Refusée",
    st_cancelled: "Annulée",
    st_error: "Erreur",
    st_generated: "Générée (à déposer sur le portail)",
    kind_SATIS: "Vente",
    kind_IADE: "Retour",
    colKind: "Type de facture",
    returnOf: "Retour de : {{number}}",
    exportTitle: "Exporter",
    exportHint:
      "Les factures de la période choisie (aujourd'hui sans date) se téléchargent en liste Excel ou en fichiers XML UBL-TR (zip). Déposez ces fichiers sur les portails sans API (LucaPortal).",
    exportXlsx: "Télécharger Excel",
    exportUbl: "Télécharger UBL (zip)",
    exportRangeInvalid:
      "La date de début ne peut pas suivre la date de fin ; la période est de 366 jours au plus.",
    export_sheet: "Factures",
    export_number: "N° de facture",
    export_ettn: "ETTN",
    export_date: "Date",
    export_type: "Type",
    export_profile: "Scénario",
    export_returnOf: "Facture retournée",
    export_orderNo: "N° de commande",
    export_buyer: "Acheteur",
    export_buyerId: "N° fiscal",
    export_net: "Base HT",
    export_vat: "TVA",
    export_total: "Total",
    export_currency: "Devise",
    export_state: "Statut",
    why_rejected:
      "L'acheteur a refusé la facture. Vérifiez la commande et émettez une facture corrigée si nécessaire.",
    why_error:
      "Le service de facture électronique n'a pas accepté la facture. Corrigez les paramètres de la société ou les données de la commande selon le message d'erreur ; elle ne sera pas renvoyée automatiquement, contactez le support.",
    why_prepared:
      "Le numéro est réservé et l'envoi est en cours. Sans réponse, la facture est recherchée par ETTN ; aucune seconde facture n'est émise pour la même commande.",
    documentNotOut:
      "Cette facture n'a pas encore atteint le service de facture électronique (ou a été refusée) ; il n'y a aucun document à afficher.",
    exportEmpty: "Aucune facture à exporter sur la période choisie. Choisissez une autre période.",
    rateSaved: "Taux enregistré.",
    rateCurrencyInvalid:
      "La devise doit être un code ISO à 3 lettres (p. ex. USD, EUR) ; la TRY n'a pas besoin de taux.",
    rateInvalid: "Le taux doit être un nombre supérieur à zéro (TRY par unité).",
    returnCancelNote: "Commande retournée / annulée",
    waitingRate:
      "{{count}} commandes en devises attendent un taux ({{currencies}}). Saisissez le taux dans la section Taux de change de l'écran Factures ; elles seront facturées à la prochaine exécution.",
    waitingVat:
      "{{count}} commandes attendent un taux de TVA : l'ERP n'en a pas pour les SKU {{skus}} (le canal de vente n'en donne pas). Définissez les fiches article dans l'ERP ; les factures seront émises à la prochaine exécution.",
    waitingData:
      "{{count}} commandes attendent leur e-Archive : {{reasons}}. Complétez ce qui manque ; elles seront facturées à la prochaine exécution.",
    ratesTitle: "Taux de change",
    ratesHint:
      "Une commande en devises sans taux propre est facturée au taux le plus récent que vous avez saisi à la date de la facture ou avant. Aucun taux n'est deviné : sans taux, la facture attend.",
    rateCurrency: "Devise",
    rateDate: "Date du taux",
    rateValue: "Taux (1 unité = TRY)",
    rateAdd: "Enregistrer le taux",
    rateDelete: "Supprimer",
    ratesEmpty: "Vous n'avez encore saisi aucun taux.",
    waitingRateAlert:
      "Aucun taux {{currency}} : {{orders}} commandes attendent leur facture. Saisissez ci-dessous le taux {{currency}} ; elles seront facturées à la prochaine exécution.",
    colRate: "Taux",
    rateFrom_order: "taux de la commande",
    rateFrom_merchant: "votre taux",
    returnPart: "Retour partiel : {{lines}} — {{amount}}",
    return_cancel: "Retour : annulation e-Archive",
    return_iade: "Retour : l'acheteur émet une facture de retour",
    return_none: "Retour : bon de dépense",
    st_delivered: "Facture de l'ERP transmise à la boutique",
    sourceErp: "Facture de l'ERP",
    trackingNumber: "Numéro de suivi",
    carrier: "Transporteur",
    shipmentSave: "Enregistrer",
    trackingSent: "Envoyé à la place de marché",
    trackingWaiting: "Envoyé à la place de marché après le lien de la facture",
    count: "{{total}} factures sur cette période",
    countSplit: "(service de facture électronique : {{service}}, ERP : {{erp}})",
    route_service: "Les commandes web sont facturées par votre service de facture électronique.",
    route_erpService: "Les factures sont émises par le service de facture électronique connecté comme ERP.",
    route_erp:
      "Votre ERP émet les factures ; le panneau transmet la facture de l'ERP à la commande de la boutique. Si votre ERP n'émet pas de factures électroniques, ajoutez un service de facture électronique.",
    addService: "Ajouter un service de facture électronique",
    view: "Afficher",
    customerLink: "Lien client",
    linkCopied: "Lien client copié.",
    pdfDownload: "Télécharger en PDF",
    returnWhy: {
      cancelWithinPeriod:
        "La facture e-Archive était dans son délai d'annulation de 8 jours : selon les règles de la GİB, elle a été annulée auprès du service de facture électronique.",
      buyerIssuesIade:
        "L'acheteur est utilisateur e-Facture : il émet la facture de retour (TEMELFATURA) et vous l'envoie ; vous n'émettez rien.",
      companyBuyerIssues: "L'acheteur est une société : il émet la facture de retour ; vous n'émettez rien.",
      partialConsumer:
        "Retour partiel d'un consommateur : l'e-Arşiv n'a pas été annulé (seulement possible en entier) ; justifiez les lignes retournées par un gider pusulası.",
      consumerAfterPeriod:
        "Retour d'un consommateur après le délai d'annulation de 8 jours : le consommateur n'émet pas de facture ; documentez le retour par un bon de dépense (gider pusulası).",
      cancelRefused:
        "Le service de facture électronique a refusé l'annulation : vérifiez l'état de la facture sur le portail du service.",
      noApi:
        "Le portail n'a pas d'API : annulez la facture e-Archive sur le portail (LucaPortal) sous 8 jours.",
    },
    settings: "Paramètres de facturation",
    series: "Série de factures",
    draft: "Envoyer en brouillon (approuver dans le portail du service)",
    invoiceWhen: "Quelles commandes facturer",
    when_paid: "Payées",
    when_shipped: "Expédiées",
    when_all: "Toutes",
    save: "Enregistrer",
    saved: "Enregistré.",
    seriesInvalid: "La série doit comporter 3 lettres ou chiffres (ex. WEB).",
  },
  salesExport: {
    rangeInvalid:
      "La date de début ne peut pas être postérieure à la date de fin. Corrigez les dates et réessayez.",
    sheet: "Rapport des ventes",
    orderNo: "N° de commande",
    date: "Date",
    customer: "Client",
    state: "Statut",
    amount: "Montant",
    currency: "Devise",
    total: "Total",
    received: "Reçue",
    mapped: "Mise en correspondance",
    sent: "Envoyée à l'ERP",
    confirmed: "Confirmée",
    failed: "En échec",
    needs_review: "En attente de vérification",
  },
  einvoice: {
    doc: {
      return: {
        cancelWithinPeriod:
          "La facture e-Arşiv est dans son délai d'annulation de 8 jours : elle est annulée, aucune facture de retour n'est émise.",
        buyerIssuesIade:
          "L'acheteur utilise e-Fatura : c'est lui qui émet la facture de retour (TEMELFATURA) ; le panneau n'en émet pas.",
        companyBuyerIssues:
          "L'acheteur est une entreprise : c'est lui qui émet la facture de retour (papier ou e-Arşiv) ; le panneau n'en émet pas.",
        partialConsumer:
          "Retour partiel d'un consommateur : un e-Arşiv ne s'annule qu'en entier ; justifiez les lignes retournées par un gider pusulası.",
        consumerAfterPeriod:
          "Le délai d'annulation (8 jours) est dépassé et l'acheteur est un consommateur, qui n'émet pas de facture : enregistrez le retour avec un bon de dépense (gider pusulası).",
      },
    },
  },
  retention: {
    daysInvalid: "Le nombre de jours doit être un nombre entier.",
    daysTooFew: "La durée ne peut pas être inférieure au minimum indiqué sous le champ.",
    daysTooMany: "La durée ne peut pas dépasser le maximum indiqué sous le champ.",
    saved: "Durées de conservation enregistrées. Les enregistrements expirés seront supprimés cette nuit.",
  },
  // The KVKK export is a record under Turkish law, written in Turkish whatever the interface language.
  privacyExport: tr.privacyExport,
  privacy: {
    deletionRequested:
      "Votre demande de suppression du compte a bien été reçue. Votre compte et toutes ses données seront définitivement supprimés dans 30 jours ; d'ici là, vous pouvez annuler la demande sur la page « Confidentialité et KVKK ».",
    deletionCancelled:
      "Votre demande de suppression du compte a été annulée. Votre compte et vos données sont conservés.",
    alreadyPending:
      "Une demande de suppression est déjà en attente pour ce compte. Consultez sa date ou annulez-la sur la page « Confidentialité et KVKK ».",
    passwordIncorrect:
      "Le mot de passe n'a pas pu être vérifié. Saisissez le mot de passe actuel de votre compte pour confirmer la demande de suppression.",
    notPending:
      "Cette demande de suppression ne peut plus être annulée : elle a déjà été annulée ou exécutée.",
    confirmRequired: "Pour continuer, confirmez que le compte et ses données seront supprimés.",
    mailRequestedSubject: "Votre demande de suppression du compte a bien été reçue",
    mailRequestedBody:
      "Bonjour {{name}},\n\nNous avons reçu une demande de suppression du compte {{company}}. Le compte, ses connexions, les mots de passe de connexion et les données personnelles seront définitivement supprimés le {{date}}.\n\nVous pouvez télécharger une copie de vos données d'ici là. Si vous n'êtes pas à l'origine de cette demande ou si vous avez changé d'avis, annulez-la avant cette date sur la page « Confidentialité et KVKK » : {{link}}",
    mailCancelledSubject: "Votre demande de suppression du compte a été annulée",
    mailCancelledBody:
      "Bonjour {{name}},\n\nLa demande de suppression du compte {{company}} a été annulée. Votre compte et vos données sont conservés ; vous n'avez rien d'autre à faire.\n\nPanneau : {{link}}",
  },
  liveUpdates: {
    tooManyPanels:
      "Trop d'onglets du panneau ouverts pour cette entreprise suivent les mises à jour en direct. Fermez les onglets que vous n'utilisez pas ; cet onglet se reconnectera dans quelques secondes.",
  },
  connectionCheck: {
    status: {
      ok: "compatible",
      drift: "incompatible",
      untried: "non essayé",
    },
    operation: {
      products: "Produits",
      stock: "Quantités en stock",
      prices: "Prix",
      priceGroups: "Groupes de prix",
      categories: "Catégories",
      stockLocations: "Entrepôts",
      orders: "Commandes",
      orderStatuses: "Statuts de commande",
      priceLists: "Listes de prix",
      shopStockLocations: "Emplacements de stock de la boutique",
      shopCategories: "Catégories de la boutique",
    },
    expect: {
      code: "un code non vide",
      name: "un nom non vide",
      text: "du texte",
      number: "un nombre",
      nonNegative: "zéro ou un nombre positif",
      boolean: "une valeur oui/non",
      date: "une date",
      currency: "un code devise à trois lettres (comme TRY)",
      list: "une liste",
      textList: "une liste de textes",
    },
    got: {
      missing: "le champ n'est pas venu",
      empty: "il est venu vide",
      text: "du texte est venu",
      number: "un nombre est venu",
      invalidNumber: "un nombre invalide est venu",
      boolean: "oui/non est venu",
      list: "une liste est venue",
      object: "un objet est venu",
    },
    drift:
      "Dans la réponse de {{system}}, le champ «{{field}}» n'est pas comme prévu : {{expect}} était attendu, {{got}}. Ne fonctionnera pas : {{jobs}} (champ {{field}}).",
    unreadable:
      "La réponse de {{system}} n'a pas pu être lue : elle diffère de la forme connue. Ne fonctionnera pas : {{jobs}}.",
    rawRule: "La réponse de {{system}} diffère de la forme connue. Ne fonctionnera pas : {{jobs}}.",
    rule: {
      diaSelectedColumns:
        "Des colonnes demandées manquent dans les lignes de la réponse de liste de {{system}} (comme le code ou le nom de l'article). Ne fonctionnera pas : {{jobs}}.",
      nebimProcedureColumns:
        "Des colonnes demandées par le formulaire de connexion manquent dans les lignes de la procédure de {{system}} (comme le code article ou le taux de TVA). Ne fonctionnera pas : {{jobs}}.",
    },
    untried: {
      budget:
        "La vérification a annoncé au plus {{planned}} appels ; cette lecture n'y tenait pas et n'a pas été essayée pour protéger vos crédits/quota.",
      auth: "Le système a refusé la connexion. Vérifiez les informations de connexion puis vérifiez à nouveau.",
      network:
        "Le système est injoignable. Vérifiez l'adresse, le réseau et (le cas échéant) l'agent local, puis vérifiez à nouveau.",
      rate_limited: "Le système a atteint sa limite de requêtes. Vérifiez à nouveau dans quelques minutes.",
      unsupported:
        "Ce système n'offre pas cette lecture ; la tâche qui en dépend ne fonctionne pas avec ce système.",
      other: "La lecture n'a pas abouti ({{reason}}). Vérifiez à nouveau dans quelques minutes.",
      notConnected: "Aucune connexion enregistrée pour ce côté. Enregistrez d'abord la connexion.",
    },
    none: "Aucune tâche active ne nécessite de lecture de ce côté.",
    firstSyncHeld:
      "Le premier transfert est en attente : la vérification a trouvé {{operations}} incompatible. Voir le détail dans les Paramètres de connexion et le lancer avec «Continuer quand même».",
    checked: "La connexion a été vérifiée.",
    proceeded:
      "Le premier transfert peut démarrer malgré la différence. Les champs incompatibles peuvent échouer lors du transfert.",
    supportMailSubject:
      "Vérification de connexion : la réponse {{system}} {{operation}} diffère chez {{companies}} entreprises",
    supportMailBody:
      "Règle : {{rule}}\nChamp : {{field}}\nVu pour la première fois : {{firstSeen}}\nEntreprises : {{companies}}\nUn changement du fournisseur ou une erreur de notre juge. Entrée : {{verified}}\nConsole : {{link}}",
  },
  channels: {
    added: "Le canal de vente {{name}} a été enregistré.",
    addedJobsReady:
      "Le canal de vente {{name}} a été enregistré. Ses tâches de stock, de prix et de commandes sont prêtes.",
    removed: "Le canal de vente {{name}} a été supprimé.",
    unknownSystem: "La connexion à cette place de marché n'est pas encore prise en charge.",
    notFound: "Canal de vente introuvable.",
    settingsSaved:
      "Paramètres du canal de vente enregistrés. Les modifications s'appliquent à la prochaine exécution.",
    shop: "Boutique",
    all: "Tous les canaux",
  },
  listing: {
    notSupportedChannel:
      "La mise en ligne de produits n'est pas disponible pour cette marketplace sur cette connexion ; les catégories ne peuvent pas être associées.",
    mappingSaved: "Catégorie {{category}} associée à {{target}}.",
    mappingRemoved: "Association de catégorie supprimée.",
    notSupported:
      "La mise en ligne de produits n'est pas disponible pour {{name}} sur cette connexion ; les catégories ne peuvent pas être associées.",
    unknownCategory:
      "Cette catégorie n'est pas dans la liste de la marketplace (ou a des sous-catégories) : choisissez la catégorie la plus basse.",
    unknownBrand: "Cette marque n'est pas dans la liste des marques de la marketplace.",
    missingAttribute:
      "Choisissez une valeur de la liste de la marketplace pour l'attribut obligatoire : {{name}}.",
    invalidValue: "Choisissez une valeur de la liste de la marketplace pour l'attribut {{name}}.",
    unknownAttribute: "Cette catégorie n'a pas d'attribut {{name}}.",
    started:
      "Mise en ligne lancée : les produits des catégories associées absents de la marketplace sont envoyés.",
    noMappings:
      "Aucune catégorie associée : associez les catégories du canal pour mettre des produits en ligne.",
    noBarcode:
      "Pas de code-barres : {{marketplace}} met les produits en ligne par code-barres. Saisissez-en un dans la fiche ERP.",
    noPrice:
      "Pas de prix dans le groupe de prix de l'ERP : un produit ne peut pas être mis en ligne sans prix.",
    reportCreated:
      "{{count}} produits mis en ligne sur {{marketplace}} ; ils sont en vente après validation par la marketplace.",
    reportListed: "{{count}} produits sont déjà sur la marketplace.",
    reportInReview:
      "{{count}} produits ont été envoyés à la place de marché et attendent sa validation ; ils ne sont pas renvoyés entre-temps.",
    unmappedVariantValue:
      "La valeur \"{{value}}\" de l'option {{option}} n'est pas associée à l'attribut {{attribute}} : choisissez la valeur de la marketplace dans l'association de catégorie.",
    notVariantAttribute:
      "{{name}} n'est pas un attribut de variante sur la marketplace : associez-lui une valeur fixe.",
    attributeTwice:
      "L'attribut {{name}} est associé deux fois (valeur fixe ou option de l'ERP) : n'en gardez qu'une.",
    duplicateVariantValue: "La valeur ERP {{value}} est associée deux fois pour l'attribut {{name}}.",
  },
  sandbox: {
    driftNoSandbox:
      "L'exercice n'est possible que sur un côté relié au système de test ; ce côté ne l'est pas.",
    connected:
      "Vous êtes connecté aux systèmes de test. Lancez les transferts depuis les écrans Intégration des produits et Intégration des commandes ; lorsque votre système réel sera prêt, saisissez ses informations avec « Passer au système réel ».",
    connectFailed:
      "Les systèmes de test ont été enregistrés, mais le test de connexion a échoué. Réessayez dans quelques minutes avec « Tester la connexion » dans les paramètres des connexions API.",
  },
  agents: {
    updateWindowSaved:
      "Heures de mise à jour enregistrées. L'agent installe une nouvelle version uniquement pendant ces heures et lorsqu'aucun transfert n'est en cours.",
    downloadNotBuilt:
      "Les fichiers d'installation de l'agent local n'ont pas encore été préparés sur ce serveur. Les liens de téléchargement apparaîtront ici dès que l'administrateur du serveur aura exécuté 'npm run build:agent'.",
    pairingCodeLimit:
      "Trop de codes d'appairage ont été émis au cours de la dernière heure. Utilisez le code déjà obtenu ou réessayez plus tard.",
    agentLimit:
      "Une entreprise peut appairer au plus 10 agents locaux. Révoquez un agent que vous n'utilisez plus et réessayez.",
    pairingCodeCreated:
      "Code d'appairage créé. Saisissez-le dans l'agent local sous 10 minutes : entegrasyon-agent pair CODE --server URL",
    paired: "L'agent local est appairé.",
    pairingCodeInvalid:
      "Le code d'appairage est invalide, expiré ou déjà utilisé. Obtenez un nouveau code dans le panneau et réessayez.",
    servesConnection:
      "L'agent local dessert désormais cette connexion. Les appels passent par l'un de ses agents en ligne ; si l'un s'arrête, un autre prend le relais.",
    leftConnection:
      "L'agent local ne dessert plus cette connexion. Ses autres agents (s'il y en a) prennent le relais.",
    revoked:
      "L'accès de l'agent local a été révoqué. Obtenez un nouveau code d'appairage pour le reconnecter.",
    offline:
      "L'agent local est hors ligne (vu pour la dernière fois : {{lastSeen}}). Vérifiez l'ordinateur sur lequel il tourne et sa connexion réseau.",
    offlineNotice:
      "L'agent local sur « {{machine}} » est hors ligne depuis plus de 10 minutes (vu pour la dernière fois : {{lastSeen}}) et des transferts planifiés attendent. Vérifiez l'ordinateur qui l'exécute et sa connexion réseau.",
    backOnline:
      "L'agent local sur « {{machine}} » est de nouveau en ligne ; les transferts en attente reprennent.",
    cli: {
      askServer: "Adresse du panneau (ex. https://panel.exemple.fr) : ",
      askCode: "Code d'appairage du panneau : ",
      stateOnline: "en ligne",
      stateOffline: "hors ligne",
      stateConnecting: "connexion",
      stateRefused: "refusé",
      stateStopped: "arrêté",
      serviceInstalled:
        "Service installé et démarré ({{name}}). Il démarre avec l'ordinateur et redémarre s'il s'arrête. État : entegrasyon-agent service status",
      serviceUninstalled: "Service supprimé ({{name}}).",
      dataKept:
        "L'appairage, les réglages et les journaux restent dans {{home}} pour une installation ultérieure. Pour les supprimer : entegrasyon-agent service uninstall --delete-data",
      dataDeleted: "Appairage, réglages et journaux supprimés ({{home}}).",
      serviceStatus:
        "Service : {{service}} · Agent : {{state}} · serveur : {{server}} · dernière connexion : {{connectedAt}} · dernière erreur : {{lastError}}",
      serviceRunning: "en cours",
      serviceStopped: "arrêté",
      serviceMissing: "non installé",
      serviceFailed: "L'action sur le service a échoué : {{reason}}",
      serviceNeedsAdmin:
        "Cela demande les droits d'administrateur : sous Windows, ouvrez l'invite de commandes avec « Exécuter en tant qu'administrateur » ; sous Linux, lancez-le avec sudo.",
      serviceUsage:
        "Utilisation :\n  entegrasyon-agent service install [--code CODE --server ADRESSE] [--proxy ADRESSE]\n  entegrasyon-agent service status\n  entegrasyon-agent service uninstall [--delete-data]",
      proxyRefused:
        "Le proxy {{proxy}} n'a pas accepté l'authentification Windows (NTLM) (HTTP {{status}}). Vérifiez le compte enregistré sur cet ordinateur (entegrasyon-agent http-auth list) ou enregistrez-le à nouveau : entegrasyon-agent http-auth add {{proxy}} --ntlm --domain DOMAINE --user UTILISATEUR --password MOTDEPASSE",
      proxyInvalid: "Adresse de proxy invalide : {{proxy}} (ex. http://utilisateur:motdepasse@proxy:8080)",
      usage:
        "Utilisation :\n  entegrasyon-agent pair CODE --server URL   Appaire avec le code du panneau\n  entegrasyon-agent run                      Se connecte au serveur et exécute les requêtes\n  entegrasyon-agent status                   Affiche le dernier état\n  Dossiers surveillés : entegrasyon-agent folder add|list|remove",
      paired: "Appairé (agent n° {{agentId}}). Démarrez-le maintenant avec 'entegrasyon-agent run'.",
      dbSaved:
        "Base '{{alias}}' enregistrée ({{dialect}}, {{host}}:{{database}}). Saisissez ce nom dans le panneau.",
      dbRemoved: "Base '{{alias}}' supprimée.",
      dbNone: "Aucune base enregistrée.",
      dbLine: "{{alias}} : {{dialect}} {{host}}:{{database}} (utilisateur {{user}})",
      folderUsage:
        "Utilisation :\n  entegrasyon-agent folder add DOSSIER --kind products|stock|prices [--outbox DOSSIER]\n  entegrasyon-agent folder list\n  entegrasyon-agent folder remove DOSSIER\nLes fichiers traités vont dans islenen/, les refusés dans hatali/, chacun avec un résultat par ligne (.sonuc.csv).",
      folderSaved: "Dossier surveillé : {{path}} ({{kind}}).",
      folderRemoved: "Dossier plus surveillé : {{path}}.",
      folderNone: "Aucun dossier surveillé.",
      folderLine: "{{path}}  type : {{kind}}  sortie commandes : {{outbox}}",
      dbUsage:
        "Utilisation :\n  entegrasyon-agent db add NOM --dialect firebird|mssql --host HÔTE [--port N] --database BASE --user UTILISATEUR --password MOTDEPASSE\n  entegrasyon-agent db list\n  entegrasyon-agent db remove NOM\nLes mots de passe restent sur cette machine, dans un fichier lisible par le seul compte de service.",
      httpAuthSaved:
        "Authentification Windows enregistrée pour '{{host}}' ({{scheme}}, {{domain}}\\{{user}}). L'agent envoie ses requêtes à cette adresse avec ce compte.",
      httpAuthRemoved: "Authentification de '{{host}}' supprimée.",
      httpAuthNone: "Aucune authentification enregistrée.",
      httpAuthLine: "{{host}} : {{scheme}} {{domain}}\\{{user}}",
      httpAuthUsage:
        "Utilisation :\n  entegrasyon-agent http-auth add HÔTE[:PORT] --ntlm --domain DOMAINE --user UTILISATEUR --password MOTDEPASSE\n  entegrasyon-agent http-auth list\n  entegrasyon-agent http-auth remove HÔTE[:PORT]\nLe mot de passe Windows reste sur cette machine, dans un fichier lisible par le seul compte de service ; il n'est jamais envoyé au panneau.",
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
