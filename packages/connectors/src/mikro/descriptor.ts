import { defineConnector } from "../sdk/skeleton";

export const mikroDescriptor = defineConnector("erp", {
  type: 9,
  name: "Mikro",
  system: "mikro",
  credentials: [
    {
      name: "apiUrl",
      label: "Mikro API adresi",
      help: "Mikro sunucusundaki API servisinin adresi, örn. https://192.168.1.10:8094 (Mikro → Sistem → API Ayarları).",
      secret: false,
      required: true,
      type: "url",
      placeholder: "https://sunucu:8094",
    },
    {
      name: "apiKey",
      label: "API anahtarı",
      help: "Mikro API Ayarları ekranında tanımlanan ApiKey.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "firmCode",
      label: "Firma kodu",
      help: "Bağlanılacak Mikro firmasının kodu (FirmaKodu).",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "period",
      label: "Çalışma yılı",
      help: "Bağlanılacak dönem (CalismaYili), örn. 2025. Yıl devrinde güncelleyin.",
      secret: false,
      required: true,
      type: "number",
    },
    {
      name: "userCode",
      label: "Kullanıcı kodu",
      help: "API için yetkilendirilmiş Mikro kullanıcısının kodu (KullaniciKodu).",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "password",
      label: "Şifre",
      help: "Mikro kullanıcısının şifresi. Şifreli saklanır; her istekte günlük özet (MD5) olarak gönderilir.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "orderSeries",
      label: "Sipariş evrak serisi",
      help: "E-ticaret siparişlerinin Mikro'da açılacağı evrak serisi.",
      secret: false,
      required: false,
      type: "text",
      default: "WEB",
    },
    {
      name: "depot",
      label: "Sipariş deposu",
      help: "Siparişlerin düşüleceği depo numarası (DEPOLAR.dep_no).",
      secret: false,
      required: false,
      type: "number",
      default: "1",
    },
    {
      name: "customerPrefix",
      label: "Cari kod öneki",
      help: "E-ticaret müşterileri için açılacak cari kodlarının öneki, örn. 120.W.",
      secret: false,
      required: false,
      type: "text",
      default: "120.W.",
    },
    {
      name: "returnColumns",
      label: "İade sütunları",
      help: "Stok özetindeki iade miktarlarının yönü. 'ters' (varsayılan): müşteri iadesi sho_CikisIade'de, tedarikçiye iade sho_GirisIade'de. 'yon': müşteri iadesi sho_GirisIade'de, tedarikçiye iade sho_CikisIade'de. İade almış bir ürünün depo miktarını Mikro ekranıyla karşılaştırarak seçin.",
      secret: false,
      required: false,
      type: "text",
      default: "ters",
    },
    {
      name: "shippingStockCode",
      label: "Kargo hizmet kodu",
      help: "Kargo ücretinin siparişe satır olarak yazılacağı hizmet/stok kodu. Boşsa kargo ücreti yazılmaz.",
      secret: false,
      required: false,
      type: "text",
    },
  ],
  // A full read of 100,000 SKUs (200,000 stock summary rows in two depots, 100,000 prices) in about 130
  // calls, 13 s at the budget below, so the shop's rate limit (20 s for the writes), not the ERP, sets
  // the pace. Keyset pages come one after another, so a full read is split into 3 code ranges read at
  // once: with the ERP answering in 150 ms a single chain would manage 6 reads a second, not 10.
  batch: { page: 4000, readChains: 3 },
  // Mikro documents no limit; the API runs on the customer's own server, so stay gentle: a pace of
  // our own (10 requests started a second), with at most `readChains` reads in flight per listing.
  budget: { requests: 10, windowMs: 1000, ownPace: true },
  onPremOnly: true,
  changeCursors: { products: true, stock: true, prices: true },
  notes:
    "MikroAPI V2 (POST /Api/APIMethods/*): login block with daily MD5 password in every body; reads via SqlVeriOkuV2.",
});
