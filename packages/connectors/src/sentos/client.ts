/**
 * The one request helper of the Sentos connector: Basic Auth, GET only (no write is verified), answers
 * as a bare list or wrapped (`data`, `products`, `orders`…), page walking, and the published limits: the
 * general budget of the descriptor on every request plus the same GET at most twice per window, kept per
 * URL with a second rate limiter on the same store (so every worker of the company shares it).
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import type { HttpClient } from "../sdk/http";
import { RateLimiter } from "../sdk/rate-limit";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { SENTOS_IDENTICAL_GETS_PER_WINDOW, sentosDescriptor } from "./descriptor";

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

export class SentosClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  private readonly ctx: ConnectorContext;
  private readonly authHeader: string;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("sentos", sentosDescriptor.credentials, credentials);
    this.ctx = ctx;
    this.authHeader = `Basic ${Buffer.from(`${this.creds.apiKey}:${this.creds.apiSecret}`).toString("base64")}`;
    this.http = createConnectorHttp(sentosDescriptor, ctx, {
      baseUrl: (this.creds.apiUrl ?? "").replace(/\/+$/, ""),
      secrets: [this.creds.apiSecret ?? "", this.authHeader],
    });
  }

  /** The same-GET limit of one URL (its window is the general budget's, so a scaled test scales both). */
  private identicalGetLimiter(url: string): RateLimiter {
    const budget = this.ctx.budget ?? sentosDescriptor.budget;
    return new RateLimiter({
      store: this.ctx.rateLimitStore,
      key: `${this.ctx.companyId}:sentos:GET ${url}`,
      budget: { requests: SENTOS_IDENTICAL_GETS_PER_WINDOW, windowMs: budget.windowMs },
    });
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
      extraLimiter: this.identicalGetLimiter(url),
    });
    return res.json;
  }
}
