import { defineConnector, secretField, urlField } from "../sdk/skeleton";

export const SOPYO_DEFAULT_API_URL = "https://api.sopyo.dev";
/** The public client stops after 20 list pages; so do we, per scan. */
export const SOPYO_MAX_ORDER_PAGES = 20;

const NO_CATALOGUE =
  "Sopyo'nun ürün, stok ve fiyat için herkese açık bir API'si bulunamadı; Sopyo bağlantısı yalnızca siparişleri okur.";

export const sopyoDescriptor = defineConnector("shop", "sopyo", {
  credentials: [
    secretField(
      "apiToken",
      "API anahtarı",
      "Sopyo panelinde oluşturduğunuz API anahtarı (api_token). Oturum açmak için kullanılır; şifreli saklanır, tekrar gösterilmez.",
    ),
    urlField("apiUrl", "API adresi", `Genellikle boş bırakın; varsayılan ${SOPYO_DEFAULT_API_URL}.`),
  ],
  batch: {},
  // No published limit: one call per second (inferred, cautious).
  budget: { requests: 60, windowMs: 60_000 },
  unsupported: {
    categoryWrite: NO_CATALOGUE,
    productWrite: NO_CATALOGUE,
    stockWrite: NO_CATALOGUE,
    priceWrite: NO_CATALOGUE,
    orderStatusWrite: "Sopyo'da sipariş durumu güncelleme çağrısı bulunamadı; durumlar yalnızca okunur.",
    invoiceWrite: "Sopyo'da fatura ekleme çağrısı bulunamadı; faturalar Sopyo'ya gönderilmez.",
  },
  notes: "Sopyo API v2: api_token ile oturum (bearer); yalnızca sipariş okuma.",
});
