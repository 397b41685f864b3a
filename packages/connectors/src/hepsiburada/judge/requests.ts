/**
 * The Hepsiburada judge, request shapes: Hepsiburada publishes an OpenAPI / Swagger file per service on
 * its developer portal (developers.hepsiburada.com/api/v1/public/docs/hepsiburada/{slug}/{version}/openapi);
 * the ones read are mirrored in `taha-kanar/hepsiburada-sdk` @ec318b85 (`openapi/listing.json` — OpenAPI
 * 3, `additionalProperties: false` — `openapi/order.json` — Swagger 2 — `openapi/operations.json`). The
 * operations, parameters and body models below are transcribed from those files (never copied). Order
 * bodies are held to the listed properties as well (the Swagger file does not close them: our choice).
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { judgeRestCall } from "../../testing/rest-judge";
import { HEPSIBURADA_LISTING_OPERATIONS } from "./listing-requests";

type Row = Record<string, unknown>;
type Check = (v: unknown) => string | undefined;

export type HbService = "listing" | "order" | "catalog";

export interface HepsiburadaOperation {
  operation: string;
  service: HbService;
  method: "GET" | "POST" | "PUT";
  path: RegExp;
  source: string;
  query: Record<string, Check>;
  required?: string[];
  body?: (b: unknown) => string[];
}

const int =
  (min = 0, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) => {
    const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : Number.NaN;
    return Number.isInteger(n) && n >= min && n <= max ? undefined : `must be an integer ${min}..${max}`;
  };
const str: Check = (v) => (typeof v === "string" && v.length > 0 ? undefined : "must be a non-empty string");
const bool: Check = (v) => (v === "true" || v === "false" ? undefined : "must be true or false");
const isObj = (v: unknown): v is Row => !!v && typeof v === "object" && !Array.isArray(v);

/** Properties of an object that its model does not list. */
function closed(o: Row, props: Record<string, (v: unknown) => boolean>, at: string): string[] {
  const p: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    const ok = props[k];
    if (!ok) p.push(`${at}${k} is not a property of the model`);
    else if (v !== null && v !== undefined && !ok(v)) p.push(`${at}${k} has the wrong type`);
  }
  return p;
}
const S = (v: unknown) => typeof v === "string";
const N = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const I = (v: unknown) => Number.isInteger(v);
const A = (v: unknown) => Array.isArray(v);
const O = (v: unknown) => isObj(v);

const arrayOf = (model: Record<string, (v: unknown) => boolean>, name: string) => (b: unknown) => {
  if (!Array.isArray(b)) return [`body must be an array of ${name}`];
  if (b.length === 0) return ["body must not be empty"];
  return b.flatMap((x, i) => (isObj(x) ? closed(x, model, `[${i}].`) : [`[${i}] must be an object`]));
};

const UUID = "[0-9a-fA-F-]{36}";
const M = `/merchantid/${UUID}`;
const LISTING = "taha-kanar/hepsiburada-sdk@ec318b85:openapi/listing.json";
const ORDER = "taha-kanar/hepsiburada-sdk@ec318b85:openapi/order.json";
const OPS = "taha-kanar/hepsiburada-sdk@0d4b2135:openapi/operations.json";
const CLAIMS = "taha-kanar/hepsiburada-sdk@ec318b85:openapi/claim-list.json";

export const HEPSIBURADA_OPERATIONS: HepsiburadaOperation[] = [
  {
    operation: "getListings",
    service: "listing",
    method: "GET",
    path: new RegExp(`^/listings${M}$`),
    source: `${LISTING} "Listing Bilgilerini Sorgulama" (offset, limit required)`,
    query: {
      offset: int(0),
      limit: int(1),
      hbSkuList: str,
      merchantSkuList: str,
      "salable-listings": bool,
      "notsalable-listings": bool,
      updateStartDate: str,
      updateEndDate: str,
      productId: str,
    },
    required: ["offset", "limit"],
  },
  {
    operation: "uploadStock",
    service: "listing",
    method: "POST",
    path: new RegExp(`^/listings${M}/stock-uploads$`),
    source: `${LISTING} StockUploadRequestModel`,
    query: {},
    body: arrayOf(
      { hepsiburadaSku: S, merchantSku: S, availableStock: I, maximumPurchasableQuantity: I },
      "StockUploadRequestModel",
    ),
  },
  {
    operation: "getStockUpload",
    service: "listing",
    method: "GET",
    path: new RegExp(`^/listings${M}/stock-uploads/id/${UUID}$`),
    source: `${LISTING} StockUploadResultRepresentation`,
    query: {},
  },
  {
    operation: "uploadPrice",
    service: "listing",
    method: "POST",
    path: new RegExp(`^/listings${M}/price-uploads$`),
    source: `${LISTING} PriceUploadRequestModel`,
    query: {},
    body: arrayOf({ hepsiburadaSku: S, merchantSku: S, price: N }, "PriceUploadRequestModel"),
  },
  {
    operation: "getPriceUpload",
    service: "listing",
    method: "GET",
    path: new RegExp(`^/listings${M}/price-uploads/id/${UUID}$`),
    source: `${LISTING} PriceUploadResultRepresentation (errors, priceValidations)`,
    query: {},
  },
  {
    operation: "getPaidOrders",
    service: "order",
    method: "GET",
    path: new RegExp(`^/orders${M}$`),
    source: `${ORDER} "Odemesi Tamamlanmis Siparisleri Listeleme" (limit ≤ 100, required)`,
    query: { offset: int(0), limit: int(1, 100), begindate: str, enddate: str },
  },
  {
    operation: "getCancelledOrders",
    service: "order",
    method: "GET",
    path: new RegExp(`^/orders${M}/cancelled$`),
    source: `${ORDER} "Iptal Siparis Bilgileri Listeleme" (limit ≤ 50)`,
    query: { offset: int(0), limit: int(1, 50), begindate: str, enddate: str },
  },
  {
    operation: "getClaims",
    service: "order",
    method: "GET",
    path: new RegExp(`^/claims/merchantId/${UUID}$`),
    source: `${CLAIMS} "Merchant için bütün talepleri getirir" (beginDate/endDate yyyy-MM-dd HH:mm, limit 1..100)`,
    query: { offset: int(0), limit: int(1, 100), beginDate: str, endDate: str },
  },
  {
    operation: "getOrderByNumber",
    service: "order",
    method: "GET",
    path: new RegExp(`^/orders${M}/ordernumber/[\\w-]+$`),
    source: `${OPS} getOrdersByOrdernumber "Siparise Ait Detay Listeleme"`,
    query: {},
  },
  {
    operation: "createPackage",
    service: "order",
    method: "POST",
    path: new RegExp(`^/packages${M}$`),
    source: `${ORDER} model.CreatePackageRequest / model.LineItemCreatePackageRequest`,
    query: {},
    body: (b) => {
      if (!isObj(b)) return ["body must be a CreatePackageRequest"];
      const p = closed(
        b,
        {
          barcode: S,
          cargoCompany: S,
          carrier: S,
          creationReason: S,
          deci: N,
          lineItemRequests: A,
          parcelQuantity: I,
          warehouse: O,
        },
        "",
      );
      const lines = Array.isArray(b.lineItemRequests) ? b.lineItemRequests : [];
      if (lines.length === 0) p.push("lineItemRequests required");
      lines.forEach((l, i) => {
        if (!isObj(l)) p.push(`lineItemRequests[${i}] must be an object`);
        else {
          p.push(...closed(l, { id: S, quantity: I, serialNumbers: A }, `lineItemRequests[${i}].`));
          if (!S(l.id) || !I(l.quantity)) p.push(`lineItemRequests[${i}] needs id and quantity`);
        }
      });
      return p;
    },
  },
  {
    operation: "packageInTransit",
    service: "order",
    method: "POST",
    path: new RegExp(`^/packages${M}/packagenumber/[\\w-]+/intransit$`),
    source: `${ORDER} model.ExternalInfoRequest`,
    query: {},
    body: (b) =>
      isObj(b)
        ? closed(
            b,
            {
              cost: N,
              deci: N,
              estimatedArrivalDate: S,
              shippedDate: S,
              tax: N,
              trackingNumber: S,
              trackingPhoneNumber: S,
              trackingUrl: S,
            },
            "",
          )
        : ["body must be an ExternalInfoRequest"],
  },
  {
    operation: "sendInvoiceLink",
    service: "order",
    method: "PUT",
    path: new RegExp(`^/packages${M}/packagenumber/[\\w-]+/invoice$`),
    source: `${ORDER} model.AddInvoiceOfPackageRequest`,
    query: {},
    body: (b) => {
      if (!isObj(b)) return ["body must be an AddInvoiceOfPackageRequest"];
      const p = closed(
        b,
        { arrangementDate: S, invoiceLink: S, invoices: A, rowNumber: S, serialNumber: S },
        "",
      );
      if (!S(b.invoiceLink) && !A(b.invoices)) p.push("invoiceLink (or invoices) required");
      return p;
    },
  },
  {
    operation: "getAllCategories",
    service: "catalog",
    method: "GET",
    path: /^\/api\/categories\/get-all-categories$/,
    source: `${OPS} getCategoriesGetAllCategories (page/size, first page 0, items in data)`,
    query: {
      page: int(0),
      size: int(1, 10_000),
      leaf: bool,
      status: (v) => (["ACTIVE", "INACTIVE", "ARCHIVED"].includes(String(v)) ? undefined : "unknown status"),
      available: bool,
      type: (v) => (["HX", "HB", "HC"].includes(String(v)) ? undefined : "unknown type"),
      version: int(1),
    },
  },
  {
    operation: "getCategoryAttributes",
    service: "catalog",
    method: "GET",
    path: /^\/api\/categories\/\d+\/attributes$/,
    source: `${OPS} getCategoriesAttributes "Kategori Özelliklerini Alma"`,
    query: { version: int(1), modifiedAtSince: str },
  },
  ...HEPSIBURADA_LISTING_OPERATIONS,
];

/** Which service a recorded path belongs to (the emulator serves them under /listing, /oms, /mpop/product). */
export function splitPath(path: string): { service: HbService; path: string } | undefined {
  for (const [prefix, service] of [
    ["/listing", "listing"],
    ["/oms", "order"],
    ["/mpop/product", "catalog"],
  ] as const)
    if (path.startsWith(`${prefix}/`)) return { service, path: path.slice(prefix.length) };
  return undefined;
}

export function findOperation(method: string, recordedPath: string): HepsiburadaOperation | undefined {
  const s = splitPath(recordedPath);
  if (!s) return undefined;
  return HEPSIBURADA_OPERATIONS.find(
    (o) => o.service === s.service && o.method === method && o.path.test(s.path),
  );
}

export const judgeHepsiburadaRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const op = findOperation(r.method, r.path);
  return op ? judgeRestCall(op, r, "Basic Auth (merchant id and service key) required") : undefined;
};
