import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

/** The store's own address: `magaza.myideasoft.com` → `https://magaza.myideasoft.com`. */
export function ideasoftStoreUrl(storeDomain: string): string {
  const d = storeDomain.trim().replace(/\/+$/, "");
  return /^https?:\/\//i.test(d) ? d : `https://${d}`;
}

/** Price list id of the product's own `price1` (the store's sale price). */
export const IDEASOFT_DEFAULT_PRICE_LIST = "1";

export const ideasoftDescriptor = defineConnector("shop", "ideasoft", {
  credentials: [
    textField(
      "storeDomain",
      "Mağaza adresi",
      "Ideasoft mağazanızın alan adı, örneğin magaza.myideasoft.com.",
      { placeholder: "magaza.myideasoft.com" },
    ),
    textField(
      "clientId",
      "Client ID",
      "Ideasoft yönetim paneli → Entegrasyonlar → API → API Ekle ile alınan client_id. Uygulama mağazasından kurulumda otomatik doldurulur.",
    ),
    secretField(
      "clientSecret",
      "Client Secret",
      "API kaydının client_secret değeri. Şifreli saklanır, tekrar gösterilmez.",
    ),
    secretField(
      "refreshToken",
      "Yenileme anahtarı (refresh token)",
      'Uygulamamızı Ideasoft uygulama mağazasından kurduğunuzda (veya "Ideasoft ile bağlan" ekranında onay verdiğinizde) otomatik doldurulur. Her yenilemede Ideasoft yeni bir anahtar verir, biz saklarız.',
    ),
    secretField(
      "accessToken",
      "Erişim anahtarı (access token)",
      "Yetkilendirmeden sonra otomatik doldurulur; süresi dolunca yenileme anahtarıyla kendiliğinden yenilenir.",
      { required: false },
    ),
    urlField(
      "apiUrl",
      "API adresi",
      "Genellikle boş bırakın; varsayılan https://<mağaza adresi> (Admin API yolu /admin-api).",
    ),
  ],
  // No bulk stock/price endpoint: one product per write (read, then PUT the whole product).
  batch: { stock: 1, prices: 1, page: 100, products: 1 },
  // The file names 429 but no numbers: a cautious 2 requests / s (inferred, VERIFIED.md).
  budget: { requests: 20, windowMs: 10_000 },
  changeCursors: { orders: true },
  notes:
    "Admin REST API (OpenAPI 3.0 'Ideashop API 3.0.0'); OAuth2 authorization code per store with rotating refresh tokens; page/limit paging (limit ≤ 100).",
});
