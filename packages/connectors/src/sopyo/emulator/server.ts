/**
 * Sopyo emulator on the emulator kit: API-token login → bearer token, order list pages with `meta`, order
 * detail and the controlled order create the public client sends. Every request is judged first (a
 * rejected one is answered 422 and changes nothing). The detail wrapper is a setting, not a guess:
 * `bare`, `data` or `mixed` (the default: by order id, odd bare, even under data), because the two public
 * test files disagree. Faults come from the kit (5xx, 429 with Retry-After, timeouts, token refusals).
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, TokenStore } from "../../testing/auth";
import { generateCatalog, generateCustomer } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { Prng } from "../../testing/prng";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { judgeSopyoRequest } from "../judge/requests";

type Row = Record<string, unknown>;
export type SopyoDetailWrapper = "bare" | "data" | "mixed";

export interface SopyoEmulatorOptions extends EmulatorOptions {
  orderCount?: number;
  apiToken?: string;
  /** Rows per list page (not published; inferred). */
  pageSize?: number;
  detailWrapper?: SopyoDetailWrapper;
  tokenTtlMs?: number;
}

export interface SopyoEmulator extends Emulator<EmulatorCounters & { logins: number; rejected: number }> {
  credentials: { apiToken: string; apiUrl: string };
  orders: Row[];
  expireTokens(): void;
  generateOrders(n: number): Row[];
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
}

export async function startSopyoEmulator(opts: SopyoEmulatorOptions = {}): Promise<SopyoEmulator> {
  const apiToken = opts.apiToken ?? "sopyo-emulator-api-token-0123";
  const pageSize = opts.pageSize ?? 15;
  const wrapper = opts.detailWrapper ?? "mixed";
  const seed = opts.seed ?? 1;
  const server = createEmulatorServer<EmulatorCounters & { logins: number; rejected: number }>(
    {
      ...opts,
      answers: {
        // The tests show 401/403/404/500 with a { message } body; 429 and lock bodies are inferred.
        serverError: { status: 500, body: { message: "Server Error" } },
        tooManyRequests: () => ({ message: "Too Many Attempts." }),
        lock: { status: 409, body: { message: "Conflict" } },
        unauthorized: { status: 401, body: { message: "Unauthenticated." } },
      },
    },
    { logins: 0, rejected: 0 },
  );
  const { counters, now } = server;
  const tokens = new TokenStore(opts.tokenTtlMs ?? 24 * 3600_000, now);
  const rng = new Prng(`${seed}:sopyo`);
  const catalog = generateCatalog({ seed, count: 200 });
  const orders: Row[] = [];
  let nextId = 38154200;

  function generateOrders(n: number): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < n; i++) {
      const id = ++nextId;
      const c = generateCustomer(rng, id);
      const items = Array.from({ length: rng.int(1, 3) }, () => {
        const s = rng.pick(catalog);
        return { stock_code: s.sku, product_name: s.name, quantity: 1, total_price: s.retailPrice };
      });
      const full = `${c.firstName} ${c.lastName}`;
      const at = new Date(now()).toISOString();
      const o: Row = {
        id,
        order_code: `WEB-${id}`,
        order_type: "SOPYOAPI",
        order_status: 1,
        created_at: at,
        updated_at: at,
        customer_info: { email: c.email, name: full },
        shipping_info: {
          full_name: full,
          gsm: c.phone,
          city: c.address.city,
          district: c.address.district,
          address: c.address.line1,
        },
        billing_info: {
          full_name: full,
          gsm: c.phone,
          city: c.address.city,
          district: c.address.district,
          address: c.address.line1,
        },
        order_items: items,
        total_price: Math.round(items.reduce((s, x) => s + x.total_price, 0) * 100) / 100,
        cargo_info: { tracking_no: `YK${rng.digits(9)}`, company: "Yurtiçi Kargo" },
      };
      orders.push(o);
      out.push(o);
    }
    return out;
  }
  generateOrders(opts.orderCount ?? 0);

  function judged(req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    const v = judgeSopyoRequest({
      at: now(),
      method: req.method,
      path: req.url.split("?")[0] ?? req.url,
      query: req.query as Row,
      headers: req.headers as Record<string, string>,
      body: req.body,
    });
    if (!v || v.problems.length === 0) return undefined;
    counters.rejected++;
    const errors = Object.fromEntries(v.problems.map((p, i) => [`request.${i}`, [p]]));
    return reply.code(422).send({ message: "The given data was invalid.", errors });
  }

  function authorised(req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    if (tokens.check(bearerToken(req.headers.authorization)) === "ok") return undefined;
    counters.authFailures++;
    counters.errors++;
    return reply.code(401).send({ message: "Unauthenticated." });
  }

  server.app.post("/api/v2/auth/login", async (req, reply) => {
    if ((await server.gate(req, reply, { kind: "read", operation: "login" })) === "handled") return reply;
    const refused = judged(req, reply);
    if (refused) return refused;
    if ((req.body as { api_token: string[] }).api_token[0] !== apiToken) {
      counters.authFailures++;
      return reply.code(401).send({ message: "Unauthenticated." });
    }
    counters.logins++;
    return { access_token: { token: tokens.issue().token, type: "bearer" } };
  });

  server.app.get("/api/v2/orders", async (req, reply) => {
    if ((await server.gate(req, reply, { kind: "read", operation: "listOrders" })) === "handled")
      return reply;
    const denied = authorised(req, reply) ?? judged(req, reply);
    if (denied) return denied;
    const q = req.query as Record<string, string>;
    let list = orders;
    if (q["order_code[eq]"]) list = list.filter((o) => o.order_code === q["order_code[eq]"]);
    if (q["cargo_tracking_no[eq]"])
      list = list.filter((o) => (o.cargo_info as Row).tracking_no === q["cargo_tracking_no[eq]"]);
    const page = Number(q.page);
    const last = Math.max(1, Math.ceil(list.length / pageSize));
    const rows = list.slice((page - 1) * pageSize, page * pageSize).map((o) => ({
      id: o.id,
      order_code: o.order_code,
      order_type: o.order_type,
      order_status: o.order_status,
      cargo_info: o.cargo_info,
    }));
    return { data: rows, meta: { current_page: page, last_page: last } };
  });

  server.app.get("/api/v2/orders/:id", async (req, reply) => {
    if ((await server.gate(req, reply, { kind: "read", operation: "getOrder" })) === "handled") return reply;
    const denied = authorised(req, reply) ?? judged(req, reply);
    if (denied) return denied;
    const o = orders.find((x) => String(x.id) === (req.params as Row).id);
    if (!o) return reply.code(404).send({ message: "Not Found" });
    const wrap = wrapper === "mixed" ? ((o.id as number) % 2 === 0 ? "data" : "bare") : wrapper;
    return wrap === "data" ? { data: o } : o;
  });

  server.app.post("/api/v2/orders", async (req, reply) => {
    const gate = await server.gate(req, reply, { kind: "write", operation: "createOrder" });
    if (gate === "handled") return reply;
    const denied = authorised(req, reply) ?? judged(req, reply);
    if (denied) return denied;
    const b = req.body as Row;
    if (orders.some((o) => o.order_code === b.order_code))
      return reply
        .code(422)
        .send({ message: "The given data was invalid.", errors: { order_code: ["taken"] } });
    const id = ++nextId;
    const at = new Date(now()).toISOString();
    orders.push({
      ...b,
      id,
      order_type: "SOPYOAPI",
      created_at: at,
      updated_at: at,
      cargo_info: { tracking_no: "" },
    });
    if (gate === "drop") return server.drop(req, reply);
    return reply.code(201).send({ data: { id, order_code: b.order_code, order_type: "SOPYOAPI" } });
  });

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: { apiToken, apiUrl: url },
    orders,
    expireTokens: () => tokens.expireAll(),
    generateOrders,
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
