/**
 * The Sentos judge, part 1: the request shapes of the read-only bridge (code id 70268014554). Every request
 * the connector sends in its contract tests is checked; one the judge rejects or does not know fails the
 * suite. The source blocks every write by design, so no write shape is known: any non-GET is rejected.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { SENTOS_BRIDGE, type Source } from "./sources";

type Check = (v: unknown) => string | undefined;

export interface SentosRule {
  operation: string;
  path: RegExp;
  source: Source;
  evidence: string;
  query: Record<string, Check>;
  required: string[];
  inferred?: string;
}

const positiveInt: Check = (v) =>
  typeof v === "string" && /^[1-9]\d*$/.test(v) ? undefined : "must be a positive integer";
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === "string" && values.includes(v) ? undefined : `must be one of ${values.join(", ")}`;
const day: Check = (v) =>
  typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) ? undefined : "must be yyyy-MM-dd";

export const SENTOS_RULES: SentosRule[] = [
  {
    operation: "listProducts",
    path: /^\/products$/,
    source: SENTOS_BRIDGE,
    evidence: "GET /products with page, size and orderby_id 'ASC'.",
    query: { page: positiveInt, size: positiveInt, orderby_id: oneOf("ASC", "DESC") },
    required: ["page", "size"],
    inferred: "The largest page size.",
  },
  {
    operation: "getProduct",
    path: /^\/products\/\d+$/,
    source: SENTOS_BRIDGE,
    evidence: "GET /products/{id}.",
    query: {},
    required: [],
  },
  {
    operation: "listWarehouses",
    path: /^\/warehouses$/,
    source: SENTOS_BRIDGE,
    evidence: "GET /warehouses.",
    query: {},
    required: [],
  },
  {
    operation: "listOrders",
    path: /^\/orders$/,
    source: SENTOS_BRIDGE,
    evidence:
      "GET /orders with page, size, start/end, created_*/updated_* date pairs, orderby_field (id, created_at, updated_at, ship_due_date) and orderby_direction (ASC, DESC); the docs want them in the body, the bridge sends them in the query too.",
    query: {
      page: positiveInt,
      size: positiveInt,
      start_date: day,
      end_date: day,
      created_start_date: day,
      created_end_date: day,
      updated_start_date: day,
      updated_end_date: day,
      orderby_field: oneOf("id", "created_at", "updated_at", "ship_due_date"),
      orderby_direction: oneOf("ASC", "DESC"),
    },
    required: ["page", "size"],
    inferred:
      "The date format (the bridge types them as strings): we send yyyy-MM-dd. Query only: fetch sends no GET body.",
  },
  {
    operation: "getOrder",
    path: /^\/orders\/\d+$/,
    source: SENTOS_BRIDGE,
    evidence: "GET /orders/{id}.",
    query: {},
    required: [],
  },
];

/** The API's own path: the part after the `/api` base (https://<firma>.sentos.com.tr/api). */
export function apiPath(path: string): string {
  return path.replace(/^\/api(?=\/)/, "");
}

export const judgeSentosRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const path = apiPath(r.path);
  const rule = SENTOS_RULES.find((x) => x.path.test(path));
  if (!rule) return undefined;
  const p: string[] = [];
  if (r.method !== "GET") p.push("only GET is verified: the source never writes to Sentos");
  const auth = String(r.headers.authorization ?? "");
  const basic = /^Basic\s+(.+)$/i.exec(auth);
  const pair = basic ? Buffer.from(basic[1] ?? "", "base64").toString("utf8") : "";
  if (!basic || !/^[^:]+:.+$/.test(pair)) p.push("Basic Auth with API key and secret required");
  for (const k of rule.required) if (r.query[k] === undefined) p.push(`${k} required`);
  for (const [k, v] of Object.entries(r.query)) {
    const check = rule.query[k];
    if (!check) p.push(`${k} is not a parameter the source shows`);
    else {
      const problem = check(v);
      if (problem) p.push(`${k} ${problem}`);
    }
  }
  return { operation: rule.operation, problems: p };
};
