import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const SHOPIER_DEFAULT_API_URL = "https://api.shopier.com/v1";
/** OAuth 2.0 token endpoint (port 8443; AdisGroup/shopier-go `oauth.DefaultTokenURL`). */
export const SHOPIER_OAUTH_TOKEN_URL = "https://api.shopier.com:8443/v1/oauth2/token";
/** An OAuth access token lives three days (259,200 s; shopier-go docs/authentication.md). */
export const SHOPIER_OAUTH_TOKEN_TTL_S = 259_200;

export const shopierDescriptor = defineConnector("erp", "shopier", {
  credentials: [
    secretField(
      "accessToken",
      "Kişisel erişim anahtarı (PAT)",
      "Tek mağaza için en kolay yol: Shopier geliştirici portalında (developer.shopier.com) oluşturulan kişisel erişim anahtarı; süresi dolmaz. Ürünleri okuma izni (products:read) yeterlidir. OAuth uygulamasıyla bağlanıyorsanız boş bırakın: erişim anahtarı yenileme anahtarından alınır ve buraya kendiliğinden yazılır. Şifreli saklanır.",
      { required: false },
    ),
    textField(
      "clientId",
      "OAuth uygulama kimliği (client_id)",
      "Yalnızca Shopier geliştirici portalındaki bir OAuth uygulamasıyla bağlanıyorsanız: uygulamanın client_id değeri. OAuth erişim anahtarları 3 gün geçerlidir; süre dolmadan yenileme anahtarıyla kendiliğinden yenilenir.",
      { required: false },
    ),
    secretField(
      "clientSecret",
      "OAuth uygulama parolası (client_secret)",
      "OAuth uygulamasının client_secret değeri (yalnızca OAuth ile bağlanırken). Şifreli saklanır.",
      { required: false },
    ),
    secretField(
      "refreshToken",
      "OAuth yenileme anahtarı (refresh_token)",
      "Mağaza sahibi uygulamaya onay verdiğinde alınan yenileme anahtarı (yalnızca OAuth ile bağlanırken). Her yenilemede Shopier yenisini verirse biz saklarız.",
      { required: false },
    ),
    textField(
      "vatRate",
      "KDV oranı (%)",
      "Shopier ürünlerinde KDV bilgisi tutulmaz; ürünler bu oranla aktarılır (ör. 20).",
      { required: false, type: "number", default: "20" },
    ),
    secretField(
      "webhookToken",
      "Webhook imza anahtarı",
      "İsteğe bağlı: Shopier'de webhook tanımlarken verilen anahtar. Gelen bildirimlerin Shopier-Signature imzası bununla doğrulanır.",
      { required: false },
    ),
    urlField("apiUrl", "Shopier API adresi", "Değiştirmeyin: https://api.shopier.com/v1.", {
      default: SHOPIER_DEFAULT_API_URL,
    }),
  ],
  batch: { page: 50 },
  // Shopier publishes no limit; the SDK waits out 429 with Retry-After.
  budget: { requests: 2, windowMs: 1000 },
  notes:
    "Shopier bir satış platformudur; ERP olarak bağlandığında ürün kataloğu, stok ve fiyatlar Shopier'deki ürünlerden okunur. Shopier'de verilen siparişler zaten Shopier'de kayıtlıdır; başka mağazalardan gelen siparişler Shopier'e yazılamaz (Shopier API'sinde sipariş oluşturma yoktur), fatura da Shopier'den okunmaz.",
});
