import type { ConnectorDescriptor } from "../sdk/connector";

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

export const nebimDescriptor: ConnectorDescriptor & { kind: "erp" } = {
  kind: "erp",
  type: 1,
  name: "Nebim",
  system: "nebim",
  implemented: true,
  credentials: [
    {
      name: "serviceUrl",
      label: "Integrator adresi",
      help: "IIS üzerinde çalışan Nebim V3 Integrator servisinin adresi, örn. http://192.168.1.20:801. Bu adrese yerel bağlantı aracı (agent) ulaşır.",
      secret: false,
      required: true,
      type: "url",
      placeholder: "http://nebim-sunucu:801",
    },
    {
      name: "connectMode",
      label: "Bağlantı modu",
      help: "session veya token. IIS'te servisin Oturum Durumu Modu 'İşlem İçi (InProc)' ise session (oturum kimliği adrese (S(...)) olarak eklenir); 'Etkinleştirilmedi' ise token (Token başlığıyla gönderilir).",
      secret: false,
      required: true,
      type: "text",
      default: "session",
    },
    {
      name: "databaseName",
      label: "Veritabanı",
      help: "Nebim V3 veritabanının adı (DatabaseName), örn. NEBIMV3. Integrator'ün Web.config dosyasında kullanıcı tanımlıysa dört kullanıcı alanı boş bırakılabilir.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "userGroupCode",
      label: "Kullanıcı grubu",
      help: "Nebim V3 kullanıcı grup kodu (UserGroupCode, en çok 5 karakter), örn. V3.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "userName",
      label: "Kullanıcı",
      help: "Nebim V3 kullanıcı adı (en çok 15 karakter). Mağaza kullanıcısı yalnız kendi mağazası adına işlem yapabilir; birden çok ofis için yetkili ofis kullanıcısı kullanın.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "password",
      label: "Şifre",
      help: "Nebim V3 kullanıcısının şifresi. Şifreli saklanır; yalnız bağlanırken gönderilir.",
      secret: true,
      required: false,
      type: "password",
    },
    {
      name: "orderType",
      label: "Sipariş tipi",
      help: "R: perakende satış siparişi (ModelType 6, müşteriler perakende müşteri kartı olarak açılır); WS: toptan satış siparişi (ModelType 5, müşteriler toptan müşteri kartı olarak açılır).",
      secret: false,
      required: true,
      type: "text",
      default: "R",
    },
    {
      name: "officeCode",
      label: "Ofis kodu",
      help: "Siparişlerin ve müşterilerin açılacağı ofisin kodu (OfficeCode), örn. M.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "storeCode",
      label: "Mağaza kodu",
      help: "Perakende siparişlerin mağazası (StoreCode). Toptan siparişlerde kullanılmaz.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "warehouseCode",
      label: "Depo kodu",
      help: "Siparişlerin düşüleceği depo (perakendede StoreWareHouseCode, toptanda WarehouseCode).",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "deliveryCompanyCode",
      label: "Kargo firması kodu",
      help: "Nebim'de tanımlı kargo firması kodu (DeliveryCompanyCode), örn. ARAS. Boşsa gönderilmez.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "customerPrefix",
      label: "Müşteri kodu öneki",
      help: "E-ticaret müşterileri için açılacak cari kodlarının öneki (CurrAccCode en çok 30 karakter). Aynı kodla gönderilen kart Nebim'de güncellenir, çift kart açılmaz.",
      secret: false,
      required: false,
      type: "text",
      default: "WEB-",
    },
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
    {
      name: "customerProc",
      label: "Müşteri arama yordamı",
      help: "Perakende siparişlerde telefonla müşteri aramak için yordam (parametreler CommAddress ve CommunicationTypeCode; Nebim dokümanındaki örnek sp_GetRetailCustomer). Dönen satırın CurrAccCode sütunu kullanılır. Boş bırakılırsa müşteri, önekli koduyla gönderilir (Nebim aynı koddaki kartı günceller).",
      secret: false,
      required: false,
      type: "text",
      default: NEBIM_DEFAULT_PROCS.customer,
    },
    {
      name: "orderLookupProc",
      label: "Sipariş arama yordamı",
      help: "Sipariş numaramızla (DocumentNumber parametresi) Nebim siparişini bulan yordam; OrderNumber sütunu dönmeli. Siparişin iki kez yazılmaması buna dayanır: yordam mutlaka tanımlı olmalı.",
      secret: false,
      required: false,
      type: "text",
      default: NEBIM_DEFAULT_PROCS.orderLookup,
    },
    {
      name: "sqlAlias",
      label: "Veritabanı takma adı (SQL ile okuma)",
      help: 'İsteğe bağlı: ürün, stok ve fiyatları yordam yerine doğrudan SQL ile okumak için yerel bağlantı aracında "entegrasyon-agent db add AD --dialect mssql …" ile kaydettiğiniz ad.',
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "sqlDialect",
      label: "Veritabanı türü",
      help: "mssql (Nebim V3 SQL Server üzerinde çalışır).",
      secret: false,
      required: false,
      type: "text",
      default: "mssql",
    },
    {
      name: "sqlConfig",
      label: "SQL ile okuma",
      help: 'Doluysa ürün, stok, fiyat ve kategoriler bu sorgularla okunur (genel SQL bağlantısıyla aynı eşleme); siparişler yine Integrator\'e "Post" ile yazılır.',
      secret: false,
      required: false,
      type: "text",
    },
  ],
  batch: { page: 1000 },
  // Integrator runs on the customer's IIS; nothing is documented about limits (inferred: stay gentle).
  budget: { requests: 10, windowMs: 1000 },
  onPremOnly: true,
  changeCursors: { products: false, stock: false, prices: false, categories: false, orders: false },
  notes:
    "Nebim V3 Integrator (IIS, JSON): Connect → SessionID in the URL or Token header, validated with GetUserInfo; reads through the customer's stored procedures (RunProc) or SQL; writes through Post with ModelType models (2/3 customers, 5/6 orders).",
};
