/**
 * The one request helper of the Sentos connector: Basic Auth, GET only (no write is verified), answers
 * as a bare list or wrapped (`data`, `products`, `orders`…), page walking, and the published limits: the
 * general budget of the descriptor on every request plus "GET twice per window", kept with second rate
 * limiters on the same store (so every worker of the company shares them). Sources read that GET limit two
 * ways (rules.ts): per URL or for all GETs. The client starts on the per-URL reading (the one citing the
 * docs) and counts every GET on a shared key as well; the first 429 to a GET shows the service counts all
 * GETs, and from then on that shared key holds this connection to two GETs per window.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import type { HttpClient } from "../sdk/http";
import { RateLimiter, type RateLimiterOptions } from "../sdk/rate-limit";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { SENTOS_IDENTICAL_GETS_PER_WINDOW, sentosDescriptor } from "./descriptor";
import { type SentosGetLimitReading, sentosGetCounterKey } from "./judge/rules";

export type Row = Record<string, unknown>;

/** The rows of a list answer, as the source reads them. */
export function sentosList(body: unknown): Row[] {
  if (Array.isArray(body)) return body as Row[];
  if (body && typeof body === "object") {
    const o = body as Row;
    for (const k of ["data", "products", "orders", "items", "result"])
      if (Array.isArray(o[k])) return o[k] as Row[];
  }
  return [];
}

/** One record: the object when it has an id, else its `data` / `product` / `order`. */
export function sentosOne(body: unknown): Row | undefined {
  if (!body || typeof body !== "object") return undefined;
  if (Array.isArray(body)) return body[0] as Row | undefined;
  const o = body as Row;
  if ("id" in o) return o;
  for (const k of ["data", "product", "order"]) {
    const inner = o[k];
    if (Array.isArray(inner)) return inner[0] as Row | undefined;
    if (inner && typeof inner === "object") return inner as Row;
  }
  return undefined;
}

/** A limit no window reaches: the shared GET counter records without binding (the database store compares as int4). */
const RECORD_ONLY = 1_000_000;

/** A GET's two counters taken together: its own URL's, and the one every GET of the company shares. */
class SentosGetLimiter extends RateLimiter {
  constructor(
    opts: RateLimiterOptions,
    private readonly allGets: RateLimiter,
  ) {
    super(opts);
  }

  override async acquire(cost = 1, signal?: AbortSignal, holdMs?: number): Promise<string | undefined> {
    const own = await super.acquire(cost, signal, holdMs);
    const all = await this.allGets.acquire(cost, signal, holdMs);
    return JSON.stringify([own ?? null, all ?? null]);
  }

  override async release(ticket: string | undefined): Promise<void> {
    const [own, all] = ticket ? (JSON.parse(ticket) as [string | null, string | null]) : [null, null];
    await super.release(own ?? undefined);
    await this.allGets.release(all ?? undefined);
  }
}

export class SentosClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  private readonly ctx: ConnectorContext;
  private readonly authHeader: string;
  /** How this connection's service counts GETs (rules.ts); "all" after a GET was answered 429. */
  getLimitReading: SentosGetLimitReading = "identical";

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("sentos", sentosDescriptor.credentials, credentials);
    this.ctx = ctx;
    this.authHeader = `Basic ${Buffer.from(`${this.creds.apiKey}:${this.creds.apiSecret}`).toString("base64")}`;
    this.http = createConnectorHttp(sentosDescriptor, ctx, {
      baseUrl: (this.creds.apiUrl ?? "").replace(/\/+$/, ""),
      secrets: [this.creds.apiSecret ?? "", this.authHeader],
    });
  }

  /**
   * The GET limits of one URL (their window is the general budget's, so a scaled test scales both): its
   * own counter always, and the shared one, which only binds once the service showed it counts all GETs
   * (until then every GET is still recorded on it, so the switch starts from the true history).
   */
  private getLimiter(url: string): RateLimiter {
    const { windowMs } = this.ctx.budget ?? sentosDescriptor.budget;
    const key = (reading: SentosGetLimitReading) =>
      `${this.ctx.companyId}:sentos:${sentosGetCounterKey(reading, url)}`;
    const allGets = new RateLimiter({
      store: this.ctx.rateLimitStore,
      key: key("all"),
      budget: {
        requests: this.getLimitReading === "all" ? SENTOS_IDENTICAL_GETS_PER_WINDOW : RECORD_ONLY,
        windowMs,
      },
    });
    return new SentosGetLimiter(
      {
        store: this.ctx.rateLimitStore,
        key: key("identical"),
        budget: { requests: SENTOS_IDENTICAL_GETS_PER_WINDOW, windowMs },
      },
      allGets,
    );
  }

  async get(path: string, operation: string, query: Record<string, string> = {}): Promise<unknown> {
    const qs = new URLSearchParams(query).toString();
    const url = qs ? `${path}?${qs}` : path;
    const res = await this.http.request({
      method: "GET",
      url,
      operation,
      kind: "read",
      headers: () => ({ authorization: this.authHeader }),
      extraLimiter: this.getLimiter(url),
      // A GET refused although its own URL was within its limit: the service counts all GETs together.
      classify: (r) => {
        if (r.status === 429) this.getLimitReading = "all";
        return undefined;
      },
    });
    return res.json;
  }
}
