/**
 * The Sopyo judge, part 1: request shapes of the public client (./sources.ts). Every request the connector
 * sends in its contract tests is checked; one the judge rejects or does not know fails the suite.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";

function bearer(r: RecordedRequest): string[] {
  return /^Bearer\s+\S+$/.test(String(r.headers.authorization ?? ""))
    ? []
    : ["Authorization: Bearer <token> required"];
}

/** The create body (SopyoCreateOrderInput of code id 70163041287). */
export function createOrderProblems(b: unknown): string[] {
  if (!isObj(b)) return ["body must be a JSON object"];
  const p: string[] = [];
  if (!nonEmpty(b.order_code)) p.push("order_code required");
  if (b.order_status !== 1) p.push("order_status must be 1");
  if (typeof b.total_price !== "number") p.push("total_price must be a number");
  const c = b.customer_info;
  if (!isObj(c) || !nonEmpty(c.email) || !nonEmpty(c.name)) p.push("customer_info {email, name} required");
  for (const k of ["shipping_info", "billing_info"]) {
    const a = b[k];
    if (!isObj(a) || !nonEmpty(a.full_name) || !nonEmpty(a.gsm) || !nonEmpty(a.city))
      p.push(`${k} {full_name, gsm, city} required`);
  }
  if (isObj(b.shipping_info) && !nonEmpty(b.shipping_info.address)) p.push("shipping_info.address required");
  const items = b.order_items;
  if (!Array.isArray(items) || items.length === 0) p.push("order_items must be a non-empty list");
  else
    items.forEach((it: unknown, i) => {
      if (
        !isObj(it) ||
        !nonEmpty(it.stock_code) ||
        !nonEmpty(it.product_name) ||
        it.quantity !== 1 ||
        typeof it.total_price !== "number"
      )
        p.push(`order_items[${i}] must be {stock_code, product_name, quantity: 1, total_price}`);
    });
  return p;
}

const LIST_QUERY = new Set(["page", "order_code[eq]", "cargo_tracking_no[eq]"]);

export const judgeSopyoRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  if (r.path === "/api/v2/auth/login") {
    const p: string[] = [];
    if (r.method !== "POST") p.push("must be POST");
    const b = r.body;
    // The token goes as a one-element list (code id 70163041287).
    if (!isObj(b) || !Array.isArray(b.api_token) || b.api_token.length !== 1 || !nonEmpty(b.api_token[0]))
      p.push("body must be { api_token: [token] }");
    else if (Object.keys(b).length !== 1) p.push("body has fields besides api_token");
    return { operation: "login", problems: p };
  }
  if (r.path === "/api/v2/orders") {
    if (r.method === "POST")
      return { operation: "createOrder", problems: [...bearer(r), ...createOrderProblems(r.body)] };
    const p = [...bearer(r)];
    if (r.method !== "GET") p.push("must be GET or POST");
    if (!/^[1-9]\d*$/.test(String(r.query.page ?? ""))) p.push("page must be a positive integer");
    for (const k of Object.keys(r.query))
      if (!LIST_QUERY.has(k)) p.push(`${k} is not a parameter the source shows`);
    return { operation: "listOrders", problems: p };
  }
  if (/^\/api\/v2\/orders\/[1-9]\d*$/.test(r.path)) {
    const p = [...bearer(r)];
    if (r.method !== "GET") p.push("must be GET");
    if (Object.keys(r.query).length > 0) p.push("the detail takes no parameters");
    return { operation: "getOrder", problems: p };
  }
  return undefined;
};
