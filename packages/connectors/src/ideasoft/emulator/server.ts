/**
 * Ideasoft emulator on the emulator kit (../../testing): the OAuth2 authorization-code flow of the file's
 * securitySchemes (oauth.ts), and the Admin API operations the connector uses, answering in the
 * file's schemas. Given the judge (tests), it refuses with 400 every request the OpenAPI would not accept,
 * as the real API refuses a body its validator rejects. Error bodies, 429 and limits are not in the file:
 * their shapes here are inferred (VERIFIED.md).
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { bearerToken } from "../../testing/auth";
import type { FaultConfig } from "../../testing/faults";
import {
  createEmulatorServer,
  type Emulator,
  type EmulatorOptions,
  type GateResult,
} from "../../testing/server";
import { WebhookOutbox } from "../../testing/webhooks";
import type { IdeasoftJudge } from "../judge/openapi";
import type { IdeaCategory, IdeaOrder, IdeaProduct, IdeaProductPrice } from "../types";
import { type IdeasoftEmulatorCounters, serveIdeasoftOAuth } from "./oauth";
import { IdeasoftState } from "./state";

export type { IdeasoftEmulatorCounters } from "./oauth";

export interface IdeasoftEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  storeDomain?: string;
  clientId?: string;
  clientSecret?: string;
  /** A refresh token valid from the start (the sandbox's connection has no consent step). */
  refreshToken?: string;
  /** Requests per window; `false` = unlimited (default 40 / 10 s, inferred). */
  rateLimit?: { requests: number; windowMs: number } | false;
  tokenTtlMs?: number;
  /**
   * Every refresh kills the refresh token it used, as at Ideasoft (default). The sandbox turns this off:
   * after a server restart its emulator only knows the tenant's first refresh token.
   */
  rotateRefreshTokens?: boolean;
  /** Authorization code lifetime (about 30 s at Ideasoft, reported by integrators). */
  codeTtlMs?: number;
  /** Refuse (400) requests the vendor OpenAPI would not accept. */
  judge?: IdeasoftJudge;
  /** The store's first panel user (the merchant who installs apps). */
  owner?: { email: string; firstname: string; surname: string };
  /** Our app as the store's app list shows it (its name names the purchased package). */
  installedApplication?: { applicationId: number; applicationName: string } | false;
  /** Keep every answer (status, body) for the answer-conformance test. */
  recordAnswers?: boolean;
}

export type IdeasoftEmulatorCredentials = {
  storeDomain: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  apiUrl: string;
};

export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface IdeasoftEmulator extends Emulator<IdeasoftEmulatorCounters> {
  credentials: IdeasoftEmulatorCredentials;
  state: IdeasoftState;
  answers: RecordedAnswer[];
  /** The file's `ClientWebhook` rows (`/admin-api/client_webhooks`) and the deliveries to the active ones. */
  clientWebhooks: ClientWebhookRow[];
  webhooks: WebhookOutbox;
  /** The store's owner and our installed app, changeable by a test. */
  store: {
    owner: { email: string; firstname: string; surname: string };
    installedApplication: { applicationId: number; applicationName: string } | false;
  };
  setFaults(config: FaultConfig): void;
  expireTokens(): void;
  issuedTokens(): string[];
  /** Refresh tokens still valid (each refresh kills the one it used). */
  liveRefreshTokens(): string[];
  generateOrders(n: number): IdeaOrder[];
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
}

export interface ClientWebhookRow {
  id: number;
  topic: string;
  address: string;
  status: number;
  fields?: string;
  createdAt: string;
  updatedAt: string;
}

type Reply = FastifyReply;
type Req = FastifyRequest;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** The error body (inferred: the file documents none). */
const errorBody = (code: string, message: string) => ({ errorCode: code, errorMessage: message });

export async function startIdeasoftEmulator(opts: IdeasoftEmulatorOptions = {}): Promise<IdeasoftEmulator> {
  const seed = opts.seed ?? 1;
  const storeDomain = opts.storeDomain ?? "deneme.myideasoft.com";
  const clientId = opts.clientId ?? "ideasoft-emulator-client";
  const clientSecret = opts.clientSecret ?? "ideasoft-emulator-secret-0123456789";
  const server = createEmulatorServer<IdeasoftEmulatorCounters>(
    {
      ...opts,
      rateLimit: opts.rateLimit === false ? false : { requests: 40, windowMs: 10_000, ...opts.rateLimit },
      formBodies: true,
      answers: {
        serverError: {
          status: 503,
          contentType: "text/html",
          body: "<html><body><h1>503 Service Unavailable</h1></body></html>",
        },
        tooManyRequests: () => errorBody("too_many_requests", "Too many requests in a period"),
        lock: { status: 409, body: errorBody("conflict", "Kayıt başka bir işlem tarafından kilitli") },
        unauthorized: {
          status: 401,
          body: { error: "invalid_grant", error_description: "The access token provided has expired." },
        },
      },
    },
    { tokensIssued: 0, refreshes: 0, refused: 0 },
  );
  const { counters, now, app } = server;
  const state = new IdeasoftState({
    seed,
    productCount: opts.productCount ?? 0,
    orderCount: opts.orderCount,
    now,
  });
  const { tokens, refreshTokens, initialRefresh } = serveIdeasoftOAuth(server, {
    storeDomain,
    clientId,
    clientSecret,
    refreshToken: opts.refreshToken,
    tokenTtlMs: opts.tokenTtlMs,
    rotateRefreshTokens: opts.rotateRefreshTokens,
    codeTtlMs: opts.codeTtlMs,
  });
  const answers: RecordedAnswer[] = [];

  if (opts.recordAnswers) {
    app.addHook("onSend", async (req, reply, payload) => {
      let body: unknown = payload;
      if (typeof payload === "string") {
        try {
          body = JSON.parse(payload);
        } catch {
          body = payload;
        }
      }
      answers.push({
        method: req.method,
        path: req.url.split("?")[0] ?? req.url,
        status: reply.statusCode,
        body,
      });
      return payload;
    });
  }

  /** Rate limit, auth, faults and (with the judge) request validation; true when already answered. */
  async function guard(
    req: Req,
    reply: Reply,
    kind: "read" | "write",
    operation: string,
  ): Promise<GateResult> {
    if (await server.rateLimit(reply)) return "handled";
    const check = tokens.check(bearerToken(req.headers.authorization));
    if (check !== "ok") {
      counters.requests++;
      counters.errors++;
      counters.authFailures++;
      await reply.code(401).send({
        error: "invalid_grant",
        error_description:
          check === "expired"
            ? "The access token provided has expired."
            : "The access token provided is invalid.",
      });
      return "handled";
    }
    const gate = await server.injectFault(req, reply, { kind, operation });
    server.counters.requests++;
    server.counters[kind === "read" ? "reads" : "writes"]++;
    server.counters.byOperation[operation] = (server.counters.byOperation[operation] ?? 0) + 1;
    if (gate === "handled") return gate;
    if (opts.judge) {
      const v = opts.judge.judgeRequest({
        method: req.method,
        path: req.url.split("?")[0] ?? req.url,
        query: req.query as Record<string, unknown>,
        body: req.body,
      });
      if (v.problems.length > 0) {
        counters.refused++;
        counters.errors++;
        await reply.code(400).send(errorBody("validation_failed", v.problems.join("; ")));
        return "handled";
      }
    }
    return gate;
  }

  const listParams = (req: Req) => {
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(Math.max(Number(q.limit ?? 20) || 20, 1), 100);
    const page = Math.max(Number(q.page ?? 1) || 1, 1);
    const sinceId = q.sinceId !== undefined ? Number(q.sinceId) : undefined;
    const desc = q.sort === "-id";
    return { limit, page, sinceId, desc, q };
  };

  function paged<T extends { id?: number }>(req: Req, rows: T[]): T[] {
    const { limit, page, sinceId, desc } = listParams(req);
    let list = rows.filter((r) => sinceId === undefined || (r.id ?? 0) > sinceId);
    list.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    if (desc) list = list.reverse();
    return list.slice((page - 1) * limit, page * limit);
  }

  const notFound = (reply: Reply, what: string) => {
    counters.errors++;
    return reply.code(404).send(errorBody("not_found", `${what} bulunamadı`));
  };

  /** A price row answers with its whole product (the file's `product` is a full Product). */
  const priceView = (row: IdeaProductPrice): IdeaProductPrice => {
    const p = state.products.get(row.product.id);
    return { ...row, product: p ? state.productView(p, false) : row.product };
  };

  /** An order answers each item's product as a whole Product (the file's shape), or without it. */
  const orderView = (o: IdeaOrder): IdeaOrder => ({
    ...o,
    orderItems: (o.orderItems ?? []).map(({ product, ...item }) => {
      const p = product ? state.products.get(product.id) : undefined;
      return p ? { ...item, product: state.productView(p, false) } : item;
    }),
  });

  const idOf = (req: Req) => Number((req.params as { id: string }).id);

  const store: IdeasoftEmulator["store"] = {
    owner: opts.owner ?? { email: "ayse.yilmaz@example.com.tr", firstname: "Ayşe", surname: "Yılmaz" },
    installedApplication: opts.installedApplication ?? {
      applicationId: 4242,
      applicationName: "Entegrasyon Paneli ERP + E-Ticaret",
    },
  };
  app.get("/admin-api/users", async (req, reply) => {
    if ((await guard(req, reply, "read", "listUsers")) === "handled") return reply;
    const owner = store.owner;
    return paged(req, [
      // The file requires `password` in answers too (pattern: 8–16, a digit and a capital): a placeholder.
      {
        id: 1,
        ...owner,
        username: (owner.email.split("@")[0] ?? "admin").slice(0, 16),
        password: "Gizli1234",
        status: 1,
        isCustomerRepresentative: 0,
      },
    ]);
  });

  app.get("/admin-api/app_store/installed_applications", async (req, reply) => {
    if ((await guard(req, reply, "read", "listInstalledApplications")) === "handled") return reply;
    const installed = store.installedApplication;
    return installed === false ? [] : paged(req, [{ id: 1, ...installed, createdAt: iso(now()) }]);
  });

  app.get("/admin-api/currencies", async (req, reply) => {
    if ((await guard(req, reply, "read", "listCurrencies")) === "handled") return reply;
    return paged(req, [...state.currencies]);
  });

  app.get("/admin-api/payment_types", async (req, reply) => {
    if ((await guard(req, reply, "read", "listPaymentTypes")) === "handled") return reply;
    return paged(req, [...state.paymentTypes]);
  });

  app.get("/admin-api/categories", async (req, reply) => {
    if ((await guard(req, reply, "read", "listCategories")) === "handled") return reply;
    return paged(req, [...state.categories.values()]);
  });

  app.get("/admin-api/categories/:id", async (req, reply) => {
    if ((await guard(req, reply, "read", "getCategory")) === "handled") return reply;
    const c = state.categories.get(idOf(req));
    return c ?? notFound(reply, "Kategori");
  });

  app.post("/admin-api/categories", async (req, reply) => {
    if ((await guard(req, reply, "write", "createCategory")) === "handled") return reply;
    const b = req.body as IdeaCategory;
    const { id: _id, ...rest } = b;
    return reply.code(201).send(state.addCategory(rest));
  });

  app.get("/admin-api/products", async (req, reply) => {
    if ((await guard(req, reply, "read", "listProducts")) === "handled") return reply;
    const { q } = listParams(req);
    let rows = [...state.products.values()];
    if (q.parent !== undefined) rows = rows.filter((p) => String(p.parent?.id ?? "") === q.parent);
    return paged(req, rows).map((p) => state.productView(p, false));
  });

  app.get("/admin-api/products/:id", async (req, reply) => {
    if ((await guard(req, reply, "read", "getProduct")) === "handled") return reply;
    const p = state.products.get(idOf(req));
    return p ? state.productView(p, true) : notFound(reply, "Ürün");
  });

  app.post("/admin-api/products", async (req, reply) => {
    const g = await guard(req, reply, "write", "createProduct");
    if (g === "handled") return reply;
    const b = req.body as IdeaProduct;
    if (state.skuTaken(b.sku)) {
      counters.errors++;
      return reply.code(400).send(errorBody("sku_exists", `Bu stok kodu zaten kullanılıyor: ${b.sku}`));
    }
    const { id: _id, children: _c, ...rest } = b;
    const p = state.addProduct(rest);
    if (g === "drop") return server.drop(req, reply);
    return reply.code(201).send(state.productView(p, false));
  });

  app.put("/admin-api/products/:id", async (req, reply) => {
    const g = await guard(req, reply, "write", "updateProduct");
    if (g === "handled") return reply;
    const p = state.products.get(idOf(req));
    if (!p) return notFound(reply, "Ürün");
    const b = req.body as IdeaProduct;
    if (b.sku && state.skuTaken(b.sku, p.id)) {
      counters.errors++;
      return reply.code(400).send(errorBody("sku_exists", `Bu stok kodu zaten kullanılıyor: ${b.sku}`));
    }
    const { id: _id, children: _c, parent: _p, ...rest } = b;
    Object.assign(p, rest, { updatedAt: new Date(now()).toISOString().replace(/\.\d{3}Z$/, "+00:00") });
    if (g === "drop") return server.drop(req, reply);
    return state.productView(p, true);
  });

  app.get("/admin-api/product_prices", async (req, reply) => {
    if ((await guard(req, reply, "read", "listProductPrices")) === "handled") return reply;
    const { q } = listParams(req);
    let rows = [...state.productPrices.values()];
    if (q.product !== undefined) rows = rows.filter((r) => String(r.product.id) === q.product);
    return paged(req, rows).map(priceView);
  });

  app.post("/admin-api/product_prices", async (req, reply) => {
    if ((await guard(req, reply, "write", "createProductPrice")) === "handled") return reply;
    const b = req.body as IdeaProductPrice;
    if (!state.products.has(b.product.id)) return notFound(reply, "Ürün");
    return reply
      .code(201)
      .send(priceView(state.addProductPrice({ type: b.type, value: b.value, product: b.product })));
  });

  app.put("/admin-api/product_prices/:id", async (req, reply) => {
    if ((await guard(req, reply, "write", "updateProductPrice")) === "handled") return reply;
    const row = state.productPrices.get(idOf(req));
    if (!row) return notFound(reply, "Ürün fiyatı");
    const b = req.body as IdeaProductPrice;
    row.value = b.value;
    row.type = b.type;
    return priceView(row);
  });

  // Webhook subscriptions. The file documents the resource only: a delivery's body is inferred to be the
  // resource itself (the order), unsigned, POSTed to `address` (VERIFIED.md).
  const clientWebhooks: ClientWebhookRow[] = [];
  const webhooks = new WebhookOutbox({ now });
  const syncSubscriptions = () => {
    webhooks.subscriptions.splice(0);
    for (const w of clientWebhooks) if (w.status === 1) webhooks.subscribe(w.topic, w.address);
  };
  const deliverOrder = (topic: "order/create" | "order/update", o: IdeaOrder) =>
    webhooks.emit(topic, () => ({ headers: {}, body: JSON.stringify(orderView(o)) }));

  app.get("/admin-api/client_webhooks", async (req, reply) => {
    if ((await guard(req, reply, "read", "listClientWebhooks")) === "handled") return reply;
    const { q } = listParams(req);
    return paged(
      req,
      clientWebhooks.filter((w) => !q.topic || w.topic === q.topic),
    );
  });

  app.post("/admin-api/client_webhooks", async (req, reply) => {
    if ((await guard(req, reply, "write", "createClientWebhook")) === "handled") return reply;
    const b = req.body as Partial<ClientWebhookRow>;
    const at = iso(now());
    // As far as the file says, the same topic and address twice are two subscriptions.
    const row: ClientWebhookRow = {
      id: clientWebhooks.length + 1,
      topic: String(b.topic),
      address: String(b.address),
      status: Number(b.status),
      ...(b.fields !== undefined ? { fields: String(b.fields) } : {}),
      createdAt: at,
      updatedAt: at,
    };
    clientWebhooks.push(row);
    syncSubscriptions();
    return reply.code(201).send(row);
  });

  app.put("/admin-api/client_webhooks/:id", async (req, reply) => {
    if ((await guard(req, reply, "write", "updateClientWebhook")) === "handled") return reply;
    const row = clientWebhooks.find((w) => w.id === idOf(req));
    if (!row) return notFound(reply, "Webhook");
    const b = req.body as Partial<ClientWebhookRow>;
    Object.assign(row, { topic: String(b.topic), address: String(b.address), status: Number(b.status) });
    row.updatedAt = iso(now());
    syncSubscriptions();
    return row;
  });

  app.get("/admin-api/orders", async (req, reply) => {
    if ((await guard(req, reply, "read", "listOrders")) === "handled") return reply;
    const { q } = listParams(req);
    let rows = [...state.orders.values()];
    if (q.status) rows = rows.filter((o) => o.status === q.status);
    return paged(req, rows).map(orderView);
  });

  app.get("/admin-api/orders/:id", async (req, reply) => {
    if ((await guard(req, reply, "read", "getOrder")) === "handled") return reply;
    const o = state.orders.get(idOf(req));
    return o ? orderView(o) : notFound(reply, "Sipariş");
  });

  app.put("/admin-api/orders/:id", async (req, reply) => {
    if ((await guard(req, reply, "write", "updateOrder")) === "handled") return reply;
    const o = state.orders.get(idOf(req));
    if (!o) return notFound(reply, "Sipariş");
    const b = req.body as IdeaOrder;
    o.status = b.status;
    if (b.shippingTrackingCode !== undefined) o.shippingTrackingCode = b.shippingTrackingCode;
    o.updatedAt = new Date(now()).toISOString().replace(/\.\d{3}Z$/, "+00:00");
    deliverOrder("order/update", o);
    return orderView(o);
  });

  /** New orders, each delivered to the active `order/create` subscriptions. */
  const generateOrders = (n: number): IdeaOrder[] => {
    const orders = state.generateOrders(n);
    for (const o of orders) deliverOrder("order/create", o);
    return orders;
  };

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    credentials: { storeDomain, clientId, clientSecret, refreshToken: initialRefresh, apiUrl: url },
    state,
    answers,
    clientWebhooks,
    webhooks,
    store,
    setFaults: (config) => server.faults.set(config),
    expireTokens: () => tokens.expireAll(),
    issuedTokens: () => tokens.issued(),
    liveRefreshTokens: () => [...refreshTokens],
    generateOrders,
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
