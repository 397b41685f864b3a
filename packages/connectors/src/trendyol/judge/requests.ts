/**
 * The Trendyol judge, request shapes: every operation the connector sends, with its path, query and body
 * as Trendyol's developer documentation (developers.trendyol.com, TR "docs/…" and v3.0 pages) gives them,
 * checked against a live-tested client of another author (bberka/TrendyolSharp @1c70f0c7: paths of
 * filterProducts, updatePriceAndInventory, getBatchRequestResult, getShipmentPackages, updatePackage,
 * updateTrackingNumber, sendInvoiceLink). Headers, limits and retirements are runtime rules (rules.ts).
 * Written from the pages, never copied. A request no operation matches fails as unknown.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import {
  boolParam as bool,
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
import { TRENDYOL_LISTING_OPERATIONS } from "./listing-requests";

export interface TrendyolOperation {
  operation: string;
  method: "GET" | "POST" | "PUT";
  path: RegExp;
  /** Where the shape is stated. */
  source: string;
  query: Record<string, QueryCheck>;
  body?: (b: unknown) => string[];
}

const SELLER = "/sellers/\\d+";
const seller = (area: string, rest: string) => new RegExp(`^${area}${SELLER}${rest}$`);
const DOCS = "https://developers.trendyol.com/docs";

export const PACKAGE_STATUSES = [
  "Awaiting",
  "Created",
  "Picking",
  "Invoiced",
  "Shipped",
  "Cancelled",
  "Delivered",
  "UnDelivered",
  "Returned",
  "Repack",
  "UnSupplied",
];

/** Claim item statuses (İade Entegrasyonu: "Kullanılabilen Statüler"). */
export const CLAIM_ITEM_STATUSES = [
  "Created",
  "WaitingInAction",
  "Accepted",
  "Cancelled",
  "Rejected",
  "Unresolved",
  "InAnalysis",
];

export const TRENDYOL_OPERATIONS: TrendyolOperation[] = [
  {
    operation: "filterProducts",
    method: "GET",
    path: seller("/product", "/products"),
    source: `${DOCS}/ürün-filtreleme-filterproducts (page 0-based; approved size ≤ 100); TrendyolSharp GetProductsAsync`,
    query: {
      approved: bool,
      page: int(0),
      size: int(1, 1000),
      barcode: str,
      stockCode: str,
      productMainId: str,
      startDate: int(0),
      endDate: int(0),
      dateQueryType: oneOf("CREATED_DATE", "LAST_MODIFIED_DATE"),
      archived: bool,
      onSale: bool,
    },
  },
  {
    operation: "getCategoryTree",
    method: "GET",
    path: /^\/product\/product-categories$/,
    source: `${DOCS}/trendyol-kategori-listesi-getcategorytree; TrendyolSharp GetCategoryTreeAsync`,
    query: {},
  },
  {
    operation: "getCategoryAttributes",
    method: "GET",
    path: /^\/product\/product-categories\/\d+\/attributes$/,
    source: `${DOCS}/trendyol-kategori-özellik-listesi-getcategoryattributes; TrendyolSharp GetCategoryAttributesAsync`,
    query: {},
  },
  {
    operation: "updatePriceAndInventory",
    method: "POST",
    path: seller("/inventory", "/products/price-and-inventory"),
    source: `${DOCS}/stok-ve-fiyat-güncelleme-updatepriceandinventory; TrendyolSharp UpdatePriceAndInventoryAsync`,
    query: {},
    body: (b) => {
      if (!isObj(b) || !Array.isArray(b.items)) return ["body must be { items: [...] }"];
      const p = fields(b, ["items"], ["items"], "");
      if (b.items.length === 0) p.push("items must not be empty");
      b.items.forEach((it, i) => {
        const at = `items[${i}].`;
        if (!isObj(it)) {
          p.push(`${at} must be an object`);
          return;
        }
        p.push(...fields(it, ["barcode", "quantity", "salePrice", "listPrice"], ["barcode"], at));
        if (typeof it.barcode !== "string" || it.barcode === "") p.push(`${at}barcode must be a string`);
        if (it.quantity !== undefined && !(Number.isInteger(it.quantity) && (it.quantity as number) >= 0))
          p.push(`${at}quantity must be a whole number ≥ 0`);
        for (const k of ["salePrice", "listPrice"])
          if (it[k] !== undefined && !(isNum(it[k]) && (it[k] as number) > 0))
            p.push(`${at}${k} must be a positive number`);
        if (it.quantity === undefined && it.salePrice === undefined && it.listPrice === undefined)
          p.push(`${at} carries neither stock nor price`);
      });
      return p;
    },
  },
  {
    operation: "getBatchRequestResult",
    method: "GET",
    path: seller("/product", "/products/batch-requests/[\\w-]+"),
    source: `${DOCS}/toplu-işlem-kontrolü-getbatchrequestresult; TrendyolSharp GetBatchRequestResultAsync`,
    query: {},
  },
  {
    operation: "getShipmentPackagesStream",
    method: "GET",
    path: seller("/order", "/orders/stream"),
    source: `${DOCS}/sipariş-paketlerini-akış-ile-çekme (lastModifiedStartDate/EndDate ms, cursor, hasMore/nextCursor)`,
    query: {
      lastModifiedStartDate: int(0),
      lastModifiedEndDate: int(0),
      size: int(1, 200),
      cursor: str,
      status: oneOf(...PACKAGE_STATUSES),
    },
  },
  {
    operation: "getClaims",
    method: "GET",
    path: seller("/order", "/claims"),
    source: `https://developers.trendyol.com/tr/reference/getclaims (startDate/endDate int64 ms on the claim's creation, page from 0, size ≤ 200, claimItemStatus, orderNumber, claimIds); ${DOCS}/i̇ade-entegrasyonu (statuses); claims.ts`,
    query: {
      startDate: int(0),
      endDate: int(0),
      page: int(0),
      size: int(1, 200),
      claimItemStatus: oneOf(...CLAIM_ITEM_STATUSES),
      orderNumber: str,
      claimIds: ids,
    },
  },
  {
    operation: "getShipmentPackages",
    method: "GET",
    path: seller("/order", "/orders"),
    source: `${DOCS}/sipariş-paketlerini-çekme-getshipmentpackages; TrendyolSharp GetShipmentPackagesAsync`,
    query: {
      startDate: int(0),
      endDate: int(0),
      page: int(0, 49),
      size: int(1, 200),
      orderNumber: str,
      status: oneOf(...PACKAGE_STATUSES),
      orderByField: oneOf("PackageLastModifiedDate", "CreatedDate"),
      orderByDirection: oneOf("ASC", "DESC"),
      shipmentPackageIds: ids,
    },
  },
  {
    operation: "updatePackage",
    method: "PUT",
    path: seller("/order", "/shipment-packages/\\d+"),
    source: `${DOCS}/paket-statü-bildirimi-updatepackage; TrendyolSharp UpdatePackageStatusAsync (Lines, Params, Status)`,
    query: {},
    body: (b) => {
      if (!isObj(b)) return ["body must be an object"];
      const p = fields(b, ["lines", "params", "status"], ["lines", "params", "status"], "");
      if (!["Picking", "Invoiced"].includes(String(b.status))) p.push("status must be Picking or Invoiced");
      if (!Array.isArray(b.lines) || b.lines.length === 0) p.push("lines must list the package's lines");
      else
        b.lines.forEach((l, i) => {
          if (!isObj(l) || !Number.isInteger(l.lineId) || !Number.isInteger(l.quantity))
            p.push(`lines[${i}] must be { lineId, quantity } numbers`);
        });
      if (b.params !== undefined && !isObj(b.params)) p.push("params must be an object");
      else if (isObj(b.params)) p.push(...fields(b.params, ["invoiceNumber"], [], "params."));
      return p;
    },
  },
  {
    operation: "updateTrackingNumber",
    method: "PUT",
    path: seller("/order", "/shipment-packages/\\d+/update-tracking-number"),
    source: `${DOCS}/kargo-takip-kodu-bildirme-updatetrackingnumber; TrendyolSharp RequestUpdateTrackingNumber (TrackingNumber)`,
    query: {},
    body: (b) =>
      !isObj(b)
        ? ["body must be an object"]
        : [
            ...fields(b, ["trackingNumber"], ["trackingNumber"], ""),
            ...(typeof b.trackingNumber === "string" ? [] : ["trackingNumber must be a string"]),
          ],
  },
  {
    operation: "sendInvoiceLink",
    method: "POST",
    path: /^\/sellers\/\d+\/seller-invoice-links$/,
    source: `${DOCS}/fatura-linki-gönderme-sendinvoicelink; TrendyolSharp RequestSendInvoiceLink`,
    query: {},
    body: (b) => {
      if (!isObj(b)) return ["body must be an object"];
      const p = fields(
        b,
        ["invoiceLink", "shipmentPackageId", "invoiceDateTime", "invoiceNumber"],
        ["invoiceLink", "shipmentPackageId"],
        "",
      );
      if (typeof b.invoiceLink !== "string" || !/^https?:\/\//.test(b.invoiceLink))
        p.push("invoiceLink must be a URL");
      if (!Number.isInteger(b.shipmentPackageId)) p.push("shipmentPackageId must be a number");
      if (b.invoiceDateTime !== undefined && !/^\d{10}(\d{3})?$/.test(String(b.invoiceDateTime)))
        p.push("invoiceDateTime must be 10 (s) or 13 (ms) digits");
      if (b.invoiceNumber !== undefined && !/^[A-Za-z0-9]{3}20\d{2}\d{9}$/.test(String(b.invoiceNumber)))
        p.push("invoiceNumber must be 3 alphanumerics, a year 2020-2099 and 9 digits");
      return p;
    },
  },
  ...TRENDYOL_LISTING_OPERATIONS,
  // Product V1 writes: known so their use is judged by the retirement rule rather than as unknown.
  {
    operation: "createProducts.v1",
    method: "POST",
    path: seller("/product", "/products"),
    source: `${DOCS}/ürün-aktarma-v2-createproducts (V1 retired); TrendyolSharp CreateProductsAsync still posts here`,
    query: {},
  },
  {
    operation: "updateProducts.v1",
    method: "PUT",
    path: seller("/product", "/products"),
    source: "https://developers.trendyol.com/v3.0/docs/3-product-update (V1 invalid from 10 Aug 2026)",
    query: {},
  },
];

/** The API's own path: the part after `/integration`. */
export function apiPath(path: string): string {
  return path.replace(/^.*?\/integration(?=\/)/, "");
}

export function findOperation(method: string, path: string): TrendyolOperation | undefined {
  const p = apiPath(path);
  return TRENDYOL_OPERATIONS.find((o) => o.method === method && o.path.test(p));
}

export const judgeTrendyolRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const op = findOperation(r.method, r.path);
  return op ? judgeRestCall(op, r, "Basic Auth with API key and secret required") : undefined;
};
