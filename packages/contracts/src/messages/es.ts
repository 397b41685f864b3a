import type { MessageCatalog } from "./tr.ts";

export const es: MessageCatalog = {
  validation: {
    companyNameRequired: "El nombre de la empresa es obligatorio.",
    min3: "Debe contener al menos 3 caracteres.",
    max50: "Debe contener como máximo 50 caracteres.",
    max100: "Debe contener como máximo 100 caracteres.",
    emailInvalid: "Introduzca una dirección de correo electrónico válida.",
    emailRequired: "El correo electrónico es obligatorio.",
    passwordMin8: "Debe contener al menos 8 caracteres.",
    passwordRequired: "La contraseña es obligatoria.",
    firstNameRequired: "El nombre es obligatorio.",
    lastNameRequired: "El apellido es obligatorio.",
    phoneRequired: "El teléfono es obligatorio.",
    phoneInvalid: "Introduzca un número de teléfono válido.",
    erpTypeRequired: "El programa de contabilidad es obligatorio.",
    ecommerceTypeRequired: "El software de comercio electrónico es obligatorio.",
    loginEmailRequired: "El correo electrónico es obligatorio.",
    loginMin3: "Introduzca al menos 3 caracteres.",
    loginMax50: "Se pueden introducir como máximo 50 caracteres.",
    forgotEmailInvalid: "Formato de correo electrónico no válido",
    forgotEmailRequired: "El campo de correo electrónico es obligatorio.",
    resetMin8: "Introduzca al menos 8 caracteres.",
    resetMax16: "Se pueden introducir como máximo 16 caracteres.",
    newPasswordRequired: "El campo Nueva contraseña es obligatorio.",
    confirmPasswordRequired: "El campo Nueva contraseña (repetir) es obligatorio.",
    passwordsDoNotMatch: "Los campos de la nueva contraseña no coinciden.",
    oldPasswordRequired: "La contraseña actual es obligatoria.",
    rowIdRequired: "El código del enlace es obligatorio.",
    taxNumberInvalid: "El número fiscal debe tener 10 u 11 dígitos.",
    fieldInvalid: "El campo no es válido.",
    cronInvalid: "Introduzca una expresión cron válida (p. ej. 0 */2 * * *).",
    dateInvalid: "Introduzca una fecha válida.",
    selectAtLeastOne: "Seleccione al menos un registro.",
  },
  api: {
    validationFailed: "Corrija los errores del formulario.",
    invalidEmailFormat:
      "Formato de correo electrónico no válido. Compruebe la dirección de correo electrónico.",
    emailHasTurkishCharacters:
      "Su dirección de correo electrónico contiene caracteres turcos. Introduzca una dirección sin caracteres turcos.",
    emailAlreadyRegistered: "Ya existe un usuario con esta dirección de correo electrónico.",
    registrationFailed: "Se produjo un error durante el registro.",
    registrationNetworkFailed: "El registro ha fallado...",
    autoLoginFailed:
      "El registro se completó, pero no se pudo iniciar sesión. Póngase en contacto con el administrador del sitio.",
    registered: "Registro completado correctamente.",
    loginFailed: "El nombre de usuario o la contraseña son incorrectos.",
    tooManyLoginAttempts: "Too many sign-in requests from this connection. Please try again in a minute.",
    captchaRequired: "Confirme que no es un robot.",
    captchaHarderRequired:
      "Too many failed sign-in attempts. For your security an extra verification is needed; press Sign in again once it is complete.",
    captchaInvalid: "La verificación ha fallado. Vuelva a intentarlo.",
    unauthorized: "Su sesión ha caducado. Inicie sesión de nuevo.",
    forbidden: "No tiene permiso para realizar esta operación.",
    notFound: "No se encontró el registro que busca.",
    conflict: "Otra operación ha modificado este registro. Vuelva a intentarlo.",
    rateLimited: "Demasiadas solicitudes. Espere un momento y vuelva a intentarlo.",
    internalError: "Se produjo un error inesperado. Vuelva a intentarlo más tarde.",
    recoverMailSent:
      "Si su dirección de correo electrónico está registrada, se ha enviado un enlace para restablecer la contraseña.",
    recoverMailFailed: "Se produjo un error al enviar el enlace para restablecer la contraseña.",
    resetLinkInvalid: "El enlace para restablecer la contraseña no es válido o ha caducado.",
    passwordReset:
      "Su contraseña se ha cambiado correctamente. Redirigiendo a la página de inicio de sesión...",
    passwordUpdated: "Su contraseña se ha actualizado.",
    oldPasswordWrong: "Su contraseña actual es incorrecta.",
    loginCodeInvalid: "El código de inicio de sesión no es válido o ha caducado.",
    profileUpdated: "Sus datos se han actualizado.",
    companyUpdated: "Los datos de su empresa se han actualizado.",
    loggedOut: "Sesión cerrada.",
    ok: "Operación realizada correctamente.",
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
    statusQueued: "En cola.",
    statusRunning: "En ejecución.",
    statusSucceeded: "Completado correctamente.",
    statusPartiallyFailed: "Completado; algunos registros no se pudieron transferir.",
    statusFailed: "Ha fallado.",
    statusCrashed: "Interrumpido.",
    reportSummary:
      "{{read}} registros leídos, {{changed}} con cambios, {{written}} escritos, {{failed}} no se pudieron transferir.",
    reportCalls:
      "{{erpRead}} llamadas de lectura y {{erpWrite}} de escritura al ERP, {{shopRead}} de lectura y {{shopWrite}} de escritura a la tienda.",
    reportNothingChanged: "Sin cambios; no se hizo ninguna llamada de escritura a ningún sistema.",
    reportResolved:
      "{{count}} registros que fallaron en ejecuciones anteriores se transfirieron en esta ejecución.",
    reportNotInShop:
      "Se omitieron {{count}} registros porque la tienda no los tiene (ejecute primero la transferencia de productos).",
    reportTransientLeft: "{{count}} registros quedaron para la siguiente ejecución tras un error temporal.",
    reportCreateDisabled:
      "Faltan {{count}} productos en la tienda y no se crearon (la creación está desactivada en la configuración).",
    runFailed: "La tarea {{job}} ha fallado: {{reason}}",
    runPartiallyFailed: "La tarea {{job}} se completó, pero {{count}} registros no se pudieron transferir.",
    runRecovered: "La tarea {{job}} volvió a ejecutarse correctamente.",
    runCrashed:
      "La tarea {{job}} se interrumpió (su proceso se detuvo). La siguiente ejecución continuará donde se quedó.",
    runRefusedLicence: "{{job}} no se ejecutó: su licencia {{licence}} ha caducado.",
    alreadyRunning: "Esta tarea ya está en cola o en ejecución.",
    noShopStockLocation: "La tienda no tiene ninguna ubicación de stock.",
    noErpPriceGroup: "El ERP no tiene ningún grupo de precios.",
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
    resetSubject: "Entegrasyon Paneli: restablecimiento de contraseña",
    resetBody:
      "Hola {{name}}:\n\nHaga clic en el siguiente enlace para restablecer su contraseña. El enlace es válido durante una hora y solo se puede usar una vez.\n\n{{link}}\n\nSi no ha solicitado esto, ignore este correo electrónico.",
    welcomeSubject: "Bienvenido a Entegrasyon Paneli",
    welcomeBody:
      "Hola {{name}}:\n\nSe ha creado la cuenta de {{company}}. Sus licencias de prueba de 14 días ya están activas.\n\n{{link}}",
  },
  activity: {
    signIn: "Sesión iniciada en el panel.",
    settingsSaved: "Configuración guardada ({{detail}}).",
    connectionChanged: "Datos de conexión modificados ({{detail}}).",
    jobEnabled: "Se activó la tarea {{detail}}.",
    jobDisabled: "Se desactivó la tarea {{detail}}.",
    jobScheduleChanged: "Se cambió la programación de la tarea {{detail}}.",
    jobRun: "La tarea {{detail}} se ejecutó manualmente.",
    failedTasksDeleted: "Se eliminaron {{detail}} registros de tareas fallidas.",
    failedTasksRetried: "Se reintentaron {{detail}} registros de tareas fallidas.",
    ticketCreated: "Ticket de soporte abierto: {{detail}}",
    ticketReplied: "Ticket de soporte respondido: {{detail}}",
    ticketClosed: "Ticket de soporte cerrado: {{detail}}",
    profileUpdated: "Datos del perfil actualizados.",
    companyUpdated: "Datos de la empresa actualizados.",
    passwordChanged: "Contraseña cambiada.",
    erpMatchingChanged: "Correspondencia ERP modificada ({{detail}}).",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "Su licencia {{licence}} vence el {{date}} (quedan {{days}} días).",
    licenceExpired: "Su licencia {{licence}} ha vencido; sus tareas ya no se ejecutan.",
    reportNever: "{{job}} todavía no se ha ejecutado.",
    reportSucceeded: "{{job}} tuvo éxito en su última ejecución; se escribieron {{written}} registros.",
    reportFailed: "{{job}} falló en su última ejecución; no se pudieron transferir {{failed}} registros.",
    reportDisabled: "{{job}} está desactivada.",
    connectionUntested: "La conexión aún no se ha probado.",
    connectionNotSaved:
      "The connection settings are not saved yet. Enter your details in the connection settings and test them.",
    connectionRunOk: "The last job run on {{date}} reached this system without problems.",
    connectionRunFailed: "The last job run on {{date}} could not connect to this system. {{reason}}",
  },
  connectionSettings: {
    previewNothing: "No cambiaría nada en la próxima ejecución.",
    previewPriceOk: "Cambiarían {{total}} precios; ninguno baja más del límite del {{limit}} %.",
    previewPriceTripped:
      "El precio de {{flagged}} productos bajaría más del límite del {{limit}} %. Revise y confirme antes de ejecutar.",
    previewStockOk: "Cambiarían {{total}} registros de stock; {{flagged}} productos quedarían con stock 0.",
    previewStockTripped:
      "El {{share}} % de los artículos leídos quedaría con stock 0 (límite {{limit}} %). Revise y confirme antes de ejecutar.",
    connectionSaved: "Configuración de conexión guardada.",
    connectionSavedJobsReady: "Configuración de conexión guardada. Sus tareas de integración están listas.",
    testOk: "Conexión correcta. {{description}}",
    testAuth:
      "Se alcanzó {{system}}, pero las credenciales no fueron aceptadas. Revise la clave, el usuario y la contraseña.",
    testUnreachable:
      "{{system}} could not be reached. Please enter its address on the internet; our server does not connect to local or private network addresses, systems inside your company network connect through the on-site agent.",
    testTimeout: "{{system}} no respondió a tiempo. Inténtelo de nuevo más tarde.",
    testRateLimited:
      "{{system}} rechazó la solicitud por exceso de solicitudes. Espere un poco e inténtelo de nuevo.",
    testUnsupported: "La conexión con {{system}} aún no está disponible.",
    testConfig: "Los datos de conexión de {{system}} faltan o son incorrectos. Revise el formulario.",
    testFailed: "La prueba de conexión de {{system}} falló. Revise los datos e inténtelo de nuevo.",
    notConnected: "Guarde primero la configuración de conexión de este sistema.",
    listBusy:
      "El sistema conectado está ocupado o no responde en este momento. Inténtelo de nuevo en unos segundos.",
    listFailed: "No se pudo leer la lista del sistema conectado. Pruebe la configuración de conexión.",
    unsupportedSystem: "La conexión con este sistema aún no está disponible.",
    fieldRequired: "Este campo es obligatorio.",
    urlInvalid: "Introduzca una dirección válida (http:// o https://).",
    numberInvalid: "Introduzca un número válido.",
    unknownField: "Este campo no está definido para este sistema.",
    unknownSetting: "Clave de configuración desconocida.",
    settingsSaved: "Configuración guardada. Los cambios se aplican desde la próxima ejecución.",
  },
  tickets: {
    categoryRequired: "Seleccione una categoría.",
    subjectRequired: "El asunto es obligatorio.",
    subjectMax: "El asunto puede tener como máximo 150 caracteres.",
    messageRequired: "El mensaje es obligatorio.",
    messageMax: "El mensaje puede tener como máximo 5000 caracteres.",
    attachmentTooLarge: "Cada archivo puede ocupar como máximo 5 MB.",
    attachmentType: "Solo se pueden adjuntar imágenes (PNG, JPEG, GIF, WEBP) y archivos PDF.",
    attachmentTooMany: "Se pueden adjuntar como máximo 5 archivos.",
    ticketClosed: "Este ticket está cerrado; no se pueden añadir mensajes nuevos.",
    statusInvalid: "Un ticket solo se puede cerrar (estado 3).",
    created: "Su ticket ha sido creado.",
    replied: "Su mensaje ha sido enviado.",
    closed: "El ticket ha sido cerrado.",
    announcementTypeRequired: "El tipo de anuncio es obligatorio.",
    announcementContentRequired: "El texto del anuncio es obligatorio.",
    announcementCreated: "El anuncio ha sido publicado.",
    licenseUpdated: "La licencia ha sido actualizada.",
    notifyAnswered: "El equipo de soporte respondió a su ticket #{{id}} «{{subject}}».",
    mailAnsweredSubject: "Su ticket #{{id}} ha sido respondido",
    mailAnsweredBody:
      "Hola {{name}}:\n\nNuestro equipo de soporte respondió a su ticket «{{subject}}»:\n\n{{message}}\n\nPara responder: {{link}}\n\nSi no responde, el ticket se cerrará automáticamente en 24 horas.",
    mailAutoClosedSubject: "Su ticket #{{id}} ha sido cerrado",
    mailAutoClosedBody:
      "Hola {{name}}:\n\nSu ticket «{{subject}}» se cerró automáticamente porque no hubo respuesta en las 24 horas siguientes a la respuesta del equipo de soporte.\n\nSi tiene una nueva pregunta puede abrir un nuevo ticket: {{link}}",
    mailNewSubject: "Nuevo ticket #{{id}}: {{subject}}",
    mailNewBody:
      "{{name}} de {{company}} abrió un nuevo ticket.\n\nCategoría: {{category}}\nAsunto: {{subject}}\n\n{{message}}\n\nConsola de soporte: {{link}}",
  },
  erpMatching: {
    saved: "Correspondencia guardada.",
    deleted: "Correspondencia eliminada.",
    shopSkuNotFound: "No se encontró en la tienda ningún producto con este código de stock.",
    duplicate: "Ya existe una correspondencia para este código del ERP o de la tienda.",
    rowInvalid: "La fila debe contener un código de stock del ERP y de la tienda.",
    imported: "{{accepted}} filas aceptadas, {{refused}} filas rechazadas.",
    tooManyRows: "Se pueden importar como máximo 5000 filas de un archivo.",
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
      "Código de emparejamiento creado. Introdúzcalo en el agente local en 10 minutos: entegrasyon-agent pair CÓDIGO --server URL",
    paired: "El agente local está emparejado.",
    pairingCodeInvalid:
      "El código de emparejamiento no es válido, ha caducado o ya se usó. Obtenga un código nuevo en el panel e inténtelo de nuevo.",
    revoked:
      "Se revocó el acceso del agente local. Obtenga un código de emparejamiento nuevo para volver a conectarlo.",
    offline:
      "El agente local está desconectado (visto por última vez: {{lastSeen}}). Compruebe el equipo donde se ejecuta y su conexión de red.",
    cli: {
      usage:
        "Uso:\n  entegrasyon-agent pair CÓDIGO --server URL   Empareja con el código del panel\n  entegrasyon-agent run                        Se conecta al servidor y ejecuta las solicitudes\n  entegrasyon-agent status                     Muestra el último estado",
      paired: "Emparejado (agente n.º {{agentId}}). Ahora inícielo con 'entegrasyon-agent run'.",
      pairFailed: "No se pudo emparejar: {{reason}}",
      notPaired:
        "Este agente aún no está emparejado. Obtenga un código en el panel y ejecute primero 'entegrasyon-agent pair CÓDIGO --server URL'.",
      refused:
        "El servidor rechazó la credencial de este agente (puede que se haya revocado el acceso). Obtenga un código nuevo en el panel y vuelva a emparejar.",
      status:
        "Estado: {{state}} · servidor: {{server}} · última conexión: {{connectedAt}} · último error: {{lastError}}",
      serverUnreachable:
        "No se pudo contactar con el servidor ({{code}}). Compruebe la dirección y la conexión a internet de este equipo.",
      noStatus: "Aún no hay estado registrado: el agente nunca se ha ejecutado.",
    },
  },
};
