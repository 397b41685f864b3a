/**
 * Trendyol's runtime rules (src/testing/runtime-rules.ts): what the request shapes cannot show — the
 * User-Agent header, the 15-minute refusal of a repeated stock/price body, the batch and quantity facets,
 * the list-price rule, the product V1 retirement, the 14-day stream window, Picking before Invoiced and the
 * catalogue lists' 50 a minute. Each with its sources; VERIFIED.md lists them (a test checks).
 */

import type { RecordedRequest } from "../../testing/recorder";
import {
  itemProblems,
  listPriceBelowSale,
  type RuleSource,
  type RuntimeRule,
} from "../../testing/runtime-rules";
import {
  TRENDYOL_BATCH,
  TRENDYOL_CATALOG_LIST_LIMIT,
  TRENDYOL_MAX_QUANTITY,
  TRENDYOL_SAME_REQUEST_MS,
  TRENDYOL_STREAM_RANGE_MS,
} from "../descriptor";
import { apiPath, findOperation } from "./requests";

const DOC = "https://developers.trendyol.com";
const SRC = {
  auth: {
    kind: "vendor-doc",
    ref: `${DOC}/docs/2-authorization`,
    says: "User-Agent missing → 403; '{Satıcı Id} - SelfIntegration' or '{Satıcı Id} - {entegratör}', alphanumeric, max 30 characters",
  },
  stockTr: {
    kind: "vendor-doc",
    ref: `${DOC}/docs/stok-ve-fiyat-güncelleme-updatepriceandinventory.md (updatedAt 2026-08-07)`,
    says: "aynı isteği tekrar atarsanız '15 dakika boyunca aynı isteği tekrarlı olarak atamazsınız!'; maksimum 1000 item; maksimum 20 Bin adet stok",
  },
  stockEn: {
    kind: "vendor-doc",
    ref: `${DOC}/v2.0/docs/stock-and-price-update-updatepriceandinventory-1.md (updatedAt 2026-08-07)`,
    says: "same request again without changes → '15 dakika…' error; maximum 1000 items (sku)",
  },
  stockV3: {
    kind: "vendor-doc",
    ref: `${DOC}/v3.0/docs/9-stock-and-price-update`,
    says: "maximum number of items in each request is 1000; listPrice cannot be lower than salePrice",
  },
  v1Retired: {
    kind: "vendor-changelog",
    ref: `${DOC}/tr/v3.0/docs/3-product-update`,
    says: "Product V1 services will be invalid starting from 10th August 2026",
  },
  v1Client: {
    kind: "public-code",
    ref: "bberka/TrendyolSharp@1c70f0c7:src/TrendyolClient.Sharp/Services/Marketplace/TrendyolMarketplaceClient.Product.cs",
    says: "CreateProductsAsync POSTs and UpdateProductsAsync PUTs /integration/product/sellers/{id}/products (the V1 routes)",
  },
  stream: {
    kind: "vendor-doc",
    ref: `${DOC}/docs/sipariş-paketlerini-akış-ile-çekme.md (updatedAt 2026-11-02)`,
    says: "zaman aralığı maksimum 2 hafta (14 gün); son 3 aylık veri",
  },
  streamV3: {
    kind: "vendor-doc",
    ref: `${DOC}/v3.0/docs/get-shipment-packages-stream`,
    says: "the time range is limited to a maximum of 2 weeks (14 days)",
  },
  packageStatus: {
    kind: "vendor-doc",
    ref: `${DOC}/docs/paket-statü-bildirimi-updatepackage`,
    says: "Picking first, then Invoiced; Shipped and Delivered are set from the carrier",
  },
  createV2: {
    kind: "vendor-doc",
    ref: `${DOC}/docs/ürün-yaratma-v2.md (updatedAt 2026-09-11); ${DOC}/reference/createproducts (items length ≤ 1000)`,
    says: "Her istek içerisinde gönderilebilecek maksimum item sayısı 1.000'dir; batchRequestId ile sonuç kontrol edilmelidir",
  },
  limits: {
    kind: "vendor-doc",
    ref: `${DOC}/docs/1-servis-limitleri`,
    says: "TY Marka Listesi / Kategori Listesi / Kategori - Özellik Listesi: 50 req/min",
  },
  limitsV3: {
    kind: "vendor-doc",
    ref: `${DOC}/v3.0/docs/6-service-limitations`,
    says: "Trendyol Brand List, Category List, Category-Attribute List: 50 req/min",
  },
} satisfies Record<string, RuleSource>;

const PRICE_INVENTORY = /\/products\/price-and-inventory$/;
const CREATE_V2 = /^\/product\/sellers\/\d+\/v2\/products$/;
const bodyItems = (r: RecordedRequest): Array<Record<string, unknown>> => {
  const b = r.body as { items?: unknown } | undefined;
  return Array.isArray(b?.items) ? (b.items as Array<Record<string, unknown>>) : [];
};

/** The rules, with the window of the time-based ones (real values; a test may scale them). */
export function trendyolRules(opts: { sameRequestMs?: number; listWindowMs?: number } = {}): RuntimeRule[] {
  const sameMs = opts.sameRequestMs ?? TRENDYOL_SAME_REQUEST_MS;
  const listMs = opts.listWindowMs ?? TRENDYOL_CATALOG_LIST_LIMIT.windowMs;
  return [
    {
      id: "trendyol.user-agent",
      kind: "required-header",
      description:
        "Every request carries User-Agent '{sellerId} - {integrator}' (alphanumeric, ≤ 30), else 403.",
      sources: [SRC.auth],
      check: (r) => {
        const ua = String(r.headers["user-agent"] ?? "");
        const m = /^(\d+) - ([A-Za-z0-9]{1,30})$/.exec(ua);
        if (!m) return [`User-Agent '${ua}' is not '{sellerId} - {integrator}'`];
        const seller = /\/sellers\/(\d+)/.exec(apiPath(r.path))?.[1];
        return seller && seller !== m[1] ? [`User-Agent names seller ${m[1]}, the path ${seller}`] : [];
      },
    },
    {
      id: "trendyol.same-request-15-min",
      kind: "required-sequence",
      description: "A stock/price body identical to one sent in the last 15 minutes is refused.",
      sources: [SRC.stockTr, SRC.stockEn],
      check: (r, earlier) => {
        if (r.method !== "POST" || !PRICE_INVENTORY.test(r.path)) return [];
        const body = JSON.stringify(r.body);
        const twice = earlier.some(
          (e) =>
            e.method === "POST" &&
            PRICE_INVENTORY.test(e.path) &&
            e.at > r.at - sameMs &&
            JSON.stringify(e.body) === body,
        );
        return twice ? ["the same stock/price request was sent within 15 minutes"] : [];
      },
    },
    {
      id: "trendyol.batch-1000",
      kind: "facet",
      description: `At most ${TRENDYOL_BATCH} items per stock/price or product create request.`,
      sources: [SRC.stockTr, SRC.stockV3, SRC.createV2],
      check: (r) =>
        (PRICE_INVENTORY.test(r.path) || CREATE_V2.test(apiPath(r.path))) &&
        bodyItems(r).length > TRENDYOL_BATCH
          ? [`${bodyItems(r).length} items (max ${TRENDYOL_BATCH})`]
          : [],
    },
    {
      id: "trendyol.max-quantity",
      kind: "facet",
      description: `At most ${TRENDYOL_MAX_QUANTITY} sellable units per barcode.`,
      sources: [SRC.stockTr],
      check: (r) =>
        PRICE_INVENTORY.test(r.path)
          ? bodyItems(r)
              .filter((i) => typeof i.quantity === "number" && i.quantity > TRENDYOL_MAX_QUANTITY)
              .map(
                (i) => `${String(i.barcode)}: quantity ${String(i.quantity)} over ${TRENDYOL_MAX_QUANTITY}`,
              )
          : [],
    },
    {
      id: "trendyol.list-price-not-below-sale",
      kind: "facet",
      description: "listPrice may not be lower than salePrice.",
      sources: [SRC.stockV3, SRC.stockTr],
      check: (r) =>
        PRICE_INVENTORY.test(r.path)
          ? itemProblems(bodyItems(r), "barcode", listPriceBelowSale, "listPrice below salePrice")
          : [],
    },
    {
      id: "trendyol.product-v1-retired",
      kind: "version-dated",
      since: "2026-08-10",
      description:
        "Product V1 create/update (POST/PUT /product/sellers/{id}/products) is refused since 10 Aug 2026.",
      sources: [SRC.v1Retired, SRC.v1Client],
      check: (r) => {
        const op = findOperation(r.method, r.path)?.operation;
        return op === "createProducts.v1" || op === "updateProducts.v1"
          ? [`${op}: product V1 is retired`]
          : [];
      },
    },
    {
      id: "trendyol.stream-14-days",
      kind: "facet",
      description: "The order stream reads at most 14 days of last-modified dates per request.",
      sources: [SRC.stream, SRC.streamV3],
      check: (r) => {
        if (!/\/orders\/stream$/.test(r.path)) return [];
        const from = Number(r.query.lastModifiedStartDate);
        const to = Number(r.query.lastModifiedEndDate);
        return Number.isFinite(from) && Number.isFinite(to) && to - from > TRENDYOL_STREAM_RANGE_MS
          ? [`window of ${Math.round((to - from) / 86_400_000)} days (max 14)`]
          : [];
      },
    },
    {
      id: "trendyol.picking-before-invoiced",
      kind: "required-sequence",
      description: "A package is set Invoiced only after it was set Picking.",
      sources: [SRC.packageStatus],
      check: (r, earlier) => {
        const b = r.body as { status?: string } | undefined;
        if (
          r.method !== "PUT" ||
          findOperation(r.method, r.path)?.operation !== "updatePackage" ||
          b?.status !== "Invoiced"
        )
          return [];
        const picked = earlier.some(
          (e) =>
            e.method === "PUT" &&
            e.path === r.path &&
            (e.body as { status?: string } | undefined)?.status === "Picking",
        );
        return picked ? [] : ["Invoiced sent before Picking"];
      },
    },
    {
      id: "trendyol.catalog-lists-50-per-minute",
      kind: "required-sequence",
      description: "Brand, category and category-attribute lists: at most 50 requests a minute.",
      sources: [SRC.limits, SRC.limitsV3],
      check: (r, earlier) => {
        const isList = (x: RecordedRequest) =>
          /^\/product\/(product-categories|brands)/.test(apiPath(x.path));
        if (!isList(r)) return [];
        const inWindow = earlier.filter((e) => isList(e) && e.at > r.at - listMs).length;
        return inWindow >= TRENDYOL_CATALOG_LIST_LIMIT.requests
          ? ["over 50 catalogue-list requests a minute"]
          : [];
      },
    },
  ];
}

export { TRENDYOL_VERSION_PIN } from "../descriptor";
