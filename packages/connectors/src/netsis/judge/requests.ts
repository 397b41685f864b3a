/**
 * The judge for Netsis, part 2: every request the connector sends in its contract tests is checked
 * against the DLL's routes (user-string heap: `api/v2/token`, `Items/`, `ARPs/`, `ItemSlips/`,
 * `ItemSlips/MainInfo/`, `Queries/`), the token form fields (`grant_type`, `branchcode`, `username`,
 * `password`, `dbname`, `dbuser`, `dbpassword`, `dbtype`, …), the list query (`limit`, `offset`, `sort`,
 * `fields`, `q`, …) and the request models of ./models.ts. A `Queries` body must be one SELECT over the
 * tables the connector is allowed to read.
 */

import type { AST } from "node-sql-parser";
import { sqlParser } from "../../sdk/sql-parser";
import type { RecordedRequest, Verdict } from "../../testing/recorder";
import {
  filterProblems,
  MODELS,
  modelProblems,
  NETOPENX,
  NETSIS_SQL_TABLES,
  requiredProblems,
  sortProblems,
} from "./models";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A list route and the model its `q`/`sort`/`fields` name (the row type of its TSelectData<T>). */
const LIST_ROUTES: Record<string, string> = {
  "/api/v2/Items/": "ItemsPrimInfo",
  "/api/v2/ARPs/": "ARPsPrimInfo",
  "/api/v2/ItemSlips/MainInfo/": "ItemSlipsHeader",
};
/** Body routes and their DLL model. */
const POST_ROUTES: Record<string, "ARPs" | "ItemSlips" | "QueryParam"> = {
  "/api/v2/ARPs/": "ARPs",
  "/api/v2/ItemSlips/": "ItemSlips",
  "/api/v2/Queries/": "QueryParam",
};

const text = (v: unknown) => (typeof v === "string" ? v : Array.isArray(v) ? String(v[0] ?? "") : "");

function tokenProblems(body: unknown): string[] {
  if (!isObj(body)) return ["token: form body expected (application/x-www-form-urlencoded)"];
  const out: string[] = [];
  for (const k of Object.keys(body))
    if (!NETOPENX.tokenForm.includes(k)) out.push(`token: ${k} is not a form field of the DLL's login`);
  if (body.grant_type === "refresh_token") {
    if (!text(body.refresh_token)) out.push("token: refresh_token missing");
    return out;
  }
  if (body.grant_type !== "password") out.push("token: grant_type must be password or refresh_token");
  for (const k of ["username", "password", "dbname", "dbuser"])
    if (!text(body[k])) out.push(`token: ${k} missing`);
  if (!/^\d+$/.test(text(body.branchcode))) out.push("token: branchcode must be a whole number");
  if (
    body.dbtype !== undefined &&
    !Object.values(NETOPENX.enums.JNVTTipi).map(String).includes(text(body.dbtype))
  )
    out.push("token: dbtype must be a JNVTTipi number");
  return out;
}

function listProblems(query: Obj, model: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (!NETOPENX.listQuery.includes(k)) {
      out.push(`query ${k} is not a SelectFilter parameter`);
      continue;
    }
    const s = text(v);
    if ((k === "limit" || k === "offset") && !/^\d+$/.test(s)) out.push(`${k} must be a whole number`);
    if (k === "limit" && s === "0") out.push("limit must be ≥ 1");
    if (k === "q") out.push(...filterProblems(s, model));
    if (k === "sort") out.push(...sortProblems(s, model));
    if (k === "fields")
      for (const f of s.split(","))
        if (MODELS[model]?.properties[f.trim()] === undefined)
          out.push(`fields: ${f} is not a property of ${model}`);
  }
  return out;
}

/** One SELECT, over the known tables and their columns only. */
export function sqlProblems(sql: string): string[] {
  // The T-SQL build only, loaded on the first check: a server that imports this judge through the
  // package's index must not carry every dialect's parser (sdk/sql-parser.ts).
  const parser = sqlParser("TransactSQL");
  let ast: AST | AST[];
  try {
    ast = parser.astify(sql, { database: "TransactSQL" });
  } catch (e) {
    return [`TSql does not parse as T-SQL: ${(e as Error).message.slice(0, 120)}`];
  }
  const list = Array.isArray(ast) ? ast : [ast];
  if (list.length !== 1 || list[0]?.type !== "select") return ["TSql must be exactly one SELECT"];
  const out: string[] = [];
  let tables: string[];
  let columns: string[];
  try {
    tables = parser.tableList(sql, { database: "TransactSQL" });
    columns = parser.columnList(sql, { database: "TransactSQL" });
  } catch (e) {
    return [`TSql: ${(e as Error).message.slice(0, 120)}`];
  }
  const names = tables.map((t) => (t.split("::").pop() ?? "").toUpperCase());
  for (const t of names) if (!NETSIS_SQL_TABLES[t]) out.push(`TSql reads ${t}, not a table the judge knows`);
  const known = new Set(names.flatMap((t) => NETSIS_SQL_TABLES[t] ?? []));
  for (const c of columns) {
    const col = (c.split("::").pop() ?? "").toUpperCase();
    if (col !== "(.*)" && !known.has(col)) out.push(`TSql names column ${col}, not in ${names.join(", ")}`);
  }
  return out;
}

/**
 * The DLL's routes end in "/" ("Items/"); ASP.NET Web API routing matches them with or without it
 * (inferred), and a proxy in between may drop it: both spellings are the same route.
 */
export function netsisRoute(path: string): string {
  return path.startsWith("/api/v2/") && path !== "/api/v2/token" && !path.endsWith("/") ? `${path}/` : path;
}

export function judgeNetsisRequest(r: RecordedRequest): Verdict | undefined {
  const path = netsisRoute(r.path);
  if (r.method === "POST" && path === "/api/v2/token")
    return { operation: "token", problems: tokenProblems(r.body) };
  if (!path.startsWith("/api/v2/")) return undefined;
  const problems: string[] = [];
  const auth = text(r.headers.authorization);
  if (!/^Bearer \S+$/.test(auth)) problems.push("Authorization: Bearer <token> missing");
  const query = (r.query ?? {}) as Obj;
  if (r.method === "GET" && LIST_ROUTES[path]) {
    const model = LIST_ROUTES[path] as string;
    return { operation: `GET ${path.slice(8)}`, problems: [...problems, ...listProblems(query, model)] };
  }
  const byId = /^\/api\/v2\/ItemSlips\/([^/]+)\/$/.exec(path);
  if (r.method === "GET" && byId && byId[1] !== "MainInfo") {
    // GetInternalById("{JTFaturaTip name};{FATIRS_NO};{CariKod}"), as Rest.Library/RestFunctions.cs builds it.
    const [tip, no, cari] = decodeURIComponent(byId[1] as string).split(";");
    if (!tip || !(tip in NETOPENX.enums.JTFaturaTip) || !no || !cari)
      problems.push("ItemSlips/{id}/: id must be '{JTFaturaTip name};{FATIRS_NO};{CariKod}'");
    return { operation: "GET ItemSlips/{id}/", problems };
  }
  const model = POST_ROUTES[path];
  if (r.method === "POST" && model) {
    if (Object.keys(query).length > 0) problems.push("a POST carries no query");
    problems.push(...modelProblems(model, r.body));
    if (isObj(r.body)) problems.push(...requiredProblems(model, r.body));
    if (model === "QueryParam" && isObj(r.body) && typeof r.body.TSql === "string")
      problems.push(...sqlProblems(r.body.TSql));
    return { operation: `POST ${path.slice(8)}`, problems };
  }
  return {
    operation: `${r.method} ${path.slice(8)}`,
    problems: [...problems, "route not in the DLL's route table"],
  };
}
