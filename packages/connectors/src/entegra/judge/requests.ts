/**
 * The judge for Entegra: the requests the public Singer tap sends (`emreustundag/tap-entegra`,
 * `tap_entegra/client.py` `EntegraStream.get_url` / `parse_response`, `tap_entegra/streams.py` stream paths;
 * token endpoint and `Authorization: JWT …` as ../shared/partner-apis/erps.md §14 records them from the same
 * tap). Every request the connector sends in its contract tests is checked here; one the tap never sends is
 * unknown and fails the suite.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const header = (r: RecordedRequest, name: string): string | undefined => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** GET paths of the tap's streams: path-based page numbers (`/product/page=1/`), or none. */
export const ENTEGRA_READS: Array<{ operation: string; path: RegExp; source: string }> = [
  {
    operation: "products",
    path: /^\/product\/page=[1-9]\d*\/$/,
    source: "ProductsStream path '/product/' + get_url 'page={n}/'",
  },
  {
    operation: "categories",
    path: /^\/category\/page=1\/$/,
    source: "CategoriesStream path '/category/page=1/' (all rows at once)",
  },
  {
    operation: "prices",
    path: /^\/price\/getPrices$/,
    source: "PricesStream path '/price/getPrices' (not paginated)",
  },
  {
    operation: "stores",
    path: /^\/store\/getStores$/,
    source: "StoresStream path '/store/getStores' (not paginated)",
  },
];

function jwtProblems(r: RecordedRequest): string[] {
  const auth = header(r, "authorization") ?? "";
  if (/^Bearer /i.test(auth)) return ["Entegra takes 'Authorization: JWT <access>', not Bearer"];
  return /^JWT \S+$/.test(auth) ? [] : ["Authorization: JWT <access> missing"];
}

function token(r: RecordedRequest): Verdict {
  const p: string[] = [];
  if (!/^application\/json/i.test(header(r, "content-type") ?? "")) p.push("token request must be JSON");
  const b = r.body;
  if (!isObj(b)) return { operation: "token/obtain", problems: [...p, "body must be {email, password}"] };
  for (const k of Object.keys(b)) if (k !== "email" && k !== "password") p.push(`unknown token field ${k}`);
  if (typeof b.email !== "string" || !b.email.includes("@")) p.push("email must be an e-mail address");
  if (typeof b.password !== "string" || b.password === "") p.push("password missing");
  return { operation: "token/obtain", problems: p };
}

export const judgeEntegraRequest: RequestJudge = (r) => {
  if (r.method === "POST" && r.path === "/api/user/token/obtain/") return token(r);
  if (r.method !== "GET") return undefined;
  const read = ENTEGRA_READS.find((x) => x.path.test(r.path));
  if (!read) return undefined;
  const p = jwtProblems(r);
  if (Object.keys(r.query).length > 0) p.push(`the tap sends no query options to ${read.operation}`);
  return { operation: read.operation, problems: p };
};
