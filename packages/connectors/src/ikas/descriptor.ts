import { defineConnector } from "../sdk/skeleton";

export const IKAS_DEFAULT_API_URL = "https://api.myikas.com/api/v1/admin/graphql";
export const ikasTokenUrl = (storeName: string) => `https://${storeName}.myikas.com/api/admin/oauth/token`;

/** Price list id the SDK uses for the store's default list (IKAS: `priceListId: null`). */
export const IKAS_DEFAULT_PRICE_LIST = "default";

export const ikasDescriptor = defineConnector("shop", {
  type: 1,
  name: "IKAS",
  system: "ikas",
  credentials: [
    {
      name: "storeName",
      label: "Mağaza adı",
      help: "ikas mağaza adınız: mağaza adresinizdeki https://<mağaza-adı>.myikas.com kısmı.",
      secret: false,
      required: true,
      type: "text",
      placeholder: "ornek-magaza",
    },
    {
      name: "clientId",
      label: "Client ID",
      help: "ikas yönetim paneli → Uygulamalar → Uygulamalarım → Özel Uygulama Oluştur ile alınan client_id.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "clientSecret",
      label: "Client Secret",
      help: "Özel uygulamanın client_secret değeri. Şifreli saklanır, tekrar gösterilmez.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "apiUrl",
      label: "API adresi",
      help: `Genellikle boş bırakın; varsayılan ${IKAS_DEFAULT_API_URL}.`,
      secret: false,
      required: false,
      type: "url",
    },
    {
      name: "tokenUrl",
      label: "Token adresi",
      help: "Genellikle boş bırakın; varsayılan https://<mağaza-adı>.myikas.com/api/admin/oauth/token.",
      secret: false,
      required: false,
      type: "url",
    },
  ],
  // Prices: 3000 rows per saveVariantPrices (documented). Stock: not documented, 1000 chosen.
  batch: { stock: 1000, prices: 3000, page: 200, products: 1 },
  budget: { requests: 50, windowMs: 10_000 },
  changeCursors: { products: true, orders: true },
  notes: "Admin GraphQL API v1; client-credentials token (4 h); 50 requests / 10 s; error-rate block.",
});
