/**
 * IKAS emulator on the emulator kit (../../testing): its judge (the schema derived from `@ikas/api-client`,
 * executed for every GraphQL request — every query and mutation exists; those without state answer an
 * error), its state and its handlers. IKAS's own answers: a client-credentials token (14,400 s), GraphQL at
 * /api/v1/admin/graphql (also /api/v2/...), errors inside HTTP 200 with the package's codes, 401
 * `UNAUTHENTICATED` on a bad or expired token, 50 requests / 10 s with 429, the error-rate block and batch
 * limits. The kit supplies the server, rate limit, faults, token store, block and request recording.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { execute, GraphQLError, type GraphQLSchema, validate } from "graphql";
import { bearerToken, TokenStore } from "../../testing/auth";
import type { EmulatorCounters, ErrorBlockPolicy, FaultConfig } from "../../testing/faults";
import { graphqlCallOf, parseGraphqlQuery } from "../../testing/graphql-emulator";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { WebhookOutbox } from "../../testing/webhooks";
import { ikasWebhookSignature } from "../webhooks";
import { createRoot, type IkasCallStats, type IkasLimits, ikasSchema } from "./schema";
import { IkasState } from "./state";
import type { IkasOrder } from "./types";

/** IKAS blocks a client whose error share is over 25 % in an hour, for an hour. */
export type IkasErrorBlockPolicy = ErrorBlockPolicy;

export interface IkasEmulatorOptions extends EmulatorOptions {
  /** SKUs in the seeded catalogue (0 = empty store). */
  productCount?: number;
  /** Orders at start. */
  orderCount?: number;
  /** The order number the store gave last (default 1000), e.g. the highest a restarted store had given. */
  lastOrderNumber?: number;
  storeName?: string;
  clientId?: string;
  clientSecret?: string;
  /** Requests per window (IKAS: 50 / 10 s). `false` = unlimited. */
  rateLimit?: { requests: number; windowMs: number } | false;
  /** Access token lifetime (IKAS: 14,400 s). */
  tokenTtlMs?: number;
  errorBlock?: IkasErrorBlockPolicy | false;
  limits?: Partial<IkasLimits>;
}

export type IkasEmulatorCredentials = {
  storeName: string;
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  tokenUrl: string;
};

export interface IkasEmulatorCounters extends EmulatorCounters, IkasCallStats {
  tokensIssued: number;
}

export interface IkasEmulator extends Emulator<IkasEmulatorCounters> {
  /** Credentials of the emulated store, ready for the IKAS connector. */
  credentials: IkasEmulatorCredentials;
  state: IkasState;
  setFaults(config: FaultConfig): void;
  /** Make every issued token expired (simulates the 4-hour expiry mid-run). */
  expireTokens(): void;
  /** Every access token issued so far (tests check none reaches a log). */
  issuedTokens(): string[];
  /**
   * Create `n` new orders now (`orderedAt[i]`: when the i-th was placed, if earlier); each is delivered
   * to the `store/order/created` webhook subscribers.
   */
  generateOrders(n: number, orderedAt?: readonly number[]): IkasOrder[];
  /** Webhook subscriptions and deliveries (`webhooks.idle()` waits for deliveries under way). */
  webhooks: WebhookOutbox;
  /** Create `perTick` orders every `intervalMs` until stopped. */
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  /**
   * Batch-write accounting for benchmarks: calls and items of saveProductStockLocations / saveVariantPrices,
   * to compare calls against ceil(changes / batch size).
   */
  batchWriteStats(): { stock: { calls: number; items: number }; prices: { calls: number; items: number } };
  /** Change the rate limit at run time (`false` = unlimited); the window starts empty. */
  setRateLimit(limit: { requests: number; windowMs: number } | false): void;
  /** Whether the error-rate block is in force. */
  blockedUntil(): number;
  resetCounters(): void;
}

const DEFAULT_LIMITS: IkasLimits = { maxPriceBatch: 3000, maxStockBatch: 1000, maxPageLimit: 200 };

function gqlError(message: string, code: string, extra: Record<string, unknown> = {}) {
  return { data: null, errors: [{ message, extensions: { code, ...extra } }] };
}

/**
 * Root resolvers for every query and mutation of the schema: those the emulator has no state for
 * answer an error with the package's `UNKNOWN` code instead of a null the schema forbids.
 */
function withUnimplemented(
  schema: GraphQLSchema,
  root: Record<string, (args: Record<string, unknown>) => unknown>,
): Record<string, (args: Record<string, unknown>) => unknown> {
  const out = { ...root };
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const name of Object.keys(type?.getFields() ?? {})) {
      out[name] ??= () => {
        throw new GraphQLError(`The IKAS emulator does not implement ${name}`, {
          extensions: { code: "UNKNOWN" },
        });
      };
    }
  }
  for (const name of Object.keys(root)) {
    const known = schema.getQueryType()?.getFields()[name] ?? schema.getMutationType()?.getFields()[name];
    if (!known) throw new Error(`IKAS emulator resolver ${name} is not in the derived schema`);
  }
  return out;
}

export async function startIkasEmulator(opts: IkasEmulatorOptions = {}): Promise<IkasEmulator> {
  const seed = opts.seed ?? 1;
  const storeName = opts.storeName ?? "demo-magaza";
  const clientId = opts.clientId ?? "ikas-emulator-client";
  const clientSecret = opts.clientSecret ?? "ikas-emulator-secret-0123456789";
  const limits: IkasLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const server = createEmulatorServer<IkasEmulatorCounters>(
    {
      ...opts,
      rateLimit: opts.rateLimit === false ? false : { requests: 50, windowMs: 10_000, ...opts.rateLimit },
      errorBlock:
        opts.errorBlock === false
          ? false
          : { windowMs: 3600_000, minRequests: 40, errorRatio: 0.25, blockMs: 3600_000, ...opts.errorBlock },
      formBodies: true,
      answers: {
        // IKAS's load balancer answers 5xx with HTML, the API everything else as GraphQL errors.
        serverError: {
          status: 503,
          contentType: "text/html",
          body: "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>",
        },
        tooManyRequests: (cause) =>
          gqlError(
            cause === "limit" ? "Rate limit exceeded: 50 requests per 10 seconds" : "Too many requests",
            "TOO_MANY_REQUESTS",
          ),
        lock: {
          status: 200,
          body: gqlError("Resource is locked by another operation, please try again", "LOCKED"),
        },
        // A token the server stopped accepting: the package's code inside HTTP 200.
        unauthorized: { status: 200, body: gqlError("jwt expired", "UNAUTHENTICATED") },
        blocked: (blockedUntil) =>
          gqlError("Client is blocked because of a high error rate", "TOO_MANY_ERRORS", { blockedUntil }),
      },
    },
    { stockCalls: 0, stockItems: 0, priceCalls: 0, priceItems: 0, productSaves: 0, tokensIssued: 0 },
  );
  const { counters, now } = server;
  const state = new IkasState({
    seed,
    productCount: opts.productCount ?? 0,
    storeName,
    now,
    orderCount: opts.orderCount,
    lastOrderNumber: opts.lastOrderNumber,
  });
  const tokens = new TokenStore(opts.tokenTtlMs ?? 4 * 3600_000, now);
  const schema = ikasSchema();
  const webhooks = new WebhookOutbox({ now });
  const root = withUnimplemented(schema, createRoot({ state, limits, stats: counters, webhooks }));
  // The package's `IkasWebhook` delivery: `data` is the order as a JSON string, signed with the secret.
  let deliverySeq = 0;
  const generateOrders = (n: number, orderedAt?: readonly number[]): IkasOrder[] => {
    const orders = state.generateOrders(n, orderedAt);
    for (const o of orders) {
      webhooks.emit("store/order/created", () => {
        const data = JSON.stringify({ id: o.id, orderNumber: o.orderNumber, merchantId: state.merchantId });
        return {
          headers: {},
          body: JSON.stringify({
            id: `${state.merchantId}-wh-${++deliverySeq}`,
            createdAt: new Date(now()).toISOString(),
            scope: "store/order/created",
            merchantId: state.merchantId,
            data,
            signature: ikasWebhookSignature(data, clientSecret),
            authorizedAppId: state.authorizedApp.id,
          }),
        };
      });
    }
    return orders;
  };

  server.tokenEndpoint("/api/admin/oauth/token", "oauth/token", async (body, _req, reply) => {
    if (body.grant_type !== "client_credentials") {
      counters.errors++;
      return reply.code(400).send({
        error: "unsupported_grant_type",
        error_description: "grant_type must be client_credentials",
      });
    }
    if (body.client_id !== clientId || body.client_secret !== clientSecret) {
      counters.errors++;
      counters.authFailures++;
      return reply
        .code(401)
        .send({ error: "invalid_client", error_description: "Client authentication failed" });
    }
    const issued = tokens.issue();
    counters.tokensIssued++;
    return reply.send({
      token_type: "Bearer",
      access_token: issued.token,
      expires_in: issued.expiresIn,
      scope: "read_products write_products read_orders write_orders read_inventories write_inventories",
    });
  });

  const graphqlHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    if ((await server.rateLimit(reply)) || (await server.blocked(reply))) return reply;
    const check = tokens.check(bearerToken(req.headers.authorization));
    if (check !== "ok") {
      counters.requests++;
      counters.authFailures++;
      server.noteOutcome(true);
      return reply
        .code(401)
        .send(gqlError(check === "expired" ? "Token expired" : "Unauthorized", "UNAUTHENTICATED"));
    }
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    const doc = parseGraphqlQuery(body.query, "Must provide query string.");
    if (doc instanceof Error) {
      counters.requests++;
      server.noteOutcome(true);
      return reply.code(400).send(gqlError(doc.message, "GRAPHQL_PARSE_FAILED"));
    }
    const { operation, kind } = graphqlCallOf(doc);
    const gate = await server.gate(req, reply, { kind, operation }, { skipRateLimit: true });
    if (gate === "handled") return reply;
    const validationErrors = validate(schema, doc);
    if (validationErrors.length > 0) {
      server.noteOutcome(true);
      return reply.code(400).send({
        errors: validationErrors.map((e) => ({
          message: e.message,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        })),
      });
    }
    const result = await execute({
      schema,
      document: doc,
      rootValue: root,
      variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: typeof body.operationName === "string" ? body.operationName : undefined,
    });
    if (gate === "drop") return server.drop(req, reply);
    if (result.data === undefined && result.errors) {
      // Variables the schema refuses: nothing ran (Apollo answers 400 BAD_USER_INPUT).
      server.noteOutcome(true);
      return reply.code(400).send({
        errors: result.errors.map((e) => ({ message: e.message, extensions: { code: "BAD_USER_INPUT" } })),
      });
    }
    const errors = result.errors?.map((e) => ({
      message: e.message,
      path: e.path,
      extensions: { code: "INTERNAL_SERVER_ERROR", ...e.extensions },
    }));
    server.noteOutcome(Boolean(errors && errors.length > 0));
    return reply.code(200).send(errors ? { data: result.data ?? null, errors } : { data: result.data });
  };
  server.app.post("/api/v1/admin/graphql", graphqlHandler);
  server.app.post("/api/v2/admin/graphql", graphqlHandler);
  server.app.get("/health", async () => ({ ok: true }));

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: {
      storeName,
      clientId,
      clientSecret,
      apiUrl: `${url}/api/v1/admin/graphql`,
      tokenUrl: `${url}/api/admin/oauth/token`,
    },
    state,
    setFaults: (c) => server.faults.set(c),
    expireTokens: () => tokens.expireAll(),
    issuedTokens: () => tokens.issued(),
    generateOrders,
    webhooks,
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
    batchWriteStats: () => ({
      stock: { calls: counters.stockCalls, items: counters.stockItems },
      prices: { calls: counters.priceCalls, items: counters.priceItems },
    }),
    setRateLimit: (limit) => server.setRateLimit(limit),
    blockedUntil: () => server.blockedUntil(),
    resetCounters: () => server.resetCounters(),
  };
}
