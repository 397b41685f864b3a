/**
 * Sentos emulator on the emulator kit: Basic Auth, the read endpoints the judge knows (every request is
 * judged; a rejected one is answered 400 and changes nothing), seeded Turkish products with variants,
 * warehouses and orders, and the published limits enforced with 429 + Retry-After: POST (any write) 12 per
 * window, GET 2 per window counted per URL (path and query) or, with `getLimit: "all"`, over every GET: the
 * two readings public sources give (rules.ts). Writes are not emulated: no source shows one.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { generateCatalog, generateCustomer } from "../../testing/catalog";
import { EmulatedRateLimit, type EmulatorCounters } from "../../testing/faults";
import { Prng } from "../../testing/prng";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { CARGO_COMPANIES } from "../../testing/turkish-data";
import { SENTOS_IDENTICAL_GETS_PER_WINDOW, SENTOS_POSTS_PER_WINDOW, SENTOS_WINDOW_MS } from "../descriptor";
import { apiPath, judgeSentosRequest } from "../judge/requests";
import { type SentosGetLimitReading, sentosGetCounterKey } from "../judge/rules";

type Row = Record<string, unknown>;

export interface SentosEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  apiKey?: string;
  apiSecret?: string;
  /** The limits' window (Sentos: one minute); tests scale it down. */
  windowMs?: number;
  /** Which reading of "GET 2 per minute" the emulator plays (rules.ts); default: per URL. */
  getLimit?: SentosGetLimitReading;
}

export interface SentosCounters extends EmulatorCounters {
  identicalGetViolations: number;
  postViolations: number;
  rejected: number;
}

export interface SentosEmulator extends Emulator<SentosCounters> {
  credentials: { apiUrl: string; apiKey: string; apiSecret: string };
  products: Row[];
  orders: Row[];
  generateOrders(n: number): Row[];
  shipOrder(id: number, trackingNumber: string): Row | undefined;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
}

/** `payment_method` as merchants name it in Sentos (free text). */
const PAYMENT_METHODS = ["Kredi Kartı", "Havale/EFT", "Kapıda Ödeme"];
const dt = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

export async function startSentosEmulator(opts: SentosEmulatorOptions = {}): Promise<SentosEmulator> {
  const apiKey = opts.apiKey ?? "sentos-emulator-key";
  const apiSecret = opts.apiSecret ?? "sentos-emulator-secret-0123";
  const windowMs = opts.windowMs ?? SENTOS_WINDOW_MS;
  const seed = opts.seed ?? 1;
  const server = createEmulatorServer<SentosCounters>(
    {
      ...opts,
      rateLimit: false,
      answers: {
        // Inferred: the source shows no error bodies (it keeps status and body as they come).
        serverError: { status: 500, body: { message: "Server Error" } },
        tooManyRequests: () => ({ message: "Too Many Attempts." }),
        lock: { status: 423, body: { message: "Locked" } },
        unauthorized: { status: 401, body: { message: "Unauthenticated." } },
      },
    },
    { identicalGetViolations: 0, postViolations: 0, rejected: 0 },
  );
  const { counters, now } = server;
  const rng = new Prng(`${seed}:sentos`);

  // Products: a model with sizes is one product with variants; warehouse 1 and 2 stocks.
  const products: Row[] = [];
  const byModel = new Map<string, Row>();
  let id = 100;
  for (const item of generateCatalog({ seed, count: opts.productCount ?? 0 })) {
    const stocks = [
      { warehouse: 1, stock: item.stock1 },
      { warehouse: 2, stock: item.stock2 },
    ];
    if (item.optionValue === undefined) {
      products.push({
        id: ++id,
        sku: item.sku,
        name: item.name,
        brand: item.brand,
        barcode: item.barcode,
        stocks,
        variants: [],
      });
      continue;
    }
    let p = byModel.get(item.modelCode);
    if (!p) {
      p = {
        id: ++id,
        sku: item.modelCode,
        name: item.modelName,
        brand: item.brand,
        barcode: null,
        stocks: [],
        variants: [],
      };
      byModel.set(item.modelCode, p);
      products.push(p);
    }
    (p.variants as Row[]).push({
      id: ++id,
      sku: item.sku,
      barcode: item.barcode,
      model: { name: item.optionName, value: item.optionValue },
      stocks,
    });
  }
  const sellable = products.flatMap((p) =>
    (p.variants as Row[]).length > 0
      ? (p.variants as Row[]).map((v) => ({
          sku: String(v.sku),
          name: `${String(p.name)} ${String((v.model as Row).value)}`,
        }))
      : [{ sku: String(p.sku), name: String(p.name) }],
  );
  const orders: Row[] = [];
  let orderId = 9000;
  function generateOrders(n: number): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < n && sellable.length > 0; i++) {
      const oid = ++orderId;
      const c = generateCustomer(rng, oid);
      const lines = Array.from({ length: rng.int(1, 3) }, (_, j) => {
        const s = rng.pick(sellable);
        const qty = rng.int(1, 3);
        const price = rng.int(2990, 99990) / 100;
        return {
          id: j + 1,
          sku: s.sku,
          name: s.name,
          quantity: qty,
          price: price.toFixed(2),
          amount: (price * qty).toFixed(2),
          currency: "TRY",
          vat_rate: 20,
        };
      });
      const total = lines.reduce((s, l) => s + Number(l.amount), 0) + 29.9;
      const at = dt(now());
      const address = {
        name: `${c.firstName} ${c.lastName}`,
        phone: c.phone,
        address: c.address.line1,
        district: c.address.district,
        city: c.address.city,
        country: "Türkiye",
        zipCode: c.address.postalCode,
      };
      const o: Row = {
        id: oid,
        order_code: `S-${oid}`,
        status: 1,
        source: rng.pick(["trendyol", "hepsiburada", "n11", "web"]),
        order_date: at,
        created_at: at,
        updated_at: at,
        total: total.toFixed(2),
        shipping_total: "29.90",
        // Rotated by id, so the seeded sequence stays: card, transfer, payment at the door.
        payment_method: PAYMENT_METHODS[oid % PAYMENT_METHODS.length],
        cargo_provider: CARGO_COMPANIES[oid % CARGO_COMPANIES.length],
        customer: { id: oid, name: address.name, phone: c.phone, mail_address: c.email },
        invoice_address: address,
        shipment_address: address,
        lines,
      };
      orders.push(o);
      out.push(o);
    }
    return out;
  }
  generateOrders(opts.orderCount ?? 0);

  /** The merchant ships an order in Sentos: status 5 (Kargoya verildi) with its tracking number. */
  function shipOrder(id: number, trackingNumber: string): Row | undefined {
    const o = orders.find((x) => x.id === id);
    if (!o) return undefined;
    Object.assign(o, {
      status: 5,
      cargo_number: trackingNumber,
      tracking_info: {
        cargo_company: o.cargo_provider,
        tracking_number: trackingNumber,
        tracking_link: null,
      },
      updated_at: dt(now()),
    });
    return o;
  }

  const posts = new EmulatedRateLimit(SENTOS_POSTS_PER_WINDOW, windowMs);
  const gets = new Map<string, EmulatedRateLimit>();
  const expected = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`;

  /** The published limits; true when the request was answered 429. */
  async function limited(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    let wait: number;
    if (req.method === "GET") {
      const key = sentosGetCounterKey(opts.getLimit ?? "identical", req.url);
      const l = gets.get(key) ?? new EmulatedRateLimit(SENTOS_IDENTICAL_GETS_PER_WINDOW, windowMs);
      gets.set(key, l);
      wait = l.arrive(now());
      if (wait > 0) counters.identicalGetViolations++;
    } else {
      wait = posts.arrive(now());
      if (wait > 0) counters.postViolations++;
    }
    if (wait <= 0) return false;
    counters.requests++;
    counters.rateLimitViolations++;
    counters.errors++;
    await reply
      .code(429)
      .header("retry-after", String(Math.ceil(wait / 1000)))
      .send({ message: "Too Many Attempts." });
    return true;
  }

  server.app.addHook("preHandler", async (req, reply) => {
    if (await limited(req, reply)) return reply;
    if (req.headers.authorization !== expected) {
      counters.requests++;
      counters.authFailures++;
      counters.errors++;
      return reply.code(401).send({ message: "Unauthenticated." });
    }
    return undefined;
  });

  const page = (q: Row, list: Row[]) => {
    const size = Math.min(Number(q.size ?? 50), 500);
    const p = Math.max(1, Number(q.page ?? 1));
    return list.slice((p - 1) * size, p * size);
  };

  async function handle(
    req: FastifyRequest,
    reply: FastifyReply,
    operation: string,
    answer: () => unknown,
  ): Promise<unknown> {
    const gate = await server.gate(req, reply, { kind: "read", operation }, { skipRateLimit: true });
    if (gate === "handled") return reply;
    const verdict = judgeSentosRequest({
      at: now(),
      method: req.method,
      path: req.url.split("?")[0] ?? req.url,
      query: req.query as Row,
      headers: req.headers as Record<string, string>,
      body: req.body,
    });
    if (verdict && verdict.problems.length > 0) {
      counters.rejected++;
      return reply.code(400).send({ message: verdict.problems.join("; ") });
    }
    const body = answer();
    if (body === undefined) return reply.code(404).send({ message: "Not Found" });
    return body;
  }

  server.app.get("/api/products", (req, reply) =>
    handle(req, reply, "listProducts", () => ({ data: page(req.query as Row, products) })),
  );
  server.app.get("/api/products/:id", (req, reply) =>
    handle(req, reply, "getProduct", () => products.find((p) => String(p.id) === (req.params as Row).id)),
  );
  server.app.get("/api/warehouses", (req, reply) =>
    handle(req, reply, "listWarehouses", () => ({
      data: [
        { id: 1, name: "Merkez Depo" },
        { id: 2, name: "Ankara Depo" },
      ],
    })),
  );
  server.app.get("/api/orders", (req, reply) =>
    handle(req, reply, "listOrders", () => {
      const q = req.query as Row;
      const from = String(q.updated_start_date ?? "");
      const list = orders.filter((o) => String(o.updated_at).slice(0, 10) >= from);
      return { data: page(q, list) };
    }),
  );
  server.app.get("/api/orders/:id", (req, reply) =>
    handle(req, reply, "getOrder", () => orders.find((o) => String(o.id) === (req.params as Row).id)),
  );
  // Writes: limited like every POST, then refused (no source shows a write; inferred answer).
  server.app.route({
    method: ["POST", "PUT", "PATCH", "DELETE"],
    url: "/api/*",
    handler: async (req, reply) => {
      const gate = await server.gate(
        req,
        reply,
        { kind: "write", operation: apiPath(req.url) },
        { skipRateLimit: true },
      );
      if (gate === "handled") return reply;
      return reply.code(405).send({ message: "Bu emülatör Sentos'a yazmaz: yazma uçları doğrulanmadı." });
    },
  });

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: { apiUrl: `${url}/api`, apiKey, apiSecret },
    products,
    orders,
    generateOrders,
    shipOrder,
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
