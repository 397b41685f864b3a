import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** Rows per `product/get` / `order/get` page: 500 is the largest the public clients ask for (inferred maximum). */
export const TSOFT_PRODUCT_PAGE = 500;
export const TSOFT_ORDER_PAGE = 200;

export const tsoftDescriptor = defineConnector("shop", "tsoft", {
  credentials: [
    urlField(
      "storeUrl",
      "Mağaza adresi",
      "Tsoft mağazanızın adresi, örneğin https://www.magazaniz.com. REST1 servisi bu adresin /rest1 yolunda çalışır.",
      { required: true, placeholder: "https://www.magazaniz.com" },
    ),
    textField(
      "apiUser",
      "Web servis kullanıcı adı",
      "Tsoft yönetim paneli → Ayarlar → Web Servis Kullanıcıları ile oluşturduğunuz kullanıcı. Kullanıcıya ürün, alt ürün ve sipariş metotlarının izinlerini verin; IP kısıtı varsa sunucumuzun IP adresini ekleyin.",
    ),
    secretField(
      "apiPass",
      "Web servis şifresi",
      "Web servis kullanıcısının şifresi. Şifreli saklanır, tekrar gösterilmez.",
    ),
  ],
  // Writes send one JSON `data` list per call; 100 rows is our choice (no documented maximum).
  batch: { stock: 100, prices: 100, page: TSOFT_PRODUCT_PAGE, products: 1 },
  // No published limit; the public client waits 500 ms between calls, so 2 per second (inferred).
  budget: { requests: 2, windowMs: 1000 },
  changeCursors: { orders: true },
  unsupported: {
    categoryWrite:
      "Tsoft'ta kategori oluşturma doğrulanmadı; kategorileri Tsoft panelinde açıp eşleştirmeyi kullanınız.",
    orderStatusWrite:
      "Tsoft REST1 için sipariş durumu güncelleme çağrısı doğrulanmadı; durumlar yalnızca okunur.",
    invoiceWrite: "Tsoft REST1 için fatura ekleme çağrısı doğrulanmadı; faturalar mağazaya gönderilmez.",
  },
  notes:
    "REST1: login token (1 saat), form POST + JSON `data`; ürün, alt ürün (varyant), stok, fiyat okuma/yazma; siparişler okunur.",
});
