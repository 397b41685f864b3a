import { type MessageCatalog, tr } from "./tr.ts";

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
    websiteInvalid: "Introduzca una dirección web válida (p. ej. https://mitienda.com).",
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
    tooManyRegistrations: "Demasiados registros desde esta conexión. Inténtelo de nuevo más tarde.",
    tooManyLoginAttempts:
      "Demasiadas solicitudes de inicio de sesión desde esta conexión. Vuelva a intentarlo dentro de un minuto.",
    captchaRequired: "Confirme que no es un robot.",
    captchaHarderRequired:
      "Demasiados intentos de inicio de sesión fallidos. Por su seguridad se necesita una verificación adicional; cuando la complete, pulse de nuevo «Iniciar sesión».",
    captchaInvalid: "La verificación ha fallado. Vuelva a intentarlo.",
    unauthorized: "Su sesión ha caducado. Inicie sesión de nuevo.",
    forbidden: "No tiene permiso para realizar esta operación.",
    notFound: "No se encontró el registro que busca.",
    conflict: "Otra operación ha modificado este registro. Vuelva a intentarlo.",
    rateLimited: "Demasiadas solicitudes. Espere un momento y vuelva a intentarlo.",
    busy: "Su empresa tiene muchas solicitudes en curso en este momento. Inténtelo de nuevo en unos segundos.",
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
    partnerInstallFailed: "No se pudo completar la instalación de la tienda.",
    profileUpdated: "Sus datos se han actualizado.",
    companyUpdated: "Los datos de su empresa se han actualizado.",
    loggedOut: "Sesión cerrada.",
    ok: "Operación realizada correctamente.",
  },
  /** Requests refused before any handler runs: transport, format and shared field rules. */
  request: {
    badRequest: "No se pudo leer la solicitud. Recargue la página y vuelva a intentarlo.",
    badUrl: "La dirección contiene caracteres no válidos. Revísela y vuelva a intentarlo.",
    uriTooLong: "La dirección es demasiado larga. Vuelva a intentarlo con una dirección más corta.",
    headersTooLarge:
      "Los encabezados de la solicitud son demasiado grandes. Borre las cookies de su navegador y vuelva a intentarlo.",
    unsupportedMediaType:
      "Este tipo de contenido no es compatible. Envíe los datos como JSON o como formulario.",
    malformedJson: "Los datos enviados no son un JSON válido. Revise el contenido y vuelva a intentarlo.",
    malformedMultipart:
      "No se pudieron leer los datos del formulario. Vuelva a enviar el formulario y sus adjuntos.",
    bodyTooLarge:
      "Los datos enviados son demasiado grandes. Vuelva a intentarlo con un contenido más pequeño.",
    timeout: "La solicitud no se completó a tiempo. Compruebe su conexión y vuelva a intentarlo.",
    textControlCharacter:
      "El texto contiene un carácter de control no permitido. Vuelva a escribir el texto.",
    idOutOfRange: "El número de registro debe ser un número entero entre 1 y 2.147.483.647.",
    numberOutOfRange: "El número está fuera del rango permitido. Introduzca un valor más pequeño.",
    dateOutOfRange: "La fecha debe estar entre los años 1900 y 2999.",
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
    usageCredit:
      "{{system}}: {{calls}} llamadas facturables en esta ejecución; este mes: {{month}} llamadas ({{credits}} créditos).",
    usageQuota:
      "{{system}}: {{read}} llamadas de lectura y {{write}} de escritura en esta ejecución; cuota restante: lectura {{readLeft}} / escritura {{writeLeft}}.",
    quotaRefused:
      "Ejecución programada no iniciada: la parte de hoy de la cuota mensual de {{system}} (lectura {{readAllowance}} / escritura {{writeAllowance}}) no cubre lo que necesita una ejecución (lectura {{readNeed}} / escritura {{writeNeed}}). Cuota restante: lectura {{readLeft}} / escritura {{writeLeft}}. Las ejecuciones manuales siguen siendo posibles.",
    quotaWarning:
      "Se ha usado el {{percent}} % de la cuota mensual de API de {{system}} (quedan lectura {{readLeft}} / escritura {{writeLeft}}). Cuando se agote, las transferencias se detendrán hasta fin de mes.",
    reportResolved:
      "{{count}} registros que fallaron en ejecuciones anteriores se transfirieron en esta ejecución.",
    reportNotInShop:
      "Se omitieron {{count}} registros porque la tienda no los tiene (ejecute primero la transferencia de productos).",
    reportReturnsCancelledInErp: "{{count}} pedidos cancelados se eliminaron del ERP.",
    reportReturnsPartial:
      "{{count}} pedidos tuvieron devoluciones de algunas líneas ({{units}} unidades); registre esas unidades como devolución en el ERP.",
    reportReturnsKeptInErp:
      "{{count}} pedidos cancelados o devueltos siguen en el ERP (facturados o no eliminables); registre la devolución en el ERP.",
    reportTransientLeft: "{{count}} registros quedaron para la siguiente ejecución tras un error temporal.",
    reportCreateDisabled:
      "Faltan {{count}} productos en la tienda y no se crearon (la creación está desactivada en la configuración).",
    reportCategoriesAdopted:
      "{{count}} categorías ya existían en la tienda: no se crearon de nuevo, se vincularon con las existentes.",
    retryUntouched:
      "Reintentado, pero el registro no se transfirió en esta ejecución: no se leyó del ERP o no tiene equivalente en la tienda. Compruebe que sigue en el ERP y que coincide con un producto de la tienda; si ya no es necesario, cierre la tarea.",
    runFailed: "La tarea {{job}} ha fallado: {{reason}}",
    runPartiallyFailed: "La tarea {{job}} se completó, pero {{count}} registros no se pudieron transferir.",
    runRecovered: "La tarea {{job}} volvió a ejecutarse correctamente.",
    runCrashed:
      "La tarea {{job}} se interrumpió (su proceso se detuvo). La siguiente ejecución continuará donde se quedó.",
    runRefusedLicence: "{{job}} no se ejecutó: su licencia {{licence}} ha caducado.",
    alreadyRunning: "Esta tarea ya está en cola o en ejecución.",
    noShopStockLocation: "La tienda no tiene ninguna ubicación de stock.",
    vatRateMissing:
      "Pedido en espera: el ERP no tiene tipo de IVA para el SKU {{skus}} (el canal de venta no lo indica en sus pedidos; se usa el de la ficha de stock del ERP). Defina la ficha con su tipo de IVA en el ERP; el pedido se transfiere en la próxima ejecución.",
    noErpPriceGroup: "El ERP no tiene ningún grupo de precios.",
  },
  fileExchange: {
    notFileShop:
      "Esta tienda no trabaja con archivos: un archivo de pedidos solo se sube para tiendas sin API, como JetStok.",
    unreadable: "No se pudo leer el archivo: debe ser Excel (.xlsx), CSV o XML con fila de encabezado.",
    tooLarge: "El archivo es demasiado grande: 20 MB como máximo.",
    notFileSystem:
      "Este ERP no trabaja con archivos: solo los sistemas sin API (mapeo configurado) los usan.",
    empty: "El archivo está vacío.",
    tooManyRows:
      "Un archivo puede tener como máximo 100.000 filas (sin contar la cabecera); divida el archivo.",
    tooManyColumns: "Un archivo puede tener como máximo 100 columnas.",
    cellTooLong: "Una celda puede contener como máximo 32.767 caracteres.",
    unpackedTooLarge:
      "El archivo descomprimido es demasiado grande (100 MB como máximo); puede estar dañado.",
    deleted: "Se eliminó el archivo.",
  },
  connectors: {
    jetstok: {
      card: {
        cardTitle: "JetStok se conecta mediante archivos",
        cardBody:
          "JetStok no tiene una API pública: la conexión funciona con los archivos que JetStok importa y exporta en Excel. No hace falta configuración.",
        stepStock:
          'Stock y precios: después de una transferencia de stock o precios, pulse aquí "Descargar el archivo de stock y precios" e impórtelo en el panel de JetStok como actualización masiva por Excel.',
        stepOrders:
          "Pedidos: exporte los pedidos desde el panel de JetStok en Excel y suba el archivo aquí; la transferencia de pedidos escribe cada pedido en el ERP una sola vez (aunque el mismo archivo o pedido se suba dos veces).",
        stockFile: "Descargar el archivo de stock y precios",
        noStockFile:
          "Todavía no hay archivo de stock y precios: ejecute primero la transferencia de stock o precios.",
        stockFileAt: "Última actualización: {{at}} ({{count}} productos)",
        ordersHelp:
          "El archivo de pedidos que exportó del panel de JetStok (Excel o CSV, encabezado en la primera fila). Cada fila se comprueba y se guarda; el mismo archivo no se toma dos veces.",
        ordersUsed:
          "La próxima transferencia de pedidos lee los pedidos de este archivo; cada pedido se escribe en el ERP una vez.",
        ordersUpload: "Subir un archivo de pedidos de JetStok",
        ordersFiles: "Archivos de pedidos subidos",
      },
      connected:
        "JetStok conectado mediante archivos: se descarga el archivo de stock y precios y se sube el de pedidos.",
      noCatalogue:
        "Los productos y categorías no se envían a JetStok por archivo; cree los productos en JetStok, el archivo de stock y precios los asocia por código de stock.",
      noStatus: "Los estados de pedido no se pueden enviar a JetStok (sin API); se actualizan en JetStok.",
      noInvoice:
        "Las facturas no se pueden enviar a JetStok (sin API); se descargan en la pantalla de facturas.",
      location: "Stock de JetStok",
      rows: {
        missing: "{{column}} está vacío",
        badNumber: "{{column}} no es un número: {{value}}",
        badDate: "{{column}} no es una fecha: {{value}}",
        notPositive: "{{column}} debe ser mayor que cero",
        noColumn: "El archivo no tiene la columna {{column}}",
      },
    },
    genericSql: {
      queries: {
        products: "Producto",
        stock: "Stock",
        prices: "Precio",
        categories: "Categoría",
        orderLookup: "Búsqueda de pedido",
        orderWrite: "Escritura de pedido",
      },
      unknownParam: "Parámetro desconocido en la consulta {{what}}: @{{name}}. Permitidos: {{allowed}}.",
      empty: "La consulta {{what}} está vacía.",
      oneStatement: "Escriba una sola sentencia SQL para {{what}}.",
      guard: {
        refused: "Instrucción no permitida en la consulta {{what}}: {{part}}",
        char: "Carácter no permitido en la consulta {{what}}: {{part}} (solo dentro de texto entre comillas).",
        lookalike: "Nombre escrito con letras parecidas de otro alfabeto en la consulta {{what}}: {{part}}",
        unterminated: "{{part}} sin cerrar en la consulta {{what}}",
        nestedComment:
          "Comentario anidado en la consulta {{what}}: {{part}} (las marcas de comentario no pueden ir dentro de un comentario).",
        stacked: "Escriba una sola instrucción SQL para {{what}} (segunda instrucción: {{part}}).",
        shape: "La consulta {{what}} debe ser un SELECT o un WITH solo de SELECT; no permitido: {{part}}",
        linkedServer: "Nombre que llega a otro servidor en la consulta {{what}}: {{part}}",
        procedure: "Llamada a procedimiento no permitida en la consulta {{what}}: {{part}}",
        parseAt:
          'No se pudo leer la consulta {{what}}: no se esperaba "{{found}}" en la línea {{line}}, columna {{column}}.',
      },
      parse: "No se pudo leer la consulta {{what}}: {{detail}}",
      selectOnly:
        "La consulta {{what}} solo puede ser un SELECT (no se ejecutan sentencias que modifican datos).",
      writeKind:
        "La escritura del pedido debe ser una llamada a procedimiento (EXECUTE PROCEDURE / EXEC) o un único INSERT.",
      insertParamsOnly: "En la plantilla INSERT del pedido los valores solo pueden ser @parámetros.",
      missingColumn: "No se eligió columna para {{field}} en el mapeo {{what}}.",
      unknownField: "Campo desconocido en el mapeo {{what}}: {{field}}.",
      badIdentifier: '{{what}}: "{{column}}" no es un nombre de columna válido (letras, dígitos y _).',
      configJson: "No se pudo leer la configuración SQL (JSON no válido).",
      lookupRequired:
        "Defina la consulta de búsqueda del pedido (con @ref) antes de la escritura: el pedido se busca antes de escribir para no escribirlo dos veces.",
      badNumber: "{{field}} debe ser un entero entre 1 y 10.",
      columnAbsent: "El resultado no tiene la columna {{column}} (mapeada a {{field}}).",
      rowEmpty: "{{field}} está vacío.",
      rowNotNumber: '{{field}} no es un número: "{{value}}".',
      rowNotBool: '{{field}} no es un valor sí/no: "{{value}}".',
      rowVat: "Tipo de IVA no válido: {{value}} (0, 1, 10 o 20).",
      rowNegative: "{{field}} no puede ser negativo.",
      readFromFile:
        "{{what}} leído de un archivo: {{file}} ({{source}}, {{at}}, {{rows}} filas); se usa el último archivo aceptado en lugar de la consulta.",
      fileSource: { panel: "subido en el panel", agent: "de la carpeta vigilada" },
      filesOnly:
        "{{system}}: sin consulta definida; productos, stock y precios se leen de los archivos subidos.",
      ordersFile: "Pedidos escritos en un archivo: {{file}} ({{count}} pedidos); descárguelo en el panel.",
      noTransport:
        "No se puede acceder a la base de datos a través del agente local: vincule el agente e indique el alias de la base de datos.",
      queryFailed: "La consulta {{what}} falló en la base de datos: {{detail}}",
      notConfigured: 'No hay consulta {{what}} definida; añádala en la sección "Conectar con SQL".',
      tooManyRows:
        "La consulta {{what}} devolvió más de {{cap}} filas; defina una columna clave para leer por páginas.",
      connected: "La base de datos de {{system}} se lee mediante un mapeo configurado.",
      orderNotFound:
        "El pedido {{orderNo}} se escribió pero la consulta de búsqueda no lo encuentra; revísela. No se reenvió para no escribirlo dos veces.",
    },
    einvoiceNotProductSource:
      "Esta conexión es un servicio de factura electrónica, no una fuente de productos. No se leen productos, existencias, precios ni pedidos; solo envía facturas e-Fatura / e-Arşiv y consulta su estado. Conecte su ERP por separado para los productos.",
    mikroMethodMissing:
      "Su servidor Mikro ({{version}}) no ofrece el método {{method}}; la lectura de existencias, precios, categorías y pedidos depende de él. Actualice a Mikro Jump V17 o pida a su distribuidor de Mikro que active {{method}} en el servicio API y luego vuelva a probar la conexión.",
    mikroVatRateMissing:
      "El tipo de IVA del {{rate}} % no está en la tabla de impuestos de Mikro (VergiListesiV2); el pedido {{orderNo}} no se escribió en Mikro. Defina el tipo en Mikro o corrija el tipo de IVA del producto; el pedido se reintentará en la próxima ejecución.",
    mikroVatPointerUnknown:
      "Algunas fichas de existencias de Mikro apuntan a una entrada de IVA ({{pointer}}) que no está en la tabla de impuestos: {{skus}}. Corrija en Mikro el campo de IVA minorista de esas fichas; hasta entonces estos productos no se transfieren.",
    mikroOrderNotFound:
      "El pedido {{orderNo}} se envió a Mikro, pero no se pudo volver a encontrar por su número de documento. Revise en Mikro el pedido con ese número de documento; no se ha reenviado para que no se escriba dos veces.",
    d365VatGroupUnknown:
      'Producto de D365 {{sku}}: el grupo de impuestos de artículo "{{group}}" no tiene tipo de IVA en la correspondencia. Añada el grupo con su tipo en "Grupos de impuestos de artículo" en la configuración de la conexión; hasta entonces el producto no se transfiere.',
    d365VariantUnknown:
      "La fila de existencias de D365 {{key}} no pertenece a ninguna variante de producto liberada. Libere la variante para esta combinación de dimensiones en D365; hasta entonces sus existencias no se transfieren.",
    d365ItemsUnknown:
      "No se encontró en D365 ningún producto o variante liberado: {{skus}}. Libere los productos en la empresa o corrija los códigos de las líneas del pedido; el pedido no se escribió.",
    d365VatGroupsMalformed:
      'No se pudo leer la correspondencia de grupos de impuestos de artículo: "{{entry}}". El formato es GRUPO=TIPO;GRUPO=TIPO, p. ej. KDV20=20;KDV10=10.',
    entegraWriteUnsupported:
      "La conexión con Entegra es solo de lectura: productos, existencias, precios y categorías se leen de Entegra. No existe una forma verificada de escribir pedidos y clientes en Entegra, por lo que los pedidos no se transfieren. Conecte un ERP que acepte pedidos para transferirlos.",
    shopierOrderWriteUnsupported:
      "Conectado como ERP, Shopier es el origen de productos, existencias y precios. Los pedidos realizados en Shopier ya quedan registrados allí; los pedidos y clientes de otras tiendas no se pueden escribir en Shopier y no se leen facturas de él (la API de Shopier no ofrece estas operaciones).",
    shopierAuthMissing:
      "La conexión de Shopier necesita un token de acceso personal (PAT) o el client_id, client_secret y token de actualización de la app OAuth.",
    shopierVatRateInvalid:
      'El tipo de IVA "{{rate}}" de la conexión con Shopier no es válido. Introduzca 0, 1, 10 o 20; los productos no se transfieren hasta corregirlo.',
    n11ListingUnsupported:
      "Los productos se publican en n11 mediante la publicación de productos del canal: asigne sus categorías del ERP a categorías de n11 en la asignación de categorías del canal. No hay escritura de productos individuales ni creación de categorías en n11.",
    n11ShipmentTemplateMissing:
      "Para publicar productos en n11, escriba en los ajustes de la conexión el nombre de su plantilla de envío de la Seller Office de n11; n11 publica cada producto con una plantilla de envío.",
    n11InvoiceLinkUnsupported:
      "n11 solo acepta enlaces de factura mediante su antiguo servicio SOAP (SellerInvoiceService); esta conexión no envía la factura a n11, súbala en la Seller Office de n11.",
    n11TrackingNumberIsN11s:
      "En n11 el número de seguimiento lo asigna n11 (código de campaña); se lee con el pedido y no se envía a n11.",
    lucaKozaOrderUnsupported:
      "LucaKoza no tiene ningún servicio que cree pedidos de venta; esta conexión no transfiere pedidos, fichas de cliente ni facturas a LucaKoza. De LucaKoza se leen fichas de existencias, cantidades por almacén, precios y categorías.",
    lucaKozaBranchChoice:
      'El usuario de LucaKoza tiene más de una empresa/sucursal; indique una en el campo "Id. de empresa/sucursal" de la configuración de la conexión: {{names}}',
    amazonListingUnknown:
      "No tiene ninguna oferta con el SKU {{sku}} en Amazon.com.tr. Cree el producto en Seller Central o haga que el código de stock coincida con el SKU de Amazon; hasta entonces no se envían stock ni precio.",
    amazonFeedRefused: "Amazon rechazó el valor enviado para {{sku}}: {{reason}}",
    amazonFeedPending:
      "El feed de Amazon aún no se ha procesado ({{sku}}); el valor se reenvía en la próxima ejecución.",
    amazonTrackingRequired:
      "Amazon fija el estado de un pedido de Amazon; introduzca un número de seguimiento para confirmar el envío.",
    amazonListingUnsupported:
      "Los productos no se escriben en Amazon uno a uno ni se añaden tipos de producto: asigne su categoría del ERP a un tipo de producto de Amazon, una marca y atributos en la asignación de categorías del canal; el trabajo de Transferencia de productos crea los productos en Amazon, el stock y los precios fluyen con los trabajos del canal.",
    amazonInvoiceUnsupported:
      "Las facturas de los pedidos de Amazon Türkiye se suben en Seller Central: la API de Amazon no ofrece forma de enviar un enlace de factura para Turquía.",
  },
  failure: {
    someSystem: "El ERP o la tienda",
    network:
      "No se pudo conectar con {{system}}. Revise la configuración de conexión y vuelva a intentarlo con «Probar conexión».",
    timeout:
      "{{system}} no respondió a tiempo. La tarea se reintentará en la próxima ejecución; si el problema persiste, compruebe que el sistema esté en marcha y que la configuración de conexión sea correcta.",
    serverError:
      "{{system}} informó de un error en su lado. La tarea se reintentará en la próxima ejecución; si el problema persiste, contacte con el proveedor del sistema.",
    rateLimited:
      "{{system}} rechazó solicitudes temporalmente porque había demasiadas. La tarea continuará donde se quedó en la próxima ejecución; no tiene que hacer nada.",
    lock: "El registro estaba bloqueado por otra operación en {{system}}. La tarea se reintentará en la próxima ejecución.",
    blocked:
      "{{system}} bloqueó el acceso temporalmente. Espere un poco y vuelva a intentarlo; si el problema persiste, contacte con el proveedor del sistema.",
    unavailable:
      "{{system}} no está disponible en este momento (mantenimiento o carga elevada). La tarea se reintentará en la próxima ejecución.",
    auth: "{{system}} no aceptó las credenciales. Revise el usuario, la contraseña y la clave en la configuración de conexión y vuelva a intentarlo con «Probar conexión».",
    validation:
      "{{system}} no aceptó este registro. Corrija los datos del registro (nombre, precio, código de barras, IVA…) y reinténtelo desde la pantalla «Tareas fallidas».",
    notFound:
      "Este registro no se encontró en {{system}}. Compruebe que existe en ambos sistemas y reinténtelo desde la pantalla «Tareas fallidas».",
    unknownItem:
      "No se encontró en {{system}} una definición que usa este registro (ficha de existencias, almacén, cuenta de cliente…). Créela o corrija las correspondencias y luego reinténtelo desde la pantalla «Tareas fallidas».",
    conflict:
      "{{system}} no aceptó este registro porque entra en conflicto con uno existente. Revise el registro y reinténtelo desde la pantalla «Tareas fallidas».",
    unsupported: "{{system}} no admite esta operación. Puede abrir un ticket de soporte.",
    jobUnsupported:
      "{{system}} no puede realizar esta tarea: {{why}} La tarea no se ejecutó; puede desactivarla en la pantalla de Tareas.",
    badResponse:
      "{{system}} dio una respuesta que no se pudo entender. La tarea se reintentará en la próxima ejecución; si el problema persiste, abra un ticket de soporte.",
    config:
      "Faltan datos de conexión de {{system}} o son incorrectos. Revise la configuración de conexión y vuelva a intentarlo con «Probar conexión».",
    database:
      "Se produjo un problema al guardar los registros en la base de datos del panel. La tarea se reintentará en la próxima ejecución; si el problema persiste, abra un ticket de soporte.",
    unexpected:
      "La tarea no pudo terminar por un problema inesperado. Se reintentará en la próxima ejecución; si el problema persiste, abra un ticket de soporte.",
    systemSaid: "{{text}} Respuesta del sistema: «{{said}}»",
    bindingConflict:
      "{{key}} no se transfirió: el mismo producto de la tienda está vinculado al código ERP {{heldBy}}. Un producto de la tienda solo puede corresponder a un artículo del ERP; corrija la correspondencia en la pantalla «Correspondencias con el ERP» y luego reinténtelo desde la pantalla «Tareas fallidas».",
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
    fileImportDeleted: "Archivo subido eliminado: {{detail}}",
    failedTasksRetried: "Se reintentaron {{detail}} registros de tareas fallidas.",
    ticketCreated: "Ticket de soporte abierto: {{detail}}",
    ticketReplied: "Ticket de soporte respondido: {{detail}}",
    ticketClosed: "Ticket de soporte cerrado: {{detail}}",
    profileUpdated: "Datos del perfil actualizados.",
    companyUpdated: "Datos de la empresa actualizados.",
    passwordChanged: "Contraseña cambiada.",
    erpMatchingChanged: "Correspondencia ERP modificada ({{detail}}).",
    retentionChanged: "Periodos de conservación modificados ({{detail}}).",
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
      "La configuración de conexión aún no se ha guardado. Introduzca sus datos en la configuración de conexión y pruébelos.",
    connectionRunOk: "La última ejecución de tareas del {{date}} llegó a este sistema sin problemas.",
    connectionRunFailed:
      "La última ejecución de tareas del {{date}} no pudo conectar con este sistema. {{reason}}",
  },
  connectionSettings: {
    supportEnded:
      "El soporte del fabricante para {{system}} ({{version}}) terminó el {{date}}: ya no se publican correcciones de seguridad ni de errores. La conexión sigue funcionando; planifique el paso a una versión con soporte.",
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
      "No se pudo acceder a {{system}}. Introduzca su dirección accesible desde internet; nuestro servidor no se conecta a direcciones de red locales o privadas, y los sistemas de la red de su empresa se conectan a través del agente instalado en sus instalaciones.",
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
    systemRequestSubject: "Solicitud de conexión con {{system}}",
    systemRequestBody:
      "Todavía no tenemos un conector listo para {{system}}. Como lo eligió al registrarse, abrimos esta solicitud por usted: nuestro equipo le contactará y configurará la conexión con usted (con el agente local o un mapeo SQL / de archivos si hace falta). Mientras tanto puede probar el producto con «Conectar a sistemas de prueba» en Ajustes → Ajustes de conexión API.",
    mailNewSubject: "Nuevo ticket #{{id}}: {{subject}}",
    mailNewBody:
      "{{name}} de {{company}} abrió un nuevo ticket.\n\nCategoría: {{category}}\nAsunto: {{subject}}\n\n{{message}}\n\nConsola de soporte: {{link}}",
  },
  partnerInstall: {
    logoCompanyName: "Empresa de Logo Is Basi {{tenant}}",
    causes: {
      partner_not_configured:
        "Los datos de la aplicación de {{system}} ({{missing}}) no están definidos en el servidor; pida a su administrador que los defina como variables de entorno (README, tabla de configuración) y reinicie el servidor.",
      partner_unavailable:
        "La conexión con {{system}} aún no está disponible (próximamente). Por ahora puede conectar otro de los sistemas de tienda del panel.",
      store_missing:
        "El enlace no trae una dirección de tienda de {{system}} válida. Inicie la instalación de nuevo desde la página de la aplicación en su panel de {{system}}.",
      state_mismatch:
        "Esta instalación no se inició en este navegador o pasaron sus 15 minutos. Iníciela de nuevo desde {{system}} en el mismo navegador.",
      callback_invalid:
        "No se pudo verificar la firma de la respuesta de {{system}}; el enlace puede estar alterado o ser antiguo. Inicie la instalación de nuevo desde {{system}}.",
      code_refused:
        "{{system}} no aceptó el código de aprobación (es de un solo uso y dura poco). Inicie la instalación de nuevo; si se repite, su administrador debe revisar el id y el secreto de la aplicación.",
      store_unreachable:
        "Ahora no se puede acceder a su tienda de {{system}}. Intente la instalación de nuevo en unos minutos.",
    },
  },
  webhooks: {
    tooManyDeliveries: "Demasiadas notificaciones; los pedidos se comprobarán en breve.",
    badSignature: "No se pudo verificar la firma de la notificación.",
    noShopConnection: "Primero guarde la conexión de la tienda.",
    unsupported: "Este sistema de tienda no admite webhooks; los pedidos se consultan cada 5 minutos.",
    noSecret:
      "Introduzca la clave secreta de la aplicación en los ajustes de conexión de la tienda para poder verificar las notificaciones.",
    registered: "Webhooks registrados.",
    registerFailed:
      "No se pudieron registrar los webhooks; los pedidos se siguen consultando cada 5 minutos.",
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
      "Este producto de la tienda ya está vinculado a otro código de existencias del ERP. Un producto de la tienda solo puede corresponder a un artículo del ERP: elija otro producto de la tienda.",
    bindingTakenRow:
      "El producto de la tienda {{shopSku}} ya está vinculado al código ERP {{heldBy}}; un producto de la tienda solo puede corresponder a un artículo del ERP.",
  },
  einvoices: {
    sellerIncomplete:
      "Faltan datos de la empresa necesarios para la factura electrónica (número fiscal, oficina tributaria, dirección). Complételos en Ajustes › Empresa y vuelva a intentarlo.",
    title: "Facturas",
    notFound: "Factura no encontrada.",
    noProvider:
      "Esta empresa no tiene un servicio de factura electrónica conectado. Añada la conexión de Uyumsoft, Trendyol e-Faturam o LucaPortal en la sección «Servicio de factura electrónica» de Ajustes › Conexiones API.",
    cancelNotEArchive:
      "Solo se pueden anular facturas e-Archivo; una e-Factura debe rechazarla el comprador o compensarse con una factura de devolución.",
    cancelTooLate:
      "El plazo de anulación ha pasado (8 días tras emitir la factura e-Archivo). La devolución se documenta con la factura de devolución del comprador o un justificante de gasto.",
    cancelState: "Esta factura no se puede anular en su estado actual.",
    linkInvalid: "El enlace no es válido o ha caducado. Pida a la tienda un enlace nuevo.",
    pdfUnavailable:
      "Ahora no se puede obtener el PDF de la factura del servicio. Vuelva a intentarlo en unos minutos.",
    colNumber: "N.º de factura",
    colOrder: "Pedido",
    colBuyer: "Comprador",
    colTotal: "Importe",
    colType: "Tipo",
    colStatus: "Estado GİB",
    colDate: "Fecha",
    pdf: "PDF",
    cancel: "Anular",
    cancelReason: "Motivo de anulación",
    from: "Desde",
    to: "Hasta",
    status: "Estado",
    all: "Todos",
    empty: "Ninguna factura coincide con este filtro.",
    run: "Facturar ahora",
    runDone: "{{prepared}} facturas preparadas, {{sent}} enviadas.",
    typeEArchive: "e-Archivo",
    typeEInvoice: "e-Factura",
    st_prepared: "Preparada",
    st_draft: "Borrador (pendiente de aprobación)",
    st_queued: "En cola",
    st_sent: "Enviada a GİB",
    st_approved: "Aprobada",
    st_rejected: "Rechazada",
    st_cancelled: "Anulada",
    st_error: "Error",
    st_generated: "Generada (para subir al portal)",
    kind_SATIS: "Venta",
    kind_IADE: "Devolución",
    colKind: "Tipo de factura",
    returnOf: "Devuelve: {{number}}",
    exportTitle: "Exportar",
    exportHint:
      "Las facturas del rango elegido (hoy si no se elige fecha) se descargan como lista Excel o como archivos XML UBL-TR (zip). Suba estos archivos a portales sin API (LucaPortal).",
    exportXlsx: "Descargar Excel",
    exportUbl: "Descargar UBL (zip)",
    exportRangeInvalid:
      "La fecha de inicio no puede ser posterior a la final; el rango es de 366 días como máximo.",
    export_sheet: "Facturas",
    export_number: "N.º de factura",
    export_ettn: "ETTN",
    export_date: "Fecha",
    export_type: "Tipo",
    export_profile: "Escenario",
    export_returnOf: "Factura devuelta",
    export_orderNo: "N.º de pedido",
    export_buyer: "Comprador",
    export_buyerId: "NIF",
    export_net: "Base imponible",
    export_vat: "IVA",
    export_total: "Total",
    export_currency: "Moneda",
    export_state: "Estado",
    why_rejected:
      "El comprador rechazó la factura. Revise el pedido y emita una factura corregida si hace falta.",
    why_error:
      "El servicio de factura electrónica no aceptó la factura. Corrija los ajustes de la empresa o los datos del pedido según el error; no se reintentará automáticamente, contacte con soporte.",
    why_prepared:
      "El número está reservado y el envío está en curso. Si no hay respuesta, se consulta por ETTN; no se emite una segunda factura para el mismo pedido.",
    documentNotOut:
      "Esta factura aún no ha llegado al servicio de factura electrónica (o fue rechazada); no hay documento que mostrar.",
    exportEmpty: "No hay facturas que exportar en el rango de fechas elegido. Elija otro rango.",
    rateSaved: "Tipo de cambio guardado.",
    rateCurrencyInvalid:
      "La moneda debe ser un código ISO de 3 letras (p. ej. USD, EUR); TRY no necesita tipo.",
    rateInvalid: "El tipo debe ser un número mayor que cero (TRY por unidad).",
    returnCancelNote: "Pedido devuelto / cancelado",
    waitingRate:
      "{{count}} pedidos en moneda extranjera esperan un tipo de cambio ({{currencies}}). Introduzca el tipo en la sección Tipos de cambio de la pantalla de Facturas; se facturan en la siguiente ejecución.",
    waitingVat:
      "{{count}} pedidos esperan un tipo de IVA: el ERP no tiene tipo para los SKU {{skus}} (el canal de venta no lo indica). Defina las fichas de stock en el ERP; las facturas se emiten en la próxima ejecución.",
    waitingData:
      "{{count}} pedidos esperan su e-Archivo: {{reasons}}. Complete lo que falta; se facturan en la siguiente ejecución.",
    ratesTitle: "Tipos de cambio",
    ratesHint:
      "Un pedido en moneda extranjera sin tipo propio se factura al tipo más reciente que introdujo en la fecha de la factura o antes. Nunca se adivina un tipo: sin él la factura espera.",
    rateCurrency: "Moneda",
    rateDate: "Fecha del tipo",
    rateValue: "Tipo (1 unidad = TRY)",
    rateAdd: "Guardar tipo",
    rateDelete: "Eliminar",
    ratesEmpty: "Aún no ha introducido ningún tipo.",
    waitingRateAlert:
      "No hay tipo {{currency}}: {{orders}} pedidos esperan factura. Introduzca abajo el tipo {{currency}}; se facturan en la siguiente ejecución.",
    colRate: "Tipo",
    rateFrom_order: "tipo del pedido",
    rateFrom_merchant: "su tipo",
    returnPart: "Devolución parcial: {{lines}} — {{amount}}",
    return_cancel: "Devolución: anulación del e-Archivo",
    return_iade: "Devolución: el comprador emite una factura de devolución",
    return_none: "Devolución: justificante de gasto",
    st_delivered: "Factura del ERP enviada a la tienda",
    sourceErp: "Factura del ERP",
    trackingNumber: "Número de seguimiento",
    carrier: "Transportista",
    shipmentSave: "Guardar",
    trackingSent: "Enviado al marketplace",
    trackingWaiting: "Se envía al marketplace después del enlace de la factura",
    count: "{{total}} facturas en este rango",
    countSplit: "(servicio de factura electrónica: {{service}}, ERP: {{erp}})",
    route_service: "Los pedidos web se facturan a través de su servicio de factura electrónica.",
    route_erpService:
      "Las facturas se emiten a través del servicio de factura electrónica conectado como su ERP.",
    route_erp:
      "Su ERP emite las facturas; el panel lleva la factura del ERP al pedido de la tienda. Si su ERP no emite facturas electrónicas, añada un servicio de factura electrónica.",
    addService: "Añadir servicio de factura electrónica",
    view: "Ver",
    customerLink: "Enlace para el cliente",
    linkCopied: "Enlace para el cliente copiado.",
    pdfDownload: "Descargar en PDF",
    returnWhy: {
      cancelWithinPeriod:
        "La factura e-Archivo estaba dentro de su plazo de anulación de 8 días: según las reglas de GİB se anuló en el servicio de factura electrónica.",
      buyerIssuesIade:
        "El comprador es usuario de e-Factura: el comprador emite la factura de devolución (TEMELFATURA) y se la envía; usted no emite nada.",
      companyBuyerIssues:
        "El comprador es una empresa: el comprador emite la factura de devolución; usted no emite nada.",
      partialConsumer:
        "Devolución parcial de un consumidor: el e-Arşiv no se anuló (solo puede anularse entero); documente las líneas devueltas con un gider pusulası.",
      consumerAfterPeriod:
        "Devolución de un consumidor pasado el plazo de anulación de 8 días: el consumidor no emite factura; documente la devolución con un justificante de gasto (gider pusulası).",
      cancelRefused:
        "El servicio de factura electrónica rechazó la anulación: compruebe el estado de la factura en el portal del servicio.",
      noApi:
        "El portal no tiene API: anule la factura e-Archivo en el portal (LucaPortal) en un plazo de 8 días.",
    },
    settings: "Ajustes de factura",
    series: "Serie de factura",
    draft: "Enviar como borrador (aprobar en el portal del servicio)",
    invoiceWhen: "Qué pedidos facturar",
    when_paid: "Pagados",
    when_shipped: "Enviados",
    when_all: "Todos",
    save: "Guardar",
    saved: "Guardado.",
    seriesInvalid: "La serie debe tener 3 letras o dígitos (p. ej. WEB).",
  },
  salesExport: {
    rangeInvalid:
      "La fecha de inicio no puede ser posterior a la fecha de fin. Corrija las fechas y vuelva a intentarlo.",
    sheet: "Informe de ventas",
    orderNo: "N.º de pedido",
    date: "Fecha",
    customer: "Cliente",
    state: "Estado",
    amount: "Importe",
    currency: "Moneda",
    total: "Total",
    received: "Recibido",
    mapped: "Emparejado",
    sent: "Enviado al ERP",
    confirmed: "Confirmado",
    failed: "Fallido",
    needs_review: "Pendiente de revisión",
  },
  einvoice: {
    doc: {
      return: {
        cancelWithinPeriod:
          "La factura e-Arşiv está dentro de su plazo de anulación de 8 días: se anula, no se emite factura de devolución.",
        buyerIssuesIade:
          "El comprador usa e-Fatura: él emite la factura de devolución (TEMELFATURA); el panel no emite ninguna.",
        companyBuyerIssues:
          "El comprador es una empresa: él emite la factura de devolución (en papel o e-Arşiv); el panel no emite ninguna.",
        partialConsumer:
          "Devolución parcial de un consumidor: un e-Arşiv solo se anula entero; documente las líneas devueltas con un gider pusulası.",
        consumerAfterPeriod:
          "Pasó el plazo de anulación (8 días) y el comprador es un consumidor, que no emite facturas: registre la devolución con un comprobante de gastos (gider pusulası).",
      },
    },
  },
  retention: {
    daysInvalid: "El número de días debe ser un número entero.",
    daysTooFew: "El periodo no puede ser menor que el mínimo indicado bajo el campo.",
    daysTooMany: "El periodo no puede ser mayor que el máximo indicado bajo el campo.",
    saved: "Periodos de conservación guardados. Los registros vencidos se eliminarán esta noche.",
  },
  // The KVKK export is a record under Turkish law, written in Turkish whatever the interface language.
  privacyExport: tr.privacyExport,
  privacy: {
    deletionRequested:
      "Hemos recibido su solicitud de eliminación de la cuenta. Su cuenta y todos sus datos se eliminarán definitivamente en 30 días; hasta entonces puede cancelar la solicitud en la página «Privacidad y KVKK».",
    deletionCancelled:
      "Se ha cancelado su solicitud de eliminación de la cuenta. Su cuenta y sus datos se conservan.",
    alreadyPending:
      "Ya hay una solicitud de eliminación pendiente para esta cuenta. Consulte su fecha o cancélela en la página «Privacidad y KVKK».",
    passwordIncorrect:
      "No se pudo verificar la contraseña. Introduzca la contraseña actual de su cuenta para confirmar la solicitud de eliminación.",
    notPending: "Esta solicitud de eliminación ya no se puede cancelar: ya se canceló o se completó.",
    confirmRequired: "Para continuar, confirme que la cuenta y sus datos se eliminarán.",
    mailRequestedSubject: "Hemos recibido su solicitud de eliminación de la cuenta",
    mailRequestedBody:
      "Hola, {{name}}:\n\nHemos recibido una solicitud para eliminar la cuenta {{company}}. La cuenta, sus conexiones, las contraseñas de conexión y los datos personales se eliminarán definitivamente el {{date}}.\n\nAntes de esa fecha puede descargar una copia de sus datos. Si no hizo esta solicitud o ha cambiado de opinión, cancélela antes de esa fecha en la página «Privacidad y KVKK»: {{link}}",
    mailCancelledSubject: "Se ha cancelado su solicitud de eliminación de la cuenta",
    mailCancelledBody:
      "Hola, {{name}}:\n\nSe ha cancelado la solicitud de eliminación de la cuenta {{company}}. Su cuenta y sus datos se conservan; no tiene que hacer nada más.\n\nPanel: {{link}}",
  },
  liveUpdates: {
    tooManyPanels:
      "Demasiadas pestañas del panel de esta empresa siguen las actualizaciones en directo. Cierre las pestañas que no use; esta pestaña se volverá a conectar en unos segundos.",
  },
  connectionCheck: {
    status: {
      ok: "compatible",
      drift: "incompatible",
      untried: "no probado",
    },
    operation: {
      products: "Productos",
      stock: "Existencias",
      prices: "Precios",
      priceGroups: "Grupos de precios",
      categories: "Categorías",
      stockLocations: "Almacenes",
      orders: "Pedidos",
      orderStatuses: "Estados de pedido",
      priceLists: "Listas de precios",
      shopStockLocations: "Ubicaciones de stock de la tienda",
      shopCategories: "Categorías de la tienda",
    },
    expect: {
      code: "un código no vacío",
      name: "un nombre no vacío",
      text: "texto",
      number: "un número",
      nonNegative: "cero o un número positivo",
      boolean: "un valor sí/no",
      date: "una fecha",
      currency: "un código de moneda de tres letras (como TRY)",
      list: "una lista",
      textList: "una lista de textos",
    },
    got: {
      missing: "el campo no llegó",
      empty: "llegó vacío",
      text: "llegó texto",
      number: "llegó un número",
      invalidNumber: "llegó un número no válido",
      boolean: "llegó sí/no",
      list: "llegó una lista",
      object: "llegó un objeto",
    },
    drift:
      "En la respuesta de {{system}} el campo «{{field}}» no es como se esperaba: se esperaba {{expect}}, {{got}}. No funcionará: {{jobs}} (campo {{field}}).",
    unreadable:
      "No se pudo leer la respuesta de {{system}}: difiere de la forma conocida. No funcionará: {{jobs}}.",
    rawRule: "La respuesta de {{system}} difiere de la forma conocida. No funcionará: {{jobs}}.",
    rule: {
      diaSelectedColumns:
        "A las filas de la respuesta de lista de {{system}} les faltan algunas de las columnas pedidas (como el código o el nombre del artículo). No funcionará: {{jobs}}.",
      nebimProcedureColumns:
        "A las filas que devuelve el procedimiento de {{system}} les faltan columnas que pide el formulario de conexión (como el código del artículo o el tipo de IVA). No funcionará: {{jobs}}.",
    },
    untried: {
      budget:
        "La verificación anunció como máximo {{planned}} llamadas; esta lectura no cabía y no se intentó para proteger sus créditos/cuota.",
      auth: "El sistema rechazó el inicio de sesión. Revise los datos de conexión y verifique de nuevo.",
      network:
        "No se pudo contactar el sistema. Revise la dirección, la red y (si se usa) el agente local, y verifique de nuevo.",
      rate_limited: "El sistema alcanzó su límite de solicitudes. Verifique de nuevo en unos minutos.",
      unsupported:
        "Este sistema no ofrece esta lectura; la tarea que depende de ella no funciona con este sistema.",
      other: "La lectura no se completó ({{reason}}). Verifique de nuevo en unos minutos.",
      notConnected: "No hay conexión guardada para este lado. Guarde primero la conexión.",
    },
    none: "Ninguna tarea activa necesita lecturas en este lado.",
    firstSyncHeld:
      "La primera transferencia está en espera: la verificación encontró {{operations}} incompatible. Vea los detalles en Ajustes de conexión e iníciela con «Continuar de todos modos».",
    checked: "Se verificó la conexión.",
    proceeded:
      "La primera transferencia puede empezar pese a la diferencia. Los campos incompatibles pueden fallar en la transferencia.",
    supportMailSubject:
      "Verificación de conexión: la respuesta {{system}} {{operation}} difiere en {{companies}} empresas",
    supportMailBody:
      "Regla: {{rule}}\nCampo: {{field}}\nVisto por primera vez: {{firstSeen}}\nEmpresas: {{companies}}\nUn cambio del proveedor o un error de nuestro juez. Entrada: {{verified}}\nConsola: {{link}}",
  },
  channels: {
    added: "Se guardó el canal de venta {{name}}.",
    addedJobsReady:
      "Se guardó el canal de venta {{name}}. Sus tareas de stock, precio y pedidos están listas.",
    removed: "Se eliminó el canal de venta {{name}}.",
    unknownSystem: "La conexión con este marketplace aún no está disponible.",
    notFound: "Canal de venta no encontrado.",
    settingsSaved: "Ajustes del canal de venta guardados. Los cambios se aplican en la próxima ejecución.",
    shop: "Tienda",
    all: "Todos los canales",
  },
  listing: {
    notSupportedChannel:
      "La publicación de productos no está disponible para este marketplace en esta conexión; no se pueden asignar categorías.",
    mappingSaved: "Categoría {{category}} asignada a {{target}}.",
    mappingRemoved: "Asignación de categoría eliminada.",
    notSupported:
      "La publicación de productos no está disponible para {{name}} en esta conexión; no se pueden asignar categorías.",
    unknownCategory:
      "Esta categoría no está en la lista de categorías del marketplace (o tiene subcategorías): elija la categoría más baja.",
    unknownBrand: "Esta marca no está en la lista de marcas del marketplace.",
    missingAttribute: "Elija un valor de la lista del marketplace para el atributo obligatorio: {{name}}.",
    invalidValue: "Elija un valor de la lista del marketplace para el atributo {{name}}.",
    unknownAttribute: "Esta categoría no tiene el atributo {{name}}.",
    started:
      "Publicación iniciada: se envían los productos de las categorías asignadas que el marketplace aún no tiene.",
    noMappings: "No hay categorías asignadas: asigne las categorías del canal para publicar productos.",
    noBarcode:
      "Sin código de barras: {{marketplace}} publica productos por código de barras. Introduzca uno en la ficha del ERP.",
    noPrice: "Sin precio en el grupo de precios del ERP: un producto no se puede publicar sin precio.",
    reportCreated:
      "{{count}} productos publicados en {{marketplace}}; se venden tras la aprobación del marketplace.",
    reportListed: "{{count}} productos ya están en el marketplace.",
    reportInReview:
      "{{count}} productos se enviaron al marketplace y esperan su aprobación; mientras tanto no se vuelven a enviar.",
    unmappedVariantValue:
      'El valor "{{value}}" de la opción {{option}} no está asignado al atributo {{attribute}}: elija el valor del marketplace en la asignación de categoría.',
    notVariantAttribute: "{{name}} no es un atributo de variante en el marketplace: asígnele un valor fijo.",
    attributeTwice:
      "El atributo {{name}} está asignado dos veces (como valor fijo u opción del ERP): deje uno.",
    duplicateVariantValue: "El valor del ERP {{value}} está asignado dos veces para el atributo {{name}}.",
  },
  sandbox: {
    driftNoSandbox:
      "El simulacro solo puede hacerse en un lado conectado al sistema de prueba; este lado no lo está.",
    connected:
      "Se ha conectado a los sistemas de prueba. Inicie las transferencias desde las pantallas Integración de productos e Integración de pedidos; cuando su sistema real esté listo, introduzca sus datos con «Pasar al sistema real».",
    connectFailed:
      "Los sistemas de prueba se guardaron, pero la prueba de conexión falló. Vuelva a intentarlo dentro de unos minutos con «Probar conexión» en la configuración de conexiones API.",
  },
  agents: {
    updateWindowSaved:
      "Horas de actualización guardadas. El agente instala una nueva versión solo en estas horas y cuando no hay ninguna transferencia en curso.",
    downloadNotBuilt:
      "Los archivos de instalación del agente local aún no se han preparado en este servidor. Los enlaces de descarga aparecerán aquí cuando el administrador del servidor ejecute 'npm run build:agent'.",
    pairingCodeLimit:
      "Se han emitido demasiados códigos de vinculación en la última hora. Use el código que ya tiene o inténtelo más tarde.",
    agentLimit:
      "Una empresa puede vincular como máximo 10 agentes locales. Revoque un agente que ya no use e inténtelo de nuevo.",
    pairingCodeCreated:
      "Código de emparejamiento creado. Introdúzcalo en el agente local en 10 minutos: entegrasyon-agent pair CÓDIGO --server URL",
    paired: "El agente local está emparejado.",
    pairingCodeInvalid:
      "El código de emparejamiento no es válido, ha caducado o ya se usó. Obtenga un código nuevo en el panel e inténtelo de nuevo.",
    servesConnection:
      "El agente local ahora atiende esta conexión. Las llamadas pasan por cualquiera de sus agentes que esté en línea; si uno se detiene, otro continúa.",
    leftConnection: "El agente local ya no atiende esta conexión. Sus otros agentes (si los hay) continúan.",
    revoked:
      "Se revocó el acceso del agente local. Obtenga un código de emparejamiento nuevo para volver a conectarlo.",
    offline:
      "El agente local está desconectado (visto por última vez: {{lastSeen}}). Compruebe el equipo donde se ejecuta y su conexión de red.",
    offlineNotice:
      'El agente local de "{{machine}}" lleva más de 10 minutos desconectado (última conexión: {{lastSeen}}) y hay transferencias programadas esperando. Compruebe el equipo donde se ejecuta y su conexión de red.',
    backOnline:
      'El agente local de "{{machine}}" vuelve a estar en línea; las transferencias pendientes continúan.',
    cli: {
      askServer: "Dirección del panel (p. ej. https://panel.ejemplo.com): ",
      askCode: "Código de vinculación del panel: ",
      stateOnline: "en línea",
      stateOffline: "desconectado",
      stateConnecting: "conectando",
      stateRefused: "rechazado",
      stateStopped: "detenido",
      serviceInstalled:
        "Servicio instalado e iniciado ({{name}}). Arranca con el equipo y se reinicia si se detiene. Estado: entegrasyon-agent service status",
      serviceUninstalled: "Servicio eliminado ({{name}}).",
      dataKept:
        "La vinculación, los ajustes y los registros quedan en {{home}} para una instalación posterior. Para borrarlos: entegrasyon-agent service uninstall --delete-data",
      dataDeleted: "Vinculación, ajustes y registros borrados ({{home}}).",
      serviceStatus:
        "Servicio: {{service}} · Agente: {{state}} · servidor: {{server}} · última conexión: {{connectedAt}} · último error: {{lastError}}",
      serviceRunning: "en ejecución",
      serviceStopped: "detenido",
      serviceMissing: "no instalado",
      serviceFailed: "La acción del servicio falló: {{reason}}",
      serviceNeedsAdmin:
        "Esto requiere permisos de administrador: en Windows abra el símbolo del sistema con 'Ejecutar como administrador'; en Linux ejecútelo con sudo.",
      serviceUsage:
        "Uso:\n  entegrasyon-agent service install [--code CÓDIGO --server DIRECCIÓN] [--proxy DIRECCIÓN]\n  entegrasyon-agent service status\n  entegrasyon-agent service uninstall [--delete-data]",
      proxyRefused:
        "El proxy {{proxy}} no aceptó la autenticación de Windows (NTLM) (HTTP {{status}}). Revise la cuenta guardada en este equipo (entegrasyon-agent http-auth list) o guárdela de nuevo: entegrasyon-agent http-auth add {{proxy}} --ntlm --domain DOMINIO --user USUARIO --password CONTRASEÑA",
      proxyInvalid: "Dirección de proxy no válida: {{proxy}} (p. ej. http://usuario:clave@proxy:8080)",
      usage:
        "Uso:\n  entegrasyon-agent pair CÓDIGO --server URL   Empareja con el código del panel\n  entegrasyon-agent run                        Se conecta al servidor y ejecuta las solicitudes\n  entegrasyon-agent status                     Muestra el último estado\n  Carpetas vigiladas: entegrasyon-agent folder add|list|remove",
      paired: "Emparejado (agente n.º {{agentId}}). Ahora inícielo con 'entegrasyon-agent run'.",
      dbSaved:
        "Base de datos '{{alias}}' guardada ({{dialect}}, {{host}}:{{database}}). Escriba este nombre en el panel.",
      dbRemoved: "Base de datos '{{alias}}' eliminada.",
      dbNone: "No hay bases de datos guardadas.",
      dbLine: "{{alias}}: {{dialect}} {{host}}:{{database}} (usuario {{user}})",
      folderUsage:
        "Uso:\n  entegrasyon-agent folder add CARPETA --kind products|stock|prices [--outbox CARPETA]\n  entegrasyon-agent folder list\n  entegrasyon-agent folder remove CARPETA\nLos archivos procesados pasan a islenen/, los rechazados a hatali/, cada uno con su resultado por fila (.sonuc.csv).",
      folderSaved: "Carpeta vigilada: {{path}} ({{kind}}).",
      folderRemoved: "La carpeta ya no se vigila: {{path}}.",
      folderNone: "No hay carpetas vigiladas.",
      folderLine: "{{path}}  tipo: {{kind}}  salida de pedidos: {{outbox}}",
      dbUsage:
        "Uso:\n  entegrasyon-agent db add NOMBRE --dialect firebird|mssql --host HOST [--port N] --database BASE --user USUARIO --password CLAVE\n  entegrasyon-agent db list\n  entegrasyon-agent db remove NOMBRE\nLas contraseñas quedan en esta máquina, en un archivo que solo la cuenta de servicio puede leer.",
      httpAuthSaved:
        "Autenticación de Windows guardada para '{{host}}' ({{scheme}}, {{domain}}\\{{user}}). El agente hace sus peticiones a esta dirección con esta cuenta.",
      httpAuthRemoved: "Autenticación de '{{host}}' eliminada.",
      httpAuthNone: "No hay autenticaciones guardadas.",
      httpAuthLine: "{{host}}: {{scheme}} {{domain}}\\{{user}}",
      httpAuthUsage:
        "Uso:\n  entegrasyon-agent http-auth add HOST[:PUERTO] --ntlm --domain DOMINIO --user USUARIO --password CLAVE\n  entegrasyon-agent http-auth list\n  entegrasyon-agent http-auth remove HOST[:PUERTO]\nLa contraseña de Windows queda en esta máquina, en un archivo que solo la cuenta de servicio puede leer; nunca se envía al panel.",
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
