/**
 * The one request helper of the Shopier connector: `Authorization: Bearer <PAT>`, page-number lists whose
 * paging sits in response headers (`Shopier-Pagination-Page`, `-Total-Pages`), as `@bbangg/shopier` reads
 * them; and the webhook signature check (HMAC-SHA256 of the raw body with the webhook token, hex).
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient } from "../sdk/http";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { SHOPIER_DEFAULT_API_URL, shopierDescriptor } from "./descriptor";

/**
 * Whether a webhook body carries a valid `Shopier-Signature`: HMAC-SHA256 (hex) of the raw body with the
 * webhook token, as the SDK's `Webhook.validate` computes it; compared in constant time.
 */
export function verifyShopierWebhook(rawBody: string, signature: string | undefined, token: string): boolean {
  if (!signature || !token) return false;
  const expected = createHmac("sha256", token).update(rawBody).digest("hex");
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(signature.trim().toLowerCase(), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export class ShopierClient {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("shopier", shopierDescriptor.credentials, credentials);
    this.http = createConnectorHttp(shopierDescriptor, ctx, {
      baseUrl: (this.cfg.apiUrl || SHOPIER_DEFAULT_API_URL).replace(/\/+$/, ""),
      secrets: [this.cfg.accessToken ?? "", this.cfg.webhookToken ?? ""],
    });
  }

  /** One page of a list; `totalPages` from the response header. */
  async page<T>(path: string, page: number, limit: number): Promise<{ rows: T[]; totalPages: number }> {
    const res = await this.http.request({
      method: "GET",
      url: `${path}?page=${page}&limit=${limit}&sort=dateAsc`,
      operation: `GET ${path}`,
      kind: "read",
      headers: () => ({ authorization: `Bearer ${this.cfg.accessToken}` }),
    });
    if (!Array.isArray(res.json)) {
      throw new ConnectorError(`shopier GET ${path}: answer is not a list`, {
        reason: "bad_response",
        system: "shopier",
        operation: `GET ${path}`,
        systemMessage: res.text.slice(0, 300),
      });
    }
    const totalPages = Number(res.headers.get("shopier-pagination-total-pages") ?? "1") || 1;
    return { rows: res.json as T[], totalPages };
  }
}
