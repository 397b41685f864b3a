/**
 * The one request helper of the Hepsiburada connector: three services on three hosts (listing, order
 * management, catalogue), Basic Auth with the merchant id and the service key, and the User-Agent every
 * operation of Hepsiburada's OpenAPI files declares required.
 */

import { randomUUID } from "node:crypto";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { basicAuth, MarketplaceRequests, withQuery } from "../sdk/marketplace";
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
  private readonly requests: MarketplaceRequests;
  private readonly headers: Record<string, string>;

  constructor(
    credentials: Credentials,
    readonly ctx: ConnectorContext,
  ) {
    this.creds = requireCredentials("hepsiburada", hepsiburadaDescriptor.credentials, credentials);
    this.merchantId = this.creds.merchantId ?? "";
    const auth = basicAuth(this.merchantId, this.creds.secretKey);
    const trim = (u: string | undefined, d: string) => (u ?? d).replace(/\/+$/, "");
    this.bases = {
      listing: trim(this.creds.listingUrl, HEPSIBURADA_LISTING_URL),
      order: trim(this.creds.orderUrl, HEPSIBURADA_ORDER_URL),
      catalog: trim(this.creds.catalogUrl, HEPSIBURADA_CATALOG_URL),
    };
    this.http = createConnectorHttp(hepsiburadaDescriptor, ctx, {
      secrets: [this.creds.secretKey ?? "", auth],
    });
    this.headers = { authorization: auth, "user-agent": this.creds.userAgent ?? "" };
    this.requests = new MarketplaceRequests(this.http, this.headers);
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
    return this.requests.get(`${this.bases[service]}${path}`, operation, query);
  }

  send(
    service: HbService,
    method: "POST" | "PUT",
    path: string,
    operation: string,
    json: unknown,
    opts: { idempotent?: boolean } = {},
  ): Promise<HttpResponse> {
    return this.requests.send(method, `${this.bases[service]}${path}`, operation, json, opts);
  }

  /**
   * A JSON file as the `file` part of a multipart/form-data POST (the catalogue import takes the
   * products as an uploaded `.json` file, not as a JSON body). A create: never sent twice.
   */
  uploadFile(
    service: HbService,
    path: string,
    operation: string,
    file: { name: string; json: unknown },
    query: Record<string, string> = {},
  ): Promise<HttpResponse> {
    const { contentType, body } = multipartJsonFile(file.name, file.json);
    return this.http.request({
      method: "POST",
      url: withQuery(`${this.bases[service]}${path}`, query),
      operation,
      kind: "write",
      body: { text: body, contentType },
      idempotent: false,
      headers: () => this.headers,
    });
  }
}

/** One `file` part holding `json` as `name` (application/json), with a boundary the content cannot hold. */
export function multipartJsonFile(name: string, json: unknown): { contentType: string; body: string } {
  const content = JSON.stringify(json);
  const boundary = `----hbImport${randomUUID().replace(/-/g, "")}`;
  const body = [
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; filename="${name}"`,
    "Content-Type: application/json",
    "",
    content,
    `--${boundary}--`,
    "",
  ].join("\r\n");
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}
