import { defineConnector, textField, urlField } from "../sdk/skeleton";
import { SHOPIFY_API_VERSION } from "./judge/derive-schema";

export { SHOPIFY_API_VERSION };

/** One limiter unit of the shared store is this many query-cost points (keeps the store's rows small). */
export const SHOPIFY_POINTS_PER_UNIT = 50;

/**
 * Standard-plan Admin GraphQL bucket: 2,000 points restored at 100 points/s (inferred from Shopify's
 * documentation; the artifact is silent). The connector reads the real values from `extensions.cost`.
 */
export const SHOPIFY_BUCKET = { maximumAvailable: 2000, restoreRate: 100 };

export const shopifyDescriptor = defineConnector("shop", "shopify", {
  credentials: [
    textField(
      "shopDomain",
      "Mağaza adresi",
      "Shopify mağazanızın myshopify.com adresi, örneğin magaza.myshopify.com (özel alan adınız değil).",
      { placeholder: "magaza.myshopify.com" },
    ),
    {
      name: "clientId",
      label: "İstemci kimliği (Client ID)",
      help:
        "Yeni bağlantılar için (Shopify 1 Ocak 2026'dan beri eski tip özel uygulama oluşturulmasına izin " +
        "vermiyor): Shopify Dev Dashboard'da bir uygulama oluşturun, ürün, stok, sipariş ve karşılama " +
        "(fulfillment) okuma/yazma izinlerini verip mağazanıza kurun; uygulamanın Ayarlar bölümündeki Client " +
        "ID'yi buraya, Secret'ı aşağıya girin. Erişim anahtarını biz alır, yaklaşık 24 saatte bir kendiliğinden " +
        "yenileriz. Eski tip özel uygulamanız varsa bu iki alanı boş bırakıp erişim anahtarını girin.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "clientSecret",
      label: "Gizli anahtar (Client secret)",
      help:
        "Dev Dashboard → uygulamanız → Ayarlar bölümündeki Secret. Webhook bildirimlerinin imzası da bununla " +
        "doğrulanır. Şifreli saklanır, tekrar gösterilmez.",
      secret: true,
      required: false,
      type: "password",
    },
    {
      name: "accessToken",
      label: "Admin API erişim anahtarı (eski özel uygulama)",
      help:
        "Yalnızca 1 Ocak 2026'dan önce mağaza panelinde oluşturulmuş eski tip özel uygulamalar için: Ayarlar → " +
        "Uygulamalar ve satış kanalları → Uygulama geliştir → uygulamanız → API kimlik bilgileri bölümündeki " +
        "Admin API erişim anahtarı (shpat_ ile başlar). Shopify artık yeni özel uygulama oluşturtmuyor; yeni " +
        "bağlantılarda bu alanı boş bırakıp istemci kimliği ile gizli anahtarı girin. Şifreli saklanır.",
      secret: true,
      required: false,
      type: "password",
    },
    {
      name: "refreshToken",
      label: "Yenileme anahtarı (refresh token)",
      help:
        "Elle girilmez: mağazanız bağlantıyı Shopify uygulama mağazasındaki uygulamamızla (OAuth) kurduğunda " +
        "otomatik doldurulur. Erişim anahtarı bir saatte sona erer; her yenilemede Shopify yeni bir yenileme " +
        "anahtarı verir, biz saklarız.",
      secret: true,
      required: false,
      type: "password",
    },
    {
      name: "apiSecretKey",
      label: "API gizli anahtarı (webhook, eski özel uygulama)",
      help:
        "İsteğe bağlı, yalnızca eski tip özel uygulamalarda (Dev Dashboard uygulamalarında gizli anahtar yeterli). " +
        "Özel uygulamanın API kimlik bilgileri bölümündeki API gizli anahtarı (API secret key). " +
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
    urlField(
      "apiBaseUrl",
      "API adresi",
      "Boş bırakın. Yalnızca deneme ortamı (emülatör) için: https://<mağaza-adresi> yerine kullanılacak adres.",
    ),
  ],
  // inventorySetQuantities takes at most 250 quantities per call (Shopify's documented input limit,
  // inferred: the schema has no list bounds); productVariantsBulkUpdate is one product per call.
  batch: { stock: 250, prices: 250, page: 100, products: 1 },
  budget: {
    requests: SHOPIFY_BUCKET.maximumAvailable / SHOPIFY_POINTS_PER_UNIT,
    windowMs: (SHOPIFY_BUCKET.maximumAvailable / SHOPIFY_BUCKET.restoreRate) * 1000,
  },
  changeCursors: { products: true, orders: true },
  notes:
    `Admin GraphQL API ${SHOPIFY_API_VERSION}; Dev Dashboard app (client credentials grant, ~24 h tokens), ` +
    "public app by OAuth (expiring offline token + refresh token) or a legacy custom-app shpat_ token " +
    "(X-Shopify-Access-Token); calculated query cost throttling (leaky bucket, THROTTLED inside HTTP 200); bulk operations " +
    "for full catalogue reads; invoices are attached as order metafields.",
});
