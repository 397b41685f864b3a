/**
 * n11's runtime rules (src/testing/runtime-rules.ts): what the request shapes cannot show — the key pair in
 * headers, the 1,000-SKU task, the price pair and its two decimals, listPrice ≥ salePrice (on price updates
 * and product creates), product titles of at least 15 characters, one integrator
 * name for every task, the order listing's 15-day window, its November-2024 floor and 1,000 calls a
 * minute, and the retired SOAP product writes. Each with its sources; VERIFIED.md lists them (a test checks).
 */

import type { RecordedRequest } from "../../testing/recorder";
import {
  itemProblems,
  listPriceBelowSale,
  type RuleSource,
  type RuntimeRule,
} from "../../testing/runtime-rules";
import { N11_BATCH, N11_ORDER_LIMIT, N11_ORDER_WINDOW_MS, N11_ORDERS_FROM } from "../descriptor";
import { apiPath, findOperation } from "./requests";

const DEV = "https://developer.n11.com/documentation";
const SUPPORT = "https://magazadestek.n11.com/satis-surecleri";
const LONCA = "loncadev/lonca@dbdbaa247bd9abdbaf130af3dbd14114529194ab:sdks/n11/RESEARCH.md";
const SRC = {
  priceStockDoc: {
    kind: "vendor-doc",
    ref: `${DEV}/n11-marketplace-entegrasyonu/urun-fiyat-stok-guncelleme/`,
    says: "at most 1000 SKUs per task; listPrice and salePrice sent together, a dot and 2 decimals, listPrice ≥ salePrice, else REJECT; a field left out is not updated",
  },
  priceStockSupport: {
    kind: "vendor-doc",
    ref: `${SUPPORT}/restapi-urun-bilgileri-ve-fiyat-stok-guncelleme-servisi-10173`,
    says: "Tek seferde maximum 1000 sku; fiyat güncellemelerinde listPrice ve salePrice birlikte gönderilmelidir; küsurat noktadan sonra 2 hane, aksi takdirde REJECT; listPrice, salePrice'dan yüksek olmalıdır",
  },
  productCreate: {
    kind: "vendor-doc",
    ref: `${SUPPORT}/restapi-urun-yukleme-10393`,
    says: "integrator: API Kullanıcı/Entegratör Firma ismini yazınız. Tüm gönderimlerinizde aynı ismi iletiniz.",
  },
  auth: {
    kind: "vendor-doc",
    ref: `${SUPPORT}/restapi-servisleri-10173`,
    says: "Header'da key-value olarak appkey ve appsecret iletilmelidir (Satıcı Ofisi > Hesabım > Api Hesapları)",
  },
  categoryAuth: {
    kind: "vendor-changelog",
    ref: `${DEV}/changelog/ (2025-07-17)`,
    says: "category services need API Key & Secret from 2025-08-15",
  },
  liveRead: {
    kind: "public-code",
    ref: LONCA,
    says: "read live 2026-10-10: /ms and /rest need both headers, /cdn still answers with appkey alone (the changelog said key + secret from 2025-08-15); shipmentPackages clamps windows to 15 days and size to 100 silently",
  },
  ordersSupport: {
    kind: "vendor-doc",
    ref: `${SUPPORT}/restapi-siparis-listeleme-10413`,
    says: "1 dakika içerisinde maksimum 1000 adet istek; status tek bir değer; 2024 Kasım öncesi sipariş datası verilmez; yalnız startDate → sonraki 1 aylık kayıtlar",
  },
  ordersDoc: {
    kind: "vendor-doc",
    ref: `${DEV}/n11-siparis-entegrasyonu/siparis-listeleme-servisi/`,
    says: "size max 100; only startDate → 15 days forward, only endDate → 15 days back; no orders before November 2024; 1000 requests a minute",
  },
  createDoc: {
    kind: "vendor-doc",
    ref: `${DEV}/n11-marketplace-entegrasyonu/urun-yukleme/ (as copied 2026-03-30 from magazadestek restapi-urun-yukleme-10393 into public notes, code id 65723354961)`,
    says: "error list: 'Ürün ekleme isteğinizde 15 karakter altında ürün adları tespit edilmiştir'; 'listPrice salePrice dan küçük olamaz'",
  },
  createNotes: {
    kind: "public-code",
    ref: "public integration notes (code id 70097535651, 'Ürün açma', citing developer.n11.com urun-yukleme and api-hata-mesajlari-ve-aciklamalari)",
    says: "title en az 15 karakter; images https; stockCode en çok 255; Marka is attribute id 1, free text (customValue) where the category allows it",
  },
  soapClosed: {
    kind: "vendor-changelog",
    ref: `${DEV}/changelog/ (2025-01-25)`,
    says: "SOAP ProductSellingService, ProductStockService and ProductService's product-management methods are closed",
  },
  soapClosedSupport: {
    kind: "vendor-doc",
    ref: `${SUPPORT}/restapi-servisleri-10173`,
    says: "1 Haziran 2024 tarihinde SOAP üzerinden yapılan stok fiyat güncellemeleri ve ürün bilgileri güncelleme işlevleri kapatılacaktır",
  },
} satisfies Record<string, RuleSource>;

const TASK = /^\/ms\/product\/tasks\//;
/** The tasks that carry prices: price-stock-update and product-create. */
const PRICED = /^\/ms\/product\/tasks\/(price-stock-update|product-create)$/;
const CREATE = /^\/ms\/product\/tasks\/product-create$/;
const ORDERS = /^\/rest\/delivery\/v1\/shipmentPackages$/;
const skus = (r: RecordedRequest): Array<Record<string, unknown>> => {
  const s = (r.body as { payload?: { skus?: unknown } } | undefined)?.payload?.skus;
  return Array.isArray(s) ? (s as Array<Record<string, unknown>>) : [];
};
const integrator = (r: RecordedRequest) =>
  (r.body as { payload?: { integrator?: unknown } } | undefined)?.payload?.integrator;
/** The SKUs of a priced task (price-stock-update, product-create) that are `bad`, named by stock code. */
const pricedSkuProblems = (
  r: RecordedRequest,
  bad: (s: Record<string, unknown>) => boolean,
  problem: string,
) => (PRICED.test(apiPath(r.path)) ? itemProblems(skus(r), "stockCode", bad, problem) : []);
const twoDecimals = (n: unknown) => typeof n !== "number" || Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

/** The rules; the minute of the order-listing limit may be scaled by tests. */
export function n11Rules(opts: { orderWindowMs?: number } = {}): RuntimeRule[] {
  const minute = opts.orderWindowMs ?? N11_ORDER_LIMIT.windowMs;
  return [
    {
      id: "n11.auth-headers",
      kind: "required-header",
      description:
        "Every REST request carries the appkey header, and /ms and /rest requests the appsecret header too.",
      sources: [SRC.auth, SRC.liveRead],
      check: (r) => {
        const p: string[] = [];
        const path = apiPath(r.path);
        if (path.startsWith("/ws/")) return p; // SOAP carries the pair in its body
        if (!String(r.headers.appkey ?? "").trim()) p.push("appkey header missing");
        if (!path.startsWith("/cdn/") && !String(r.headers.appsecret ?? "").trim())
          p.push("appsecret header missing");
        return p;
      },
    },
    {
      id: "n11.category-secret",
      kind: "version-dated",
      since: "2025-08-15",
      // The changelog's side; live on 2026-10-10 /cdn still answered with appkey alone (the default side).
      side: "changelog",
      description: "Category services need the appsecret header as well from 2025-08-15.",
      sources: [SRC.categoryAuth, SRC.liveRead],
      check: (r) =>
        apiPath(r.path).startsWith("/cdn/") && !String(r.headers.appsecret ?? "").trim()
          ? ["appsecret header missing on a category service (required since 2025-08-15)"]
          : [],
    },
    {
      id: "n11.task-1000-skus",
      kind: "facet",
      description: `At most ${N11_BATCH} SKUs per product task.`,
      sources: [SRC.priceStockDoc, SRC.priceStockSupport],
      check: (r) =>
        TASK.test(apiPath(r.path)) && skus(r).length > N11_BATCH
          ? [`${skus(r).length} SKUs (max ${N11_BATCH})`]
          : [],
    },
    {
      id: "n11.price-pair",
      kind: "facet",
      description: "A price change sends listPrice and salePrice together.",
      sources: [SRC.priceStockDoc, SRC.priceStockSupport],
      check: (r) =>
        pricedSkuProblems(
          r,
          (s) => (s.listPrice === undefined) !== (s.salePrice === undefined),
          "listPrice and salePrice must go together",
        ),
    },
    {
      id: "n11.price-two-decimals",
      kind: "facet",
      description: "Prices carry at most two decimals (else the task is REJECTed).",
      sources: [SRC.priceStockSupport, SRC.priceStockDoc],
      check: (r) =>
        pricedSkuProblems(
          r,
          (s) => !twoDecimals(s.listPrice) || !twoDecimals(s.salePrice),
          "more than two decimals",
        ),
    },
    {
      id: "n11.list-price-not-below-sale",
      kind: "facet",
      description: "listPrice may not be lower than salePrice (equal is allowed).",
      sources: [SRC.priceStockSupport, SRC.priceStockDoc],
      check: (r) => pricedSkuProblems(r, listPriceBelowSale, "listPrice below salePrice"),
    },
    {
      id: "n11.title-15-chars",
      kind: "facet",
      description: "product-create: every title has at least 15 characters (else the task is REJECTed).",
      sources: [SRC.createDoc, SRC.createNotes],
      check: (r) =>
        CREATE.test(apiPath(r.path))
          ? itemProblems(
              skus(r),
              "stockCode",
              (s) => typeof s.title === "string" && s.title.trim().length < 15,
              "Ürün ekleme isteğinizde 15 karakter altında ürün adları tespit edilmiştir",
            )
          : [],
    },
    {
      id: "n11.same-integrator",
      kind: "required-sequence",
      description: "Every product task names the same integrator as the tasks before it.",
      sources: [SRC.productCreate, SRC.priceStockDoc],
      check: (r, earlier) => {
        if (r.method !== "POST" || !TASK.test(apiPath(r.path))) return [];
        const first = earlier.find((e) => e.method === "POST" && TASK.test(apiPath(e.path)) && integrator(e));
        const was = first ? integrator(first) : undefined;
        return was !== undefined && was !== integrator(r)
          ? [`integrator '${String(integrator(r))}' after '${String(was)}'`]
          : [];
      },
    },
    {
      id: "n11.order-window-15-days",
      kind: "facet",
      description: "An order listing asks for at most 15 days (n11 silently answers a wider range with 15).",
      sources: [SRC.ordersDoc, SRC.liveRead, SRC.ordersSupport],
      check: (r) => {
        if (!ORDERS.test(apiPath(r.path))) return [];
        const from = Number(r.query.startDate);
        const to = Number(r.query.endDate);
        return r.query.startDate !== undefined &&
          r.query.endDate !== undefined &&
          to - from > N11_ORDER_WINDOW_MS
          ? [`window of ${Math.round((to - from) / 86_400_000)} days (max 15)`]
          : [];
      },
    },
    {
      id: "n11.orders-since-2024-11",
      kind: "version-dated",
      since: "2024-11-01",
      description: "The order listing serves no orders from before November 2024.",
      sources: [SRC.ordersSupport, SRC.ordersDoc],
      check: (r) =>
        ORDERS.test(apiPath(r.path)) &&
        r.query.startDate !== undefined &&
        Number(r.query.startDate) < N11_ORDERS_FROM
          ? ["startDate before 2024-11-01: n11 serves no older orders"]
          : [],
    },
    {
      id: "n11.orders-1000-per-minute",
      kind: "required-sequence",
      description: "shipmentPackages: at most 1000 requests a minute.",
      sources: [SRC.ordersSupport, SRC.ordersDoc],
      check: (r, earlier) => {
        if (!ORDERS.test(apiPath(r.path))) return [];
        const inWindow = earlier.filter((e) => ORDERS.test(apiPath(e.path)) && e.at > r.at - minute).length;
        return inWindow >= N11_ORDER_LIMIT.requests ? ["over 1000 order-listing requests a minute"] : [];
      },
    },
    {
      id: "n11.soap-product-writes-retired",
      kind: "version-dated",
      since: "2025-01-25",
      description:
        "SOAP ProductStockService, ProductSellingService and ProductService writes are closed (REST tasks instead).",
      sources: [SRC.soapClosed, SRC.soapClosedSupport],
      check: (r) =>
        findOperation(r.method, r.path)?.operation === "soap.productWrite"
          ? ["SOAP product writes are closed since 2025-01-25; use /ms/product/tasks"]
          : [],
    },
  ];
}

/** Rules the emulator does not refuse: n11 answers them silently (a clamped window), the judge still reports them. */
export const N11_SILENT_RULES = new Set(["n11.order-window-15-days", "n11.orders-since-2024-11"]);

export { N11_VERSION_PIN } from "../descriptor";
