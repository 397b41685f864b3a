/**
 * The one request helper of the Shopify connector. Shopify's own `@shopify/admin-api-client` builds the
 * requests (URL of the pinned version, access-token header, body); its `customFetchApi` hands every call to
 * our SDK HttpClient, which owns the rate limiter, retries, timeouts, logging and secret masking. The
 * package's own retry is off (it reads Retry-After as milliseconds and knows nothing of query cost).
 *
 * Query cost: Shopify meters a leaky bucket of cost points per store and answers an over-budget call with
 * `THROTTLED` inside HTTP 200. The limiter (shared across processes through the RateLimitStore seam) spends
 * each operation's last requested cost before sending; every answer's `extensions.cost.throttleStatus`
 * tells how full the bucket really is, and when it is too low for the next call of that size every
 * process holds off until enough has leaked back.
 */

import { createHash, randomUUID } from "node:crypto";
import { createAdminApiClient } from "@shopify/admin-api-client";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason, parseRetryAfter } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { SHOPIFY_API_VERSION, SHOPIFY_POINTS_PER_UNIT, shopifyDescriptor } from "./descriptor";
import { ShopifyTokens } from "./tokens";

export interface ShopifyGqlError {
  message?: string;
  extensions?: { code?: string; [k: string]: unknown };
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus;
}

interface GqlBody {
  data?: unknown;
  errors?: ShopifyGqlError[] | { message?: string };
  extensions?: { cost?: QueryCost };
}

/** A user error of a mutation payload (`userErrors { field message code }`). */
export interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** Top-level error codes by meaning (Shopify's documented codes; message texts never decide anything). */
const CODE_REASONS: Record<string, FailureReason> = {
  THROTTLED: "rate_limited",
  ACCESS_DENIED: "auth",
  SHOP_INACTIVE: "blocked",
  INTERNAL_SERVER_ERROR: "server_error",
  MAX_COST_EXCEEDED: "validation",
  BAD_REQUEST: "validation",
  NOT_FOUND: "not_found",
};

/** `magaza.myshopify.com`, `https://magaza.myshopify.com/admin`, `magaza` → `magaza.myshopify.com`. */
export function normalizeShopDomain(input: string): string {
  const host = input
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "")
    .toLowerCase();
  const domain = host.includes(".") ? host : `${host}.myshopify.com`;
  if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(domain)) {
    throw new ConnectorError(`shopify: "${input}" is not a myshopify.com address`, {
      reason: "config",
      system: "shopify",
      merchantMessage: "Mağaza adresi magaza.myshopify.com biçiminde olmalıdır.",
    });
  }
  return domain;
}

/** How long until `need` points are back in the bucket. */
export function throttleWaitMs(status: ThrottleStatus | undefined, need: number): number {
  if (!status || status.restoreRate <= 0) return 1000;
  const missing = need - status.currentlyAvailable;
  return missing <= 0 ? 0 : Math.ceil((missing / status.restoreRate) * 1000);
}

/** Classify a Shopify answer: HTTP status first, then errors inside HTTP 200 by `extensions.code`. */
export function classifyShopifyResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const body = (res.json ?? undefined) as GqlBody | undefined;
  const list = Array.isArray(body?.errors) ? body.errors : [];
  const first = list[0] ?? (body?.errors && !Array.isArray(body.errors) ? body.errors : undefined);
  if (res.status < 400 && !first) return undefined;
  const code = list[0]?.extensions?.code;
  let reason: FailureReason | undefined;
  let retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
  if (res.status === 401 || res.status === 403) reason = "auth";
  else if (res.status === 402)
    reason = "blocked"; // shop frozen (unpaid)
  else if (res.status === 423)
    reason = "blocked"; // shop locked
  else if (res.status === 429) reason = "rate_limited";
  else if (res.status === 503) reason = "unavailable";
  else if (res.status >= 500) reason = "server_error";
  else if (res.status >= 400) reason = res.status === 404 ? "not_found" : "validation";
  else reason = (code && CODE_REASONS[code]) || "validation";
  if (code === "THROTTLED") {
    const cost = body?.extensions?.cost;
    retryAfterMs = Math.max(100, throttleWaitMs(cost?.throttleStatus, cost?.requestedQueryCost ?? 0));
  }
  return new ConnectorError(`shopify ${operation}: ${first?.message ?? `HTTP ${res.status}`}`, {
    reason,
    httpStatus: res.status,
    systemMessage: first?.message ?? res.text.slice(0, 300),
    systemCode: code,
    retryAfterMs,
    system: "shopify",
    operation,
    details: list[0]?.extensions,
  });
}

interface Call {
  operation: string;
  kind: CallKind;
  idempotent?: boolean;
  error?: unknown;
}

const CALL_HEADER = "x-ep-call";

export class ShopifyClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  readonly shopDomain: string;
  /**
   * Per operation, the last call's costs: the limiter spends the actual cost (what the bucket lost after
   * Shopify's refund); the requested cost is what must be available for the call to start.
   */
  private readonly costs = new Map<string, { requested: number; actual: number }>();
  private readonly calls = new Map<string, Call>();
  private readonly api: ReturnType<typeof createAdminApiClient>;
  /** The bucket as the last answer described it. */
  lastThrottle?: ThrottleStatus;

  /** Legacy token, client-credentials token or expiring offline token, renewed and saved back. */
  readonly tokens: ShopifyTokens;
  /**
   * Idempotency keys are derived from this and the change itself. The engine opens a run's connectors
   * once and keeps them through the run's retries, so a retried change gets its first key again (and is
   * applied once); a later run is a new change with new keys.
   */
  private readonly idempotencyScope = randomUUID();

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("shopify", shopifyDescriptor.credentials, credentials);
    this.shopDomain = normalizeShopDomain(this.creds.shopDomain ?? "");
    this.http = createConnectorHttp(shopifyDescriptor, ctx);
    const base = this.creds.apiBaseUrl?.replace(/\/+$/, "");
    this.tokens = new ShopifyTokens(
      // The stored expiry is no form field: read it from what the engine passed.
      { ...this.creds, tokenExpiresAt: credentials.tokenExpiresAt },
      this.http,
      base ?? `https://${this.shopDomain}`,
      ctx.now ?? Date.now,
      ctx.persistCredentials,
    );
    this.api = createAdminApiClient({
      storeDomain: this.shopDomain,
      apiVersion: SHOPIFY_API_VERSION,
      // Replaced per call in `send` by the current token (which may be renewed between calls).
      accessToken: "set-per-call",
      retries: 0,
      // The package warns on versions it has not heard of; the pinned version is checked by our judge.
      logger: () => undefined,
      customFetchApi: (url, init) =>
        this.send(base ? url.replace(`https://${this.shopDomain}`, base) : url, init),
    });
  }

  /** Every call of the package comes here and goes out through the SDK HttpClient. */
  private async send(url: string, init?: { headers?: unknown; body?: unknown }): Promise<Response> {
    // Lower-case names: the SDK sets `content-type`/`accept` too, and two spellings would be sent twice.
    const headers: Record<string, string> = {};
    new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]).forEach((v, k) => {
      headers[k] = v;
    });
    const id = headers[CALL_HEADER] ?? "";
    delete headers[CALL_HEADER];
    const call = this.calls.get(id) ?? { operation: "graphql", kind: "read" as const };
    const points = this.costs.get(call.operation)?.actual ?? (call.kind === "write" ? 10 : 50);
    let used: string | undefined;
    try {
      const res = await this.http.request({
        url,
        method: "POST",
        operation: call.operation,
        kind: call.kind,
        idempotent: call.idempotent,
        cost: Math.min(
          shopifyDescriptor.budget.requests,
          Math.max(1, Math.ceil(points / SHOPIFY_POINTS_PER_UNIT)),
        ),
        body: { text: typeof init?.body === "string" ? init.body : "", contentType: "application/json" },
        headers: async () => {
          used = await this.tokens.current();
          return { ...headers, "x-shopify-access-token": used };
        },
        onAuthFailure: () => this.tokens.refused(used),
        classify: (r) => {
          this.noteCost(call.operation, (r.json as GqlBody | undefined)?.extensions?.cost);
          return classifyShopifyResponse(r, call.operation);
        },
      });
      return new Response(res.text, {
        status: res.status,
        headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
      });
    } catch (e) {
      call.error = e;
      throw e;
    }
  }

  /** Learn the operation's cost; when the bucket is too low for another call of it, every process waits. */
  private noteCost(operation: string, cost: QueryCost | undefined): void {
    if (!cost) return;
    const requested = cost.requestedQueryCost ?? 0;
    if (typeof cost.requestedQueryCost === "number") {
      this.costs.set(operation, { requested, actual: cost.actualQueryCost ?? requested });
    }
    const status = cost.throttleStatus;
    if (!status) return;
    this.lastThrottle = status;
    const wait = throttleWaitMs(status, requested);
    // Best effort: a store that cannot block leaves the next call to meet THROTTLED and wait then.
    if (wait > 0) this.http.rateLimiter?.pause(wait).catch(() => undefined);
  }

  /**
   * One GraphQL call through the package. `operation` names it in logs, counters and the cost table;
   * transport and top-level errors arrive as the SDK's ConnectorError.
   */
  async gql<T>(
    operation: string,
    kind: CallKind,
    query: string,
    variables?: Record<string, unknown>,
    opts: { idempotent?: boolean } = {},
  ): Promise<T> {
    const id = randomUUID();
    const call: Call = { operation, kind, idempotent: opts.idempotent };
    this.calls.set(id, call);
    try {
      const res = await this.api.request(query, { variables, headers: { [CALL_HEADER]: id } });
      if (call.error) throw call.error;
      if (res.errors || res.data === undefined || res.data === null) {
        throw new ConnectorError(`shopify ${operation}: ${res.errors?.message ?? "answer without data"}`, {
          reason: "bad_response",
          system: "shopify",
          operation,
          systemMessage: res.errors?.message,
        });
      }
      return res.data as T;
    } finally {
      this.calls.delete(id);
    }
  }

  /**
   * The `@idempotent(key:)` of one change: a UUID-shaped SHA-256 of this connector's scope, the shop, the
   * mutation and its input, so a retry of the same change carries the same key and any other change another.
   */
  idempotencyKey(operation: string, input: unknown): string {
    const h = createHash("sha256")
      .update(`${this.idempotencyScope}\n${this.shopDomain}\n${operation}\n${JSON.stringify(input)}`)
      .digest("hex");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }

  /** A mutation payload's user errors as one permanent failure (or nothing when there are none). */
  static userErrorsFailure(
    operation: string,
    errors: UserError[] | undefined,
    itemKeys?: string[],
    reason: FailureReason = "validation",
  ): ConnectorError | undefined {
    if (!errors || errors.length === 0) return undefined;
    return new ConnectorError(`shopify ${operation}: ${errors.map((e) => e.message).join("; ")}`, {
      reason,
      system: "shopify",
      operation,
      systemCode: errors[0]?.code ?? undefined,
      systemMessage: errors.map((e) => e.message).join("; "),
      itemKeys,
      details: { userErrors: errors },
    });
  }

  /** Every node of a connection (`first`/`after` cursor paging); `pick` finds the connection. */
  async allNodes<T, D>(
    operation: string,
    query: string,
    variables: Record<string, unknown>,
    pick: (d: D) => { nodes: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } },
  ): Promise<T[]> {
    const out: T[] = [];
    let after: string | null = null;
    for (;;) {
      const c = pick(await this.gql<D>(operation, "read", query, { ...variables, after }));
      out.push(...c.nodes);
      if (!c.pageInfo.hasNextPage || !c.pageInfo.endCursor) return out;
      after = c.pageInfo.endCursor;
    }
  }

  /** GET a bulk-operation result (a signed URL: no access token is sent to it). */
  async download(url: string, operation: string): Promise<string> {
    const base = this.creds.apiBaseUrl?.replace(/\/+$/, "");
    const target = base && !/^https?:/i.test(url) ? `${base}${url}` : url;
    const res = await this.http.request({
      url: target,
      method: "GET",
      operation,
      kind: "read",
      skipRateLimit: true,
    });
    return res.text;
  }
}

/** Shopify global ids: `gid://shopify/Location/123` from `123` or the gid itself. */
export function gid(type: string, id: string): string {
  return id.startsWith("gid://") ? id : `gid://shopify/${type}/${id}`;
}
