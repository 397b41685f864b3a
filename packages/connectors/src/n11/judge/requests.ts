/**
 * The n11 judge, request shapes: every operation the connector sends, with its path, query and body as
 * n11's developer documentation gives them (developer.n11.com/documentation, the REST pages that replaced
 * magazadestek.n11.com's "RestAPI …" pages; field tables and sample bodies), checked against public clients
 * of other authors (loncadev/lonca sdks/n11, live-read on 2026-10-10; the REST paths of several live
 * integrations). Headers, limits and retirements are runtime rules (rules.ts). Written from the pages,
 * never copied. A request no operation matches fails as unknown.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import {
  bodyFields as fields,
  idsParam as ids,
  intParam as int,
  isFiniteNumber as isNum,
  isRow as isObj,
  judgeRestCall,
  oneOfParam as oneOf,
  type QueryCheck,
  strParam as str,
} from "../../testing/rest-judge";
import { N11_MAX_QUANTITY, N11_STOCK_CODE_MAX, N11_VAT_RATES } from "../descriptor";

export interface N11Operation {
  operation: string;
  method: "GET" | "POST" | "PUT";
  path: RegExp;
  /** Where the shape is stated. */
  source: string;
  query: Record<string, QueryCheck>;
  body?: (b: unknown) => string[];
}

const DOC = "https://developer.n11.com/documentation";
/** shipmentPackageStatus values; one per request (the filter takes a single value). */
export const N11_STATUSES = [
  "Created",
  "Picking",
  "Shipped",
  "Delivered",
  "Cancelled",
  "UnPacked",
  "UnSupplied",
];
export const CURRENCIES = ["TL", "USD", "EUR"];

export const N11_OPERATIONS: N11Operation[] = [
  {
    operation: "getCategories",
    method: "GET",
    path: /^\/cdn\/categories$/,
    source: `${DOC}/n11-marketplace-entegrasyonu/kategori-agaci-listeleme/ (no parameters, the whole tree)`,
    query: {},
  },
  {
    operation: "getCategoryAttributes",
    method: "GET",
    path: /^\/cdn\/category\/\d+\/attribute$/,
    source: `${DOC}/n11-marketplace-entegrasyonu/kategori-ozellikleri-listeleme/`,
    query: {},
  },
  {
    operation: "getProductQuery",
    method: "GET",
    path: /^\/ms\/product-query$/,
    source: `${DOC}/n11-marketplace-entegrasyonu/satici-urun-sorgulama/ (page 0-based, size default 20, max 250)`,
    query: {
      page: int(0),
      size: int(1, 250),
      id: int(1),
      stockCode: str,
      productMainId: str,
      saleStatus: oneOf("Before_Sale", "On_Sale", "Out_Of_Stock", "Sale_Closed"),
      productStatus: str,
      categoryIds: ids,
      sender: oneOf("SELLER", "N11", "ALL"),
    },
  },
  {
    operation: "createProduct",
    method: "POST",
    path: /^\/ms\/product\/tasks\/product-create$/,
    source: `${DOC}/n11-marketplace-entegrasyonu/urun-yukleme/ and magazadestek restapi-urun-yukleme-10393 ({ payload: { integrator, skus: [{ title, description, categoryId, currencyType, productMainId, preparingDay, shipmentTemplate, stockCode, quantity, images: [{ url, order }], attributes: [{ id, valueId, customValue }], salePrice, listPrice, vatRate }] } })`,
    query: {},
    // Declared below with the envelope helper (a const: read when a body is judged).
    body: (b) => judgeCreateProductBody(b),
  },
  {
    operation: "updateProductPriceAndStock",
    method: "POST",
    path: /^\/ms\/product\/tasks\/price-stock-update$/,
    source: `${DOC}/n11-marketplace-entegrasyonu/urun-fiyat-stok-guncelleme/ ({ payload: { integrator, skus: [{ stockCode, listPrice, salePrice, quantity, currencyType }] } })`,
    query: {},
    body: taskBody((s, at) => {
      const p = [
        ...fields(s, ["stockCode", "listPrice", "salePrice", "quantity", "currencyType"], ["stockCode"], at),
      ];
      if (typeof s.stockCode !== "string" || s.stockCode === "") p.push(`${at}stockCode must be a string`);
      if (s.quantity !== undefined && !(Number.isInteger(s.quantity) && (s.quantity as number) >= 0))
        p.push(`${at}quantity must be a whole number ≥ 0`);
      for (const k of ["listPrice", "salePrice"])
        if (s[k] !== undefined && !(isNum(s[k]) && s[k] > 0)) p.push(`${at}${k} must be a positive number`);
      if (s.currencyType !== undefined && !CURRENCIES.includes(String(s.currencyType)))
        p.push(`${at}currencyType must be one of ${CURRENCIES.join(", ")}`);
      if (s.quantity === undefined && s.listPrice === undefined && s.salePrice === undefined)
        p.push(`${at} carries neither stock nor price`);
      return p;
    }),
  },
  {
    operation: "getTaskDetails",
    method: "POST",
    path: /^\/ms\/product\/task-details\/page-query$/,
    source: `${DOC}/n11-marketplace-entegrasyonu/task-detail-sorgulama/ ({ taskId, pageable: { page, size } })`,
    query: {},
    body: (b) => {
      if (!isObj(b)) return ["body must be an object"];
      const p = fields(b, ["taskId", "pageable"], ["taskId"], "");
      if (!Number.isInteger(b.taskId)) p.push("taskId must be a number");
      if (b.pageable !== undefined) {
        if (!isObj(b.pageable)) p.push("pageable must be { page, size }");
        else {
          p.push(...fields(b.pageable, ["page", "size"], [], "pageable."));
          if (
            b.pageable.page !== undefined &&
            !(Number.isInteger(b.pageable.page) && (b.pageable.page as number) >= 0)
          )
            p.push("pageable.page must be a whole number ≥ 0");
          if (
            b.pageable.size !== undefined &&
            !(Number.isInteger(b.pageable.size) && (b.pageable.size as number) >= 1)
          )
            p.push("pageable.size must be a whole number ≥ 1");
        }
      }
      return p;
    },
  },
  {
    operation: "getShipmentPackages",
    method: "GET",
    path: /^\/rest\/delivery\/v1\/shipmentPackages$/,
    source: `${DOC}/n11-siparis-entegrasyonu/siparis-listeleme-servisi/ (startDate/endDate ms, one status, page 0-based, size ≤ 100)`,
    query: {
      startDate: int(0),
      endDate: int(0),
      status: oneOf(...N11_STATUSES),
      orderNumber: str,
      packageIds: ids,
      page: int(0),
      size: int(1, 100),
      orderByDirection: oneOf("ASC", "DESC"),
      orderByField: str,
      deliveryAddressType: oneOf("KTN", "EASYPOINT", "PUP"),
    },
  },
  {
    operation: "updateOrder",
    method: "PUT",
    path: /^\/rest\/order\/v1\/update$/,
    source: `${DOC}/n11-siparis-entegrasyonu/siparis-kalemlerini-guncelleme-servisi/ ({ lines: [{ lineId }], status: "Picking" })`,
    query: {},
    body: (b) => {
      if (!isObj(b)) return ["body must be an object"];
      const p = fields(b, ["lines", "status"], ["lines", "status"], "");
      if (b.status !== "Picking") p.push("status must be Picking");
      if (!Array.isArray(b.lines) || b.lines.length === 0) p.push("lines must list the package's lines");
      else
        b.lines.forEach((l, i) => {
          if (!isObj(l) || !Number.isInteger(l.lineId) || Object.keys(l).length !== 1)
            p.push(`lines[${i}] must be { lineId } (a number)`);
        });
      return p;
    },
  },
  // The invoice link is still SOAP (n11's "Fatura Linki Gönderme" page; public clients of other authors).
  {
    operation: "saveLinkSellerInvoice",
    method: "POST",
    path: /^\/ws\/sellerinvoiceservice\/?$/i,
    source: `${DOC}/n11-siparis-entegrasyonu/fatura-linki-gonderme/ (SellerInvoiceService SaveLinkSellerInvoice: auth, url, orderNumber)`,
    query: {},
    body: judgeSaveLinkBody,
  },
  // The SOAP product-write services: known so their use is judged by the retirement rule, not as unknown.
  {
    operation: "soap.productWrite",
    method: "POST",
    path: /^\/ws\/(ProductStockService|ProductSellingService|ProductService)\/?$/,
    source: `${DOC}/changelog/ (2025-01-25: ProductSellingService, ProductStockService and ProductService's product methods closed)`,
    query: {},
  },
];

const CREATE_FIELDS = [
  "title",
  "description",
  "categoryId",
  "currencyType",
  "productMainId",
  "preparingDay",
  "shipmentTemplate",
  "maxPurchaseQuantity",
  "stockCode",
  "catalogId",
  "barcode",
  "quantity",
  "images",
  "attributes",
  "salePrice",
  "listPrice",
  "vatRate",
  "bundle",
];
const CREATE_REQUIRED = CREATE_FIELDS.filter(
  (f) => !["maxPurchaseQuantity", "catalogId", "barcode", "bundle"].includes(f),
);
const nonBlank = (v: unknown) => typeof v === "string" && v.trim() !== "";

/**
 * A product-create task: every SKU a whole product with the page's required fields, a leaf category id,
 * `TL|USD|EUR`, VAT 0/1/10/20, stockCode ≤ 255, quantity 0–999,999, HTTPS images with their order, and
 * attributes `{ id, valueId, customValue }` carrying a value id or a free value.
 */
export const judgeCreateProductBody = taskBody((s, at) => {
  const p: string[] = [];
  p.push(...fields(s, CREATE_FIELDS, CREATE_REQUIRED, at));
  for (const k of ["title", "description", "productMainId", "shipmentTemplate", "stockCode"])
    if (s[k] !== undefined && !nonBlank(s[k])) p.push(`${at}${k} must be a non-empty string`);
  if (typeof s.stockCode === "string" && s.stockCode.length > N11_STOCK_CODE_MAX)
    p.push(`${at}stockCode must be at most ${N11_STOCK_CODE_MAX} characters`);
  if (s.categoryId !== undefined && !(Number.isInteger(s.categoryId) && (s.categoryId as number) > 0))
    p.push(`${at}categoryId must be a category id (number)`);
  if (s.currencyType !== undefined && !CURRENCIES.includes(String(s.currencyType)))
    p.push(`${at}currencyType must be one of ${CURRENCIES.join(", ")}`);
  if (s.preparingDay !== undefined && !(Number.isInteger(s.preparingDay) && (s.preparingDay as number) > 0))
    p.push(`${at}preparingDay must be a whole number of days > 0`);
  if (
    s.quantity !== undefined &&
    !(
      Number.isInteger(s.quantity) &&
      (s.quantity as number) >= 0 &&
      (s.quantity as number) <= N11_MAX_QUANTITY
    )
  )
    p.push(`${at}quantity must be a whole number 0–${N11_MAX_QUANTITY}`);
  for (const k of ["listPrice", "salePrice"])
    if (s[k] !== undefined && !(isNum(s[k]) && s[k] > 0)) p.push(`${at}${k} must be a positive number`);
  if (s.vatRate !== undefined && !N11_VAT_RATES.includes(s.vatRate as number))
    p.push(`${at}vatRate must be one of ${N11_VAT_RATES.join(", ")}`);
  if (s.barcode !== undefined && s.barcode !== null && typeof s.barcode !== "string")
    p.push(`${at}barcode must be a string`);
  if (s.images !== undefined)
    if (!Array.isArray(s.images)) p.push(`${at}images must be a list`);
    else
      s.images.forEach((img, j) => {
        if (!isObj(img) || typeof img.url !== "string" || !/^https:\/\//i.test(img.url))
          p.push(`${at}images[${j}].url must be an https address`);
        else if (!Number.isInteger(img.order)) p.push(`${at}images[${j}].order must be a number`);
      });
  if (s.attributes !== undefined)
    if (!Array.isArray(s.attributes)) p.push(`${at}attributes must be a list`);
    else
      s.attributes.forEach((a, j) => {
        const aat = `${at}attributes[${j}]`;
        if (!isObj(a)) {
          p.push(`${aat} must be { id, valueId, customValue }`);
          return;
        }
        p.push(...fields(a, ["id", "valueId", "customValue"], ["id"], `${aat}.`));
        if (!Number.isInteger(a.id)) p.push(`${aat}.id must be an attribute id (number)`);
        const hasId = a.valueId !== undefined && a.valueId !== null;
        if (hasId && !Number.isInteger(a.valueId)) p.push(`${aat}.valueId must be a value id (number)`);
        if (!hasId && !nonBlank(a.customValue)) p.push(`${aat} carries neither valueId nor customValue`);
      });
  return p;
});

/** A product task's `{ payload: { integrator, skus } }` envelope, each SKU (an object) judged by `sku`. */
function taskBody(sku: (s: Record<string, unknown>, at: string) => string[]): (b: unknown) => string[] {
  return (b) => {
    if (!isObj(b) || !isObj(b.payload)) return ["body must be { payload: { integrator, skus } }"];
    const p = fields(b, ["payload"], ["payload"], "");
    const pl = b.payload;
    p.push(...fields(pl, ["integrator", "skus"], ["integrator", "skus"], "payload."));
    if (!nonBlank(pl.integrator)) p.push("payload.integrator must be the integrator's name");
    if (!Array.isArray(pl.skus) || pl.skus.length === 0) return [...p, "payload.skus must not be empty"];
    pl.skus.forEach((s, i) => {
      const at = `payload.skus[${i}].`;
      if (isObj(s)) p.push(...sku(s, at));
      else p.push(`${at} must be an object`);
    });
    return p;
  };
}

const element = (xml: string, name: string) =>
  new RegExp(`<(?:\\w+:)?${name}>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(xml)?.[1];

/**
 * SaveLinkSellerInvoiceRequest in n11's schema namespace: `auth` with `appKey` and `appSecret`, a `url` on
 * HTTPS of at most 2048 characters, an `orderNumber`; nothing else (the page lists no other field).
 */
export function judgeSaveLinkBody(b: unknown): string[] {
  if (typeof b !== "string") return ["body must be a SOAP envelope (text/xml)"];
  const p: string[] = [];
  const request = element(b, "SaveLinkSellerInvoiceRequest");
  if (request === undefined) return ["no SaveLinkSellerInvoiceRequest in the SOAP body"];
  if (!b.includes('"http://www.n11.com/ws/schemas"'))
    p.push("the request must be in http://www.n11.com/ws/schemas");
  const auth = element(request, "auth");
  if (!auth?.trim() || !element(auth, "appKey")?.trim() || !element(auth, "appSecret")?.trim())
    p.push("auth must carry appKey and appSecret");
  const url = element(request, "url")?.replace(/&amp;/g, "&") ?? "";
  if (!/^https:\/\//i.test(url)) p.push("url must be an https address");
  if (url.length > 2048) p.push("url must be at most 2048 characters");
  if (!element(request, "orderNumber")?.trim()) p.push("orderNumber is required");
  const known = new Set(["auth", "url", "orderNumber"]);
  for (const m of request.matchAll(/<(?:\w+:)?(\w+)>[\s\S]*?<\/(?:\w+:)?\1>/g))
    if (!known.has(m[1] ?? "")) p.push(`${m[1]} is not a field of SaveLinkSellerInvoiceRequest`);
  return p;
}

/** The API's own path: from /cdn, /ms, /rest or /ws on (a sandbox mounts the emulator under a prefix). */
export function apiPath(path: string): string {
  return path.replace(/^.*?(?=\/(?:cdn|ms|rest|ws)\/)/, "");
}

export function findOperation(method: string, path: string): N11Operation | undefined {
  const p = apiPath(path);
  return N11_OPERATIONS.find((o) => o.method === method && o.path.test(p));
}

export const judgeN11Request: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const op = findOperation(r.method, r.path);
  // The appkey/appsecret headers are a runtime rule (rules.ts), so no Basic Auth check here.
  return op ? judgeRestCall(op, r) : undefined;
};
