import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";
import type { ApiVersionPin } from "../sdk/version-pin";

/** Items per stock-and-price request: the documented maximum (updatePriceAndInventory). */
export const TRENDYOL_BATCH = 1000;
/** Most sellable stock one barcode may carry (updatePriceAndInventory: "maksimum 20 Bin adet"). */
export const TRENDYOL_MAX_QUANTITY = 20_000;
/** Packages per order page (getShipmentPackagesStream / getShipmentPackages: size ≤ 200). */
export const TRENDYOL_ORDER_PAGE = 200;
/** Products per filterProducts page for approved products (size ≤ 100). */
export const TRENDYOL_PRODUCT_PAGE = 100;
/** The same stock/price body twice within this window is refused ("15 dakika boyunca aynı isteği…"). */
export const TRENDYOL_SAME_REQUEST_MS = 15 * 60_000;
/** The order stream reads at most 14 days of last-modified dates per request. */
export const TRENDYOL_STREAM_RANGE_MS = 14 * 86_400_000;
/** Brand, category and category-attribute lists: 50 requests a minute each (service limits page). */
export const TRENDYOL_CATALOG_LIST_LIMIT = { requests: 50, windowMs: 60_000 };
/** Production API gateway. */
export const TRENDYOL_API_URL = "https://apigw.trendyol.com/integration";

/** The API this connector speaks: product V2 era of the integration gateway (V1 product writes are retired). */
export const TRENDYOL_VERSION_PIN: ApiVersionPin = {
  system: "trendyol",
  api: "Trendyol Marketplace Integration API (apigw, product V2)",
  version: "product-v2",
  endOfSupport: null,
  noDateReason: "Trendyol publishes no end of support for product V2 or the order and inventory services",
  source:
    "https://developers.trendyol.com/tr/v3.0/docs/3-product-update (V1 retired 10 Aug 2026; V2 current)",
};

const NO_CATEGORY_WRITE =
  "Trendyol'un kategori ağacına kategori eklenmez: ERP kategorilerinizi kanalın kategori eşlemesinde Trendyol kategorilerine eşleyin; ürünler o kategorilerde açılır.";

export const trendyolDescriptor = defineConnector("shop", "trendyol", {
  credentials: [
    textField(
      "sellerId",
      "Satıcı ID (Cari ID)",
      "Trendyol satıcı panelinde Hesap Bilgilerim → Entegrasyon Bilgileri sayfasındaki Satıcı ID.",
    ),
    textField("apiKey", "API Key", "Aynı sayfadaki API Key (yalnızca ana kullanıcı görür)."),
    secretField(
      "apiSecret",
      "API Secret",
      "Aynı sayfadaki API Secret. Şifreli saklanır, tekrar gösterilmez.",
    ),
    textField(
      "integratorName",
      "Entegratör adı",
      "User-Agent başlığında Satıcı ID'nin yanına yazılır; kendi yazılımınızsa SelfIntegration.",
      { required: false, default: "SelfIntegration" },
    ),
    urlField("apiUrl", "API adresi", "Yalnızca test ortamı için değiştirin (stageapigw.trendyol.com).", {
      default: TRENDYOL_API_URL,
    }),
  ],
  batch: { stock: TRENDYOL_BATCH, prices: TRENDYOL_BATCH, page: TRENDYOL_ORDER_PAGE },
  // "50 requests per 10 s to the same endpoint" is the safe general rule; groups are tighter where listed.
  budget: { requests: 50, windowMs: 10_000 },
  changeCursors: { orders: true },
  // Products are opened by the channel's listing (category mapping), not one by one as in a shop.
  unsupported: { categoryWrite: NO_CATEGORY_WRITE },
  versionPin: TRENDYOL_VERSION_PIN,
  notes:
    "Trendyol Marketplace API (apigw): Basic + User-Agent; stok/fiyat en çok 1000 kalem, sonuç batchRequestId ile okunur; aynı istek 15 dakika içinde tekrar gönderilmez.",
});
