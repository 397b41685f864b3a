/**
 * The T-Soft judge, part 1: the request shapes public REST1 code sends (./sources.ts). Every request the
 * connector sends in its contract tests is checked here; a request the judge rejects or does not know
 * fails the suite. Each rule says where it comes from; `inferred` marks what no source shows.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { SOURCES, type Source } from "./sources";

type Form = Record<string, unknown>;

export interface OperationRule {
  /** REST1 path after `/rest1/`. */
  operation: string;
  source: Source;
  /** What the source shows, in our words. */
  evidence: string;
  /** Form fields besides `token`: name → check (returns a problem or undefined). */
  params: Record<string, (v: unknown) => string | undefined>;
  required: string[];
  /** For writes: the JSON `data` rows' allowed keys and required keys. */
  data?: { allowed: readonly string[]; required: readonly string[]; inferredKeys?: readonly string[] };
  /** Parts of the rule no source shows. */
  inferred?: string;
}

const numeric = (v: unknown) =>
  typeof v === "string" && /^\d+$/.test(v) ? undefined : "must be a numeric string";
const upTo = (max: number) => (v: unknown) =>
  numeric(v) ?? (Number(v) <= max ? undefined : `must be at most ${max}`);
const bool = (v: unknown) => (v === "true" || v === "false" ? undefined : "must be 'true' or 'false'");
const text = (v: unknown) => (typeof v === "string" && v !== "" ? undefined : "must be a non-empty string");
const dateTime = (v: unknown) =>
  typeof v === "string" && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v)
    ? undefined
    : "must be 'yyyy-MM-dd HH:mm:ss'";
const pipeList = (v: unknown) =>
  typeof v === "string" && v.split("|").every((s) => s !== "") ? undefined : "must be codes joined by '|'";

/** The product fields `product/setProducts` is seen with (code id 5968666097). */
export const PRODUCT_FIELDS = [
  "ProductCode",
  "ProductName",
  "DefaultCategoryCode",
  "SupplierProductCode",
  "Barcode",
  "Stock",
  "StockUnit",
  "IsActive",
  "Vat",
  "Currency",
  "BuyingPrice",
  "SellingPrice",
  "ImageUrl",
  "Brand",
  "Model",
  "HasSubProducts",
  "ShortDescription",
  "Details",
  "ListNo",
] as const;

/** The sub-product fields `subProduct/addSubProducts` is seen with (code id 5745967012). */
export const SUB_PRODUCT_FIELDS = [
  "MainProductCode",
  "SubProductCode",
  "Barcode",
  "SupplierSubProductCode",
  "Property1GroupId",
  "Property2GroupId",
  "Property1",
  "Property2",
  "BuyingPrice",
  "SellingPrice",
  "VendorSellingPrice",
  "Stock",
  "IsActive",
] as const;

export const OPERATION_RULES: OperationRule[] = [
  {
    operation: "product/get",
    source: SOURCES.client,
    evidence:
      "Paged with start/limit (limit 500), FetchDetails and StockFields 'true'; ProductCode as codes joined by '|'; CategoryIds. FetchSubProducts 'true' from code id 37237612763.",
    params: {
      start: numeric,
      limit: upTo(500),
      FetchDetails: bool,
      StockFields: bool,
      FetchSubProducts: bool,
      ProductCode: pipeList,
      CategoryIds: pipeList,
    },
    required: ["limit"],
    inferred: "500 as the largest page is what the client asks for, not a published maximum.",
  },
  {
    operation: "category/getCategories",
    source: SOURCES.client,
    evidence: "Called with limit '500'; rows CategoryId, CategoryName, ParentCode.",
    params: { limit: upTo(500), start: numeric },
    required: [],
  },
  {
    operation: "order/get",
    source: SOURCES.orderClient,
    evidence:
      "OrderDateTimeStart/End as 'yyyy-MM-dd HH:mm:ss', FetchProductData 'true', start/limit (limit 200); same call in code id 52484842784.",
    params: {
      OrderDateTimeStart: dateTime,
      OrderDateTimeEnd: dateTime,
      FetchProductData: bool,
      start: numeric,
      limit: upTo(200),
    },
    required: ["OrderDateTimeStart", "OrderDateTimeEnd", "limit"],
    inferred: "The time zone of the date parameters (the clients format UTC).",
  },
  {
    operation: "product/setProducts",
    source: SOURCES.setProducts,
    evidence: "token + data = JSON list of products, every value a string except HasSubProducts (boolean).",
    params: { data: text },
    required: ["data"],
    data: { allowed: PRODUCT_FIELDS, required: ["ProductCode", "ProductName"] },
  },
  {
    operation: "product/updateProducts",
    source: SOURCES.pilotNotes,
    evidence:
      "Price and stock of main products are written with product/updateProducts and a JSON data field.",
    params: { data: text },
    required: ["data"],
    data: { allowed: PRODUCT_FIELDS, required: ["ProductCode"] },
    inferred: "The row keys: the notes name none; we take setProducts' fields (ProductCode as the key).",
  },
  {
    operation: "subProduct/addSubProducts",
    source: SOURCES.addSubProducts,
    evidence:
      "token + data = JSON list of sub products keyed by MainProductCode + SubProductCode, values strings.",
    params: { data: text },
    required: ["data"],
    data: { allowed: SUB_PRODUCT_FIELDS, required: ["MainProductCode", "SubProductCode"] },
  },
  {
    operation: "subProduct/setSubProducts",
    source: SOURCES.setSubProducts,
    evidence:
      "token + data = JSON list of {MainProductCode, SubProductCode, Stock, IsActive}, values strings.",
    params: { data: text },
    required: ["data"],
    data: {
      allowed: SUB_PRODUCT_FIELDS,
      required: ["MainProductCode", "SubProductCode"],
      inferredKeys: ["Barcode", "Property1", "Property2", "SellingPrice"],
    },
    inferred: "Keys other than Stock/IsActive (price, barcode, options) are addSubProducts' fields.",
  },
];

const RULES = new Map(OPERATION_RULES.map((r) => [r.operation.toLowerCase(), r]));

function dataProblems(raw: unknown, spec: NonNullable<OperationRule["data"]>): string[] {
  let rows: unknown;
  try {
    rows = JSON.parse(String(raw));
  } catch {
    return ["data must be JSON"];
  }
  if (!Array.isArray(rows) || rows.length === 0) return ["data must be a non-empty JSON list"];
  const p: string[] = [];
  rows.forEach((row: unknown, i) => {
    if (!row || typeof row !== "object" || Array.isArray(row)) {
      p.push(`data[${i}] must be an object`);
      return;
    }
    const r = row as Record<string, unknown>;
    for (const k of spec.required)
      if (typeof r[k] !== "string" || r[k] === "") p.push(`data[${i}].${k} required`);
    for (const [k, v] of Object.entries(r)) {
      if (!spec.allowed.includes(k)) p.push(`data[${i}].${k} is not a field the sources show`);
      else if (k === "HasSubProducts" ? typeof v !== "boolean" : typeof v !== "string")
        p.push(`data[${i}].${k} must be ${k === "HasSubProducts" ? "a boolean" : "a string"}`);
    }
  });
  return p;
}

function formOf(r: RecordedRequest): Form | undefined {
  return r.body && typeof r.body === "object" && !Array.isArray(r.body) ? (r.body as Form) : undefined;
}

/** Judge one recorded request against the REST1 request shapes. */
export const judgeTsoftRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const login = /^\/rest1\/auth\/login\/([^/]+)$/.exec(r.path);
  if (login) {
    // Login: POST with user/pass as query (code id 52484842784) or form (code id 53894632071).
    const form = formOf(r) ?? {};
    const pass = form.pass ?? r.query.pass;
    const p: string[] = [];
    if (r.method !== "POST") p.push("must be POST");
    if (typeof pass !== "string" || pass === "") p.push("pass required (form or query)");
    const user = form.user ?? r.query.user;
    if (user !== undefined && user !== decodeURIComponent(login[1] ?? "")) p.push("user must match the path");
    return { operation: "auth/login", problems: p };
  }
  const m = /^\/rest1\/(.+)$/.exec(r.path);
  const rule = m ? RULES.get((m[1] ?? "").replace(/\/+$/, "").toLowerCase()) : undefined;
  if (!rule) return undefined;
  const p: string[] = [];
  if (r.method !== "POST") p.push("must be POST");
  const ct = String(r.headers["content-type"] ?? "");
  if (!ct.startsWith("application/x-www-form-urlencoded")) p.push("body must be form-encoded");
  const form = formOf(r) ?? {};
  if (typeof form.token !== "string" || form.token === "") p.push("token required in the form");
  for (const k of rule.required) if (form[k] === undefined) p.push(`${k} required`);
  for (const [k, v] of Object.entries(form)) {
    if (k === "token") continue;
    const check = rule.params[k];
    if (!check) p.push(`${k} is not a parameter the sources show`);
    else {
      const problem = check(v);
      if (problem) p.push(`${k} ${problem}`);
    }
  }
  if (rule.data && form.data !== undefined) p.push(...dataProblems(form.data, rule.data));
  return { operation: rule.operation, problems: p };
};
