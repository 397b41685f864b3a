/**
 * Shopier emulator on the emulator kit, answering what its judge allows (paths and query parameters from
 * `@bbangg/shopier@1.0.7`): `GET /v1/products` and `/v1/categories` as bare JSON arrays with the paging in
 * `Shopier-Pagination-*` headers, `Authorization: Bearer` with the personal access token or a live OAuth
 * access token (three days, renewed at `POST /v1/oauth2/token` with the refresh token, which is rotated:
 * shopier-go), 401 for another token, and the runtime rules (judge/rules.ts) refused with 400 in the error
 * body shopier-go parses. Data: the shared Turkish catalogue (models with sizes become products with
 * variants). `signWebhook` signs a body the way Shopier's notifications are signed.
 */

import { createHmac, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { generateCatalog } from "../../testing/catalog";
import { clampPageSize } from "../../testing/paging";
import { type RecordedRequest, recordedFrom } from "../../testing/recorder";
import { RuleGate, violationMessages } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import type { ShopierProduct } from "../catalog";
import { SHOPIER_OAUTH_TOKEN_TTL_S } from "../descriptor";
import { shopierRules } from "../judge/rules";
import fixture from "../judge/shopier-api.generated.json" with { type: "json" };

export interface ShopierEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  accessToken?: string;
  webhookToken?: string;
  /**
   * How variants carry their selection (sources disagree: catalog.ts `ShopierVariant`): arrays
   * (@bbangg/shopier, a live sync) or single strings (shopier-go).
   */
  variantFields?: "arrays" | "strings";
  /** The OAuth app the merchant authorised (client and its first refresh token). */
  oauth?: { clientId: string; clientSecret: string; refreshToken: string };
}

export interface ShopierEmulator extends Emulator {
  credentials: { accessToken: string; webhookToken: string; apiUrl: string };
  /** The same shop through the OAuth app: no access token yet, only the pair to renew one. */
  oauthCredentials: { clientId: string; clientSecret: string; refreshToken: string; apiUrl: string };
  /** Refuses every OAuth access token issued so far (as a revocation would). */
  revokeAccessTokens(): void;
  /** Token requests answered, by outcome. */
  tokenRequests: { issued: number; refused: number };
  rules: RuleGate<RecordedRequest, { status: number; body: unknown }>;
  products: ShopierProduct[];
  categories: Array<{ id: string; title: string }>;
  /** The `Shopier-Signature` of a notification body. */
  signWebhook(rawBody: string): string;
}

/** The error body shopier-go's `parseAPIError` reads (`error`, `message`); inferred, no source shows one. */
const error = (message: string, code = "invalid_request") => ({ error: code, message });

export async function startShopierEmulator(opts: ShopierEmulatorOptions = {}): Promise<ShopierEmulator> {
  const seed = opts.seed ?? 1;
  const accessToken = opts.accessToken ?? "shopier-emulator-pat-0123456789";
  const webhookToken = opts.webhookToken ?? "shopier-emulator-webhook-token";
  const app0 = opts.oauth ?? {
    clientId: "shopier-emulator-client",
    clientSecret: "shopier-emulator-client-secret",
    refreshToken: "shopier-emulator-refresh-0",
  };
  let liveRefresh = app0.refreshToken;
  const oauthTokens = new Map<string, number>();
  const tokenRequests = { issued: 0, refused: 0 };
  const server = createEmulatorServer({
    ...opts,
    formBodies: true,
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
  const selectionFields = (variation: string, id: string, title: string) =>
    opts.variantFields === "strings"
      ? { variationTitle: variation, selectionId: id, selectionTitle: title }
      : { variationTitle: [variation], selectionId: [id], selectionTitle: [title] };
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
            ...selectionFields(r.optionName ?? "Beden", String(++selection), r.optionValue ?? ""),
            stockQuantity: r.stock1,
            priceData: { currency: "TRY", price: r.retailPrice.toFixed(2) },
          }))
        : [],
    };
  });

  const gets = fixture.gets as Record<string, string[]>;
  async function list<T>(req: FastifyRequest, reply: FastifyReply, path: string, rows: T[]) {
    if (await server.rateLimit(reply)) return reply;
    const bearer = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    const live = bearer === accessToken || (oauthTokens.get(bearer) ?? 0) > now();
    if (!live) {
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

  // The runtime rules refuse before any route (the judge applies the same rules to the recording).
  const rules = new RuleGate<RecordedRequest, { status: number; body: unknown }>(shopierRules, (v) => ({
    status: 400,
    body: error(violationMessages([v]).join("; ")),
  }));
  server.app.addHook("preHandler", async (req, reply) => {
    const refusal = rules.check(recordedFrom(req, now()));
    if (refusal) return reply.code(refusal.status).send(refusal.body);
    return undefined;
  });

  // OAuth 2.0 token endpoint (shopier-go oauth.go): refresh_token grant; the refresh token is rotated.
  server.app.post("/v1/oauth2/token", async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>;
    if (b.client_id !== app0.clientId || b.client_secret !== app0.clientSecret) {
      tokenRequests.refused++;
      return reply
        .code(401)
        .send({ error: "invalid_client", error_description: "Client authentication failed" });
    }
    if (b.refresh_token !== liveRefresh) {
      tokenRequests.refused++;
      return reply.code(400).send({ error: "invalid_grant", error_description: "Refresh token is invalid" });
    }
    const access = `shp_oauth_${randomBytes(12).toString("hex")}`;
    liveRefresh = `shp_refresh_${randomBytes(12).toString("hex")}`;
    oauthTokens.set(access, now() + SHOPIER_OAUTH_TOKEN_TTL_S * 1000);
    tokenRequests.issued++;
    return reply.send({
      access_token: access,
      token_type: "Bearer",
      expires_in: SHOPIER_OAUTH_TOKEN_TTL_S,
      refresh_token: liveRefresh,
    });
  });

  server.app.get("/v1/products", (req, reply) => list(req, reply, "/products", products));
  server.app.get("/v1/categories", (req, reply) => list(req, reply, "/categories", categories));

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: { accessToken, webhookToken, apiUrl: `${url}/v1` },
    oauthCredentials: {
      clientId: app0.clientId,
      clientSecret: app0.clientSecret,
      refreshToken: app0.refreshToken,
      apiUrl: `${url}/v1`,
    },
    revokeAccessTokens: () => oauthTokens.clear(),
    tokenRequests,
    rules,
    products,
    categories,
    signWebhook: (raw) => createHmac("sha256", webhookToken).update(raw).digest("hex"),
  };
}
