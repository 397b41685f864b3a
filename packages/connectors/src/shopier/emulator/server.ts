/**
 * Shopier emulator on the emulator kit, answering what its judge allows (paths and query parameters from
 * `@bbangg/shopier@1.0.7`): `GET /v1/products` and `/v1/categories` as bare JSON arrays with the paging in
 * `Shopier-Pagination-*` headers, `Authorization: Bearer <PAT>`, 401 for another token, unknown query
 * parameters refused with 400. Data: the shared Turkish catalogue (models with sizes become products with
 * variants). `signWebhook` signs a body the way Shopier's notifications are signed.
 */

import { createHmac } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { generateCatalog } from "../../testing/catalog";
import type { EmulatorCounters, FaultConfig, FaultInjector } from "../../testing/faults";
import { clampPageSize } from "../../testing/paging";
import type { RequestRecorder } from "../../testing/recorder";
import { createEmulatorServer } from "../../testing/server";
import type { ShopierProduct } from "../catalog";
import fixture from "../judge/shopier-api.generated.json" with { type: "json" };

export interface ShopierEmulatorOptions {
  port?: number;
  host?: string;
  listen?: boolean;
  baseUrl?: string;
  seed?: number | string;
  productCount?: number;
  accessToken?: string;
  webhookToken?: string;
  rateLimit?: { requests: number; windowMs: number } | false;
  faults?: FaultConfig;
  now?: () => number;
}

export interface ShopierEmulator {
  url: string;
  app: FastifyInstance;
  port: number;
  credentials: { accessToken: string; webhookToken: string; apiUrl: string };
  products: ShopierProduct[];
  categories: Array<{ id: string; title: string }>;
  counters: EmulatorCounters;
  faults: FaultInjector;
  recorder: RequestRecorder;
  /** The `Shopier-Signature` of a notification body. */
  signWebhook(rawBody: string): string;
  close(): Promise<void>;
}

const error = (message: string) => ({ error: { message } });

export async function startShopierEmulator(opts: ShopierEmulatorOptions = {}): Promise<ShopierEmulator> {
  const seed = opts.seed ?? 1;
  const accessToken = opts.accessToken ?? "shopier-emulator-pat-0123456789";
  const webhookToken = opts.webhookToken ?? "shopier-emulator-webhook-token";
  const server = createEmulatorServer({
    port: opts.port,
    host: opts.host,
    seed,
    faults: opts.faults,
    rateLimit: opts.rateLimit ?? false,
    now: opts.now,
    answers: {
      serverError: { status: 503, body: error("Service unavailable") },
      tooManyRequests: () => error("Too many requests"),
      lock: { status: 409, body: error("Resource is being updated") },
      unauthorized: { status: 401, body: error("Unauthorized") },
    },
  });
  const { counters, now } = server;
  const items = generateCatalog({ seed, count: opts.productCount ?? 0, now: now() });
  const categories: Array<{ id: string; title: string }> = [];
  const categoryOf = new Map<string, string>();
  for (const i of items) {
    if (!categoryOf.has(i.categoryChild)) {
      const id = String(7000 + categories.length + 1);
      categoryOf.set(i.categoryChild, id);
      categories.push({ id, title: i.categoryChild });
    }
  }
  const byModel = new Map<string, typeof items>();
  for (const i of items) byModel.set(i.modelCode, [...(byModel.get(i.modelCode) ?? []), i]);
  let selection = 100;
  const products: ShopierProduct[] = [...byModel.values()].map((rows, n) => {
    const first = rows[0] as (typeof items)[number];
    const withVariants = first.optionValue !== undefined;
    const discounted = n % 5 === 0;
    return {
      id: String(40_000_000 + n + 1),
      title: withVariants ? first.modelName : first.name,
      description: `${first.brand} — ${first.categoryChild}`,
      type: "physical",
      dateUpdated: new Date(first.updatedAt).toISOString(),
      media: [{ url: `https://cdn.shopier.example/${first.modelCode}.jpg`, placement: 1 }],
      priceData: {
        currency: "TRY",
        price: first.retailPrice.toFixed(2),
        discount: discounted,
        discountedPrice: discounted ? (first.retailPrice * 0.9).toFixed(2) : "0.00",
      },
      stockStatus: "inStock",
      stockQuantity: rows.reduce((s, r) => s + r.stock1, 0),
      categories: [{ id: categoryOf.get(first.categoryChild) ?? "", title: first.categoryChild }],
      variants: withVariants
        ? rows.map((r) => ({
            variationTitle: [r.optionName ?? "Beden"],
            selectionId: [String(++selection)],
            selectionTitle: [r.optionValue ?? ""],
            stockQuantity: r.stock1,
            priceData: { currency: "TRY", price: r.retailPrice.toFixed(2) },
          }))
        : [],
    };
  });

  const gets = fixture.gets as Record<string, string[]>;
  async function list<T>(req: FastifyRequest, reply: FastifyReply, path: string, rows: T[]) {
    if (await server.rateLimit(reply)) return reply;
    if (req.headers.authorization !== `Bearer ${accessToken}`) {
      counters.requests++;
      counters.errors++;
      counters.authFailures++;
      return reply.code(401).send(error("Unauthorized"));
    }
    const gate = await server.gate(
      req,
      reply,
      { kind: "read", operation: `GET ${path}` },
      { skipRateLimit: true },
    );
    if (gate === "handled") return reply;
    const q = req.query as Record<string, string>;
    const bad = Object.keys(q).find((k) => !(gets[path] ?? []).includes(k));
    if (bad) return reply.code(400).send(error(`Unknown parameter: ${bad}`));
    const limit = clampPageSize(q.limit, { fallback: 10, max: 50 });
    const page = Math.max(1, Number(q.page ?? 1) || 1);
    const totalPages = Math.max(1, Math.ceil(rows.length / limit));
    return reply
      .header("shopier-pagination-page", String(page))
      .header("shopier-pagination-limit", String(limit))
      .header("shopier-pagination-total-pages", String(totalPages))
      .header("shopier-pagination-total-items", String(rows.length))
      .send(rows.slice((page - 1) * limit, page * limit));
  }

  server.app.get("/v1/products", (req, reply) => list(req, reply, "/products", products));
  server.app.get("/v1/categories", (req, reply) => list(req, reply, "/categories", categories));

  let url = opts.baseUrl ?? "";
  let port = 0;
  if (opts.listen === false) await server.app.ready();
  else ({ url, port } = await server.listen());
  return {
    url,
    port,
    app: server.app,
    credentials: { accessToken, webhookToken, apiUrl: `${url}/v1` },
    products,
    categories,
    counters,
    faults: server.faults,
    recorder: server.recorder,
    signWebhook: (raw) => createHmac("sha256", webhookToken).update(raw).digest("hex"),
    close: () => server.close(),
  };
}
