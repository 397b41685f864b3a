import type { ConnectorDescriptor } from "../sdk/connector";
import { SHOPIFY_API_VERSION } from "./judge/derive-schema";

export { SHOPIFY_API_VERSION };

/** One limiter unit of the shared store is this many query-cost points (keeps the store's rows small). */
export const SHOPIFY_POINTS_PER_UNIT = 50;

/**
 * Standard-plan Admin GraphQL bucket: 2,000 points restored at 100 points/s (inferred from Shopify's
 * documentation; the artifact is silent). The connector reads the real values from `extensions.cost`.
 */
export const SHOPIFY_BUCKET = { maximumAvailable: 2000, restoreRate: 100 };

export const shopifyDescriptor: ConnectorDescriptor & { kind: "shop" } = {
  kind: "shop",
  type: 5,
  name: "Shopify",
  system: "shopify",
  implemented: true,
  credentials: [
    {
      name: "shopDomain",
      label: "Mağaza adresi",
      help: "Shopify mağazanızın myshopify.com adresi, örneğin magaza.myshopify.com (özel alan adınız değil).",
      secret: false,
      required: true,
      type: "text",
      placeholder: "magaza.myshopify.com",
    },
    {
      name: "accessToken",
      label: "Admin API erişim anahtarı",
      help:
        "Shopify yönetim paneli → Ayarlar → Uygulamalar ve satış kanalları → Uygulama geliştir → özel uygulama → " +
        "API kimlik bilgileri bölümündeki Admin API erişim anahtarı (shpat_ ile başlar). Uygulamaya ürün, stok, " +
        "sipariş ve karşılama (fulfillment) okuma/yazma izinleri verilmelidir. Şifreli saklanır, tekrar gösterilmez.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "apiSecretKey",
      label: "API gizli anahtarı (webhook)",
      help:
        "İsteğe bağlı. Özel uygulamanın API kimlik bilgileri bölümündeki API gizli anahtarı (API secret key). " +
        "Girilirse yeni siparişler Shopify bildirimleriyle (webhook) saniyeler içinde aktarılır; girilmezse " +
        "siparişler 5 dakikada bir kontrol edilir. Şifreli saklanır, tekrar gösterilmez.",
      secret: true,
      required: false,
      type: "password",
    },
    {
      name: "locationId",
      label: "Konum (location) ID",
      help:
        "Stokların yazılacağı Shopify konumu, örneğin gid://shopify/Location/123 ya da yalnızca 123. Boş " +
        "bırakılırsa mağazanın birincil (ilk etkin) konumu kullanılır.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "apiBaseUrl",
      label: "API adresi",
      help: "Boş bırakın. Yalnızca deneme ortamı (emülatör) için: https://<mağaza-adresi> yerine kullanılacak adres.",
      secret: false,
      required: false,
      type: "url",
    },
  ],
  // inventorySetQuantities takes at most 250 quantities per call (Shopify's documented input limit,
  // inferred: the schema has no list bounds); productVariantsBulkUpdate is one product per call.
  batch: { stock: 250, prices: 250, page: 100, products: 1 },
  budget: {
    requests: SHOPIFY_BUCKET.maximumAvailable / SHOPIFY_POINTS_PER_UNIT,
    windowMs: (SHOPIFY_BUCKET.maximumAvailable / SHOPIFY_BUCKET.restoreRate) * 1000,
  },
  onPremOnly: false,
  changeCursors: { products: true, stock: false, prices: false, categories: false, orders: true },
  notes:
    `Admin GraphQL API ${SHOPIFY_API_VERSION}; custom-app access token (X-Shopify-Access-Token) or OAuth ` +
    "install; calculated query cost throttling (leaky bucket, THROTTLED inside HTTP 200); bulk operations " +
    "for full catalogue reads; invoices are attached as order metafields.",
};
