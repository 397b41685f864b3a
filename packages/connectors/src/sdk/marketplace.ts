/**
 * The request pair the marketplace clients (Trendyol, Hepsiburada and the ones modelled on them) share
 * over the SDK's HTTP client: a GET whose query drops unset values, and a JSON write, both carrying the
 * client's fixed headers (Basic Auth, the User-Agent the marketplace demands).
 */

import type { HttpClient, HttpResponse } from "./http";
import type { RateLimiter } from "./rate-limit";

export type QueryValues = Record<string, string | undefined>;

/** `Basic base64(user:secret)`, the header both marketplaces authenticate with. */
export function basicAuth(user: string | undefined, secret: string | undefined): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

/** `url?k=v…` with the unset values left out; the bare url when none is set. */
export function withQuery(url: string, query: QueryValues = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, v);
  const qs = q.toString();
  return qs ? `${url}?${qs}` : url;
}

export class MarketplaceRequests {
  constructor(
    private readonly http: HttpClient,
    private readonly headers: Record<string, string>,
  ) {}

  /** A read; `extraLimiter` adds an endpoint's own limit on top of the company's budget. */
  async get(
    url: string,
    operation: string,
    query: QueryValues = {},
    extraLimiter?: RateLimiter,
  ): Promise<unknown> {
    const res = await this.http.request({
      method: "GET",
      url: withQuery(url, query),
      operation,
      kind: "read",
      headers: () => this.headers,
      extraLimiter,
    });
    return res.json;
  }

  /** A JSON write; `idempotent` lets the SDK retry it after a lost answer. */
  send(
    method: "POST" | "PUT",
    url: string,
    operation: string,
    json: unknown,
    opts: { idempotent?: boolean } = {},
  ): Promise<HttpResponse> {
    return this.http.request({
      method,
      url,
      operation,
      kind: "write",
      body: { json },
      idempotent: opts.idempotent,
      headers: () => this.headers,
    });
  }
}
