import { message } from "@ep/contracts";
import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";
import type { ApiVersionPin } from "../sdk/version-pin";

/** SKUs per product task (price-stock-update): "Tek seferde maximum 1000 sku". */
export const N11_BATCH = 1000;
/** Packages per shipmentPackages page: size is clamped to 100 (n11 order listing page; observed live). */
export const N11_ORDER_PAGE = 100;
/** Products per product-query page: default 20, at most 250. */
export const N11_PRODUCT_PAGE = 250;
/** Rows per task-details page (pageable.size); a task holds at most N11_BATCH SKUs, so one page reads it. */
export const N11_TASK_PAGE = 1000;
/** shipmentPackages serves at most 15 days per request (wider ranges are clamped silently). */
export const N11_ORDER_WINDOW_MS = 15 * 86_400_000;
/** "2024 Kasım öncesi sipariş datası bu servisten verilmemektedir." */
export const N11_ORDERS_FROM = Date.parse("2024-11-01T00:00:00+03:00");
/** shipmentPackages: "Servise 1 dakika içerisinde maksimum 1000 adet istek atılabilir." */
export const N11_ORDER_LIMIT = { requests: 1000, windowMs: 60_000 };
/** product-create: titles under 15 characters are refused ("15 karakter altında ürün adları"). */
export const N11_TITLE_MIN = 15;
/** product-create: quantity at most 999,999; stockCode at most 255 characters. */
export const N11_MAX_QUANTITY = 999_999;
export const N11_STOCK_CODE_MAX = 255;
/** VAT rates n11 takes (product-create `vatRate`). */
export const N11_VAT_RATES = [0, 1, 10, 20];
/** Days to hand a parcel to the carrier when the connection names none. */
export const N11_PREPARING_DAY = 3;
/** The category attribute n11 carries the brand in (there is no brand service). */
export const N11_BRAND_ATTRIBUTE = "Marka";
/** Production API host: /cdn (categories), /ms (products), /rest (orders), /ws (SOAP). */
export const N11_API_URL = "https://api.n11.com";

/** The API this connector speaks: the REST services that replaced the SOAP product and order services. */
export const N11_VERSION_PIN: ApiVersionPin = {
  system: "n11",
  api: "n11 Marketplace REST API (/ms product tasks, /rest/delivery/v1, /rest/order/v1, /cdn)",
  version: "rest-2024",
  endOfSupport: null,
  noDateReason: "n11 publishes no end of support for its REST services (changelog to 2026-08-03)",
  source:
    "https://developer.n11.com/documentation/changelog/ (SOAP ProductSellingService, ProductStockService and ProductService writes closed 2025-01-25; orders to REST 2024-12-25)",
};

/** Products open through the channel's listing (createListings), so the product job runs; categories are n11's. */
const NO_CATEGORY_WRITE = message("connectors.n11ListingUnsupported");

export const n11Descriptor = defineConnector("shop", "n11", {
  credentials: [
    textField(
      "appKey",
      "API Anahtarı (appKey)",
      "n11 Satıcı Ofisi → Hesabım → API Hesapları sayfasındaki API anahtarı.",
    ),
    secretField(
      "appSecret",
      "API Şifresi (appSecret)",
      "Aynı sayfadaki API şifresi. Şifreli saklanır, tekrar gösterilmez.",
    ),
    textField(
      "integratorName",
      "Entegratör adı",
      "n11 her ürün görevinde entegratör adını ister; tüm gönderimlerde aynı ad kullanılır.",
      { required: false, default: "EntegrasyonPaneli" },
    ),
    textField(
      "shipmentTemplate",
      "Kargo şablonu adı",
      "Ürün açarken kullanılacak, n11 Satıcı Ofisi → Kargo Ayarları'ndaki kargo şablonunun adı (ürün aktarımı için gerekli).",
      { required: false },
    ),
    textField(
      "preparingDay",
      "Kargoya verme süresi (gün)",
      "Açılan ürünlerin kargoya verilme süresi; mağazanızın n11'deki en kısa süresinden az olamaz.",
      { required: false, type: "number", default: String(N11_PREPARING_DAY) },
    ),
    urlField("apiUrl", "API adresi", "Yalnızca test için değiştirin.", { default: N11_API_URL }),
  ],
  batch: { stock: N11_BATCH, prices: N11_BATCH, page: N11_ORDER_PAGE },
  // The one published figure (shipmentPackages, 1000 a minute) is the budget for every call.
  budget: N11_ORDER_LIMIT,
  changeCursors: { orders: true },
  unsupported: { categoryWrite: NO_CATEGORY_WRITE },
  versionPin: N11_VERSION_PIN,
  notes:
    "n11 REST API: appkey + appsecret başlıkları; ürün açma, stok ve fiyat en çok 1000 SKU'luk görevlerle gider, sonuç taskId ile okunur; siparişler paket paket, en çok 15 günlük pencerelerle okunur.",
});
