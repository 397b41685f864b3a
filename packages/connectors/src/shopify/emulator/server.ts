/**
 * Shopify emulator on the emulator kit (../../testing): it executes Shopify's own Admin schema of the
 * pinned version (../judge) for every GraphQL call, charges each call's calculated cost against a leaky
 * bucket (THROTTLED inside HTTP 200, `extensions.cost` on every answer), checks the custom app's access
 * token (`X-Shopify-Access-Token`), runs bulk operations whose JSONL it serves itself, and answers the OAuth
 * code exchange. The kit supplies the server, faults (429 with Retry-After seconds, 5xx, timeouts, dropped
 * writes), counters and request recording for conformance.
 */

import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type DocumentNode, execute, parse, validate } from "graphql";
import type { EmulatorCounters, FaultConfig } from "../../testing/faults";
import { graphqlCallOf, parseGraphqlQuery } from "../../testing/graphql-emulator";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { WebhookOutbox } from "../../testing/webhooks";
import { SHOPIFY_API_VERSION } from "../judge/derive-schema";
import { graphqlCall, idempotentFields, SHOPIFY_EMULATOR_RULES, shopifyKeyFingerprint } from "../judge/rules";
import { shopifyJudgeSchema } from "../judge/schema";
import { CostBucket, MUTATION_COST, queryCost, resultCost } from "./cost";
import { createRoot, type Resolver } from "./resolvers";
import { type ShopifyOrderRow, ShopifyState } from "./state";

export interface ShopifyEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  shopDomain?: string;
  accessToken?: string;
  /** The app's credentials: OAuth code exchange, client credentials grant and refresh. */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of a client-credentials token (Shopify: 86,399 s) and of an expiring offline token (3,600 s). */
  clientCredentialsTtlS?: number;
  expiringTtlS?: number;
  /**
   * After a refresh, the previous refresh token stays valid until the new one is used ("retain", Shopify
   * since 2026-08-28) or dies at once ("strict", before). The contract suite runs both.
   */
  refreshRotation?: "retain" | "strict";
  /**
   * The documented side ("documented", default): no `@idempotent` → BAD_REQUEST, a key seen before is
   * answered from its first result. The side one developer observed right after 2026-04 ("observed"):
   * neither enforced nor de-duplicated (community.shopify.dev topic 27124).
   */
  idempotency?: "documented" | "observed";
  /** Leaky bucket (Standard plan: 2,000 points, 100/s — inferred). `false` = no cost limit. */
  bucket?: { maximumAvailable: number; restoreRate: number } | false;
  /** A single query above this cost is refused (MAX_COST_EXCEEDED; Shopify: 1,000). */
  maxQueryCost?: number;
  /** Polls of a bulk operation before it completes (default 1). */
  bulkPolls?: number;
}

export type ShopifyEmulatorCredentials = {
  shopDomain: string;
  accessToken: string;
  apiBaseUrl: string;
  /** The custom app's API secret key: signs webhook deliveries. */
  apiSecretKey: string;
};

export interface ShopifyEmulatorCounters extends EmulatorCounters {
  stockCalls: number;
  stockItems: number;
  priceCalls: number;
  priceItems: number;
  throttled: number;
  pointsCharged: number;
  bulkOperations: number;
  /** Mutations answered from an earlier call with the same idempotency key (not applied again). */
  idempotentReplays: number;
  /** Calls refused by a runtime rule (e.g. a missing @idempotent directive). */
  ruleRefusals: number;
  tokensIssued: number;
}

export interface ShopifyEmulator extends Emulator<ShopifyEmulatorCounters> {
  credentials: ShopifyEmulatorCredentials;
  state: ShopifyState;
  bucket?: CostBucket;
  setFaults(config: FaultConfig): void;
  /** The merchant uninstalled the app / rotated the token: every call answers 401. */
  revokeToken(): void;
  /** Every issued (expiring) token ends now; the legacy token is not touched. */
  expireTokens(): void;
  /** The Dev Dashboard / public app's client id and secret. */
  appCredentials: { clientId: string; clientSecret: string };
  /** A public app's install with expiring offline tokens: the token pair Shopify's code exchange gives. */
  installExpiring(): { accessToken: string; refreshToken: string; expiresAt: number };
  /** A single-use authorization code, as Shopify's redirect to the app's callback carries it. */
  issueAuthCode(): string;
  /** New orders; each is delivered to the `orders/create` webhook subscribers. */
  generateOrders(n: number): ShopifyOrderRow[];
  /** Webhook subscriptions and deliveries (`webhooks.idle()` waits for deliveries under way). */
  webhooks: WebhookOutbox;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  batchWriteStats(): { stock: { calls: number; items: number }; prices: { calls: number; items: number } };
  resetCounters(): void;
}

interface BulkOp {
  id: string;
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED";
  query: string;
  createdAt: string;
  completedAt: string | null;
  polls: number;
  jsonl?: string;
  objectCount: number;
  rootObjectCount: number;
}

const SCOPES =
  "read_products,write_products,read_inventory,write_inventory,read_orders,write_orders,write_merchant_managed_fulfillment_orders";

const ACCESS_DENIED = "[API] Invalid API key or access token (unrecognized login or wrong password)";

function gqlErrors(message: string, code: string, extra: Record<string, unknown> = {}) {
  return { errors: [{ message, extensions: { code, ...extra } }] };
}

/** A bulk query's answer as JSONL: each connection node one line, nested ones with `__parentId`. */
export function flattenBulk(data: Record<string, unknown>): { lines: string[]; roots: number } {
  const lines: string[] = [];
  let roots = 0;
  const isConn = (v: unknown): v is { edges: Array<{ node: Record<string, unknown> }> } =>
    Boolean(v && typeof v === "object" && Array.isArray((v as { edges?: unknown }).edges));
  const emit = (node: Record<string, unknown>, parentId: string | undefined) => {
    const own: Record<string, unknown> = {};
    const children: Array<{ edges: Array<{ node: Record<string, unknown> }> }> = [];
    for (const [k, v] of Object.entries(node)) {
      if (isConn(v)) children.push(v);
      else own[k] = v;
    }
    lines.push(JSON.stringify(parentId ? { ...own, __parentId: parentId } : own));
    for (const c of children) for (const e of c.edges) emit(e.node, String(node.id));
  };
  for (const v of Object.values(data)) {
    if (!isConn(v)) continue;
    for (const e of v.edges) {
      roots++;
      emit(e.node, undefined);
    }
  }
  return { lines, roots };
}

export async function startShopifyEmulator(opts: ShopifyEmulatorOptions = {}): Promise<ShopifyEmulator> {
  const seed = opts.seed ?? 1;
  const shopDomain = opts.shopDomain ?? "deneme-magaza.myshopify.com";
  let accessToken = opts.accessToken ?? `shpat_${randomBytes(16).toString("hex")}`;
  const clientId = opts.clientId ?? "shopify-emulator-client";
  const clientSecret = opts.clientSecret ?? "shopify-emulator-secret-0123456789";
  const server = createEmulatorServer<ShopifyEmulatorCounters>(
    {
      ...opts,
      rateLimit: false,
      errorBlock: false,
      formBodies: true,
      answers: {
        serverError: {
          status: 502,
          contentType: "text/html",
          body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
        },
        tooManyRequests: () => ({
          errors:
            "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.",
        }),
        lock: { status: 423, body: { errors: "This shop is unavailable" } },
        unauthorized: { status: 401, body: { errors: ACCESS_DENIED } },
      },
    },
    {
      stockCalls: 0,
      stockItems: 0,
      priceCalls: 0,
      priceItems: 0,
      throttled: 0,
      pointsCharged: 0,
      bulkOperations: 0,
      idempotentReplays: 0,
      ruleRefusals: 0,
      tokensIssued: 0,
    },
  );
  const { counters, now } = server;
  const state = new ShopifyState({
    seed,
    productCount: opts.productCount ?? 0,
    orderCount: opts.orderCount,
    shopDomain,
    now,
  });
  const bucket =
    opts.bucket === false
      ? undefined
      : new CostBucket(opts.bucket?.maximumAvailable ?? 2000, opts.bucket?.restoreRate ?? 100, now);
  const maxQueryCost = opts.maxQueryCost ?? 1000;
  const schema = shopifyJudgeSchema();
  const authCodes = new Set<string>();
  // Issued tokens with their end (epoch ms); the legacy token (`accessToken`) never ends.
  const issued = new Map<string, number>();
  // Refresh token → the one it was replaced by (undefined: current), for the rotation rule.
  const refreshTokens = new Map<string, string | undefined>();
  const ccTtlS = opts.clientCredentialsTtlS ?? 86_399;
  const expiringTtlS = opts.expiringTtlS ?? 3_600;
  const tokenValid = (t: unknown) =>
    typeof t === "string" && (t === accessToken || (issued.get(t) ?? 0) > now());
  const issue = (prefix: string, ttlS: number) => {
    const t = `${prefix}${randomBytes(16).toString("hex")}`;
    issued.set(t, now() + ttlS * 1000);
    counters.tokensIssued++;
    return t;
  };
  const newRefresh = () => {
    const r = `shprt_${randomBytes(16).toString("hex")}`;
    refreshTokens.set(r, undefined);
    return r;
  };
  const expiringPair = () => ({
    access_token: issue("shpat_", expiringTtlS),
    expires_in: expiringTtlS,
    refresh_token: newRefresh(),
    refresh_token_expires_in: 90 * 86_400,
  });
  // Missing @idempotent: Shopify's top-level BAD_REQUEST (live report quoted in judge/rules.ts).
  const rules = new RuleGate(SHOPIFY_EMULATOR_RULES, (v) =>
    gqlErrors(
      v.problems[0]?.includes("@idempotent")
        ? "The @idempotent directive is required for this mutation but was not provided."
        : (v.problems[0] ?? "Bad request"),
      "BAD_REQUEST",
    ),
  );
  // Idempotency key → what it stood for and the answer given; the same key is applied once.
  const idempotency = new Map<string, { fingerprint: string; data: unknown }>();
  const bulk = new Map<string, BulkOp>();
  let url = opts.baseUrl ?? "";

  let root: Record<string, Resolver> = {};
  const runBulk = async (op: BulkOp) => {
    const result = await execute({ schema, document: parse(op.query), rootValue: root });
    if (result.errors?.length || !result.data) {
      op.status = "FAILED";
      return;
    }
    const flat = flattenBulk(result.data as Record<string, unknown>);
    op.jsonl = flat.lines.length ? `${flat.lines.join("\n")}\n` : "";
    op.objectCount = flat.lines.length;
    op.rootObjectCount = flat.roots;
    op.status = "COMPLETED";
    op.completedAt = new Date(now()).toISOString();
  };
  const bulkView = (op: BulkOp) => ({
    __typename: "BulkOperation",
    id: op.id,
    status: op.status,
    type: "QUERY",
    query: op.query,
    createdAt: op.createdAt,
    completedAt: op.completedAt,
    errorCode: op.status === "FAILED" ? "INTERNAL_SERVER_ERROR" : null,
    objectCount: String(op.objectCount),
    rootObjectCount: String(op.rootObjectCount),
    fileSize: op.jsonl === undefined ? null : String(Buffer.byteLength(op.jsonl)),
    url:
      op.status === "COMPLETED" && op.objectCount > 0
        ? `${url}/bulk-results/${op.id.split("/").pop()}.jsonl`
        : null,
    partialDataUrl: null,
  });
  const pendingBulk: BulkOp[] = [];
  const webhooks = new WebhookOutbox();
  // Shopify's delivery: the order as REST JSON, signed with the app's secret key (base64 HMAC-SHA256).
  const generateOrders = (n: number): ShopifyOrderRow[] => {
    const orders = state.generateOrders(n);
    for (const o of orders) {
      webhooks.emit("ORDERS_CREATE", () => {
        const body = JSON.stringify({
          id: Number(o.id.split("/").pop()),
          admin_graphql_api_id: o.id,
          name: o.name,
          created_at: o.createdAt,
        });
        return {
          body,
          headers: {
            "x-shopify-topic": "orders/create",
            "x-shopify-hmac-sha256": createHmac("sha256", clientSecret).update(body).digest("base64"),
            "x-shopify-webhook-id": randomUUID(),
            "x-shopify-shop-domain": shopDomain,
            "x-shopify-api-version": SHOPIFY_API_VERSION,
          },
        };
      });
    }
    return orders;
  };
  root = createRoot({
    state,
    stats: counters,
    webhooks,
    startBulk(query) {
      let doc: DocumentNode;
      try {
        doc = parse(query);
      } catch (e) {
        return { error: { message: (e as Error).message, code: "INVALID" } };
      }
      const invalid = validate(schema, doc);
      if (invalid.length > 0)
        return { error: { message: invalid.map((e) => e.message).join("; "), code: "INVALID" } };
      if ([...bulk.values()].some((b) => b.status === "RUNNING" || b.status === "CREATED")) {
        return {
          error: {
            message: "A bulk query operation for this app and shop is already in progress",
            code: "OPERATION_IN_PROGRESS",
          },
        };
      }
      const op: BulkOp = {
        id: state.newId("BulkOperation"),
        status: "RUNNING",
        query,
        createdAt: new Date(now()).toISOString(),
        completedAt: null,
        polls: 0,
        objectCount: 0,
        rootObjectCount: 0,
      };
      bulk.set(op.id, op);
      counters.bulkOperations++;
      pendingBulk.push(op);
      return { id: op.id, status: op.status };
    },
    bulkNode(id) {
      const op = bulk.get(id);
      if (!op) return undefined;
      return bulkView(op);
    },
  });
  // Unknown root fields answer an error rather than a null the schema may forbid.
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const name of Object.keys(type?.getFields() ?? {})) {
      root[name] ??= () => {
        throw new Error(`The Shopify emulator does not implement ${name}`);
      };
    }
  }

  /** A poll of a running bulk operation moves it on; after `bulkPolls` polls it completes. */
  const advanceBulk = async (doc: DocumentNode, variables: Record<string, unknown>) => {
    if (pendingBulk.length === 0) return;
    const text = JSON.stringify(variables);
    const polled = pendingBulk.filter((op) => text.includes(op.id) || JSON.stringify(doc).includes(op.id));
    for (const op of polled) {
      op.polls++;
      if (op.polls >= (opts.bulkPolls ?? 1)) {
        pendingBulk.splice(pendingBulk.indexOf(op), 1);
        await runBulk(op);
      }
    }
  };

  const graphql = async (req: FastifyRequest, reply: FastifyReply) => {
    const version = (req.params as { version: string }).version;
    if (version !== SHOPIFY_API_VERSION) {
      counters.requests++;
      return reply.code(404).send({ errors: "Not Found" });
    }
    const token = req.headers["x-shopify-access-token"];
    if (!tokenValid(token)) {
      counters.requests++;
      counters.authFailures++;
      counters.errors++;
      return reply.code(401).send({ errors: ACCESS_DENIED });
    }
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    const doc = parseGraphqlQuery(body.query, "No query string was present");
    if (doc instanceof Error) {
      counters.requests++;
      counters.errors++;
      return reply.code(200).send(gqlErrors(doc.message, "PARSE_ERROR"));
    }
    const { op, operation, kind } = graphqlCallOf(doc);
    const gate = await server.gate(req, reply, { kind, operation }, { skipRateLimit: true });
    if (gate === "handled") return reply;
    const invalid = validate(schema, doc);
    if (invalid.length > 0 || !op) {
      counters.errors++;
      return reply.code(200).send({
        errors: invalid.map((e) => ({
          message: e.message,
          locations: e.locations,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        })),
      });
    }
    const documented = opts.idempotency !== "observed";
    const refusal =
      documented &&
      rules.check({
        at: now(),
        method: req.method,
        path: req.url.split("?")[0] ?? req.url,
        query: {},
        headers: req.headers,
        body: req.body,
      });
    if (refusal) {
      counters.errors++;
      counters.ruleRefusals++;
      return reply.code(200).send(refusal);
    }
    const call = graphqlCall({ method: "POST", path: req.url.split("?")[0] ?? "", body: req.body });
    const keyed = call && documented ? idempotentFields(call).filter((f) => f.key !== undefined) : [];
    const requested = queryCost(schema, doc, op, variables);
    if (requested > maxQueryCost) {
      counters.errors++;
      return reply.code(200).send(
        gqlErrors(
          `Query cost is ${requested}, which exceeds the single query max cost limit (${maxQueryCost}).`,
          "MAX_COST_EXCEEDED",
          {
            cost: requested,
            maxCost: maxQueryCost,
          },
        ),
      );
    }
    let actual = requested;
    const costExt = () => ({
      cost: {
        requestedQueryCost: requested,
        actualQueryCost: actual,
        throttleStatus: bucket?.status() ?? {
          maximumAvailable: 1e9,
          currentlyAvailable: 1e9,
          restoreRate: 1e9,
        },
      },
    });
    if (bucket && !bucket.take(requested)) {
      counters.throttled++;
      counters.errors++;
      return reply.code(200).send({
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: { cost: { ...costExt().cost, actualQueryCost: null } },
      });
    }
    counters.pointsCharged += requested;
    await advanceBulk(doc, variables);
    // A key seen before: the same change answers the first result and is not applied again; other
    // variables under the key get the documented user error.
    let rootValue = root;
    let replay: unknown;
    for (const f of keyed) {
      const seen = idempotency.get(f.key as string);
      if (!seen) continue;
      if (seen.fingerprint === shopifyKeyFingerprint(f.field, variables)) replay = seen.data;
      else {
        rootValue = {
          ...root,
          [f.field]: () => ({
            userErrors: [
              {
                field: null,
                message: "The idempotency key was already used with different parameters",
                code: "IDEMPOTENCY_KEY_PARAMETER_MISMATCH",
              },
            ],
          }),
        };
      }
    }
    if (replay !== undefined) counters.idempotentReplays++;
    const result =
      replay !== undefined
        ? { data: replay as Record<string, unknown>, errors: undefined }
        : await execute({
            schema,
            document: doc,
            rootValue,
            variableValues: variables,
            operationName: typeof body.operationName === "string" ? body.operationName : undefined,
          });
    if (replay === undefined && rootValue === root && result.data && !result.errors) {
      for (const f of keyed)
        idempotency.set(f.key as string, {
          fingerprint: shopifyKeyFingerprint(f.field, variables),
          data: result.data,
        });
    }
    if (kind === "read" && result.data) {
      // The data root itself is not charged.
      actual = Math.min(requested, Math.max(1, resultCost(result.data) - 1));
    } else actual = Math.min(requested, MUTATION_COST * (op.selectionSet.selections.length || 1));
    bucket?.refund(requested - actual);
    counters.pointsCharged += actual - requested;
    if (gate === "drop") return server.drop(req, reply);
    const errors = result.errors?.map((e) => ({
      message: e.message,
      path: e.path,
      extensions: { code: "INTERNAL_SERVER_ERROR", ...e.extensions },
    }));
    if (errors) counters.errors++;
    return reply.code(200).send({
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(errors ? { errors } : {}),
      extensions: costExt(),
    });
  };
  server.app.post("/admin/api/:version/graphql.json", graphql);

  server.tokenEndpoint("/admin/oauth/access_token", "oauth/access_token", async (b, _req, reply) => {
    const refuse = (error: string, error_description: string) => {
      counters.errors++;
      counters.authFailures++;
      return reply.code(400).send({ error, error_description });
    };
    if (b.client_id !== clientId || b.client_secret !== clientSecret)
      return refuse("invalid_client", "Client authentication failed");
    if (b.grant_type === "client_credentials") {
      // Dev Dashboard apps: a token for about 24 h, no refresh token (ask again).
      return reply.send({ access_token: issue("shpat_", ccTtlS), scope: SCOPES, expires_in: ccTtlS });
    }
    if (b.grant_type === "refresh_token") {
      const r = b.refresh_token ?? "";
      if (!refreshTokens.has(r))
        return refuse("invalid_grant", "The refresh token is invalid or was revoked");
      // "retain": a replaced token still works until its replacement has been used ("strict": never).
      if (refreshTokens.get(r) !== undefined && opts.refreshRotation === "strict")
        return refuse("invalid_grant", "The refresh token is invalid or was revoked");
      const pair = expiringPair();
      refreshTokens.set(r, pair.refresh_token);
      // Using a replacement retires whatever it replaced.
      for (const [old, next] of refreshTokens) if (next === r) refreshTokens.delete(old);
      return reply.send({ ...pair, scope: SCOPES });
    }
    if (b.grant_type !== undefined) return refuse("unsupported_grant_type", "Unsupported grant type");
    if (!b.code || !authCodes.has(b.code))
      return refuse("invalid_request", "The authorization code was not found or was already used");
    authCodes.delete(b.code);
    // `expiring: "1"` (public apps from 2026-04-01): an expiring offline token with a refresh token.
    if (b.expiring === "1") return reply.send({ ...expiringPair(), scope: SCOPES });
    return reply.send({ access_token: accessToken, scope: SCOPES });
  });

  server.app.get("/bulk-results/:file", async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const op = bulk.get(`gid://shopify/BulkOperation/${file.replace(/\.jsonl$/, "")}`);
    counters.requests++;
    counters.reads++;
    if (!op?.jsonl) return reply.code(404).send("Not Found");
    return reply.type("application/jsonl").send(op.jsonl);
  });
  server.app.get("/health", async () => ({ ok: true }));

  const started = await server.start(opts);
  url = started.url;
  return {
    ...started,
    credentials: { shopDomain, accessToken, apiBaseUrl: url, apiSecretKey: clientSecret },
    state,
    bucket,
    setFaults: (c) => server.faults.set(c),
    revokeToken: () => {
      accessToken = `revoked-${randomBytes(8).toString("hex")}`;
      issued.clear();
      refreshTokens.clear();
    },
    expireTokens: () => {
      for (const t of issued.keys()) issued.set(t, 0);
    },
    appCredentials: { clientId, clientSecret },
    installExpiring: () => {
      const pair = expiringPair();
      return {
        accessToken: pair.access_token,
        refreshToken: pair.refresh_token,
        expiresAt: now() + pair.expires_in * 1000,
      };
    },
    issueAuthCode: () => {
      const code = randomBytes(16).toString("hex");
      authCodes.add(code);
      return code;
    },
    generateOrders,
    webhooks,
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
    batchWriteStats: () => ({
      stock: { calls: counters.stockCalls, items: counters.stockItems },
      prices: { calls: counters.priceCalls, items: counters.priceItems },
    }),
    resetCounters: () => server.resetCounters(),
  };
}
