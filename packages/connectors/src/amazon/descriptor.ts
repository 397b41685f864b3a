import { message } from "@ep/contracts";
import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";
import type { ApiVersionPin } from "../sdk/version-pin";

/** Amazon.com.tr (Marketplace IDs page; saleweaver `Marketplaces.TR`). */
export const AMAZON_TR_MARKETPLACE = "A33AVAJ2PDY3EV";
/** Turkey is served by the Europe endpoint (SP-API endpoints page; saleweaver `Marketplaces.TR`). */
export const AMAZON_EU_ENDPOINT = "https://sellingpartnerapi-eu.amazon.com";
/** The LWA authorization server (Connect to the SP-API, step 1). */
export const AMAZON_LWA_TOKEN_URL = "https://api.amazon.com/auth/o2/token";
/** Messages per JSON_LISTINGS_FEED (listings feed schema `maxItems`; changelog 2025-05-06: 10,000 → 25,000). */
export const AMAZON_FEED_MESSAGES = 25_000;
/** JSON_LISTINGS_FEED submissions per region: five per five minutes (changelog 2025-05-06). */
export const AMAZON_LISTINGS_FEED_LIMIT = { requests: 5, windowMs: 5 * 60_000 };
/** Orders per searchOrders page (`maxResultsPerPage` 1..100). */
export const AMAZON_ORDER_PAGE = 100;
/** Listings per searchListingsItems page, and SKUs per `identifiers` (both ≤ 20 in the model). */
export const AMAZON_LISTINGS_PAGE = 20;

/**
 * Default usage plans (rate per second, burst) of the operations this connector calls, as each operation's
 * description in the models states them; a test re-reads the models and compares. The answer's
 * `x-amzn-RateLimit-Limit` header gives a selling partner's own rate, which the client then uses.
 */
export const AMAZON_USAGE_PLANS: Record<string, { rate: number; burst: number }> = {
  searchOrders: { rate: 0.0056, burst: 20 },
  getOrder: { rate: 0.5, burst: 30 },
  confirmShipment: { rate: 2, burst: 10 },
  createFeedDocument: { rate: 0.5, burst: 15 },
  createFeed: { rate: 0.0083, burst: 15 },
  getFeed: { rate: 2, burst: 15 },
  getFeedDocument: { rate: 0.0222, burst: 10 },
  searchListingsItems: { rate: 5, burst: 5 },
  getListingsItem: { rate: 5, burst: 10 },
  putListingsItem: { rate: 5, burst: 10 },
  searchDefinitionsProductTypes: { rate: 5, burst: 10 },
  getDefinitionsProductType: { rate: 5, burst: 10 },
  createRestrictedDataToken: { rate: 1, burst: 10 },
  // Reports 2021-06-30: the returns report (returns.ts).
  createReport: { rate: 0.0167, burst: 15 },
  getReport: { rate: 2, burst: 15 },
  getReportDocument: { rate: 0.0167, burst: 15 },
};

/** Orders: v2026-01-01 (v0's reads are deprecated, removal 27 Mar 2027). */
export const AMAZON_ORDERS_VERSION_PIN: ApiVersionPin = {
  system: "amazon",
  api: "Selling Partner API for Orders",
  version: "2026-01-01",
  endOfSupport: null,
  noDateReason:
    "Amazon publishes no end of support for Orders v2026-01-01 (the version v0's reads migrate to)",
  source: "https://developer-docs.amazon.com/sp-api/changelog/new-introducing-the-orders-api-v2026-01-01",
};

/** confirmShipment stays in Orders v0 (not marked deprecated in the model, not in the removal list). */
export const AMAZON_FEEDS_VERSION_PIN: ApiVersionPin = {
  system: "amazon",
  api: "Selling Partner API for Feeds (JSON_LISTINGS_FEED)",
  version: "2021-06-30",
  endOfSupport: null,
  noDateReason:
    "Amazon publishes no end of support for Feeds 2021-06-30 or JSON_LISTINGS_FEED (XML feeds were retired for it)",
  source: "https://developer-docs.amazon.com/sp-api/docs/listings-feed-type-values",
};

const NO_LISTING = message("connectors.amazonListingUnsupported");
const NO_INVOICE = message("connectors.amazonInvoiceUnsupported");

export const amazonDescriptor = defineConnector("shop", "amazon", {
  credentials: [
    textField(
      "sellerId",
      "Satıcı kimliği (Merchant Token)",
      "Seller Central → Ayarlar → Hesap Bilgileri → Satıcı Token'ınız (A ile başlayan kod).",
    ),
    textField(
      "clientId",
      "LWA istemci kimliği (Client ID)",
      "Solution Provider Portal / Geliştirici Merkezi'nde uygulamanızın LWA kimlik bilgileri (amzn1.application-oa2-client.…).",
    ),
    secretField(
      "clientSecret",
      "LWA istemci sırrı (Client Secret)",
      "Aynı sayfadaki Client Secret. Şifreli saklanır.",
    ),
    secretField(
      "refreshToken",
      "Yenileme belirteci (Refresh Token)",
      "Uygulamayı Seller Central'da yetkilendirdiğinizde verilen Atzr|… ile başlayan belirteç. Şifreli saklanır.",
    ),
    textField("marketplaceId", "Pazar yeri kimliği", "Amazon.com.tr için A33AVAJ2PDY3EV.", {
      required: false,
      default: AMAZON_TR_MARKETPLACE,
    }),
    urlField(
      "apiUrl",
      "SP-API adresi",
      "Türkiye Avrupa bölgesinden hizmet alır; yalnızca deneme için değiştirin.",
      {
        default: AMAZON_EU_ENDPOINT,
      },
    ),
    urlField("tokenUrl", "LWA belirteç adresi", "Yalnızca deneme için değiştirin.", {
      default: AMAZON_LWA_TOKEN_URL,
    }),
  ],
  batch: { stock: AMAZON_FEED_MESSAGES, prices: AMAZON_FEED_MESSAGES, page: AMAZON_ORDER_PAGE },
  // The general pace; each operation also keeps its own usage plan (client.ts).
  budget: { requests: 10, windowMs: 1_000 },
  changeCursors: { orders: true },
  // Products open through the channel's listing job (category mappings, putListingsItem): the product
  // write capability stays, so that job runs; Amazon's product types are never added to.
  unsupported: { categoryWrite: NO_LISTING, invoiceWrite: NO_INVOICE },
  versionPin: AMAZON_ORDERS_VERSION_PIN,
  notes:
    "Amazon Selling Partner API (Avrupa uç noktası, Amazon.com.tr): LWA yenileme belirteci; stok ve fiyat JSON_LISTINGS_FEED ile (en çok 25.000 mesaj, 5 dakikada 5 besleme); siparişler Orders v2026-01-01; ürün açma putListingsItem ile (ürün tipi = kategori).",
});
