import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const mikroDescriptor = defineConnector("erp", "mikro", {
  credentials: [
    urlField(
      "apiUrl",
      "Mikro API adresi",
      "Mikro sunucusundaki API servisinin adresi, örn. https://192.168.1.10:8094 (Mikro → Sistem → API Ayarları).",
      { required: true, placeholder: "https://sunucu:8094" },
    ),
    secretField("apiKey", "API anahtarı", "Mikro API Ayarları ekranında tanımlanan ApiKey."),
    textField("firmCode", "Firma kodu", "Bağlanılacak Mikro firmasının kodu (FirmaKodu)."),
    textField(
      "period",
      "Çalışma yılı",
      "Bağlanılacak dönem (CalismaYili), örn. 2025. Yıl devrinde güncelleyin.",
      { type: "number" },
    ),
    textField(
      "userCode",
      "Kullanıcı kodu",
      "API için yetkilendirilmiş Mikro kullanıcısının kodu (KullaniciKodu).",
    ),
    secretField(
      "password",
      "Şifre",
      "Mikro kullanıcısının şifresi. Şifreli saklanır; her istekte günlük özet (MD5) olarak gönderilir.",
    ),
    textField(
      "orderSeries",
      "Sipariş evrak serisi",
      "E-ticaret siparişlerinin Mikro'da açılacağı evrak serisi.",
      { required: false, default: "WEB" },
    ),
    textField("depot", "Sipariş deposu", "Siparişlerin düşüleceği depo numarası (DEPOLAR.dep_no).", {
      required: false,
      type: "number",
      default: "1",
    }),
    textField(
      "customerPrefix",
      "Cari kod öneki",
      "E-ticaret müşterileri için açılacak cari kodlarının öneki, örn. 120.W.",
      { required: false, default: "120.W." },
    ),
    textField(
      "returnColumns",
      "İade sütunları",
      "Stok özetindeki iade miktarlarının yönü. 'ters' (varsayılan): müşteri iadesi sho_CikisIade'de, tedarikçiye iade sho_GirisIade'de. 'yon': müşteri iadesi sho_GirisIade'de, tedarikçiye iade sho_CikisIade'de. İade almış bir ürünün depo miktarını Mikro ekranıyla karşılaştırarak seçin.",
      { required: false, default: "ters" },
    ),
    textField(
      "shippingStockCode",
      "Kargo hizmet kodu",
      "Kargo ücretinin siparişe satır olarak yazılacağı hizmet/stok kodu. Boşsa kargo ücreti yazılmaz.",
      { required: false },
    ),
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
