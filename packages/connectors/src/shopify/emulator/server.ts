/**
 * Shopify emulator on the emulator kit (../../testing): it executes Shopify's own Admin schema of the
 * pinned version (../judge) for every GraphQL call, charges each call's calculated cost against a leaky
 * bucket (THROTTLED inside HTTP 200, `extensions.cost` on every answer), checks the custom app's access
 * token (`X-Shopify-Access-Token`), runs bulk operations whose JSONL it serves itself, and answers the OAuth
 * code exchange. The kit supplies the server, faults (429 with Retry-After seconds, 5xx, timeouts, dropped
 * writes), counters and request recording for conformance.
 */

import { createHmac, randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { execute, validate } from "graphql";
import { graphqlCallOf, parseGraphqlQuery } from "../../testing/graphql-emulator";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer } from "../../testing/server";
import { WebhookOutbox } from "../../testing/webhooks";
import { SHOPIFY_API_VERSION } from "../judge/derive-schema";
import { graphqlCall, idempotentFields, SHOPIFY_EMULATOR_RULES, shopifyKeyFingerprint } from "../judge/rules";
import { shopifyJudgeSchema } from "../judge/schema";
import { BulkOperations } from "./bulk";
import { CostBucket, MUTATION_COST, queryCost, resultCost } from "./cost";
import { ShopifyTokens } from "./oauth";
import { createRoot } from "./resolvers";
import { type ShopifyOrderRow, ShopifyState } from "./state";
import type { ShopifyEmulator, ShopifyEmulatorCounters, ShopifyEmulatorOptions } from "./types";

export { flattenBulk } from "./bulk";
export type * from "./types";

const ACCESS_DENIED = "[API] Invalid API key or access token (unrecognized login or wrong password)";

function gqlErrors(message: string, code: string, extra: Record<string, unknown> = {}) {
  return { errors: [{ message, extensions: { code, ...extra } }] };
}

export async function startShopifyEmulator(opts: ShopifyEmulatorOptions = {}): Promise<ShopifyEmulator> {
  const seed = opts.seed ?? 1;
  const shopDomain = opts.shopDomain ?? "deneme-magaza.myshopify.com";
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
  const tokens = new ShopifyTokens(opts, counters, now);
  const { clientId, clientSecret } = tokens;
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
  const bulk = new BulkOperations(schema, state, counters, now, opts.bulkPolls ?? 1);
  bulk.url = opts.baseUrl ?? "";
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
  const root = createRoot({
    state,
    stats: counters,
    webhooks,
    startBulk: (query) => bulk.start(query),
    bulkNode: (id) => bulk.node(id),
  });
  bulk.root = root;
  // Unknown root fields answer an error rather than a null the schema may forbid.
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const name of Object.keys(type?.getFields() ?? {})) {
      root[name] ??= () => {
        throw new Error(`The Shopify emulator does not implement ${name}`);
      };
    }
  }

  const graphql = async (req: FastifyRequest, reply: FastifyReply) => {
    const version = (req.params as { version: string }).version;
    if (version !== SHOPIFY_API_VERSION) {
      counters.requests++;
      return reply.code(404).send({ errors: "Not Found" });
    }
    const token = req.headers["x-shopify-access-token"];
    if (!tokens.valid(token)) {
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
    await bulk.advance(doc, variables);
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

  tokens.route(server);

  server.app.get("/bulk-results/:file", async (req, reply) => {
    const jsonl = bulk.jsonl((req.params as { file: string }).file);
    counters.requests++;
    counters.reads++;
    if (!jsonl) return reply.code(404).send("Not Found");
    return reply.type("application/jsonl").send(jsonl);
  });
  server.app.get("/health", async () => ({ ok: true }));

  const started = await server.start(opts);
  bulk.url = started.url;
  return {
    ...started,
    credentials: {
      shopDomain,
      accessToken: tokens.accessToken,
      apiBaseUrl: started.url,
      apiSecretKey: clientSecret,
    },
    state,
    bucket,
    setFaults: (c) => server.faults.set(c),
    revokeToken: () => tokens.revoke(),
    expireTokens: () => tokens.expire(),
    appCredentials: { clientId, clientSecret },
    installExpiring: () => {
      const pair = tokens.expiringPair();
      return {
        accessToken: pair.access_token,
        refreshToken: pair.refresh_token,
        expiresAt: now() + pair.expires_in * 1000,
      };
    },
    issueAuthCode: () => tokens.issueAuthCode(),
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
