/**
 * The one request helper of the n11 connector: the `appkey` and `appsecret` headers every REST call
 * carries (no Authorization header), JSON bodies, and n11's error answers read by path family — a wrong
 * secret is a 401 on /ms but a 400 `SELLER_API.authenticationFailed` on /rest, and a product task may be
 * refused (`status: REJECT`) inside HTTP 200.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { MarketplaceRequests, type QueryValues } from "../sdk/marketplace";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { N11_API_URL, n11Descriptor } from "./descriptor";

export type Row = Record<string, unknown>;

/** /rest answers a wrong key pair with HTTP 400 and this code: an auth failure, not a bad request. */
function classify(operation: string) {
  return (res: HttpResponse): ConnectorError | undefined => {
    const body = res.json as Row | undefined;
    if (typeof body?.errorCode === "string" && /authenticationFailed$/.test(body.errorCode))
      return new ConnectorError(`n11 ${operation}: authentication failed`, {
        reason: "auth",
        system: "n11",
        operation,
        httpStatus: res.status,
        systemMessage: String(body.errorMessage ?? body.errorCode),
      });
    return undefined;
  };
}

export class N11Client {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  readonly integrator: string;
  private readonly requests: MarketplaceRequests;

  constructor(
    credentials: Credentials,
    readonly ctx: ConnectorContext,
  ) {
    this.creds = requireCredentials("n11", n11Descriptor.credentials, credentials);
    this.integrator = (this.creds.integratorName ?? "").trim() || "EntegrasyonPaneli";
    this.http = createConnectorHttp(n11Descriptor, ctx, {
      baseUrl: (this.creds.apiUrl ?? N11_API_URL).replace(/\/+$/, ""),
      secrets: [this.creds.appSecret ?? ""],
    });
    this.requests = new MarketplaceRequests(
      this.http,
      { appkey: this.creds.appKey ?? "", appsecret: this.creds.appSecret ?? "" },
      classify,
    );
  }

  get(path: string, operation: string, query: QueryValues = {}): Promise<unknown> {
    return this.requests.get(path, operation, query);
  }

  /** A POST or PUT with a JSON body; `read` for n11's queries that are POSTs (task-details). */
  async send(
    method: "POST" | "PUT",
    path: string,
    operation: string,
    json: unknown,
    opts: { idempotent?: boolean; read?: boolean } = {},
  ): Promise<unknown> {
    return (await this.requests.send(method, path, operation, json, opts)).json;
  }
}
