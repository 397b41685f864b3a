/**
 * Every Turkish message shared by the server and the web app lives here, once. Zod schemas carry
 * these keys as their messages; the server and the web app translate them.
 */
export const tr = {
  validation: {
    companyNameRequired: "Şirket Adı adı zorunludur.",
    min3: "En az 3 karakter içermelidir.",
    max50: "En fazla 50 karakter içermelidir.",
    max100: "En fazla 100 karakter içermelidir.",
    emailInvalid: "Geçerli bir e-posta adresi giriniz.",
    emailRequired: "E-Posta zorunludur.",
    passwordMin8: "En az 8 karakter içermelidir.",
    passwordRequired: "Şifre zorunludur.",
    firstNameRequired: "Ad zorunludur.",
    lastNameRequired: "Soyad zorunludur.",
    phoneRequired: "Telefon zorunludur.",
    phoneInvalid: "Geçerli bir telefon numarası giriniz.",
    erpTypeRequired: "Muhasebe programı zorunludur.",
    ecommerceTypeRequired: "E-ticaret yazılımı zorunludur.",
    loginEmailRequired: "E-pota adı zorunludur.",
    loginMin3: "En az 3 karakter giriniz.",
    loginMax50: "En fazla 50 karakter girilebilir.",
    forgotEmailInvalid: "Hatalı e-posta formatı",
    forgotEmailRequired: "E-posta alanı zorunludur.",
    resetMin8: "En az 8 karakter giriniz.",
    resetMax16: "En fazla 16 karakter girilebilir.",
    newPasswordRequired: "Yeni Şifre alanı zorunludur.",
    confirmPasswordRequired: "Yeni Şifre (Tekrar) alanı zorunludur.",
    passwordsDoNotMatch: "Yeni şifre alanları eşleşmiyor.",
    oldPasswordRequired: "Mevcut şifre alanı zorunludur.",
    rowIdRequired: "Bağlantı kodu zorunludur.",
    taxNumberInvalid: "Vergi numarası 10 veya 11 haneli olmalıdır.",
    websiteInvalid: "Geçerli bir web adresi giriniz (ör. https://magazam.com).",
    fieldInvalid: "Alan geçerli değil.",
    cronInvalid: "Geçerli bir cron ifadesi giriniz (ör. 0 */2 * * *).",
    dateInvalid: "Geçerli bir tarih giriniz.",
    selectAtLeastOne: "En az bir kayıt seçiniz.",
  },
  api: {
    validationFailed: "Lütfen formdaki hataları düzeltiniz.",
    invalidEmailFormat: "Geçersiz eposta formatı. Lütfen e-posta adresini kontrol ediniz.",
    emailHasTurkishCharacters:
      "E-posta adresiniz Türkçe karakter içeriyor. Lütfen Türkçe karakter içermeyen bir adres giriniz.",
    emailAlreadyRegistered: "Bu e-posta adresiyle kayıtlı bir kullanıcı zaten var.",
    registrationFailed: "Kayıt İşleminde Hata Oluştu.",
    registrationNetworkFailed: "Kayıt işlemi hatalı...",
    autoLoginFailed: "Kayıt tamamlandı ancak giriş yapılamadı. Lütfen site yöneticisi ile iletişime geçiniz.",
    registered: "Kayıt işlemi başarılı.",
    loginFailed: "Kullanıcı adı veya şifre yanlış.",
    tooManyRegistrations:
      "Bu bağlantıdan çok fazla kayıt isteği geldi. Lütfen bir süre sonra tekrar deneyiniz.",
    tooManyLoginAttempts:
      "Bu bağlantıdan çok fazla giriş isteği geldi. Lütfen bir dakika sonra tekrar deneyiniz.",
    captchaRequired: "Lütfen robot olmadığınızı doğrulayınız.",
    captchaHarderRequired:
      "Çok sayıda başarısız giriş denemesi yapıldı. Güvenliğiniz için ek doğrulama isteniyor; doğrulama tamamlanınca tekrar Giriş Yap'a basınız.",
    captchaInvalid: "Doğrulama başarısız oldu. Lütfen tekrar deneyiniz.",
    unauthorized: "Oturumunuzun süresi doldu. Lütfen tekrar giriş yapınız.",
    forbidden: "Bu işlem için yetkiniz bulunmuyor.",
    notFound: "Aradığınız kayıt bulunamadı.",
    conflict: "Bu kayıt başka bir işlemle değiştirildi. Lütfen tekrar deneyiniz.",
    rateLimited: "Çok fazla istek gönderildi. Lütfen biraz bekleyip tekrar deneyiniz.",
    busy: "Şirketinizin şu anda çok sayıda isteği işleniyor. Lütfen birkaç saniye sonra tekrar deneyiniz.",
    internalError: "Beklenmeyen bir hata oluştu. Lütfen daha sonra tekrar deneyiniz.",
    recoverMailSent: "E-posta adresiniz kayıtlıysa şifre sıfırlama bağlantısı gönderildi.",
    recoverMailFailed: "Şifre sıfırlama bağlantısı gönderilirken bir hata oluştu.",
    resetLinkInvalid: "Şifre sıfırlama bağlantısı geçersiz veya süresi dolmuş.",
    passwordReset: "Şifreniz başarıyla değiştirildi. Giriş sayfasına yönlendiriliyorsunuz...",
    passwordUpdated: "Şifreniz güncellendi.",
    oldPasswordWrong: "Mevcut şifreniz hatalı.",
    loginCodeInvalid: "Giriş kodu geçersiz veya süresi dolmuş.",
    partnerInstallFailed: "Mağaza kurulumu tamamlanamadı.",
    profileUpdated: "Bilgileriniz güncellendi.",
    companyUpdated: "Şirket bilgileriniz güncellendi.",
    loggedOut: "Çıkış yapıldı.",
    ok: "İşlem başarılı.",
  },
  /** Requests refused before any handler runs: transport, format and shared field rules. */
  request: {
    badRequest: "İstek okunamadı. Lütfen sayfayı yenileyip tekrar deneyiniz.",
    badUrl: "Adres geçersiz karakterler içeriyor. Lütfen adresi kontrol edip tekrar deneyiniz.",
    uriTooLong: "Adres çok uzun. Lütfen daha kısa bir adresle tekrar deneyiniz.",
    headersTooLarge:
      "İstek başlıkları çok büyük. Lütfen tarayıcınızın çerezlerini temizleyip tekrar deneyiniz.",
    unsupportedMediaType: "Bu içerik türü desteklenmiyor. Lütfen veriyi JSON ya da form olarak gönderiniz.",
    malformedJson: "Gönderilen veri geçerli bir JSON değil. Lütfen içeriği kontrol edip tekrar deneyiniz.",
    malformedMultipart: "Form verisi okunamadı. Lütfen formu ve eklerini yeniden göndermeyi deneyiniz.",
    bodyTooLarge: "Gönderilen veri çok büyük. Lütfen daha küçük bir içerikle tekrar deneyiniz.",
    timeout: "İstek zamanında tamamlanmadı. Lütfen bağlantınızı kontrol edip tekrar deneyiniz.",
    textControlCharacter:
      "Metin izin verilmeyen bir kontrol karakteri içeriyor. Lütfen metni yeniden yazınız.",
    idOutOfRange: "Kayıt numarası 1 ile 2.147.483.647 arasında bir tam sayı olmalıdır.",
    numberOutOfRange: "Sayı izin verilen aralığın dışında. Lütfen daha küçük bir değer giriniz.",
    dateOutOfRange: "Tarih 1900 ile 2999 yılları arasında olmalıdır.",
  },
  engine: {
    statusQueued: "Sırada bekliyor.",
    statusRunning: "Çalışıyor.",
    statusSucceeded: "Başarıyla tamamlandı.",
    statusPartiallyFailed: "Tamamlandı; bazı kayıtlar aktarılamadı.",
    statusFailed: "Başarısız oldu.",
    statusCrashed: "Yarıda kesildi.",
    reportSummary:
      "{{read}} kayıt okundu, {{changed}} kayıtta değişiklik bulundu, {{written}} kayıt yazıldı, {{failed}} kayıt aktarılamadı.",
    reportCalls:
      "ERP'ye {{erpRead}} okuma ve {{erpWrite}} yazma, mağazaya {{shopRead}} okuma ve {{shopWrite}} yazma çağrısı yapıldı.",
    reportNothingChanged: "Değişiklik yok; hiçbir sisteme yazma çağrısı yapılmadı.",
    usageCredit:
      "{{system}}: bu çalışmada {{calls}} ücretli çağrı; bu ay: {{month}} çağrı ({{credits}} kontör).",
    usageQuota:
      "{{system}}: bu çalışmada {{read}} okuma ve {{write}} yazma çağrısı; kalan kota: okuma {{readLeft}} / yazma {{writeLeft}}.",
    quotaRefused:
      "Zamanlanmış çalışma başlatılmadı: {{system}} aylık kotasından bugüne düşen pay (okuma {{readAllowance}} / yazma {{writeAllowance}}) bu çalışmanın gereksinimine (okuma {{readNeed}} / yazma {{writeNeed}}) yetmiyor. Kalan kota: okuma {{readLeft}} / yazma {{writeLeft}}. Elle başlatılan çalışmalar yapılabilir.",
    quotaWarning:
      "{{system}} aylık API kotasının %{{percent}} kadarı kullanıldı (kalan okuma {{readLeft}} / yazma {{writeLeft}}). Kota dolunca aktarımlar ay sonuna kadar durur.",
    reportResolved: "Önceki çalışmalarda aktarılamayan {{count}} kayıt bu çalışmada aktarıldı.",
    reportNotInShop: "{{count}} kayıt mağazada bulunmadığı için atlandı (önce Ürün Aktarımı çalışmalı).",
    reportReturnsCancelledInErp: "{{count}} iptal edilen siparişin ERP kaydı silindi.",
    reportReturnsPartial:
      "{{count}} siparişin bazı kalemleri iade edildi ({{units}} adet); bu adetleri ERP'de iade olarak işleyin.",
    reportReturnsKeptInErp:
      "{{count}} iptal veya iade edilen sipariş ERP'de kaldı (faturalandığı ya da ERP silemediği için); iadeyi ERP'de işleyin.",
    reportTransientLeft: "{{count}} kayıt geçici bir hata nedeniyle bir sonraki çalışmaya bırakıldı.",
    reportCreateDisabled:
      "{{count}} ürün mağazada yok; ayarlarda ürün oluşturma kapalı olduğu için oluşturulmadı.",
    reportCategoriesAdopted:
      "{{count}} kategori mağazada zaten vardı: yeniden oluşturulmadı, mevcut kategorilerle eşleştirildi.",
    retryUntouched:
      "Yeniden denendi, ancak kayıt bu çalışmada aktarılmadı: ERP'den okunmadı ya da mağazada karşılığı yok. Kaydın ERP'de durduğunu ve mağazadaki ürünle eşleştiğini kontrol edin; artık gerekmiyorsa görevi kapatabilirsiniz.",
    runFailed: "{{job}} görevi başarısız oldu: {{reason}}",
    runPartiallyFailed: "{{job}} görevi tamamlandı ancak {{count}} kayıt aktarılamadı.",
    runRecovered: "{{job}} görevi yeniden başarıyla çalıştı.",
    runCrashed:
      "{{job}} görevi yarıda kesildi (çalışan süreç durdu). Bir sonraki çalışma kaldığı yerden devam edecek.",
    runRefusedLicence: "{{job}} çalıştırılmadı: {{licence}} lisansınızın süresi doldu.",
    alreadyRunning: "Bu görev zaten sırada veya çalışıyor.",
    noShopStockLocation:
      "Mağazada stok lokasyonu bulunamadı. Mağaza panelinizde bir stok lokasyonu tanımlayıp görevi yeniden çalıştırınız.",
    vatRateMissing:
      "Sipariş bekliyor: {{skus}} stok kodunun KDV oranı ERP'de bulunamadı (satış kanalı siparişte KDV oranı vermiyor, oran ERP'deki stok kartından alınır). Stok kartını KDV oranıyla ERP'de tanımlayın; sipariş sonraki çalışmada aktarılır.",
    noErpPriceGroup:
      "ERP'de fiyat grubu bulunamadı. ERP'de bir satış fiyat listesi tanımlayıp görevi yeniden çalıştırınız.",
  },
  failure: {
    someSystem: "ERP veya mağaza",
    network:
      "{{system}} sistemine bağlanılamadı. Bağlantı ayarlarını kontrol edip 'Bağlantıyı Test Et' ile deneyiniz.",
    timeout:
      "{{system}} sistemi zamanında yanıt vermedi. Görev bir sonraki çalışmada yeniden denenecek; sorun sürerse sistemin açık olduğunu ve bağlantı ayarlarını kontrol ediniz.",
    serverError:
      "{{system}} sistemi kendi tarafında bir hata bildirdi. Görev bir sonraki çalışmada yeniden denenecek; sorun sürerse sistem sağlayıcınıza başvurunuz.",
    rateLimited:
      "{{system}} çok fazla istek nedeniyle istekleri geçici olarak geri çevirdi. Görev bir sonraki çalışmada kaldığı yerden devam edecek; sizin bir şey yapmanız gerekmiyor.",
    lock: "{{system}} sisteminde kayıt başka bir işlem tarafından kilitliydi. Görev bir sonraki çalışmada yeniden denenecek.",
    blocked:
      "{{system}} erişimi geçici olarak engelledi. Bir süre bekleyip yeniden deneyiniz; sorun sürerse sistem sağlayıcınıza başvurunuz.",
    unavailable:
      "{{system}} şu anda hizmet vermiyor (bakım veya yoğunluk). Görev bir sonraki çalışmada yeniden denenecek.",
    auth: "{{system}} kimlik bilgilerini kabul etmedi. Bağlantı ayarlarındaki kullanıcı, şifre ve anahtar bilgilerini kontrol edip 'Bağlantıyı Test Et' ile deneyiniz.",
    validation:
      "{{system}} bu kaydı kabul etmedi. Kaydın bilgilerini (ad, fiyat, barkod, KDV vb.) düzelttikten sonra Hatalı Görevler ekranından yeniden deneyiniz.",
    notFound:
      "{{system}} sisteminde bu kayıt bulunamadı. Kaydın iki sistemde de bulunduğunu kontrol edip Hatalı Görevler ekranından yeniden deneyiniz.",
    unknownItem:
      "{{system}} sisteminde bu kaydın kullandığı bir tanım (stok kartı, depo, cari hesap vb.) bulunamadı. Tanımı oluşturup veya eşleştirme ayarlarını düzeltip Hatalı Görevler ekranından yeniden deneyiniz.",
    conflict:
      "{{system}} bu kaydı var olan başka bir kayıtla çakıştığı için kabul etmedi. Kaydı kontrol edip Hatalı Görevler ekranından yeniden deneyiniz.",
    unsupported: "{{system}} bu işlemi desteklemiyor. Destek ekibimize ticket açabilirsiniz.",
    jobUnsupported:
      "{{system}} bu görevi yapamıyor: {{why}} Görev çalıştırılmadı; Görevler ekranından kapatabilirsiniz.",
    badResponse:
      "{{system}} anlaşılamayan bir yanıt verdi. Görev bir sonraki çalışmada yeniden denenecek; sorun sürerse destek ekibimize ticket açınız.",
    config:
      "{{system}} bağlantı bilgileri eksik veya hatalı. Bağlantı ayarlarını kontrol edip 'Bağlantıyı Test Et' ile deneyiniz.",
    database:
      "Kayıtlar panelin veritabanına yazılırken bir sorun oluştu. Görev bir sonraki çalışmada yeniden denenecek; sorun sürerse destek ekibimize ticket açınız.",
    unexpected:
      "Görev beklenmeyen bir sorun nedeniyle tamamlanamadı. Bir sonraki çalışmada yeniden denenecek; sorun sürerse destek ekibimize ticket açınız.",
    systemSaid: '{{text}} Sistemin yanıtı: "{{said}}"',
    bindingConflict:
      "{{key}} aktarılmadı: mağazadaki aynı ürün ERP'deki {{heldBy}} koduna bağlı. Bir mağaza ürünü yalnızca bir ERP ürünüyle eşleşebilir; ERP Eşleştirmeleri ekranında eşleştirmeyi düzeltip Hatalı Görevler ekranından yeniden deneyiniz.",
  },
  fileExchange: {
    notFileShop:
      "Bu mağaza dosya ile çalışmıyor: sipariş dosyası yalnızca JetStok gibi API'si olmayan mağazalar için yüklenir.",
    unreadable: "Dosya okunamadı: Excel (.xlsx), CSV veya XML olmalı, ilk satırı başlık.",
    tooLarge: "Dosya çok büyük: en fazla 20 MB.",
    notFileSystem:
      "Bu ERP dosya ile çalışmıyor: dosyalar yalnızca API'si olmayan sistemlerde (yapılandırılmış eşleme) kullanılır.",
    empty: "Dosya boş.",
    tooManyRows: "Dosyada en fazla 100.000 satır olabilir (başlık satırı hariç); dosyayı bölerek yükleyiniz.",
    tooManyColumns: "Dosyada en fazla 100 sütun olabilir.",
    cellTooLong: "Bir hücrede en fazla 32.767 karakter olabilir.",
    unpackedTooLarge:
      "Dosyanın açılmış hali çok büyük (en fazla 100 MB); dosya bozuk ya da gereğinden büyük olabilir.",
    deleted: "Dosya silindi.",
  },
  connectors: {
    jetstok: {
      card: {
        cardTitle: "JetStok dosya ile bağlanır",
        cardBody:
          "JetStok'un herkese açık bir API'si yok: bağlantı JetStok'un Excel ile içe ve dışa aktardığı dosyalarla kurulur. Ayar gerekmez.",
        stepStock:
          'Stok ve fiyat: stok veya fiyat aktarımı çalıştıktan sonra buradan "Stok ve fiyat dosyasını indir"e basın ve dosyayı JetStok panelinde Excel ile toplu güncelleme olarak içe aktarın.',
        stepOrders:
          "Siparişler: JetStok panelinde siparişleri Excel olarak dışa aktarın ve dosyayı buraya yükleyin; sipariş aktarımı her siparişi ERP'ye bir kez yazar (aynı dosya ya da aynı sipariş iki kez yüklense de).",
        stockFile: "Stok ve fiyat dosyasını indir",
        noStockFile: "Henüz stok ve fiyat dosyası yok: önce stok veya fiyat aktarımını çalıştırın.",
        stockFileAt: "Son güncelleme: {{at}} ({{count}} ürün)",
        ordersHelp:
          "JetStok panelinden dışa aktardığınız sipariş dosyası (Excel veya CSV, ilk satırı başlık). Her satır kontrol edilip saklanır; aynı dosya ikinci kez alınmaz.",
        ordersUsed:
          "Bir sonraki sipariş aktarımı bu dosyanın siparişlerini okur; her sipariş ERP'ye bir kez yazılır.",
        ordersUpload: "JetStok sipariş dosyasını yükle",
        ordersFiles: "Yüklenen sipariş dosyaları",
      },
      connected: "JetStok dosya ile bağlı: stok ve fiyat dosyası indirilir, sipariş dosyası yüklenir.",
      noCatalogue:
        "JetStok'a ürün ve kategori dosya ile aktarılmıyor; ürünleri JetStok'ta açın, stok ve fiyat dosyası stok koduyla eşleşir.",
      noStatus: "JetStok'a sipariş durumu gönderilemiyor (API yok); durumlar JetStok'ta güncellenir.",
      noInvoice: "JetStok'a fatura gönderilemiyor (API yok); faturalar Faturalar ekranından indirilir.",
      location: "JetStok stoğu",
      rows: {
        missing: "{{column}} boş",
        badNumber: "{{column}} sayı değil: {{value}}",
        badDate: "{{column}} tarih değil: {{value}}",
        notPositive: "{{column}} sıfırdan büyük olmalı",
        noColumn: "Dosyada {{column}} sütunu yok",
      },
    },
    genericSql: {
      queries: {
        products: "Ürün",
        stock: "Stok",
        prices: "Fiyat",
        categories: "Kategori",
        orderLookup: "Sipariş arama",
        orderWrite: "Sipariş yazma",
      },
      unknownParam: "{{what}} sorgusunda bilinmeyen parametre: @{{name}}. Kullanılabilenler: {{allowed}}.",
      empty: "{{what}} sorgusu boş.",
      oneStatement: "{{what}} alanına tek bir SQL ifadesi yazın.",
      guard: {
        refused: "{{what}} sorgusunda izin verilmeyen ifade: {{part}}",
        char: "{{what}} sorgusunda izin verilmeyen karakter: {{part}} (yalnızca tırnak içindeki metinlerde kullanılabilir).",
        lookalike: "{{what}} sorgusunda başka alfabeden benzer harflerle yazılmış ad: {{part}}",
        unterminated: "{{what}} sorgusunda kapanmamış {{part}}",
        nestedComment:
          "{{what}} sorgusunda iç içe yorum: {{part}} (yorum işaretleri yorumun içinde kullanılamaz).",
        stacked: "{{what}} alanına tek bir SQL ifadesi yazın (ikinci ifade: {{part}}).",
        shape:
          "{{what}} sorgusu SELECT ya da yalnızca SELECT içeren WITH ile yazılmalı; izin verilmeyen yer: {{part}}",
        linkedServer: "{{what}} sorgusunda başka sunucuya uzanan ad: {{part}}",
        procedure: "{{what}} sorgusunda izin verilmeyen yordam çağrısı: {{part}}",
        parseAt:
          '{{what}} sorgusu okunamadı: {{line}}. satır, {{column}}. sütunda "{{found}}" beklenmiyordu.',
      },
      parse: "{{what}} sorgusu okunamadı: {{detail}}",
      selectOnly: "{{what}} sorgusu yalnızca SELECT olabilir (veri değiştiren ifade çalıştırılmaz).",
      writeKind:
        "Sipariş yazma ifadesi bir saklı yordam çağrısı (EXECUTE PROCEDURE / EXEC) ya da tek bir INSERT olmalıdır.",
      insertParamsOnly: "Sipariş INSERT şablonunda değerler yalnızca @parametre olabilir.",
      missingColumn: "{{what}} eşlemesinde {{field}} alanı için sütun seçilmemiş.",
      unknownField: "{{what}} eşlemesinde bilinmeyen alan: {{field}}.",
      badIdentifier: '{{what}}: "{{column}}" geçerli bir sütun adı değil (harf, rakam ve _).',
      configJson: "SQL bağlantı ayarları okunamadı (geçersiz JSON).",
      lookupRequired:
        "Sipariş yazmak için önce sipariş arama sorgusunu (@ref ile) tanımlayın; aynı sipariş iki kez yazılmasın diye yazmadan önce aranır.",
      badNumber: "{{field}} 1 ile 10 arasında bir tam sayı olmalıdır.",
      columnAbsent: "Sorgu sonucunda {{column}} sütunu yok ({{field}} alanına eşlenmiş).",
      rowEmpty: "{{field}} boş.",
      rowNotNumber: '{{field}} sayı değil: "{{value}}".',
      rowNotBool: '{{field}} evet/hayır değeri değil: "{{value}}".',
      rowVat: "KDV oranı geçersiz: {{value}} (0, 1, 10 veya 20 olmalı).",
      rowNegative: "{{field}} negatif olamaz.",
      readFromFile:
        "{{what}} dosyadan okundu: {{file}} ({{source}}, {{at}}, {{rows}} satır); sorgu yerine en son kabul edilen dosya kullanılır.",
      fileSource: { panel: "panelden yüklendi", agent: "izlenen klasörden" },
      filesOnly: "{{system}}: sorgu tanımlı değil; ürün, stok ve fiyat yüklenen dosyalardan okunur.",
      ordersFile: "Siparişler dosyaya yazıldı: {{file}} ({{count}} sipariş); panelden indirilebilir.",
      noTransport:
        "Veritabanına yerel bağlantı aracı üzerinden ulaşılamıyor: aracı eşleyin ve veritabanı takma adını girin.",
      queryFailed: "{{what}} sorgusu veritabanında hata verdi: {{detail}}",
      notConfigured: '{{what}} sorgusu tanımlanmamış; "SQL ile bağlantı" bölümünden ekleyin.',
      tooManyRows:
        "{{what}} sorgusu {{cap}} satırdan fazla döndürdü; anahtar sütun tanımlayarak sayfa sayfa okuyun.",
      connected: "{{system}} veritabanı yapılandırılmış eşleme ile okunuyor.",
      orderNotFound:
        "{{orderNo}} numaralı sipariş yazıldı ancak arama sorgusuyla bulunamadı; arama sorgusunu kontrol edin. Sipariş iki kez yazılmasın diye yeniden gönderilmedi.",
    },
    einvoiceNotProductSource:
      "Bu bağlantı bir e-fatura servisi: ürün kaynağı değildir. Ürün, stok, fiyat ve sipariş okunmaz; yalnızca e-Fatura / e-Arşiv gönderimi ve durum sorgusu için kullanılır. Ürünler için ERP'nizi ayrıca bağlayın.",
    mikroMethodMissing:
      "Mikro sunucunuz ({{version}}) {{method}} yöntemini sunmuyor; stok, fiyat, kategori ve sipariş okumaları bu yönteme dayanır. Mikro Jump V17'ye yükseltin ya da Mikro bayinizden API servisinde {{method}} yöntemini açtırın, ardından bağlantıyı yeniden test edin.",
    mikroVatRateMissing:
      "%{{rate}} KDV oranı Mikro vergi tablosunda (VergiListesiV2) yok; {{orderNo}} numaralı sipariş Mikro'ya yazılmadı. Oranı Mikro'da tanımlayın veya üründeki KDV oranını düzeltin; sipariş bir sonraki çalışmada yeniden denenir.",
    mikroVatPointerUnknown:
      "Mikro stok kartlarında vergi tablosunda olmayan bir KDV işaretçisi ({{pointer}}) var: {{skus}}. Mikro'da bu kartların perakende vergi alanını düzeltin; ürünler düzeltilene kadar aktarılmaz.",
    mikroOrderNotFound:
      "{{orderNo}} numaralı sipariş Mikro'ya gönderildi ancak belge numarasıyla geri bulunamadı. Mikro'da bu belge numaralı siparişi kontrol edin; sipariş iki kez yazılmasın diye yeniden gönderilmedi.",
    d365VatGroupUnknown:
      'D365 ürünü {{sku}}: madde satış vergisi grubu "{{group}}" KDV oranı eşlemesinde yok. Bağlantı ayarlarındaki "Madde satış vergisi grupları" alanına bu grubu oranıyla ekleyin; ürün eklenene kadar aktarılmaz.',
    d365VariantUnknown:
      "D365 stok satırı {{key}} serbest bırakılmış bir ürün varyantına ait değil. D365'te bu boyut bileşimi için varyantı serbest bırakın; stok o zamana kadar aktarılmaz.",
    d365ItemsUnknown:
      "D365'te serbest bırakılmış ürün veya varyant bulunamadı: {{skus}}. Ürünleri şirkette serbest bırakın veya sipariş satırlarının stok kodlarını düzeltin; sipariş yazılmadı.",
    d365VatGroupsMalformed:
      'Madde satış vergisi grubu eşlemesi okunamadı: "{{entry}}". Biçim GRUP=ORAN;GRUP=ORAN olmalıdır, örn. KDV20=20;KDV10=10.',
    entegraWriteUnsupported:
      "Entegra bağlantısı yalnızca okuma yapar: ürün, stok, fiyat ve kategoriler Entegra'dan okunur. Entegra'ya sipariş ve müşteri yazmanın doğrulanmış bir yolu olmadığından siparişler Entegra'ya aktarılmaz. Siparişleri aktarmak için sipariş yazabilen bir ERP bağlayınız.",
    shopierOrderWriteUnsupported:
      "Shopier ERP olarak bağlandığında ürün, stok ve fiyat kaynağıdır. Shopier'de verilen siparişler zaten Shopier'de kayıtlıdır; başka mağazalardan gelen siparişler ve müşteriler Shopier'e yazılamaz, fatura da Shopier'den okunmaz (Shopier API'sinde bu işlemler yoktur).",
    shopierAuthMissing:
      "Shopier bağlantısında ya kişisel erişim anahtarı (PAT) ya da OAuth uygulamasının client_id, client_secret ve yenileme anahtarı girilmelidir.",
    shopierVatRateInvalid:
      'Shopier bağlantısındaki KDV oranı "{{rate}}" geçerli değil. 0, 1, 10 veya 20 giriniz; ürünler düzeltilene kadar aktarılmaz.',
    n11ListingUnsupported:
      "n11'de ürünler kanalın ürün aktarımıyla açılır: ERP kategorilerinizi kanalın kategori eşlemesinde n11 kategorilerine eşleyin. Tek tek ürün yazma ve n11'e kategori ekleme yoktur.",
    n11ShipmentTemplateMissing:
      "n11'e ürün açmak için bağlantı ayarlarına n11 Satıcı Ofisi'ndeki kargo şablonunuzun adını yazın; n11 her ürünü bir kargo şablonuyla açar.",
    n11InvoiceLinkUnsupported:
      "n11 fatura linkini yalnızca eski SOAP servisiyle (SellerInvoiceService) alıyor; bu bağlantı faturayı n11'e göndermez, faturayı n11 Satıcı Ofisi'nden yükleyin.",
    n11TrackingNumberIsN11s:
      "n11'de kargo takip numarasını n11 verir (kampanya kodu); siparişle birlikte okunur, n11'e gönderilmez.",
    lucaKozaOrderUnsupported:
      "LucaKoza'da satış siparişi oluşturan bir servis yoktur; siparişler, müşteri kartları ve faturalar bu bağlantıyla LucaKoza'ya aktarılmaz. LucaKoza'dan stok kartları, depo miktarları, fiyatlar ve kategoriler okunur.",
    lucaKozaBranchChoice:
      'LucaKoza kullanıcısının birden fazla şirket/şubesi var; bağlantı ayarlarındaki "Şirket/Şube kimliği" alanına birini yazınız: {{names}}',
    amazonListingUnknown:
      "Amazon.com.tr'de {{sku}} SKU'lu ilanınız yok. Ürünü Seller Central'da açın ya da stok kodunu Amazon'daki SKU ile aynı yapın; stok ve fiyat o zamana kadar gönderilmez.",
    amazonFeedRefused: "Amazon {{sku}} için gönderilen değeri reddetti: {{reason}}",
    amazonFeedPending:
      "Amazon beslemesi henüz işlenmedi ({{sku}}); değer bir sonraki çalışmada yeniden gönderilir.",
    amazonTrackingRequired:
      "Amazon siparişinin durumunu Amazon belirler; gönderimi onaylamak için kargo takip numarası girin.",
    amazonListingUnsupported:
      "Amazon'a ürünler tek tek yazılmaz ve ürün tipi eklenmez: kanalın kategori eşlemesinde ERP kategorinizi bir Amazon ürün tipine, markaya ve özelliklere eşleyin; Ürün Aktarımı işi ürünleri Amazon'da açar, stok ve fiyat kanalın işleriyle akar.",
    amazonInvoiceUnsupported:
      "Amazon Türkiye siparişlerinin faturası Seller Central'a yüklenir: Amazon'un API'sinde Türkiye için fatura bağlantısı gönderme yolu yok.",
  },
  mail: {
    resetSubject: "Entegrasyon Paneli şifre sıfırlama",
    resetBody:
      "Merhaba {{name}},\n\nŞifrenizi sıfırlamak için aşağıdaki bağlantıya tıklayınız. Bağlantı bir saat geçerlidir ve yalnızca bir kez kullanılabilir.\n\n{{link}}\n\nBu isteği siz yapmadıysanız bu e-postayı dikkate almayınız.",
    welcomeSubject: "Entegrasyon Paneli'ne hoş geldiniz",
    welcomeBody:
      "Merhaba {{name}},\n\n{{company}} hesabınız oluşturuldu. 14 günlük deneme lisanslarınız tanımlandı.\n\n{{link}}",
  },
  activity: {
    signIn: "Panele giriş yapıldı.",
    settingsSaved: "Ayarlar kaydedildi ({{detail}}).",
    connectionChanged: "Bağlantı bilgileri değiştirildi ({{detail}}).",
    jobEnabled: "{{detail}} görevi aktif edildi.",
    jobDisabled: "{{detail}} görevi pasif edildi.",
    jobScheduleChanged: "{{detail}} görevinin çalışma zamanı değiştirildi.",
    jobRun: "{{detail}} görevi elle çalıştırıldı.",
    failedTasksDeleted: "{{detail}} hatalı görev kaydı silindi.",
    fileImportDeleted: "Yüklenen dosya silindi: {{detail}}",
    failedTasksRetried: "{{detail}} hatalı görev kaydı yeniden denendi.",
    ticketCreated: "Destek talebi açıldı: {{detail}}",
    ticketReplied: "Destek talebi yanıtlandı: {{detail}}",
    ticketClosed: "Destek talebi kapatıldı: {{detail}}",
    profileUpdated: "Profil bilgileri güncellendi.",
    companyUpdated: "Şirket bilgileri güncellendi.",
    passwordChanged: "Şifre değiştirildi.",
    erpMatchingChanged: "ERP eşleştirmesi değiştirildi ({{detail}}).",
    retentionChanged: "Kayıt saklama süreleri değiştirildi ({{detail}}).",
    custom: "{{detail}}",
  },
  panel: {
    licenceExpiring: "{{licence}} lisansınızın süresi {{date}} tarihinde doluyor ({{days}} gün kaldı).",
    licenceExpired: "{{licence}} lisansınızın süresi doldu; ilgili görevler çalıştırılmıyor.",
    reportNever: "{{job}} henüz çalışmadı.",
    reportSucceeded: "{{job}} son çalışmasında başarılı oldu; {{written}} kayıt yazıldı.",
    reportFailed: "{{job}} son çalışmasında hata aldı; {{failed}} kayıt aktarılamadı.",
    reportDisabled: "{{job}} pasif durumda.",
    connectionUntested: "Bağlantı henüz denenmedi.",
    connectionNotSaved:
      "Bağlantı ayarları henüz kaydedilmedi. Bağlantı ayarlarından bilgilerinizi girip test ediniz.",
    connectionRunOk: "{{date}} tarihindeki son görev çalışması bu sisteme sorunsuz ulaştı.",
    connectionRunFailed: "{{date}} tarihindeki son görev çalışması bu sisteme bağlanamadı. {{reason}}",
  },
  connectionSettings: {
    supportEnded:
      "{{system}} ({{version}}) için üreticinin desteği {{date}} tarihinde sona erdi: güvenlik ve hata düzeltmeleri artık yayımlanmıyor. Bağlantı çalışmaya devam eder; desteklenen bir sürüme geçişinizi planlayınız.",
    previewNothing: "Bir sonraki çalışmada değişecek kayıt yok.",
    previewPriceOk: "{{total}} fiyat değişecek; hiçbiri %{{limit}} sınırından fazla düşmüyor.",
    previewPriceTripped:
      "{{flagged}} üründe fiyat %{{limit}} sınırından fazla düşecek. Çalıştırmadan önce kontrol edip onaylayınız.",
    previewStockOk: "{{total}} stok kaydı değişecek; {{flagged}} ürün 0 stoğa inecek.",
    previewStockTripped:
      "Okunan ürünlerin %{{share}} kadarı 0 stoğa inecek (sınır %{{limit}}). Çalıştırmadan önce kontrol edip onaylayınız.",
    connectionSaved: "Bağlantı ayarları kaydedildi.",
    connectionSavedJobsReady: "Bağlantı ayarları kaydedildi. Entegrasyon görevleriniz hazır.",
    testOk: "Bağlantı başarılı. {{description}}",
    testAuth:
      "{{system}} sistemine ulaşıldı ancak kimlik bilgileri kabul edilmedi. Lütfen anahtar, kullanıcı ve şifre bilgilerini kontrol ediniz.",
    testUnreachable:
      "{{system}} sistemine ulaşılamadı. Lütfen internetten erişilen adresini giriniz; yerel ve özel ağ adreslerine sunucumuzdan bağlanılmaz, şirket ağınızdaki sistemler yerinde çalışan ajan üzerinden bağlanır.",
    testTimeout: "{{system}} sistemi zamanında yanıt vermedi. Lütfen daha sonra tekrar deneyiniz.",
    testRateLimited:
      "{{system}} çok fazla istek nedeniyle isteği geri çevirdi. Lütfen biraz bekleyip tekrar deneyiniz.",
    testUnsupported: "{{system}} için bağlantı henüz desteklenmiyor.",
    testConfig: "{{system}} bağlantı bilgileri eksik veya hatalı. Lütfen formu kontrol ediniz.",
    testFailed: "{{system}} bağlantı testi başarısız oldu. Lütfen bilgileri kontrol edip tekrar deneyiniz.",
    notConnected: "Önce bu sistemin bağlantı ayarlarını kaydediniz.",
    listBusy: "Bağlı sistem şu anda yoğun veya yanıt vermiyor. Birkaç saniye sonra tekrar deneyiniz.",
    listFailed: "Bağlı sistemden liste alınamadı. Lütfen bağlantı ayarlarını test ediniz.",
    unsupportedSystem: "Bu sistem için bağlantı henüz desteklenmiyor.",
    fieldRequired: "Bu alan zorunludur.",
    urlInvalid: "Geçerli bir adres giriniz (http:// veya https://).",
    numberInvalid: "Geçerli bir sayı giriniz.",
    unknownField: "Bu sistem için tanımlı olmayan bir alan.",
    unknownSetting: "Bilinmeyen ayar anahtarı.",
    settingsSaved: "Ayarlar kaydedildi. Değişiklikler bir sonraki çalışmada uygulanır.",
  },
  tickets: {
    categoryRequired: "Kategori seçimi zorunludur.",
    subjectRequired: "Konu zorunludur.",
    subjectMax: "Konu en fazla 150 karakter olabilir.",
    messageRequired: "Mesaj zorunludur.",
    messageMax: "Mesaj en fazla 5000 karakter olabilir.",
    attachmentTooLarge: "Her dosya en fazla 5 MB olabilir.",
    attachmentType: "Yalnızca resim (PNG, JPEG, GIF, WEBP) ve PDF dosyaları eklenebilir.",
    attachmentTooMany: "En fazla 5 dosya eklenebilir.",
    ticketClosed: "Bu ticket kapatılmış; yeni mesaj eklenemez.",
    statusInvalid: "Ticket yalnızca kapatılabilir (durum 3).",
    created: "Ticketınız oluşturuldu.",
    replied: "Mesajınız gönderildi.",
    closed: "Ticket kapatıldı.",
    announcementTypeRequired: "Duyuru türü zorunludur.",
    announcementContentRequired: "Duyuru metni zorunludur.",
    announcementCreated: "Duyuru yayınlandı.",
    licenseUpdated: "Lisans güncellendi.",
    notifyAnswered: '#{{id}} numaralı "{{subject}}" ticketınız destek ekibi tarafından cevaplandı.',
    mailAnsweredSubject: "#{{id}} numaralı ticketınız cevaplandı",
    mailAnsweredBody:
      'Merhaba {{name}},\n\n"{{subject}}" konulu ticketınıza destek ekibimiz cevap verdi:\n\n{{message}}\n\nCevaplamak için: {{link}}\n\nCevap verilmezse ticket 24 saat sonra otomatik olarak kapatılır.',
    mailAutoClosedSubject: "#{{id}} numaralı ticketınız kapatıldı",
    mailAutoClosedBody:
      'Merhaba {{name}},\n\n"{{subject}}" konulu ticketınız, destek ekibinin cevabından sonra 24 saat içinde yanıt verilmediği için otomatik olarak kapatıldı.\n\nYeni bir sorunuz olursa yeni bir ticket açabilirsiniz: {{link}}',
    systemRequestSubject: "{{system}} bağlantısı talebi",
    systemRequestBody:
      '{{system}} için hazır bağlantımız henüz yok. Kayıt sırasında bu sistemi seçtiğiniz için talebinizi otomatik açtık: ekibimiz sizinle iletişime geçip bağlantıyı birlikte kuracak (gerekirse yerel bağlantı aracı veya SQL / dosya eşlemesiyle). Bu sırada Ayarlar → API Bağlantı Ayarları sayfasındaki "Deneme sistemlerine bağlan" ile ürünü deneyebilirsiniz.',
    mailNewSubject: "Yeni ticket #{{id}}: {{subject}}",
    mailNewBody:
      "{{company}} firmasından {{name}} yeni bir ticket açtı.\n\nKategori: {{category}}\nKonu: {{subject}}\n\n{{message}}\n\nDestek konsolu: {{link}}",
  },
  partnerInstall: {
    logoCompanyName: "Logo Is Basi firması {{tenant}}",
    causes: {
      partner_not_configured:
        "{{system}} uygulama bilgileri ({{missing}}) sunucuda tanımlı değil; yöneticinizden bu ayarları sunucunun ortam değişkenlerine girmesini (README, Yapılandırma tablosu) ve sunucuyu yeniden başlatmasını isteyin.",
      partner_unavailable:
        "{{system}} bağlantısı henüz hazır değil (Yakında). Şimdilik panelde listelenen diğer mağaza sistemlerinden birini bağlayabilirsiniz.",
      store_missing:
        "Bağlantıda geçerli bir {{system}} mağaza adresi yok. Kurulumu {{system}} yönetim panelinizdeki uygulama sayfasından yeniden başlatın.",
      state_mismatch:
        "Bu kurulum bu tarayıcıda başlatılmadı ya da 15 dakikalık süresi doldu. Kurulumu aynı tarayıcıda {{system}} panelinden yeniden başlatın.",
      callback_invalid:
        "{{system}} dönüşünün imzası doğrulanamadı; bağlantı değiştirilmiş ya da eski olabilir. Kurulumu {{system}} panelinden yeniden başlatın.",
      code_refused:
        "{{system}} onay kodunu kabul etmedi (kod tek kullanımlık ve kısa ömürlüdür). Kurulumu yeniden başlatın; tekrarlarsa yöneticiniz uygulama bilgilerini (istemci kimliği ve gizli anahtar) kontrol etsin.",
      store_unreachable:
        "{{system}} şu an yanıt vermiyor ya da ulaşılamıyor. Birkaç dakika sonra yeniden deneyin; sürerse yöneticinize bildirin.",
    },
  },
  webhooks: {
    tooManyDeliveries: "Çok fazla bildirim geldi; siparişler birazdan kontrol edilecek.",
    badSignature: "Bildirimin imzası doğrulanamadı.",
    noShopConnection: "Önce mağaza bağlantısını kaydediniz.",
    unsupported:
      "Bu mağaza sistemi için bildirim (webhook) desteği yok; siparişler 5 dakikada bir kontrol edilir.",
    noSecret:
      "Bildirimleri doğrulayabilmek için mağaza bağlantı ayarlarına uygulamanın gizli anahtarını giriniz.",
    registered: "Webhook'lar kaydedildi.",
    registerFailed: "Webhook'lar kaydedilemedi; siparişler 5 dakikada bir kontrol edilmeye devam ediyor.",
  },
  erpMatching: {
    saved: "Eşleştirme kaydedildi.",
    deleted: "Eşleştirme silindi.",
    shopSkuNotFound: "Mağazada bu stok koduna sahip ürün bulunamadı.",
    duplicate: "Bu ERP veya mağaza kodu için zaten bir eşleştirme var.",
    rowInvalid: "Satırda ERP ve mağaza stok kodu bulunmalıdır.",
    imported: "{{accepted}} satır kabul edildi, {{refused}} satır reddedildi.",
    tooManyRows: "Bir dosyada en fazla 5000 satır içe aktarılabilir.",
    bindingTaken:
      "Bu mağaza ürünü ERP'deki başka bir stok koduna zaten bağlı. Bir mağaza ürünü yalnızca bir ERP ürünüyle eşleşebilir: başka bir mağaza ürünü seçiniz.",
    bindingTakenRow:
      "Mağazadaki {{shopSku}} ürünü ERP'deki {{heldBy}} koduna zaten bağlı; bir mağaza ürünü yalnızca bir ERP ürünüyle eşleşebilir.",
  },
  einvoices: {
    sellerIncomplete:
      "Firma ayarlarında e-fatura için gereken bilgiler eksik (vergi numarası, vergi dairesi, adres). Ayarlar › Firma ekranından tamamlayıp tekrar deneyin.",
    title: "Faturalar",
    notFound: "Fatura bulunamadı.",
    noProvider:
      'Bu firmanın bağlı bir e-fatura servisi yok. Ayarlar › API Bağlantıları sayfasındaki "E-Fatura Servisi" bölümünden Uyumsoft, Trendyol e-Faturam veya LucaPortal bağlantısını ekleyin.',
    cancelNotEArchive:
      "Yalnızca e-Arşiv faturaları iptal edilebilir; e-Faturayı alıcı reddetmeli ya da iade faturası kesilmeli.",
    cancelTooLate:
      "İptal süresi geçti (e-Arşiv faturası düzenlendikten sonra 8 gün). İade, alıcının iade faturası ya da gider pusulası ile belgelenir.",
    cancelState: "Bu fatura bu durumdayken iptal edilemez.",
    linkInvalid: "Bağlantı geçersiz ya da süresi dolmuş. Mağazadan yeni bağlantı isteyin.",
    pdfUnavailable: "Fatura PDF'i şu an e-fatura servisinden alınamıyor. Birkaç dakika sonra tekrar deneyin.",
    colNumber: "Fatura No",
    colOrder: "Sipariş",
    colBuyer: "Alıcı",
    colTotal: "Tutar",
    colType: "Tür",
    colStatus: "GİB Durumu",
    colDate: "Tarih",
    pdf: "PDF",
    cancel: "İptal Et",
    cancelReason: "İptal nedeni",
    from: "Başlangıç",
    to: "Bitiş",
    status: "Durum",
    all: "Tümü",
    empty: "Bu filtreye uyan fatura yok.",
    run: "Şimdi Faturala",
    runDone: "{{prepared}} fatura hazırlandı, {{sent}} gönderildi.",
    typeEArchive: "e-Arşiv",
    typeEInvoice: "e-Fatura",
    st_prepared: "Hazırlandı",
    st_draft: "Taslak (onay bekliyor)",
    st_queued: "Kuyrukta",
    st_sent: "GİB'e iletildi",
    st_approved: "Onaylandı",
    st_rejected: "Reddedildi",
    st_cancelled: "İptal edildi",
    st_error: "Hata",
    st_generated: "Oluşturuldu (portala yüklenecek)",
    kind_SATIS: "Satış",
    kind_IADE: "İade",
    colKind: "Fatura tipi",
    returnOf: "İade edilen: {{number}}",
    exportTitle: "Dışa aktar",
    exportHint:
      "Seçili tarih aralığının (tarih seçilmezse bugünün) faturaları Excel listesi ya da UBL-TR XML dosyaları (zip) olarak iner. API'si olmayan portallara (LucaPortal) bu dosyaları yükleyin.",
    exportXlsx: "Excel indir",
    exportUbl: "UBL (zip) indir",
    exportRangeInvalid: "Başlangıç tarihi bitiş tarihinden sonra olamaz; aralık en çok 366 gün olabilir.",
    export_sheet: "Faturalar",
    export_number: "Fatura No",
    export_ettn: "ETTN",
    export_date: "Tarih",
    export_type: "Tip",
    export_profile: "Senaryo",
    export_returnOf: "İade Edilen Fatura",
    export_orderNo: "Sipariş No",
    export_buyer: "Alıcı",
    export_buyerId: "VKN/TCKN",
    export_net: "Matrah",
    export_vat: "KDV",
    export_total: "Toplam",
    export_currency: "Para Birimi",
    export_state: "Durum",
    why_rejected:
      "Alıcı faturayı reddetti. Siparişi kontrol edin; gerekiyorsa düzeltilmiş yeni bir fatura kesin.",
    why_error:
      "E-fatura servisi faturayı kabul etmedi. Hata metnine göre firma ayarlarını veya sipariş bilgilerini düzeltin; fatura bir sonraki çalışmada yeniden denenmez, destekle iletişime geçin.",
    why_prepared:
      "Fatura numarası ayrıldı, gönderim sürüyor. Yanıt alınamazsa ETTN ile sorgulanır; aynı sipariş için ikinci fatura kesilmez.",
    documentNotOut:
      "Bu fatura henüz e-fatura servisine ulaşmadı (ya da reddedildi); gösterilecek bir belge yok.",
    exportEmpty: "Seçilen tarih aralığında dışa aktarılacak fatura yok. Başka bir aralık seçin.",
    rateSaved: "Kur kaydedildi.",
    rateCurrencyInvalid: "Para birimi 3 harfli ISO kodu olmalı (ör. USD, EUR); TL için kur gerekmez.",
    rateInvalid: "Kur sıfırdan büyük bir sayı olmalı (1 birim kaç TL).",
    returnCancelNote: "Sipariş iade edildi / iptal edildi",
    waitingRate:
      "{{count}} döviz siparişi kur bekliyor ({{currencies}}). Faturalar ekranındaki Döviz Kurları bölümünden kuru girin; faturalar sonraki çalışmada kesilir.",
    waitingVat:
      "{{count}} sipariş KDV oranı bekliyor: {{skus}} stok kodlarının KDV oranı ERP'de bulunamadı (satış kanalı siparişte KDV oranı vermiyor). Stok kartlarını ERP'de tanımlayın; faturalar sonraki çalışmada kesilir.",
    waitingData:
      "{{count}} sipariş e-Arşiv için bekliyor: {{reasons}}. Eksikleri tamamlayın; faturalar bir sonraki çalışmada kesilir.",
    ratesTitle: "Döviz Kurları",
    ratesHint:
      "Yabancı para birimli bir sipariş, kendi kuru yoksa fatura tarihinde veya öncesinde girdiğiniz en yeni kurla faturalanır. Kur tahmin edilmez: kur yoksa fatura bekler.",
    rateCurrency: "Para birimi",
    rateDate: "Kur tarihi",
    rateValue: "Kur (1 birim = TL)",
    rateAdd: "Kuru Kaydet",
    rateDelete: "Sil",
    ratesEmpty: "Henüz kur girmediniz.",
    waitingRateAlert:
      "{{currency}} kuru yok: {{orders}} sipariş faturalanmayı bekliyor. Aşağıdan {{currency}} kurunu girin; faturalar bir sonraki çalışmada kesilir.",
    colRate: "Kur",
    rateFrom_order: "siparişin kuru",
    rateFrom_merchant: "sizin kurunuz",
    returnPart: "Kısmi iade: {{lines}} — {{amount}}",
    return_cancel: "İade: e-Arşiv iptali",
    return_iade: "İade: alıcı iade faturası düzenler",
    return_none: "İade: gider pusulası",
    st_delivered: "ERP faturası mağazaya aktarıldı",
    sourceErp: "ERP faturası",
    trackingNumber: "Kargo takip no",
    carrier: "Kargo firması",
    shipmentSave: "Kaydet",
    trackingSent: "Pazaryerine gönderildi",
    trackingWaiting: "Fatura bağlantısından sonra pazaryerine gönderilir",
    count: "Bu aralıkta {{total}} fatura",
    countSplit: "(e-fatura servisi: {{service}}, ERP: {{erp}})",
    route_service: "Web siparişlerinin faturaları e-fatura servisiniz üzerinden kesilir.",
    route_erpService: "Faturalar, ERP olarak bağlı e-fatura servisiniz üzerinden kesilir.",
    route_erp:
      "Faturaları ERP'niz kesiyor; panel ERP'nin faturasını mağazadaki siparişe aktarır. ERP'niz e-fatura kesmiyorsa bir e-fatura servisi ekleyin.",
    addService: "E-Fatura Servisi Ekle",
    view: "Görüntüle",
    customerLink: "Müşteri bağlantısı",
    linkCopied: "Müşteri bağlantısı kopyalandı.",
    pdfDownload: "PDF olarak indir",
    returnWhy: {
      cancelWithinPeriod:
        "e-Arşiv faturası 8 günlük iptal süresi içindeydi: GİB kurallarına göre fatura e-fatura servisinde iptal edildi.",
      buyerIssuesIade:
        "Alıcı e-Fatura kullanıcısı: iade faturasını (TEMELFATURA) alıcı düzenler ve size gönderir; sizin fatura kesmeniz gerekmez.",
      companyBuyerIssues: "Alıcı bir firma: iade faturasını alıcı düzenler; sizin fatura kesmeniz gerekmez.",
      partialConsumer:
        "Kısmi iade ve alıcı tüketici: e-Arşiv faturası yalnız bütünüyle iptal edilebildiği için iptal edilmedi; iade edilen kalemleri gider pusulası ile belgeleyin.",
      consumerAfterPeriod:
        "Tüketici iadesi ve 8 günlük iptal süresi geçti: tüketici fatura kesmez; iadeyi gider pusulası ile belgeleyin.",
      cancelRefused:
        "E-fatura servisi iptali kabul etmedi: faturanın durumunu servisin portalından kontrol edin.",
      noApi: "Portalın API'si yok: e-Arşiv faturasını 8 gün içinde portaldan (LucaPortal) iptal edin.",
    },
    settings: "Fatura Ayarları",
    series: "Fatura serisi",
    draft: "Taslak olarak gönder (servis portalında onayla)",
    invoiceWhen: "Hangi siparişler faturalansın",
    when_paid: "Ödenenler",
    when_shipped: "Kargolananlar",
    when_all: "Tümü",
    save: "Kaydet",
    saved: "Kaydedildi.",
    seriesInvalid: "Seri 3 harf veya rakam olmalı (ör. WEB).",
  },
  salesExport: {
    rangeInvalid: "Başlangıç tarihi bitiş tarihinden sonra olamaz. Tarihleri düzeltip tekrar deneyin.",
    sheet: "Satış Raporu",
    orderNo: "Sipariş No",
    date: "Tarih",
    customer: "Müşteri",
    state: "Durum",
    amount: "Tutar",
    currency: "Para Birimi",
    total: "Toplam",
    received: "Alındı",
    mapped: "Eşleştirildi",
    sent: "ERP'ye gönderildi",
    confirmed: "Onaylandı",
    failed: "Hatalı",
    needs_review: "İnceleme bekliyor",
  },
  einvoice: {
    doc: {
      return: {
        cancelWithinPeriod:
          "e-Arşiv faturası 8 günlük iptal süresi içinde: fatura iptal edilir, iade faturası kesilmez.",
        buyerIssuesIade:
          "Alıcı e-Fatura kullanıcısı: iade faturasını (TEMELFATURA) alıcı düzenler; panel fatura kesmez.",
        companyBuyerIssues:
          "Alıcı bir şirket: iade faturasını alıcı düzenler (kâğıt veya e-Arşiv); panel fatura kesmez.",
        partialConsumer:
          "Kısmi iade ve alıcı tüketici: e-Arşiv yalnız bütünüyle iptal edilebilir; iade edilen kalemler için gider pusulası düzenleyin.",
        consumerAfterPeriod:
          "İptal süresi (8 gün) geçti ve alıcı tüketici: tüketici fatura düzenlemez; iade için gider pusulası düzenleyin.",
      },
    },
  },
  retention: {
    daysInvalid: "Gün sayısı tam sayı olmalıdır.",
    daysTooFew: "Süre, alanın altında yazan en kısa süreden az olamaz.",
    daysTooMany: "Süre, alanın altında yazan en uzun süreden fazla olamaz.",
    saved: "Saklama süreleri kaydedildi. Süresi dolan kayıtlar bu gece silinecek.",
  },
  /** The KVKK Excel export: sheet and column titles and the words for stored values (Turkish only). */
  privacyExport: {
    sheets: {
      company: "Şirket",
      users: "Kullanıcılar",
      licenses: "Lisanslar",
      connections: "Bağlantılar",
      settings: "Entegrasyon ayarları",
      jobs: "Görevler",
      jobRuns: "Görev çalışmaları",
      failedTasks: "Hatalı görevler",
      notifications: "Bildirimler",
      activities: "İşlem geçmişi",
      erpMatchings: "ERP eşleştirmeleri",
      tickets: "Destek talepleri",
      ticketReplies: "Destek yanıtları",
      ticketAttachments: "Destek ekleri",
      orders: "Siparişler",
      invoices: "Faturalar",
      syncLedger: "Aktarılan kayıtlar",
      deletionRequests: "Silme talepleri",
    },
    columns: {
      no: "No",
      companyName: "Şirket adı",
      taxOffice: "Vergi dairesi",
      taxNumber: "Vergi numarası",
      address: "Adres",
      phone: "Telefon",
      erpSystem: "ERP sistemi",
      shopSystem: "E-ticaret sistemi",
      demo: "Demo hesabı",
      createdAt: "Oluşturulma",
      updatedAt: "Son değişiklik",
      email: "E-posta",
      firstName: "Ad",
      lastName: "Soyad",
      language: "Dil",
      name: "Ad",
      description: "Açıklama",
      trial: "Deneme sürümü",
      expiresAt: "Bitiş",
      kind: "Tür",
      system: "Sistem",
      sandbox: "Deneme sistemi",
      lastTestAt: "Son bağlantı testi",
      lastTestResult: "Test sonucu",
      lastTestMessage: "Test mesajı",
      setting: "Ayar",
      value: "Değer",
      job: "Görev",
      enabled: "Aktif",
      lastRunAt: "Son çalışma",
      lastSuccessAt: "Son başarılı çalışma",
      nextRunAt: "Sonraki çalışma",
      trigger: "Başlatan",
      status: "Durum",
      startedAt: "Başlangıç",
      finishedAt: "Bitiş",
      read: "Okunan",
      changed: "Değişen",
      written: "Yazılan",
      failed: "Hatalı",
      report: "Rapor",
      record: "Kayıt",
      message: "Hata mesajı",
      detail: "Ayrıntı",
      occurrences: "Tekrar",
      firstSeenAt: "İlk görülme",
      lastSeenAt: "Son görülme",
      resolvedAt: "Çözülme",
      text: "Metin",
      isRead: "Okundu",
      date: "Tarih",
      action: "İşlem",
      erpSku: "ERP stok kodu",
      shopSku: "Mağaza stok kodu",
      subject: "Konu",
      closedAt: "Kapanış",
      ticket: "Talep no",
      fileName: "Dosya adı",
      contentType: "Dosya türü",
      size: "Boyut (bayt)",
      orderNo: "Sipariş no",
      customer: "Müşteri",
      city: "Şehir",
      amount: "Tutar",
      currency: "Para birimi",
      erpDocument: "ERP belge no",
      lastError: "Son hata",
      invoiceNo: "Fatura no",
      ettn: "ETTN",
      entity: "Kayıt türü",
      code: "Kod",
      shopId: "Mağazadaki kimlik",
      pushedAt: "Son gönderim",
      requestedAt: "Talep tarihi",
      dueAt: "Silinme tarihi",
      cancelledAt: "İptal tarihi",
      completedAt: "Tamamlanma",
    },
    settings: {
      erpPriceGroup: "ERP fiyat grubu",
      shopPriceList: "Mağaza fiyat listesi",
      shopPricesIncludeVat: "Mağaza fiyatları KDV dahil",
      stockLocations: "Stok lokasyonları",
      minStock: "En az stok",
      createMissingProducts: "Eksik ürünleri oluştur",
      categoryFilter: "Kategori filtresi",
      orderStatusesToTransfer: "Aktarılacak sipariş durumları",
      paymentTypes: "Ödeme tipleri",
      salesChannels: "Satış kanalları",
      customerRule: "Cari hesap kuralı",
      orderWarehouse: "Sipariş deposu",
      orderSeries: "Sipariş seri no",
      statusAfterTransfer: "Aktarım sonrası durum",
      priceGuardMaxDropPercent: "Fiyat düşüşü sınırı (%)",
      stockGuardMaxZeroPercent: "Sıfır stok sınırı (%)",
    },
    fields: {
      sku: "Stok kodu",
      name: "Ad",
      barcode: "Barkod",
      price: "Fiyat",
      quantity: "Miktar",
      warehouse: "Depo",
      orderNo: "Sipariş no",
      lines: "Satırlar",
      priceList: "Fiyat listesi",
      vatRate: "KDV oranı",
      accountCode: "Cari hesap kodu",
    },
    values: {
      yes: "Evet",
      no: "Hayır",
      none: "Yok",
      erp: "ERP",
      shop: "E-ticaret",
      einvoice: "e-Fatura servisi",
      channel: "Satış kanalı",
      ok: "Başarılı",
      notOk: "Başarısız",
      perCustomer: "Her müşteriye ayrı cari hesap",
      singleAccount: "Tek cari hesap",
      schedule: "Zamanlanmış",
      manual: "Elle",
      retry: "Yeniden deneme",
      webhook: "Mağaza bildirimi",
      change: "Değişiklik",
      Queued: "Sırada",
      Running: "Çalışıyor",
      Succeeded: "Başarılı",
      PartiallyFailed: "Kısmen başarılı",
      Failed: "Başarısız",
      Crashed: "Yarıda kesildi",
      Open: "Açık",
      Resolved: "Çözüldü",
      Info: "Bilgi",
      Error: "Hata",
      ticket0: "Açık",
      ticket1: "Yanıt bekliyor",
      ticket2: "Yanıtlandı",
      ticket3: "Kapalı",
      received: "Alındı",
      mapped: "Eşleştirildi",
      sending: "Gönderiliyor",
      sent: "Gönderildi",
      confirmed: "Onaylandı",
      failed: "Hatalı",
      needs_review: "İnceleme bekliyor",
      pending: "Bekliyor",
      cancelled: "İptal edildi",
      completed: "Tamamlandı",
      product: "Ürün",
      stock: "Stok",
      category: "Kategori",
      variant: "Varyant",
      price: "Fiyat",
    },
  },
  privacy: {
    deletionRequested:
      "Hesap silme talebiniz alındı. Hesabınız ve tüm verileriniz 30 gün sonra kalıcı olarak silinecek; bu süre içinde Gizlilik ve KVKK sayfasından talebi iptal edebilirsiniz.",
    deletionCancelled: "Hesap silme talebiniz iptal edildi. Hesabınız ve verileriniz korunuyor.",
    alreadyPending:
      "Bu hesap için zaten bekleyen bir silme talebi var. Gizlilik ve KVKK sayfasından tarihini görebilir veya talebi iptal edebilirsiniz.",
    passwordIncorrect:
      "Şifre doğrulanamadı. Silme talebini onaylamak için hesabınızın mevcut şifresini giriniz.",
    notPending: "Bu silme talebi artık iptal edilemez: daha önce iptal edilmiş veya tamamlanmış.",
    confirmRequired: "Devam etmek için hesabın ve verilerin silineceğini onaylayınız.",
    mailRequestedSubject: "Hesap silme talebiniz alındı",
    mailRequestedBody:
      "Merhaba {{name}},\n\n{{company}} hesabının silinmesi için bir talep aldık. Hesap, bağlantılar, bağlantı şifreleri ve kişisel veriler {{date}} tarihinde kalıcı olarak silinecek.\n\nSilmeden önce verilerinizin bir kopyasını indirebilirsiniz. Talebi siz yapmadıysanız veya vazgeçtiyseniz, bu tarihe kadar Gizlilik ve KVKK sayfasından iptal edebilirsiniz: {{link}}",
    mailCancelledSubject: "Hesap silme talebiniz iptal edildi",
    mailCancelledBody:
      "Merhaba {{name}},\n\n{{company}} hesabının silme talebi iptal edildi. Hesabınız ve verileriniz korunuyor; bir işlem yapmanız gerekmiyor.\n\nPanel: {{link}}",
  },
  liveUpdates: {
    tooManyPanels:
      "Bu şirket için çok fazla açık panel sekmesi canlı takip yapıyor. Kullanmadığınız sekmeleri kapatınız; bu sekme birkaç saniye sonra yeniden bağlanacak.",
  },
  connectionCheck: {
    status: {
      ok: "uyumlu",
      drift: "uyumsuz",
      untried: "denenemedi",
    },
    operation: {
      products: "Ürünler",
      stock: "Stok miktarları",
      prices: "Fiyatlar",
      priceGroups: "Fiyat grupları",
      categories: "Kategoriler",
      stockLocations: "Depolar",
      orders: "Siparişler",
      orderStatuses: "Sipariş durumları",
      priceLists: "Fiyat listeleri",
      shopStockLocations: "Mağaza stok konumları",
      shopCategories: "Mağaza kategorileri",
    },
    expect: {
      code: "dolu bir kod",
      name: "dolu bir ad",
      text: "metin",
      number: "sayı",
      nonNegative: "sıfır ya da artı bir sayı",
      boolean: "evet/hayır değeri",
      date: "tarih",
      currency: "üç harfli para birimi kodu (TRY gibi)",
      list: "liste",
      textList: "metin listesi",
    },
    got: {
      missing: "alan hiç gelmedi",
      empty: "boş geldi",
      text: "metin geldi",
      number: "sayı geldi",
      invalidNumber: "geçersiz bir sayı geldi",
      boolean: "evet/hayır geldi",
      list: "liste geldi",
      object: "nesne geldi",
    },
    drift:
      "{{system}} yanıtında «{{field}}» alanı beklenen biçimde değil: {{expect}} bekleniyordu, {{got}}. Çalışmayacak: {{jobs}} ({{field}} alanı).",
    unreadable: "{{system}} yanıtı okunamadı: bağlantının bildiği biçimden farklı. Çalışmayacak: {{jobs}}.",
    rawRule: "{{system}} yanıtı bağlantının bildiği biçimden farklı. Çalışmayacak: {{jobs}}.",
    rule: {
      diaSelectedColumns:
        "{{system}} listeleme yanıtının satırlarında istenen sütunların bazıları gelmedi (stok kartı kodu, adı gibi). Çalışmayacak: {{jobs}}.",
      nebimProcedureColumns:
        "{{system}} yordamının döndürdüğü satırlarda bağlantı formunda istenen sütunlardan bazıları yok (ürün kodu, KDV oranı gibi). Çalışmayacak: {{jobs}}.",
    },
    untried: {
      budget:
        "Doğrulama en çok {{planned}} çağrı yapacağını söyledi; bu okuma o sınıra sığmadığı için kontörünüzü/kotanızı korumak adına denenmedi.",
      auth: "Sistem girişi reddetti. Bağlantı bilgilerini kontrol edip yeniden doğrulayın.",
      network:
        "Sisteme ulaşılamadı. Adresi, ağ bağlantısını ve (kullanılıyorsa) yerel aracı kontrol edip yeniden doğrulayın.",
      rate_limited: "Sistem istek sınırına ulaştı. Birkaç dakika sonra yeniden doğrulayın.",
      unsupported: "Bu sistem bu okumayı sunmuyor; bu okumaya dayanan iş bu sistemle çalışmaz.",
      other: "Okuma tamamlanamadı ({{reason}}). Birkaç dakika sonra yeniden doğrulayın.",
      notConnected: "Bu taraf için kayıtlı bağlantı yok. Önce bağlantıyı kaydedin.",
    },
    none: "Etkin iş bu tarafta okuma gerektirmiyor.",
    firstSyncHeld:
      "İlk aktarım bekletildi: bağlantı doğrulamasında {{operations}} uyumsuz çıktı. Bağlantı Ayarları'nda ayrıntıyı görüp «Yine de devam et» ile başlatabilirsiniz.",
    checked: "Bağlantı doğrulandı.",
    proceeded: "İlk aktarım uyumsuzluğa rağmen başlayabilir. Uyumsuz alanlar aktarımda hata verebilir.",
    supportMailSubject: "Bağlantı doğrulaması: {{system}} {{operation}} yanıtı {{companies}} firmada farklı",
    supportMailBody:
      "Kural: {{rule}}\nAlan: {{field}}\nİlk görülme: {{firstSeen}}\nFirma sayısı: {{companies}}\nBir sistem değişikliği ya da yargıcımızda bir hata olabilir. İlgili kayıt: {{verified}}\nKonsol: {{link}}",
  },
  channels: {
    added: "{{name}} satış kanalı kaydedildi.",
    addedJobsReady: "{{name}} satış kanalı kaydedildi. Stok, fiyat ve sipariş görevleri hazır.",
    removed: "{{name}} satış kanalı kaldırıldı.",
    unknownSystem: "Bu pazaryeri için bağlantı henüz desteklenmiyor.",
    notFound: "Satış kanalı bulunamadı.",
    settingsSaved: "Satış kanalı ayarları kaydedildi. Değişiklikler bir sonraki çalışmada uygulanır.",
    shop: "Mağaza",
    all: "Tüm kanallar",
  },
  listing: {
    notSupportedChannel: "Bu pazaryerine ürün açma bu bağlantıda yok; kategori eşlemesi yapılamaz.",
    mappingSaved: "{{category}} kategorisi eşlendi: {{target}}.",
    mappingRemoved: "Kategori eşlemesi kaldırıldı.",
    notSupported: "{{name}} için ürün açma bu bağlantıda yok; kategori eşlemesi yapılamaz.",
    unknownCategory:
      "Pazaryerinin kategori listesinde bu kategori yok (ya da alt kategorileri var): en alt kategoriyi seçin.",
    unknownBrand: "Pazaryerinin marka listesinde bu marka yok.",
    missingAttribute: "Zorunlu özellik için pazaryerinin listesinden bir değer seçin: {{name}}.",
    invalidValue: "{{name}} özelliği için pazaryerinin listesindeki bir değeri seçin.",
    unknownAttribute: "Bu kategoride böyle bir özellik yok: {{name}}.",
    started: "Ürün açma başlatıldı: eşlenmiş kategorilerin pazaryerinde olmayan ürünleri gönderiliyor.",
    noMappings: "Eşlenmiş kategori yok: ürün açmak için kanalın kategori eşlemesini yapın.",
    noBarcode: "Barkodu yok: {{marketplace}} ürünleri barkodla açar. ERP'de stok kartına barkod girin.",
    noPrice: "ERP fiyat grubunda fiyatı yok: ürün fiyatsız açılamaz.",
    reportCreated:
      "{{count}} ürün {{marketplace}} pazaryerinde açıldı; pazaryerinin onayından sonra satışa çıkar.",
    reportListed: "{{count}} ürün pazaryerinde zaten var.",
    reportInReview:
      "{{count}} ürün pazaryerine gönderildi ve onay bekliyor; onaylanınca listede görünür, bu sürede yeniden gönderilmez.",
    unmappedVariantValue:
      '{{option}} seçeneğinin "{{value}}" değeri {{attribute}} özelliğine eşlenmemiş: kategori eşlemesinde bu değer için pazaryerinin değerini seçin.',
    notVariantAttribute: "{{name}} pazaryerinde varyant özelliği değil: sabit bir değerle eşleyin.",
    attributeTwice:
      "{{name}} özelliği iki kez eşlenmiş (sabit değer ya da ERP seçeneği olarak): birini bırakın.",
    duplicateVariantValue: "{{value}} ERP değeri {{name}} özelliğinde iki kez eşlenmiş.",
  },
  sandbox: {
    driftNoSandbox:
      "Değişiklik tatbikatı yalnızca deneme sistemine bağlı bir tarafta yapılabilir; bu taraf deneme sistemine bağlı değil.",
    connected:
      'Deneme sistemlerine bağlandınız. Aktarımları Ürün Entegrasyonu ve Sipariş Entegrasyonu ekranlarından başlatabilir, gerçek sisteminize hazır olduğunuzda "Gerçek sisteme geç" ile bilgilerinizi girebilirsiniz.',
    connectFailed:
      'Deneme sistemleri kaydedildi ancak bağlantı testi başarısız oldu. Birkaç dakika sonra Bağlantı Ayarları\'ndan "Bağlantıyı Test Et" ile yeniden deneyin.',
  },
  agents: {
    updateWindowSaved:
      "Güncelleme saatleri kaydedildi. Araç yeni sürümü yalnızca bu saatlerde ve süren bir aktarım yokken kurar.",
    downloadNotBuilt:
      "Yerel bağlantı aracının kurulum dosyaları bu sunucuda henüz hazırlanmamış. Sunucunun yöneticisi 'npm run build:agent' komutunu çalıştırdığında indirme bağlantıları burada görünür.",
    pairingCodeLimit:
      "Son bir saatte çok fazla eşleştirme kodu alındı. Daha önce aldığınız kodu kullanın ya da bir süre sonra tekrar deneyin.",
    agentLimit:
      "Bir şirkete en fazla 10 yerel bağlantı aracı eşleştirilebilir. Kullanmadığınız bir aracın erişimini kaldırıp tekrar deneyin.",
    pairingCodeCreated:
      "Eşleştirme kodu oluşturuldu. Kodu 10 dakika içinde yerel bağlantı aracında girin: entegrasyon-agent pair KOD --server ADRES",
    paired: "Yerel bağlantı aracı eşleştirildi.",
    pairingCodeInvalid:
      "Eşleştirme kodu geçersiz, süresi dolmuş ya da daha önce kullanılmış. Panelden yeni bir kod alıp tekrar deneyin.",
    servesConnection:
      "Yerel bağlantı aracı bu bağlantıya eklendi. Aynı bağlantının araçlarından çevrimiçi olan aktarımları taşır; biri kapanırsa diğeri devam eder.",
    leftConnection:
      "Yerel bağlantı aracı bu bağlantıdan çıkarıldı. Bağlantının diğer araçları (varsa) aktarımları taşımaya devam eder.",
    revoked:
      "Yerel bağlantı aracının erişimi kaldırıldı. Yeniden bağlamak için yeni bir eşleştirme kodu alın.",
    offline:
      "Yerel bağlantı aracı çevrimdışı (son görülme: {{lastSeen}}). Aracın çalıştığı bilgisayarı ve ağ bağlantısını kontrol edin.",
    offlineNotice:
      '"{{machine}}" bilgisayarındaki yerel bağlantı aracı 10 dakikadan uzun süredir çevrimdışı (son görülme: {{lastSeen}}) ve zamanı gelen aktarımlar bekliyor. Aracın çalıştığı bilgisayarı ve ağ bağlantısını kontrol edin.',
    backOnline:
      '"{{machine}}" bilgisayarındaki yerel bağlantı aracı tekrar çevrimiçi; bekleyen aktarımlar devam ediyor.',
    cli: {
      askServer: "Panel adresi (ör. https://panel.ornek.com): ",
      askCode: "Panelde aldığınız eşleştirme kodu: ",
      stateOnline: "çevrimiçi",
      stateOffline: "çevrimdışı",
      stateConnecting: "bağlanıyor",
      stateRefused: "reddedildi",
      stateStopped: "durduruldu",
      serviceInstalled:
        "Hizmet kuruldu ve başlatıldı ({{name}}). Bilgisayar açılınca kendiliğinden başlar, durursa yeniden başlatılır. Durumu görmek için: entegrasyon-agent service status",
      serviceUninstalled: "Hizmet kaldırıldı ({{name}}).",
      dataKept:
        "Eşleştirme, ayarlar ve günlükler {{home}} klasöründe duruyor; yeniden kurulumda kullanılır. Silmek için: entegrasyon-agent service uninstall --delete-data",
      dataDeleted: "Eşleştirme, ayarlar ve günlükler silindi ({{home}}).",
      serviceStatus:
        "Hizmet: {{service}} · Araç: {{state}} · sunucu: {{server}} · son bağlantı: {{connectedAt}} · son hata: {{lastError}}",
      serviceRunning: "çalışıyor",
      serviceStopped: "durmuş",
      serviceMissing: "kurulu değil",
      serviceFailed: "Hizmet işlemi yapılamadı: {{reason}}",
      serviceNeedsAdmin:
        "Bu işlem yönetici yetkisi ister: Windows'ta komut istemini 'Yönetici olarak çalıştır' ile açın, Linux'ta sudo ile çalıştırın.",
      serviceUsage:
        "Kullanım:\n  entegrasyon-agent service install [--code KOD --server ADRES] [--proxy ADRES]\n  entegrasyon-agent service status\n  entegrasyon-agent service uninstall [--delete-data]",
      proxyRefused:
        "Vekil sunucu (proxy) {{proxy}} Windows (NTLM) kimlik doğrulamasını kabul etmedi (HTTP {{status}}). Bu bilgisayarda kayıtlı hesabı kontrol edin (entegrasyon-agent http-auth list) ya da yeniden kaydedin: entegrasyon-agent http-auth add {{proxy}} --ntlm --domain ALAN --user KULLANICI --password PAROLA",
      proxyInvalid:
        "Vekil sunucu (proxy) adresi geçersiz: {{proxy}} (ör. http://kullanici:parola@vekil:8080)",
      usage:
        "Kullanım:\n  entegrasyon-agent pair KOD --server ADRES   Panelden aldığınız kodla eşleştirir\n  entegrasyon-agent run                        Sunucuya bağlanır ve istekleri yürütür\n  entegrasyon-agent status                     Son durumu gösterir\n  entegrasyon-agent service install|status|uninstall   Hizmet olarak kurar, durumunu gösterir, kaldırır\n  Klasör izleme: entegrasyon-agent folder add|list|remove\n  Vekil sunucu (proxy): --proxy http://kullanici:parola@vekil:8080 ya da HTTPS_PROXY\n  Bağımsız değişken olmadan çalıştırılınca eşleştirme kodunu sorar ve bağlanır.",
      paired: "Eşleştirme tamam (araç no {{agentId}}). Şimdi 'entegrasyon-agent run' ile başlatın.",
      dbSaved:
        "Veritabanı '{{alias}}' kaydedildi ({{dialect}}, {{host}}:{{database}}). Paneldeki 'Veritabanı takma adı' alanına bu adı yazın.",
      dbRemoved: "Veritabanı '{{alias}}' silindi.",
      dbNone: "Kayıtlı veritabanı yok.",
      dbLine: "{{alias}}: {{dialect}} {{host}}:{{database}} (kullanıcı {{user}})",
      folderUsage:
        "Kullanım:\n  entegrasyon-agent folder add KLASOR --kind products|stock|prices [--outbox KLASOR]\n  entegrasyon-agent folder list\n  entegrasyon-agent folder remove KLASOR\nİşlenen dosyalar islenen/, reddedilenler hatali/ klasörüne taşınır; yanlarına satır satır sonuç (.sonuc.csv) yazılır.",
      folderSaved: "Klasör izlenecek: {{path}} ({{kind}}).",
      folderRemoved: "Klasör artık izlenmiyor: {{path}}.",
      folderNone: "İzlenen klasör yok.",
      folderLine: "{{path}}  tür: {{kind}}  sipariş çıkışı: {{outbox}}",
      dbUsage:
        "Kullanım:\n  entegrasyon-agent db add AD --dialect firebird|mssql --host SUNUCU [--port N] --database VERITABANI --user KULLANICI --password PAROLA\n  entegrasyon-agent db list\n  entegrasyon-agent db remove AD\nParolalar yalnızca bu makinede, yalnızca hizmet hesabının okuyabildiği dosyada tutulur.",
      httpAuthSaved:
        "Windows kimlik doğrulaması '{{host}}' için kaydedildi ({{scheme}}, {{domain}}\\{{user}}). Araç bu adrese giden istekleri bu hesapla yapar.",
      httpAuthRemoved: "'{{host}}' için kimlik doğrulaması silindi.",
      httpAuthNone: "Kayıtlı kimlik doğrulaması yok.",
      httpAuthLine: "{{host}}: {{scheme}} {{domain}}\\{{user}}",
      httpAuthUsage:
        "Kullanım:\n  entegrasyon-agent http-auth add SUNUCU[:PORT] --ntlm --domain ALAN --user KULLANICI --password PAROLA\n  entegrasyon-agent http-auth list\n  entegrasyon-agent http-auth remove SUNUCU[:PORT]\nWindows parolası yalnızca bu makinede, yalnızca hizmet hesabının okuyabildiği dosyada tutulur; panele gönderilmez.",
      pairFailed: "Eşleştirme yapılamadı: {{reason}}",
      notPaired:
        "Bu araç henüz eşleştirilmemiş. Önce panelden bir kod alıp 'entegrasyon-agent pair KOD --server ADRES' çalıştırın.",
      refused:
        "Sunucu bu aracın kimliğini reddetti (erişim kaldırılmış olabilir). Panelden yeni bir kod alıp yeniden eşleştirin.",
      status:
        "Durum: {{state}} · sunucu: {{server}} · son bağlantı: {{connectedAt}} · son hata: {{lastError}}",
      serverUnreachable:
        "Sunucuya ulaşılamadı ({{code}}). Adresi ve bu bilgisayarın internet bağlantısını kontrol edin.",
      noStatus: "Henüz durum kaydı yok: araç hiç çalıştırılmamış.",
    },
  },
} as const;

type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A dotted path to one shared message, for example `validation.emailRequired`. */
export type MessageKey = Leaves<typeof tr>;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language's catalogue must have: the same keys as Turkish. */
export type MessageCatalog = Widen<typeof tr>;
