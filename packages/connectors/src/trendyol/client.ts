/**
 * The one request helper of the Trendyol connector: Basic Auth with the API key and secret, the
 * `User-Agent: {sellerId} - {integrator}` header every request must carry (without it Trendyol answers
 * 403), the seller id in paths, and the catalogue lists' own limit (50 a minute) on top of the budget.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { basicAuth, MarketplaceRequests } from "../sdk/marketplace";
import { RateLimiter } from "../sdk/rate-limit";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { TRENDYOL_API_URL, TRENDYOL_CATALOG_LIST_LIMIT, trendyolDescriptor } from "./descriptor";

export type Row = Record<string, unknown>;

/** A JSON array of objects, or none. */
export const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

/** `{sellerId} - {integrator}`: alphanumeric integrator name of at most 30 characters (Authorization page). */
export function trendyolUserAgent(sellerId: string, integrator: string): string {
  const name = integrator.replace(/[^A-Za-z0-9]/g, "").slice(0, 30) || "SelfIntegration";
  return `${sellerId} - ${name}`;
}

export class TrendyolClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  readonly sellerId: string;
  private readonly requests: MarketplaceRequests;
  private readonly listLimiter: RateLimiter;

  constructor(
    credentials: Credentials,
    readonly ctx: ConnectorContext,
  ) {
    this.creds = requireCredentials("trendyol", trendyolDescriptor.credentials, credentials);
    this.sellerId = this.creds.sellerId ?? "";
    const auth = basicAuth(this.creds.apiKey, this.creds.apiSecret);
    this.http = createConnectorHttp(trendyolDescriptor, ctx, {
      baseUrl: (this.creds.apiUrl ?? TRENDYOL_API_URL).replace(/\/+$/, ""),
      secrets: [this.creds.apiSecret ?? "", auth],
    });
    this.requests = new MarketplaceRequests(this.http, {
      authorization: auth,
      "user-agent": trendyolUserAgent(this.sellerId, this.creds.integratorName ?? ""),
    });
    this.listLimiter = new RateLimiter({
      store: ctx.rateLimitStore,
      key: `${ctx.companyId}:trendyol:catalog-lists`,
      budget: TRENDYOL_CATALOG_LIST_LIMIT,
    });
  }

  /** `/order/sellers/{id}…`-style paths with this seller's id. */
  seller(area: "product" | "order" | "inventory" | "", rest: string): string {
    return `${area ? `/${area}` : ""}/sellers/${encodeURIComponent(this.sellerId)}${rest}`;
  }

  async get(
    path: string,
    operation: string,
    query: Record<string, string | undefined> = {},
  ): Promise<unknown> {
    const lists = operation.startsWith("getCategory") || operation.startsWith("getBrands");
    return this.requests.get(path, operation, query, lists ? this.listLimiter : undefined);
  }

  send(
    method: "POST" | "PUT",
    path: string,
    operation: string,
    json: unknown,
    opts: { idempotent?: boolean } = {},
  ): Promise<HttpResponse> {
    return this.requests.send(method, path, operation, json, opts);
  }
}
