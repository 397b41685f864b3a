/**
 * The one request helper of the Hepsiburada connector: three services on three hosts (listing, order
 * management, catalogue), Basic Auth with the merchant id and the service key, and the User-Agent every
 * operation of Hepsiburada's OpenAPI files declares required.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import {
  HEPSIBURADA_CATALOG_URL,
  HEPSIBURADA_LISTING_URL,
  HEPSIBURADA_ORDER_URL,
  hepsiburadaDescriptor,
} from "./descriptor";

export type Row = Record<string, unknown>;
export type HbService = "listing" | "order" | "catalog";

export class HepsiburadaClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  readonly merchantId: string;
  private readonly bases: Record<HbService, string>;
  private readonly headers: Record<string, string>;

  constructor(
    credentials: Credentials,
    readonly ctx: ConnectorContext,
  ) {
    this.creds = requireCredentials("hepsiburada", hepsiburadaDescriptor.credentials, credentials);
    this.merchantId = this.creds.merchantId ?? "";
    const auth = `Basic ${Buffer.from(`${this.merchantId}:${this.creds.secretKey}`).toString("base64")}`;
    this.headers = { authorization: auth, "user-agent": this.creds.userAgent ?? "" };
    const trim = (u: string | undefined, d: string) => (u ?? d).replace(/\/+$/, "");
    this.bases = {
      listing: trim(this.creds.listingUrl, HEPSIBURADA_LISTING_URL),
      order: trim(this.creds.orderUrl, HEPSIBURADA_ORDER_URL),
      catalog: trim(this.creds.catalogUrl, HEPSIBURADA_CATALOG_URL),
    };
    this.http = createConnectorHttp(hepsiburadaDescriptor, ctx, {
      secrets: [this.creds.secretKey ?? "", auth],
    });
  }

  /** `/…/merchantid/{id}{rest}` with this merchant's id. */
  merchant(prefix: string, rest = ""): string {
    return `${prefix}/merchantid/${encodeURIComponent(this.merchantId)}${rest}`;
  }

  async get(
    service: HbService,
    path: string,
    operation: string,
    query: Record<string, string | undefined> = {},
  ): Promise<unknown> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, v);
    const qs = q.toString();
    const res = await this.http.request({
      method: "GET",
      url: `${this.bases[service]}${path}${qs ? `?${qs}` : ""}`,
      operation,
      kind: "read",
      headers: () => this.headers,
    });
    return res.json;
  }

  send(
    service: HbService,
    method: "POST" | "PUT",
    path: string,
    operation: string,
    json: unknown,
    opts: { idempotent?: boolean } = {},
  ): Promise<HttpResponse> {
    return this.http.request({
      method,
      url: `${this.bases[service]}${path}`,
      operation,
      kind: "write",
      body: { json },
      idempotent: opts.idempotent,
      headers: () => this.headers,
    });
  }
}
