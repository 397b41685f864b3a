import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";
import type { ApiVersionPin } from "../sdk/version-pin";

/** Items per stock or price upload: Hepsiburada publishes no maximum (bulk is supported): our choice. */
export const HEPSIBURADA_BATCH = 1000;
/** Paid order lines per page: "en fazla ve varsayılan olarak 100"; the limit is required. */
export const HEPSIBURADA_ORDER_PAGE = 100;
/** Cancelled lines per page: at most 50. */
export const HEPSIBURADA_CANCELLED_PAGE = 50;
/** merchantSkuList of one listing read: at most 50. */
export const HEPSIBURADA_SKU_LIST = 50;
/** Listing services: 240 requests a minute per merchant (the one listing limit published). */
export const HEPSIBURADA_BUDGET = { requests: 240, windowMs: 60_000 };

export const HEPSIBURADA_LISTING_URL = "https://listing-external.hepsiburada.com";
export const HEPSIBURADA_ORDER_URL = "https://oms-external.hepsiburada.com";
export const HEPSIBURADA_CATALOG_URL = "https://mpop.hepsiburada.com/product";

/** The service versions this connector speaks (the portal's OpenAPI slugs). */
export const HEPSIBURADA_VERSION_PIN: ApiVersionPin = {
  system: "hepsiburada",
  api: "Hepsiburada Marketplace (listeleme v1, sipariş v1.0, katalog v1.0)",
  version: "listing v1 / oms v1.0 / catalog v1.0",
  endOfSupport: null,
  noDateReason:
    "Hepsiburada publishes no end of support for these services; changes come as dated changelog notes",
  source:
    "developers.hepsiburada.com/api/v1/public/docs/hepsiburada/{slug}/{version}/openapi (manifest in taha-kanar/hepsiburada-sdk)",
};

/** Products in one catalogue import file: none is published; the status read's page (size ≤ 1000) bounds it. */
export const HEPSIBURADA_IMPORT_BATCH = 1000;
/** Images a catalogue import takes per product: Image1…Image10 (changelog Haziran 2025). */
export const HEPSIBURADA_IMAGES = 10;

const NO_CATEGORY_WRITE =
  "Hepsiburada'nın kategori ağacına kategori eklenmez: ERP kategorilerinizi kanalın kategori eşlemesinde Hepsiburada kategorilerine eşleyin; ürünler o kategorilerde açılır.";

export const hepsiburadaDescriptor = defineConnector("shop", "hepsiburada", {
  credentials: [
    textField(
      "merchantId",
      "Mağaza ID (Merchant ID)",
      "Hepsiburada mağaza panelinde Hesabım → Bilgilerim → Entegratör bilgileri sayfasındaki Mağaza ID.",
    ),
    secretField(
      "secretKey",
      "Servis anahtarı",
      "Entegratöre verdiğiniz 12 karakterlik servis anahtarı. Şifreli saklanır, tekrar gösterilmez.",
    ),
    textField(
      "userAgent",
      "Entegratör kullanıcı adı",
      "Hepsiburada'nın entegratöre verdiği kullanıcı adı; her isteğin User-Agent başlığında gönderilir.",
    ),
    urlField("listingUrl", "Listeleme API adresi", "Yalnızca test ortamı için değiştirin (-sit).", {
      default: HEPSIBURADA_LISTING_URL,
    }),
    urlField("orderUrl", "Sipariş API adresi", "Yalnızca test ortamı için değiştirin (-sit).", {
      default: HEPSIBURADA_ORDER_URL,
    }),
    urlField("catalogUrl", "Katalog API adresi", "Yalnızca test ortamı için değiştirin (-sit).", {
      default: HEPSIBURADA_CATALOG_URL,
    }),
  ],
  batch: { stock: HEPSIBURADA_BATCH, prices: HEPSIBURADA_BATCH, page: HEPSIBURADA_ORDER_PAGE },
  budget: HEPSIBURADA_BUDGET,
  changeCursors: { orders: true },
  // Products are opened by the channel's listing (category mapping, catalogue import), not one by one.
  unsupported: { categoryWrite: NO_CATEGORY_WRITE },
  versionPin: HEPSIBURADA_VERSION_PIN,
  notes:
    "Hepsiburada Marketplace API: Basic (Mağaza ID + servis anahtarı) ve User-Agent; stok/fiyat yüklemeleri id ile sonradan okunur; ürünler katalog dosyasıyla açılır, trackingId ile okunur; siparişler kalem bazında gelir, paketlenir, fatura linki pakete gönderilir.",
});
