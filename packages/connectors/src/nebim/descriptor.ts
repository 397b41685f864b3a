import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** Default stored procedure names (RunProc). The customer's own SPs usually differ: the form says so. */
export const NEBIM_DEFAULT_PROCS = {
  // inferred: named in the style of the doc's RunProc sample `sp_GetRetailCustomer` (docs/03-call-proc.md).
  products: "sp_GetProducts",
  // erps.md §5: the vendor ships `usp_SAMPLE_GetItemInventoryBulk` (3P citing Nebim's Postman collection).
  stock: "usp_SAMPLE_GetItemInventoryBulk",
  // inferred, as products.
  prices: "sp_GetProductPrices",
  // The doc's own RunProc sample: finds a retail customer by a communication address (mobile phone, type 7).
  customer: "sp_GetRetailCustomer",
  // inferred: finds an order by the DocumentNumber we wrote into it.
  orderLookup: "sp_GetOrderByDocumentNumber",
} as const;

const procHelp = (what: string, columns: string) =>
  `${what} için çağrılacak saklı yordamın (RunProc) adı. Nebim'de her firmanın yordamları farklıdır; kendi yordamınızın adını yazın. Dönmesi gereken sütunlar: ${columns}.`;

export const nebimDescriptor = defineConnector("erp", "nebim", {
  credentials: [
    urlField(
      "serviceUrl",
      "Integrator adresi",
      "IIS üzerinde çalışan Nebim V3 Integrator servisinin adresi, örn. http://192.168.1.20:801. Bu adrese yerel bağlantı aracı (agent) ulaşır.",
      { required: true, placeholder: "http://nebim-sunucu:801" },
    ),
    textField(
      "connectMode",
      "Bağlantı modu",
      "session veya token. IIS'te servisin Oturum Durumu Modu 'İşlem İçi (InProc)' ise session (oturum kimliği adrese (S(...)) olarak eklenir); 'Etkinleştirilmedi' ise token (Token başlığıyla gönderilir).",
      { default: "session" },
    ),
    textField(
      "databaseName",
      "Veritabanı",
      "Nebim V3 veritabanının adı (DatabaseName), örn. NEBIMV3. Integrator'ün Web.config dosyasında kullanıcı tanımlıysa dört kullanıcı alanı boş bırakılabilir.",
      { required: false },
    ),
    textField(
      "userGroupCode",
      "Kullanıcı grubu",
      "Nebim V3 kullanıcı grup kodu (UserGroupCode, en çok 5 karakter), örn. V3.",
      { required: false },
    ),
    textField(
      "userName",
      "Kullanıcı",
      "Nebim V3 kullanıcı adı (en çok 15 karakter). Mağaza kullanıcısı yalnız kendi mağazası adına işlem yapabilir; birden çok ofis için yetkili ofis kullanıcısı kullanın.",
      { required: false },
    ),
    secretField(
      "password",
      "Şifre",
      "Nebim V3 kullanıcısının şifresi. Şifreli saklanır; yalnız bağlanırken gönderilir.",
      { required: false },
    ),
    textField(
      "orderType",
      "Sipariş tipi",
      "R: perakende satış siparişi (ModelType 6, müşteriler perakende müşteri kartı olarak açılır); WS: toptan satış siparişi (ModelType 5, müşteriler toptan müşteri kartı olarak açılır).",
      { default: "R" },
    ),
    textField(
      "officeCode",
      "Ofis kodu",
      "Siparişlerin ve müşterilerin açılacağı ofisin kodu (OfficeCode), örn. M.",
    ),
    textField(
      "storeCode",
      "Mağaza kodu",
      "Perakende siparişlerin mağazası (StoreCode). Toptan siparişlerde kullanılmaz.",
      { required: false },
    ),
    textField(
      "warehouseCode",
      "Depo kodu",
      "Siparişlerin düşüleceği depo (perakendede StoreWareHouseCode, toptanda WarehouseCode).",
    ),
    textField(
      "deliveryCompanyCode",
      "Kargo firması kodu",
      "Nebim'de tanımlı kargo firması kodu (DeliveryCompanyCode), örn. ARAS. Boşsa gönderilmez.",
      { required: false },
    ),
    textField(
      "creditCardTypeCode",
      "Kredi kartı tipi kodu",
      "Nebim'de tanımlı kredi kartı / sanal POS tipi kodu (CreditCardTypeCode), örn. IYZ. Siparişin ödemesi (Payments) bu kodla yazılır; boşsa kart tipi gönderilmez.",
      { required: false },
    ),
    textField(
      "salesUrl",
      "Satış sitesi adresi",
      "Nebim'e internet satışının yapıldığı site olarak yazılır (SalesURL, en çok 30 karakter), örn. www.magazam.com.",
      { required: false },
    ),
    textField(
      "customerPrefix",
      "Müşteri kodu öneki",
      "E-ticaret müşterileri için açılacak cari kodlarının öneki (CurrAccCode en çok 30 karakter). Aynı kodla gönderilen kart Nebim'de güncellenir, çift kart açılmaz.",
      { required: false, default: "WEB-" },
    ),
    {
      name: "productsProc",
      label: "Ürün yordamı",
      help: procHelp(
        "Ürünleri okumak",
        "ItemCode, ItemDescription, ColorCode, ColorDescription, ItemDim1Code, Barcode, VatRate, UnitOfMeasureCode1, Brand, Category (kategori yolu, ' > ' ile), IsBlocked; isteğe bağlı ModelCode, ModelDescription (aynı ModelCode'lu ürünler tek ürünün varyantları olur), OptionName, OptionValue",
      ),
      secret: false,
      required: false,
      type: "text",
      default: NEBIM_DEFAULT_PROCS.products,
    },
    {
      name: "stockProc",
      label: "Stok yordamı",
      help: procHelp(
        "Depo bazında stokları okumak",
        "ItemCode, ColorCode, ItemDim1Code, WarehouseCode, WarehouseDescription, Qty",
      ),
      secret: false,
      required: false,
      type: "text",
      default: NEBIM_DEFAULT_PROCS.stock,
    },
    {
      name: "pricesProc",
      label: "Fiyat yordamı",
      help: procHelp(
        "Fiyatları okumak",
        "ItemCode, ColorCode, ItemDim1Code, PriceGroupCode, PriceGroupDescription, Price, CurrencyCode, IsVatIncluded",
      ),
      secret: false,
      required: false,
      type: "text",
      default: NEBIM_DEFAULT_PROCS.prices,
    },
    textField(
      "customerProc",
      "Müşteri arama yordamı",
      "Perakende siparişlerde telefonla müşteri aramak için yordam (parametreler CommAddress ve CommunicationTypeCode; Nebim dokümanındaki örnek sp_GetRetailCustomer). Dönen satırın CurrAccCode sütunu kullanılır. Boş bırakılırsa müşteri, önekli koduyla gönderilir (Nebim aynı koddaki kartı günceller).",
      { required: false, default: NEBIM_DEFAULT_PROCS.customer },
    ),
    textField(
      "orderLookupProc",
      "Sipariş arama yordamı",
      "Sipariş numaramızla (DocumentNumber parametresi) Nebim siparişini bulan yordam; OrderNumber sütunu dönmeli. Siparişin iki kez yazılmaması buna dayanır: yordam mutlaka tanımlı olmalı.",
      { required: false, default: NEBIM_DEFAULT_PROCS.orderLookup },
    ),
    textField(
      "sqlAlias",
      "Veritabanı takma adı (SQL ile okuma)",
      'İsteğe bağlı: ürün, stok ve fiyatları yordam yerine doğrudan SQL ile okumak için yerel bağlantı aracında "entegrasyon-agent db add AD --dialect mssql …" ile kaydettiğiniz ad.',
      { required: false },
    ),
    textField("sqlDialect", "Veritabanı türü", "mssql (Nebim V3 SQL Server üzerinde çalışır).", {
      required: false,
      default: "mssql",
    }),
    textField(
      "sqlConfig",
      "SQL ile okuma",
      'Doluysa ürün, stok, fiyat ve kategoriler bu sorgularla okunur (genel SQL bağlantısıyla aynı eşleme); siparişler yine Integrator\'e "Post" ile yazılır.',
      { required: false },
    ),
  ],
  batch: { page: 1000 },
  // Integrator runs on the customer's IIS; nothing is documented about limits (inferred: stay gentle).
  budget: { requests: 10, windowMs: 1000 },
  onPremOnly: true,
  notes:
    "Nebim V3 Integrator (IIS, JSON): Connect → SessionID in the URL or Token header, validated with GetUserInfo; reads through the customer's stored procedures (RunProc) or SQL; writes through Post with ModelType models (2/3 customers, 5/6 orders).",
});
