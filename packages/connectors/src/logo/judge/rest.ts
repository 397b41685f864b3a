/**
 * The judge for the Logo REST service (`/api/v1`): the request shapes of the token grant, the revoke,
 * list reads (`offset`, `limit`, `q`, `withCount`) and the two writes the connector makes (customer
 * cards `arps`, sales orders `salesOrders`), each field naming the public source it was read from.
 * No OpenAPI of the Tiger REST service is public (artifacts-by-system.md); these are the vendor's doc
 * page and third-party code that runs against live services.
 */

import type { RecordedRequest, Verdict } from "../../testing/recorder";

export const REST_SOURCES = {
  koalaProvider:
    "erkan-dirikcan/Koala.Yedpa@1f711265278b78454d808f138a4111988ac30b4c:Koala.Yedpa.Service/Providers/LogoRestServiceProvider.cs (token: Basic clientId:clientSecret, form grant_type=password, username, firmno, password; Bearer; POST {root}/Revoke)",
  koalaOrder:
    'erkan-dirikcan/Koala.Yedpa@6ac8d7d09d5512d467dd1645b1fc36b4a4d39783:Koala.Yedpa.Core/Models/LogoJsonModels/LogoSalesOrdersJsonViewModels.cs (POST /api/v1/salesOrders: NUMBER "~", DOC_TRACK_NR, DATE, ARP_CODE, TRANSACTIONS.items[TYPE, MASTER_CODE, QUANTITY, PRICE, VAT_RATE, VAT_INCLUDED, UNIT_CODE …])',
  docsGet:
    "https://docs.logo.com.tr/public/wua/logo-objects-rest-servis/logo-rest-baslangic/rest-service-2-verileri-okumak-icin-get-islemi (GET /api/v1/items, paging of 10 by default, offset)",
  listClient:
    "code id 22300429910 (Angular client of the Logo REST service: salesOrders?offset&limit&withCount=true&q=(NUMBER like '*…*' or ARP_CODE like '*…*'); PUT by INTERNAL_REFERENCE)",
  arpClient:
    "code id 16662780067 (WinForms client: POST /api/v1/Arps with Logo.CARI.Root fields; 401 → new token; 400 → ModelState ValError0…5, LOError, OtherError, DBError; 200 → INTERNAL_REFERENCE)",
  erpsNotes:
    "../shared/partner-apis/erps.md §1a–1b (Objects field names ACCOUNT_TYPE 1/2/3, SOURCE_WH, CUST_ORD_NO)",
} as const;

/** Customer card fields (`arps`), as the WinForms client sends them. */
export const ARP_FIELDS: Record<string, string> = Object.fromEntries(
  [
    "INTERNAL_REFERENCE",
    "ACCOUNT_TYPE",
    "CODE",
    "TITLE",
    "AUXIL_CODE",
    "AUTH_CODE",
    "ADDRESS1",
    "ADDRESS2",
    "COUNTRY_CODE",
    "COUNTRY",
    "CITY_CODE",
    "CITY",
    "TOWN_CODE",
    "TOWN",
    "DISTRICT_CODE",
    "DISTRICT",
    "POSTAL_CODE",
    "CONTACT",
    "E_MAIL",
    "TELEPHONE1",
    "TELEPHONE2",
    "FAX",
    "PERSCOMPANY",
    "TCKNO",
    "NAME",
    "SURNAME",
    "TAX_OFFICE",
    "TAX_OFFICE_CODE",
    "TAX_ID",
    "ACCEPT_EINV",
    "GL_CODE",
  ].map((f) => [f, REST_SOURCES.arpClient]),
);

/** Sales order header fields (`salesOrders`). */
export const ORDER_FIELDS: Record<string, string> = {
  ...Object.fromEntries(
    [
      "NUMBER",
      "DOC_TRACK_NR",
      "DATE",
      "DOC_NUMBER",
      "AUTH_CODE",
      "ARP_CODE",
      "NOTES1",
      "NOTES2",
      "ORDER_STATUS",
      "DATE_CREATED",
      "CURRSEL_TOTAL",
      "TRANSACTIONS",
      "DOC_TRACKING_NR",
      "AFFECT_RISK",
      "EINVOICE",
    ].map((f) => [f, REST_SOURCES.koalaOrder]),
  ),
  SOURCE_WH: REST_SOURCES.erpsNotes,
  CUST_ORD_NO: REST_SOURCES.erpsNotes,
};

/** Order line fields (`TRANSACTIONS.items[]`). */
export const ORDER_LINE_FIELDS: Record<string, string> = Object.fromEntries(
  [
    "TYPE",
    "MASTER_CODE",
    "QUANTITY",
    "PRICE",
    "VAT_RATE",
    "TRANS_DESCRIPTION",
    "UNIT_CODE",
    "UNIT_CONV1",
    "UNIT_CONV2",
    "VAT_INCLUDED",
    "ORDER_CLOSED",
    "DUE_DATE",
    "EDT_CURR",
  ].map((f) => [f, REST_SOURCES.koalaOrder]),
);

/** Resources the list reads may name, with the fields a `q` filter may use. */
export const LIST_RESOURCES: Record<string, { fields: string[]; source: string }> = {
  salesorders: {
    fields: ["NUMBER", "ARP_CODE", "DIVISION", "DOC_TRACK_NR"],
    source: REST_SOURCES.listClient,
  },
  arps: { fields: ["CODE", "TITLE"], source: REST_SOURCES.arpClient },
  items: { fields: ["CODE", "NAME"], source: REST_SOURCES.docsGet },
};

const LIST_QUERY = new Set(["offset", "limit", "q", "withCount"]);
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown) =>
  (typeof v === "number" && Number.isFinite(v)) ||
  (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)));

/** `(FIELD like '…' [and|or FIELD like '…']…)`: the filter syntax of the list client (code id 22300429910). */
export function qProblems(q: string, fields: string[]): string[] {
  const body = q.trim().replace(/^\((.*)\)$/s, "$1");
  const parts = body.split(/\s+(?:and|or)\s+/i);
  const out: string[] = [];
  for (const p of parts) {
    const m = /^([A-Z_][A-Z0-9_]*)\s+like\s+'((?:[^']|'')*)'$/i.exec(p.trim());
    if (!m) out.push(`q term "${p}" is not FIELD like '…'`);
    else if (!fields.includes((m[1] as string).toUpperCase())) out.push(`q names unknown field ${m[1]}`);
  }
  return out;
}

function bearer(r: RecordedRequest, problems: string[]) {
  if (!/^Bearer \S+$/.test(first(r.headers.authorization)))
    problems.push("Authorization: Bearer <access_token> missing");
}

export function judgeLogoRestRequest(r: RecordedRequest): Verdict | undefined {
  const path = r.path.replace(/\/+/g, "/");
  const problems: string[] = [];
  if (r.method === "POST" && /^\/api\/v1\/token$/i.test(path)) {
    const auth = first(r.headers.authorization);
    const m = /^Basic (\S+)$/.exec(auth);
    const decoded = m ? Buffer.from(m[1] as string, "base64").toString("utf8") : "";
    if (!decoded.includes(":") || decoded.startsWith(":"))
      problems.push("Authorization: Basic base64(clientId:clientSecret) missing");
    if (!first(r.headers["content-type"]).startsWith("application/x-www-form-urlencoded"))
      problems.push("token body must be form-urlencoded");
    const b = isObj(r.body) ? r.body : {};
    if (b.grant_type !== "password") problems.push("grant_type must be password");
    for (const k of ["username", "password"]) if (!b[k]) problems.push(`${k} missing`);
    if (!/^\d{1,3}$/.test(String(b.firmno ?? ""))) problems.push("firmno must be the firm number");
    return { operation: "token", problems };
  }
  if (r.method === "POST" && /^\/Revoke$/i.test(path)) {
    bearer(r, problems);
    return { operation: "revoke", problems };
  }
  const list = /^\/api\/v1\/([A-Za-z]+)\/?$/.exec(path);
  if (r.method === "GET" && list) {
    const res = LIST_RESOURCES[(list[1] as string).toLowerCase()];
    if (!res) return undefined;
    bearer(r, problems);
    for (const k of Object.keys(r.query))
      if (!LIST_QUERY.has(k)) problems.push(`unknown list parameter ${k}`);
    for (const k of ["offset", "limit"])
      if (r.query[k] !== undefined && !/^\d+$/.test(String(r.query[k])))
        problems.push(`${k} must be a whole number`);
    if (r.query.withCount !== undefined && !["true", "false"].includes(String(r.query.withCount)))
      problems.push("withCount must be true or false");
    if (r.query.q !== undefined) problems.push(...qProblems(String(r.query.q), res.fields));
    return { operation: `GET ${(list[1] as string).toLowerCase()}`, problems };
  }
  if (r.method === "POST" && list) {
    const resource = (list[1] as string).toLowerCase();
    if (resource !== "arps" && resource !== "salesorders") return undefined;
    bearer(r, problems);
    if (!first(r.headers["content-type"]).startsWith("application/json")) problems.push("body must be JSON");
    const b = isObj(r.body) ? r.body : {};
    if (resource === "arps") {
      for (const k of Object.keys(b)) if (!(k in ARP_FIELDS)) problems.push(`arps has no field ${k}`);
      for (const k of ["CODE", "TITLE"])
        if (typeof b[k] !== "string" || !(b[k] as string).trim()) problems.push(`${k} is required`);
      if (![1, 2, 3].includes(Number(b.ACCOUNT_TYPE)))
        problems.push("ACCOUNT_TYPE must be 1 (buyer), 2 (seller) or 3 (both)");
      if (typeof b.CODE === "string" && b.CODE.length > 17)
        problems.push("CODE longer than 17 characters (inferred limit)");
      return { operation: "POST arps", problems };
    }
    for (const k of Object.keys(b)) if (!(k in ORDER_FIELDS)) problems.push(`salesOrders has no field ${k}`);
    if (typeof b.NUMBER !== "string" || !b.NUMBER) problems.push('NUMBER is required ("~" = next number)');
    if (typeof b.DATE !== "string" || Number.isNaN(Date.parse(String(b.DATE))))
      problems.push("DATE must be a date-time");
    if (typeof b.ARP_CODE !== "string" || !b.ARP_CODE) problems.push("ARP_CODE is required");
    const tx = isObj(b.TRANSACTIONS) ? b.TRANSACTIONS.items : undefined;
    if (!Array.isArray(tx) || tx.length === 0) problems.push("TRANSACTIONS.items must list the lines");
    else
      for (const l of tx) {
        if (!isObj(l)) {
          problems.push("line must be an object");
          continue;
        }
        for (const k of Object.keys(l))
          if (!(k in ORDER_LINE_FIELDS)) problems.push(`order line has no field ${k}`);
        if (!isNum(l.TYPE)) problems.push("line TYPE must be a number");
        if (typeof l.MASTER_CODE !== "string" || !l.MASTER_CODE)
          problems.push("line MASTER_CODE is required");
        if (!isNum(l.QUANTITY) || Number(l.QUANTITY) <= 0) problems.push("line QUANTITY must be > 0");
        if (l.PRICE !== undefined && (!isNum(l.PRICE) || Number(l.PRICE) < 0))
          problems.push("line PRICE must be ≥ 0");
      }
    return { operation: "POST salesOrders", problems };
  }
  return undefined;
}
