/**
 * IKAS emulator: a Fastify server that behaves like the IKAS Admin API — client-credentials token
 * (14,400 s), GraphQL at /api/v1/admin/graphql (also /api/v2/...) executed against the schema derived
 * from `@ikas/api-client` (every query and mutation exists; those without state answer an error), errors
 * inside HTTP 200 with the package's codes, 401 `UNAUTHENTICATED` on a bad/expired token, 50 requests /
 * 10 s with 429, the error-rate block, batch limits, and switchable faults.
 */

import { randomBytes } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import {
  type DocumentNode,
  execute,
  GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import {
  type CallInfo,
  countCall,
  delay,
  dropConnection,
  EmulatedRateLimit,
  type EmulatorCounters,
  type FaultConfig,
  FaultInjector,
  hangAndDrop,
  newCounters,
} from "../../testing/faults";
import { createRoot, type IkasCallStats, type IkasLimits, ikasSchema } from "./schema";
import { type IkasOrder, IkasState } from "./state";

export interface IkasErrorBlockPolicy {
  /** Window the error rate is measured over (IKAS: 1 h). */
  windowMs: number;
  /** Requests needed in the window before the ratio counts. */
  minRequests: number;
  /** Error ratio above which the client is blocked (IKAS: 25 %). */
  errorRatio: number;
  /** Block length (IKAS: 1 h). */
  blockMs: number;
}

export interface IkasEmulatorOptions {
  port?: number;
  host?: string;
  /** `false`: open no port; a host serves the app at `baseUrl` (see the Mikro emulator). */
  listen?: boolean;
  baseUrl?: string;
  seed?: number | string;
  /** SKUs in the seeded catalogue (0 = empty store). */
  productCount?: number;
  /** Orders at start. */
  orderCount?: number;
  storeName?: string;
  clientId?: string;
  clientSecret?: string;
  /** Requests per window (IKAS: 50 / 10 s). `false` = unlimited. */
  rateLimit?: { requests: number; windowMs: number } | false;
  /** Access token lifetime (IKAS: 14,400 s). */
  tokenTtlMs?: number;
  faults?: FaultConfig;
  errorBlock?: IkasErrorBlockPolicy | false;
  limits?: Partial<IkasLimits>;
  now?: () => number;
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
  blockedResponses: number;
}

export interface IkasEmulator {
  url: string;
  /** The Fastify app (a host serves it when `listen: false`). */
  app: FastifyInstance;
  port: number;
  /** Credentials of the emulated store, ready for the IKAS connector. */
  credentials: IkasEmulatorCredentials;
  state: IkasState;
  counters: IkasEmulatorCounters;
  faults: FaultInjector;
  setFaults(config: FaultConfig): void;
  /** Make every issued token expired (simulates the 4-hour expiry mid-run). */
  expireTokens(): void;
  /** Every access token issued so far (tests check none reaches a log). */
  issuedTokens(): string[];
  /** Create `n` new orders now. */
  generateOrders(n: number): IkasOrder[];
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
  close(): Promise<void>;
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
  const now = opts.now ?? Date.now;
  const seed = opts.seed ?? 1;
  const storeName = opts.storeName ?? "demo-magaza";
  const clientId = opts.clientId ?? "ikas-emulator-client";
  const clientSecret = opts.clientSecret ?? "ikas-emulator-secret-0123456789";
  const tokenTtlMs = opts.tokenTtlMs ?? 4 * 3600_000;
  const limits: IkasLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const state = new IkasState({
    seed,
    productCount: opts.productCount ?? 0,
    storeName,
    now,
    orderCount: opts.orderCount,
  });
  const counters: IkasEmulatorCounters = {
    ...newCounters(),
    stockCalls: 0,
    stockItems: 0,
    priceCalls: 0,
    priceItems: 0,
    productSaves: 0,
    tokensIssued: 0,
    blockedResponses: 0,
  };
  const faults = new FaultInjector(opts.faults, seed);
  let limiter =
    opts.rateLimit === false
      ? undefined
      : new EmulatedRateLimit(opts.rateLimit?.requests ?? 50, opts.rateLimit?.windowMs ?? 10_000);
  const block: IkasErrorBlockPolicy | undefined =
    opts.errorBlock === false
      ? undefined
      : { windowMs: 3600_000, minRequests: 40, errorRatio: 0.25, blockMs: 3600_000, ...opts.errorBlock };
  const tokens = new Map<string, number>();
  const outcomes: Array<[number, boolean]> = [];
  let blockedUntil = 0;
  const schema = ikasSchema();
  const root = withUnimplemented(schema, createRoot({ state, limits, stats: counters }));

  const recordOutcome = (isError: boolean) => {
    if (isError) counters.errors++;
    if (!block) return;
    const t = now();
    outcomes.push([t, isError]);
    while (outcomes.length > 0 && (outcomes[0]?.[0] ?? 0) <= t - block.windowMs) outcomes.shift();
    const errors = outcomes.filter((o) => o[1]).length;
    if (outcomes.length >= block.minRequests && errors / outcomes.length > block.errorRatio) {
      blockedUntil = t + block.blockMs;
      outcomes.length = 0;
    }
  };

  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 64 * 1024 * 1024 });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  /** Faults before the handler; returns true when the request was answered (or dropped). */
  async function preFault(
    req: FastifyRequest,
    reply: FastifyReply,
    call: CallInfo,
  ): Promise<"handled" | "drop" | undefined> {
    const lat = faults.latency();
    if (lat > 0) await delay(lat);
    const kind = faults.decide(call);
    if (!kind) return undefined;
    counters.faults[kind]++;
    switch (kind) {
      case "5xx":
        counters.errors++;
        await reply
          .code(503)
          .type("text/html")
          .send("<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>");
        return "handled";
      case "429":
        counters.errors++;
        await reply
          .code(429)
          .header("retry-after", String(faults.retryAfterSeconds()))
          .send(gqlError("Too many requests", "TOO_MANY_REQUESTS"));
        return "handled";
      case "timeout":
        await hangAndDrop(req, reply, faults.hangMs());
        return "handled";
      case "lock":
        counters.errors++;
        await reply
          .code(200)
          .send(gqlError("Resource is locked by another operation, please try again", "LOCKED"));
        return "handled";
      case "dropAfterWrite":
        return "drop";
    }
  }

  app.post("/api/admin/oauth/token", async (req, reply) => {
    const call: CallInfo = { kind: "read", operation: "oauth/token" };
    countCall(counters, call);
    const pf = await preFault(req, reply, call);
    if (pf === "handled") return reply;
    const body = (req.body ?? {}) as Record<string, string>;
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
    const token = randomBytes(24).toString("base64url");
    tokens.set(token, now() + tokenTtlMs);
    counters.tokensIssued++;
    return reply.send({
      token_type: "Bearer",
      access_token: token,
      expires_in: Math.round(tokenTtlMs / 1000),
      scope: "read_products write_products read_orders write_orders read_inventories write_inventories",
    });
  });

  const graphqlHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const t = now();
    if (limiter) {
      const wait = limiter.arrive(t);
      if (wait > 0) {
        counters.requests++;
        counters.rateLimitViolations++;
        recordOutcome(true);
        return reply
          .code(429)
          .header("retry-after", String(Math.ceil(wait / 1000)))
          .send(gqlError("Rate limit exceeded: 50 requests per 10 seconds", "TOO_MANY_REQUESTS"));
      }
    }
    if (blockedUntil > t) {
      counters.requests++;
      counters.blockedResponses++;
      counters.errors++;
      return reply
        .code(429)
        .header("retry-after", String(Math.ceil((blockedUntil - t) / 1000)))
        .send(
          gqlError("Client is blocked because of a high error rate", "TOO_MANY_ERRORS", { blockedUntil }),
        );
    }
    const auth = req.headers.authorization ?? "";
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    const exp = tokens.get(token);
    if (exp === undefined || exp <= t) {
      counters.requests++;
      counters.authFailures++;
      recordOutcome(true);
      return reply
        .code(401)
        .send(gqlError(exp === undefined ? "Unauthorized" : "Token expired", "UNAUTHENTICATED"));
    }
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    let doc: DocumentNode;
    try {
      if (typeof body.query !== "string") throw new GraphQLError("Must provide query string.");
      doc = parse(body.query);
    } catch (e) {
      counters.requests++;
      recordOutcome(true);
      return reply.code(400).send(gqlError((e as Error).message, "GRAPHQL_PARSE_FAILED"));
    }
    const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
    const firstField = op?.selectionSet.selections.find((s) => s.kind === "Field");
    const operation = firstField && firstField.kind === "Field" ? firstField.name.value : "unknown";
    const call: CallInfo = { kind: op?.operation === "mutation" ? "write" : "read", operation };
    countCall(counters, call);
    const pf = await preFault(req, reply, call);
    if (pf === "handled") return reply;
    const validationErrors = validate(schema, doc);
    if (validationErrors.length > 0) {
      recordOutcome(true);
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
    if (pf === "drop") {
      dropConnection(req, reply);
      return reply;
    }
    if (result.data === undefined && result.errors) {
      // Variables the schema refuses: nothing ran (Apollo answers 400 BAD_USER_INPUT).
      recordOutcome(true);
      return reply.code(400).send({
        errors: result.errors.map((e) => ({ message: e.message, extensions: { code: "BAD_USER_INPUT" } })),
      });
    }
    const errors = result.errors?.map((e) => ({
      message: e.message,
      path: e.path,
      extensions: { code: "INTERNAL_SERVER_ERROR", ...e.extensions },
    }));
    recordOutcome(Boolean(errors && errors.length > 0));
    return reply.code(200).send(errors ? { data: result.data ?? null, errors } : { data: result.data });
  };
  app.post("/api/v1/admin/graphql", graphqlHandler);
  app.post("/api/v2/admin/graphql", graphqlHandler);
  app.get("/health", async () => ({ ok: true }));

  let url = opts.baseUrl ?? "";
  let port = 0;
  if (opts.listen === false) await app.ready();
  else {
    const address = await app.listen({ port: opts.port ?? 0, host: opts.host ?? "127.0.0.1" });
    url = address.replace("[::1]", "127.0.0.1");
    port = Number(new URL(url).port);
  }
  const timers = new Set<NodeJS.Timeout>();

  return {
    url,
    port,
    app,
    credentials: {
      storeName,
      clientId,
      clientSecret,
      apiUrl: `${url}/api/v1/admin/graphql`,
      tokenUrl: `${url}/api/admin/oauth/token`,
    },
    state,
    counters,
    faults,
    setFaults: (c) => faults.set(c),
    expireTokens: () => {
      for (const k of tokens.keys()) tokens.set(k, 0);
    },
    issuedTokens: () => [...tokens.keys()],
    generateOrders: (n) => state.generateOrders(n),
    startOrderGenerator: (intervalMs, perTick = 1) => {
      const t = setInterval(() => state.generateOrders(perTick), intervalMs);
      t.unref();
      timers.add(t);
      return () => {
        clearInterval(t);
        timers.delete(t);
      };
    },
    batchWriteStats: () => ({
      stock: { calls: counters.stockCalls, items: counters.stockItems },
      prices: { calls: counters.priceCalls, items: counters.priceItems },
    }),
    setRateLimit: (limit) => {
      limiter = limit === false ? undefined : new EmulatedRateLimit(limit.requests, limit.windowMs);
    },
    blockedUntil: () => blockedUntil,
    resetCounters: () => {
      Object.assign(counters, {
        ...newCounters(),
        stockCalls: 0,
        stockItems: 0,
        priceCalls: 0,
        priceItems: 0,
        productSaves: 0,
        tokensIssued: 0,
        blockedResponses: 0,
      });
      limiter?.reset();
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      timers.clear();
      await app.close();
    },
  };
}
