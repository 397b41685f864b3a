/**
 * The one request helper of the Amazon connector, on the SDK's HttpClient: a Login with Amazon access token
 * from the seller's refresh token (the credential model of a new application: no AWS IAM user and no
 * Signature Version 4 since 2 October 2023), sent as `x-amz-access-token`; each operation's own usage plan
 * (rate and burst) kept by a limiter of its own beside the general budget, and replaced by the
 * `x-amzn-RateLimit-Limit` an answer carries (a selling partner's plan may be higher than the default); a
 * 429 waits one token of that rate. Presigned feed document uploads and downloads go through the same client.
 */

import { gunzipSync } from "node:zlib";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { CachedToken, tokenRefusal } from "../sdk/oauth";
import { RateLimiter } from "../sdk/rate-limit";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import {
  AMAZON_EU_ENDPOINT,
  AMAZON_LISTINGS_FEED_LIMIT,
  AMAZON_LWA_TOKEN_URL,
  AMAZON_TR_MARKETPLACE,
  AMAZON_USAGE_PLANS,
  amazonDescriptor,
} from "./descriptor";

export type Row = Record<string, unknown>;

/** Our name in the User-Agent, as the SP-API asks of applications (AppName/Version (Language=…)). */
export const AMAZON_USER_AGENT = "EntegrasyonPaneli/1.0 (Language=TypeScript)";

/** `x-amzn-RateLimit-Limit`: the rate (requests per second) applied to this operation, when sent. */
export function rateLimitHeader(headers: Headers): number | undefined {
  const v = Number(headers.get("x-amzn-ratelimit-limit"));
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

/** A token bucket (rate, burst) as the SDK's sliding window: `burst` calls per `burst ÷ rate` seconds. */
export function windowOf(plan: { rate: number; burst: number }): { requests: number; windowMs: number } {
  return { requests: plan.burst, windowMs: Math.ceil((plan.burst / plan.rate) * 1000) };
}

/** The SP-API's error list: `{ errors: [{ code, message, details }] }`. */
function spErrors(r: HttpResponse): { code?: string; message?: string } {
  const e = ((r.json as Row | undefined)?.errors as Row[] | undefined)?.[0];
  return { code: e?.code as string | undefined, message: e?.message as string | undefined };
}

export class AmazonClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  readonly sellerId: string;
  readonly marketplaceId: string;
  private readonly token: CachedToken;
  private readonly limiters = new Map<string, { rate: number; limiter: RateLimiter }>();
  private readonly feedLimiter: RateLimiter;

  constructor(
    credentials: Credentials,
    readonly ctx: ConnectorContext,
  ) {
    this.creds = requireCredentials("amazon", amazonDescriptor.credentials, credentials);
    this.sellerId = this.creds.sellerId ?? "";
    this.marketplaceId = this.creds.marketplaceId || AMAZON_TR_MARKETPLACE;
    this.http = createConnectorHttp(amazonDescriptor, ctx, {
      baseUrl: (this.creds.apiUrl || AMAZON_EU_ENDPOINT).replace(/\/+$/, ""),
      secrets: [this.creds.clientSecret ?? "", this.creds.refreshToken ?? ""],
    });
    this.token = new CachedToken(() => this.lwaToken(), ctx.now ?? Date.now);
    this.feedLimiter = new RateLimiter({
      store: ctx.rateLimitStore,
      key: `${ctx.companyId}:amazon:json-listings-feed`,
      budget: AMAZON_LISTINGS_FEED_LIMIT,
    });
  }

  /** LWA refresh-token grant: `POST api.amazon.com/auth/o2/token` (form), an hour's access token. */
  private async lwaToken(): Promise<{ value: string; ttlMs: number }> {
    const res = await this.http.request({
      url: this.creds.tokenUrl || AMAZON_LWA_TOKEN_URL,
      operation: "lwaToken",
      kind: "read",
      skipRateLimit: true,
      body: {
        form: {
          grant_type: "refresh_token",
          refresh_token: this.creds.refreshToken ?? "",
          client_id: this.creds.clientId ?? "",
          client_secret: this.creds.clientSecret ?? "",
        },
      },
      classify: (r) => tokenRefusal(r, "amazon", "lwaToken"),
    });
    const b = (res.json ?? {}) as { access_token?: string; expires_in?: number };
    if (!b.access_token)
      throw new ConnectorError("amazon: LWA answer without access_token", {
        reason: "bad_response",
        system: "amazon",
        operation: "lwaToken",
      });
    this.http.addSecret(b.access_token);
    return { value: b.access_token, ttlMs: Number(b.expires_in ?? 3600) * 1000 };
  }

  /** The operation's limiter at its current rate (the default plan until an answer says otherwise). */
  private limiterOf(operation: string, rate?: number): RateLimiter | undefined {
    const plan = AMAZON_USAGE_PLANS[operation];
    if (!plan) return undefined;
    const current = this.limiters.get(operation);
    const want = rate ?? current?.rate ?? plan.rate;
    if (current && current.rate === want) return current.limiter;
    const limiter = new RateLimiter({
      store: this.ctx.rateLimitStore,
      key: `${this.ctx.companyId}:amazon:${operation}`,
      budget: windowOf({ rate: want, burst: plan.burst }),
    });
    this.limiters.set(operation, { rate: want, limiter });
    return limiter;
  }

  /** Every answer: adopt the rate it states; a 429 waits for one token at that rate. */
  private classify(operation: string, r: HttpResponse): ConnectorError | undefined {
    const rate = rateLimitHeader(r.headers);
    if (rate !== undefined) this.limiterOf(operation, rate);
    if (r.status === 400) {
      // Amazon's own words of an InvalidInput (a listing's refusal reads them), not the raw body.
      const e = spErrors(r);
      return e.message
        ? new ConnectorError(`amazon ${operation}: HTTP 400`, {
            reason: "validation",
            httpStatus: 400,
            systemCode: e.code,
            systemMessage: e.message,
            system: "amazon",
            operation,
          })
        : undefined;
    }
    if (r.status !== 429) return undefined;
    const perToken = rate ?? AMAZON_USAGE_PLANS[operation]?.rate ?? 1;
    const e = spErrors(r);
    return new ConnectorError(`amazon ${operation}: HTTP 429`, {
      reason: "rate_limited",
      httpStatus: 429,
      systemCode: e.code,
      systemMessage: e.message,
      retryAfterMs: Math.ceil(1000 / perToken),
      system: "amazon",
      operation,
    });
  }

  /** One SP-API call: access token, usage plan, classified failures; the parsed JSON answer. */
  async call(
    operation: string,
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    opts: {
      query?: Record<string, string | string[] | undefined>;
      json?: unknown;
      idempotent?: boolean;
    } = {},
  ): Promise<HttpResponse> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined) continue;
      // Arrays are CSV (Swagger 2's default collectionFormat; saleweaver normalize_csv_param).
      q.set(k, Array.isArray(v) ? v.join(",") : v);
    }
    const qs = q.toString();
    return this.http.request({
      method,
      url: qs ? `${path}?${qs}` : path,
      operation,
      kind: method === "GET" ? "read" : "write",
      idempotent: opts.idempotent,
      body: opts.json === undefined ? undefined : { json: opts.json },
      headers: async () => ({
        "x-amz-access-token": await this.token.get(),
        "user-agent": AMAZON_USER_AGENT,
      }),
      extraLimiter: this.limiterOf(operation),
      classify: (r) => this.classify(operation, r),
      onAuthFailure: async () => {
        this.token.drop();
        return true;
      },
    });
  }

  async get(
    operation: string,
    path: string,
    query?: Record<string, string | string[] | undefined>,
  ): Promise<Row> {
    return ((await this.call(operation, "GET", path, { query })).json ?? {}) as Row;
  }

  /** createFeed also waits for the feed type's own limit (five JSON_LISTINGS_FEEDs per five minutes). */
  async createListingsFeed(body: Row): Promise<Row> {
    const ticket = await this.feedLimiter.acquire(1);
    try {
      return ((await this.call("createFeed", "POST", "/feeds/2021-06-30/feeds", { json: body })).json ??
        {}) as Row;
    } finally {
      await this.feedLimiter.release(ticket);
    }
  }

  /** PUT the document to the presigned URL, with the content type createFeedDocument was given. */
  async upload(url: string, text: string, contentType: string): Promise<void> {
    await this.http.request({
      method: "PUT",
      url,
      operation: "uploadFeedDocument",
      kind: "write",
      idempotent: true,
      skipRateLimit: true,
      body: { text, contentType },
    });
  }

  /** GET a result document or a product type's schema (gzip when `compressionAlgorithm` says so). */
  async download(url: string, compression?: string, operation = "downloadFeedDocument"): Promise<string> {
    const res = await this.http.request({
      method: "GET",
      url,
      operation,
      kind: "read",
      skipRateLimit: true,
      binary: true,
    });
    const bytes = Buffer.from(res.bytes ?? new Uint8Array());
    return (compression === "GZIP" ? gunzipSync(bytes) : bytes).toString("utf8");
  }
}
