import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const IKAS_DEFAULT_API_URL = "https://api.myikas.com/api/v1/admin/graphql";
export const ikasTokenUrl = (storeName: string) => `https://${storeName}.myikas.com/api/admin/oauth/token`;

/** Price list id the SDK uses for the store's default list (IKAS: `priceListId: null`). */
export const IKAS_DEFAULT_PRICE_LIST = "default";

export const ikasDescriptor = defineConnector("shop", "ikas", {
  credentials: [
    textField(
      "storeName",
      "Mağaza adı",
      "ikas mağaza adınız: mağaza adresinizdeki https://<mağaza-adı>.myikas.com kısmı.",
      { placeholder: "ornek-magaza" },
    ),
    textField(
      "clientId",
      "Client ID",
      "ikas yönetim paneli → Uygulamalar → Uygulamalarım → Özel Uygulama Oluştur ile alınan client_id.",
    ),
    secretField(
      "clientSecret",
      "Client Secret",
      "Özel uygulamanın client_secret değeri. Şifreli saklanır, tekrar gösterilmez.",
    ),
    urlField("apiUrl", "API adresi", `Genellikle boş bırakın; varsayılan ${IKAS_DEFAULT_API_URL}.`),
    urlField(
      "tokenUrl",
      "Token adresi",
      "Genellikle boş bırakın; varsayılan https://<mağaza-adı>.myikas.com/api/admin/oauth/token.",
    ),
  ],
  // Prices: 3000 rows per saveVariantPrices (documented). Stock: not documented, 1000 chosen.
  batch: { stock: 1000, prices: 3000, page: 200, products: 1 },
  budget: { requests: 50, windowMs: 10_000 },
  changeCursors: { products: true, orders: true },
  notes: "Admin GraphQL API v1; client-credentials token (4 h); 50 requests / 10 s; error-rate block.",
});
