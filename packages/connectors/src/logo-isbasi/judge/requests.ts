/**
 * The judge for Logo İşbaşı: each recorded request must be one of the endpoints of ./shapes.ts, carry the
 * headers its source shows (ApiKey always; Bearer token and tenantId after the login) and a body of the
 * documented shape. Anything else fails the suite.
 */

import type { RecordedRequest, Verdict } from "../../testing/recorder";
import { ISBASI_ENDPOINTS, NUMERIC_OPERATORS, TEXT_OPERATORS } from "./shapes";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";
const header = (r: RecordedRequest, name: string) => {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

function listBody(b: unknown): string[] {
  if (!isObj(b)) return ["list body must be an object"];
  const p: string[] = [];
  if (!Array.isArray(b.filters)) p.push("filters must be an array");
  else
    for (const f of b.filters) {
      if (!isObj(f) || !nonEmpty(f.columnName)) p.push("filter.columnName missing");
      else if (
        !NUMERIC_OPERATORS.includes(f.operator as number) &&
        !TEXT_OPERATORS.includes(f.operator as string)
      )
        p.push(`filter.operator ${String(f.operator)} unknown`);
    }
  if (!isObj(b.sorting)) p.push("sorting must be an object {column: Asc|Desc}");
  const paging = b.paging;
  if (!isObj(paging) || !Number.isInteger(paging.currentPage) || (paging.currentPage as number) < 1)
    p.push("paging.currentPage must be ≥ 1");
  else if (
    !Number.isInteger(paging.pageSize) ||
    (paging.pageSize as number) < 1 ||
    (paging.pageSize as number) > 100
  )
    p.push("paging.pageSize must be 1..100");
  if (typeof b.count !== "boolean") p.push("count must be a boolean");
  return p;
}

function invoiceBody(b: unknown): string[] {
  if (!isObj(b)) return ["body must be an object"];
  const p: string[] = [];
  if (b.invoiceId !== 0) p.push("invoiceId must be 0 for a new invoice");
  const c = b.customer;
  if (!isObj(c)) p.push("customer missing");
  else
    for (const k of ["address", "tcknVkn", "city", "district", "postalCode"])
      if (!nonEmpty(c[k])) p.push(`customer.${k} is required`);
  if (typeof b.invoiceDate !== "string" || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(b.invoiceDate))
    p.push("invoiceDate must be yyyy-MM-dd HH:mm:ss");
  if (b.currency === "TRY") p.push("currency is 'TL', not 'TRY'");
  if (!Array.isArray(b.salesInvoiceDetails) || b.salesInvoiceDetails.length === 0)
    p.push("salesInvoiceDetails must list lines");
  else
    for (const l of b.salesInvoiceDetails) {
      if (
        !isObj(l) ||
        typeof l.quantity !== "number" ||
        typeof l.price !== "number" ||
        typeof l.taxRate !== "number"
      )
        p.push("line needs numeric quantity, price, taxRate");
      else if (
        !isObj(l.productDetail) ||
        !nonEmpty(l.productDetail.itemCode) ||
        ![1, 2].includes(l.productDetail.itemType as number)
      )
        p.push("line.productDetail needs itemCode and itemType 1|2");
    }
  return p;
}

function firmBody(b: unknown): string[] {
  if (!isObj(b)) return ["body must be an object"];
  const p: string[] = [];
  if (b.id !== 0) p.push("a new card is id 0");
  if (!nonEmpty(b.code) || !nonEmpty(b.name)) p.push("code and name are required");
  if (b.phone !== undefined && !Array.isArray(b.phoneNumbers))
    p.push("phone alone is not stored: send phoneNumbers");
  return p;
}

export function judgeIsbasiRequest(r: RecordedRequest): Verdict | undefined {
  const m = /\/api\/v1\.0\/(.+)$/.exec(r.path);
  if (!m) return undefined;
  const rest = m[1] as string;
  const ep = ISBASI_ENDPOINTS.find(
    (e) => e.method === r.method && new RegExp(`^${e.path.replace(":id", "\\d+")}$`).test(rest),
  );
  if (!ep) return undefined;
  const p: string[] = [];
  if (!nonEmpty(header(r, "apikey"))) p.push("ApiKey header missing");
  if (ep.authed) {
    if (!/^Bearer \S+$/.test(header(r, "authorization") ?? "")) p.push("Authorization: Bearer missing");
    if (!nonEmpty(header(r, "tenantid"))) p.push("tenantId header missing");
  }
  if (ep.operation === "integrationLogin") {
    const b = r.body;
    if (!isObj(b) || !nonEmpty(b.username) || !nonEmpty(b.password))
      p.push("login body needs username and password");
  } else if (["listProducts", "listFirms", "listInvoices"].includes(ep.operation))
    p.push(...listBody(r.body));
  else if (ep.operation === "integrationInvoices") p.push(...invoiceBody(r.body));
  else if (ep.operation === "saveFirm") p.push(...firmBody(r.body));
  return { operation: ep.operation, problems: p };
}
