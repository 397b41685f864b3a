/**
 * The Trendyol judge, listing shapes (issue 37): the brand lists and product create V2, as Trendyol's
 * developer documentation gives them — the TR page "Ürün Yaratma v2" (docs/ürün-yaratma-v2, updatedAt
 * 2026-09-11) with its parameter table, the endpoint tables of docs/ürün-v2-api-endpoint and
 * v3.0/docs/product-v2-api-endpoint (path `POST /product/sellers/{sellerId}/v2/products`), and the
 * reference page `reference/createproducts` (OpenAPI 3.0.3: `items` ≤ 1000, attributes as
 * `attributeValueIds` array or `attributeValue` string). Written from the pages, never copied.
 */

import {
  bodyFields as fields,
  intParam as int,
  isFiniteNumber as isNum,
  isRow as isObj,
  type QueryCheck,
  strParam as str,
} from "../../testing/rest-judge";

/** The shape of requests.ts's `TrendyolOperation` (not imported: requests.ts imports this file). */
interface ListingOperation {
  operation: string;
  method: "GET" | "POST";
  path: RegExp;
  source: string;
  query: Record<string, QueryCheck>;
  body?: (b: unknown) => string[];
}

const DOCS = "https://developers.trendyol.com/docs";
const ITEM_FIELDS = [
  "barcode",
  "title",
  "productMainId",
  "brandId",
  "categoryId",
  "quantity",
  "stockCode",
  "dimensionalWeight",
  "description",
  "currencyType",
  "listPrice",
  "salePrice",
  "vatRate",
  "cargoCompanyId",
  "deliveryOption",
  "images",
  "attributes",
  "shipmentAddressId",
  "returningAddressId",
];
const REQUIRED = [
  "barcode",
  "title",
  "productMainId",
  "brandId",
  "categoryId",
  "quantity",
  "stockCode",
  "description",
  "currencyType",
  "listPrice",
  "salePrice",
  "vatRate",
  "images",
  "attributes",
];

function createItemProblems(it: unknown, at: string): string[] {
  if (!isObj(it)) return [`${at} must be an object`];
  const p = fields(it, ITEM_FIELDS, REQUIRED, at);
  if (typeof it.barcode !== "string" || !/^[A-Za-z0-9._-]{1,40}$/.test(it.barcode))
    p.push(`${at}barcode: letters, digits and . - _ only, at most 40`);
  if (typeof it.title !== "string" || it.title.length === 0 || it.title.length > 100)
    p.push(`${at}title must be 1-100 characters`);
  if (typeof it.productMainId !== "string" || it.productMainId.length > 40)
    p.push(`${at}productMainId must be a string of at most 40`);
  if (typeof it.stockCode !== "string" || it.stockCode.length > 100)
    p.push(`${at}stockCode must be a string of at most 100`);
  for (const k of ["brandId", "categoryId"])
    if (!Number.isInteger(it[k])) p.push(`${at}${k} must be a whole number`);
  if (!(Number.isInteger(it.quantity) && (it.quantity as number) >= 0))
    p.push(`${at}quantity must be a whole number ≥ 0`);
  for (const k of ["listPrice", "salePrice"])
    if (!(isNum(it[k]) && (it[k] as number) > 0)) p.push(`${at}${k} must be a positive number`);
  if (isNum(it.listPrice) && isNum(it.salePrice) && (it.listPrice as number) < (it.salePrice as number))
    p.push(`${at}listPrice must not be below salePrice`);
  if (it.currencyType !== "TRY") p.push(`${at}currencyType must be TRY`);
  if (![0, 1, 10, 20].includes(it.vatRate as number)) p.push(`${at}vatRate must be 0, 1, 10 or 20`);
  if (!Array.isArray(it.images) || it.images.some((i) => !isObj(i) || typeof i.url !== "string"))
    p.push(`${at}images must be [{ url }]`);
  if (!Array.isArray(it.attributes)) p.push(`${at}attributes must be an array`);
  else
    it.attributes.forEach((a, j) => {
      const aAt = `${at}attributes[${j}].`;
      if (!isObj(a)) {
        p.push(`${aAt} must be an object`);
        return;
      }
      p.push(...fields(a, ["attributeId", "attributeValueIds", "attributeValue"], ["attributeId"], aAt));
      if (!Number.isInteger(a.attributeId)) p.push(`${aAt}attributeId must be a whole number`);
      const ids = a.attributeValueIds;
      const byIds = Array.isArray(ids) && ids.length > 0 && ids.every((v) => Number.isInteger(v));
      const byText = typeof a.attributeValue === "string" && a.attributeValue !== "";
      if (byIds === byText) p.push(`${aAt} needs attributeValueIds (numbers) or attributeValue, one of them`);
    });
  return p;
}

export const TRENDYOL_LISTING_OPERATIONS: ListingOperation[] = [
  {
    operation: "getBrands",
    method: "GET",
    path: /^\/product\/brands$/,
    source: `${DOCS}/trendyol-marka-listesi-getbrands (page, size ≤ 1000); TrendyolSharp GetBrandsAsync`,
    query: { page: int(0), size: int(1, 1000) },
  },
  {
    operation: "getBrandsByName",
    method: "GET",
    path: /^\/product\/brands\/by-name$/,
    source: `${DOCS}/trendyol-marka-listesi-getbrands (by-name?name=, case sensitive)`,
    query: { name: str },
  },
  {
    operation: "createProducts.v2",
    method: "POST",
    path: /^\/product\/sellers\/\d+\/v2\/products$/,
    source: `${DOCS}/ürün-yaratma-v2; v3.0/docs/product-v2-api-endpoint; reference/createproducts (OpenAPI)`,
    query: {},
    body: (b) => {
      if (!isObj(b) || !Array.isArray(b.items)) return ["body must be { items: [...] }"];
      const p = fields(b, ["items"], ["items"], "");
      if (b.items.length === 0) p.push("items must not be empty");
      b.items.forEach((it, i) => {
        p.push(...createItemProblems(it, `items[${i}].`));
      });
      return p;
    },
  },
];
