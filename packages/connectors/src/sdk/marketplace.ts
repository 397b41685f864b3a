/**
 * The request pair the marketplace clients (Trendyol, Hepsiburada and the ones modelled on them) share
 * over the SDK's HTTP client: a GET whose query drops unset values, and a JSON write, both carrying the
 * client's fixed headers (Basic Auth, the User-Agent the marketplace demands).
 */

import type { ShopCategory } from "./connector";
import type { ConnectorError } from "./errors";
import type { HttpClient, HttpResponse } from "./http";
import type { RateLimiter } from "./rate-limit";

export type QueryValues = Record<string, string | undefined>;

/** A marketplace's own reading of an answer (an auth failure inside a 400, say), by operation. */
export type ClassifyAnswer = (operation: string) => (res: HttpResponse) => ConnectorError | undefined;

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
    private readonly classify?: ClassifyAnswer,
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
      classify: this.classify?.(operation),
    });
    return res.json;
  }

  /**
   * A JSON write; `idempotent` lets the SDK retry it after a lost answer. `read` marks a query that is
   * a POST (n11's task-details): counted as a read, and always safe to retry.
   */
  send(
    method: "POST" | "PUT",
    url: string,
    operation: string,
    json: unknown,
    opts: { idempotent?: boolean; read?: boolean } = {},
  ): Promise<HttpResponse> {
    return this.http.request({
      method,
      url,
      operation,
      kind: opts.read ? "read" : "write",
      body: { json },
      idempotent: opts.read ? true : opts.idempotent,
      headers: () => this.headers,
      classify: this.classify?.(operation),
    });
  }
}

/** A marketplace's nested category tree (`subCategories` under each node) as the flat list, parents first. */
export function flattenCategoryTree(top: unknown): ShopCategory[] {
  const rows = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  const out: ShopCategory[] = [];
  const walk = (list: Record<string, unknown>[], parentId?: string) => {
    for (const c of list) {
      const id = String(c.id);
      out.push({ id, name: String(c.name ?? ""), parentId });
      walk(rows(c.subCategories), id);
    }
  };
  walk(rows(top));
  return out;
}
