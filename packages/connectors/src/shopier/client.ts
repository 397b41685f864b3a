/**
 * The one request helper of the Shopier connector: `Authorization: Bearer <token>`, page-number lists whose
 * paging sits in response headers (`Shopier-Pagination-Page`, `-Total-Pages`), as `@bbangg/shopier` reads
 * them; and the webhook signature check (HMAC-SHA256 of the raw body with the webhook token).
 *
 * Two credential models (AdisGroup/shopier-go docs/authentication.md): a personal access token, which does
 * not expire, or an OAuth 2.0 app's token pair: the access token lives three days and is renewed at the
 * token endpoint with the refresh token (form-encoded, `grant_type=refresh_token`); the new pair is saved
 * back through `ctx.persistCredentials` before it is used.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { message } from "@ep/contracts";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import {
  SHOPIER_DEFAULT_API_URL,
  SHOPIER_OAUTH_TOKEN_TTL_S,
  SHOPIER_OAUTH_TOKEN_URL,
  shopierDescriptor,
} from "./descriptor";

/** The token endpoint for an API address: Shopier's own on port 8443, a sandbox's under itself. */
export function shopierTokenUrl(apiUrl: string): string {
  const base = apiUrl.replace(/\/+$/, "");
  return base === SHOPIER_DEFAULT_API_URL ? SHOPIER_OAUTH_TOKEN_URL : `${base}/oauth2/token`;
}

/** A refused refresh (revoked app, used refresh token): the merchant must authorise again. */
function tokenRefused(r: HttpResponse): ConnectorError | undefined {
  if (r.status < 400 || r.status >= 500 || r.status === 429) return undefined;
  const b = (r.json ?? {}) as { error?: string; error_description?: string };
  return new ConnectorError("shopier: OAuth token refresh refused", {
    reason: "auth",
    httpStatus: r.status,
    systemCode: b.error,
    systemMessage: b.error_description ?? r.text.slice(0, 200),
    system: "shopier",
    operation: "oauth2/token refresh_token",
  });
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Whether a webhook body carries a valid `Shopier-Signature`: HMAC-SHA256 of the raw body with the webhook
 * token, hex (as `@bbangg/shopier`'s `Webhook.validate`) or standard base64 (accepted as well by
 * shopier-go's `VerifySignature` and by a live sync that found the docs silent on the encoding); compared
 * in constant time.
 */
export function verifyShopierWebhook(rawBody: string, signature: string | undefined, token: string): boolean {
  if (!signature || !token) return false;
  const mac = createHmac("sha256", token).update(rawBody).digest();
  const given = signature.trim();
  return sameText(mac.toString("hex"), given.toLowerCase()) || sameText(mac.toString("base64"), given);
}

export class ShopierClient {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  private readonly now: () => number;
  private readonly persist?: (changed: Credentials) => Promise<void>;
  /** OAuth: the app's refresh token (absent = a personal access token). */
  private refreshToken?: string;
  private token?: { value: string; expiresAt: number };
  private refreshing?: Promise<string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("shopier", shopierDescriptor.credentials, credentials);
    this.now = ctx.now ?? Date.now;
    this.persist = ctx.persistCredentials;
    const oauth = Boolean(this.cfg.clientId && this.cfg.clientSecret && this.cfg.refreshToken);
    if (!oauth && !this.cfg.accessToken) {
      throw new ConnectorError("shopier: neither a personal access token nor an OAuth token pair", {
        reason: "config",
        system: "shopier",
        merchantMessage: message("connectors.shopierAuthMissing"),
      });
    }
    if (oauth) this.refreshToken = this.cfg.refreshToken;
    if (this.cfg.accessToken) {
      // A PAT never expires; a stored OAuth token without a known expiry is tried, and a 401 renews it.
      const at = Number(credentials.tokenExpiresAt ?? "");
      this.token = {
        value: this.cfg.accessToken,
        expiresAt: oauth && Number.isFinite(at) && at > 0 ? at : Number.POSITIVE_INFINITY,
      };
    }
    this.http = createConnectorHttp(shopierDescriptor, ctx, {
      baseUrl: (this.cfg.apiUrl || SHOPIER_DEFAULT_API_URL).replace(/\/+$/, ""),
      secrets: [
        this.cfg.accessToken ?? "",
        this.cfg.webhookToken ?? "",
        this.cfg.clientSecret ?? "",
        this.cfg.refreshToken ?? "",
      ],
    });
  }

  /** One renewal at a time; the new pair is saved before it is used (a refresh token may be single-use). */
  private renew(refreshToken: string): Promise<string> {
    this.refreshing ??= (async () => {
      const res = await this.http.request({
        method: "POST",
        url: shopierTokenUrl(this.cfg.apiUrl || SHOPIER_DEFAULT_API_URL),
        operation: "oauth2/token refresh_token",
        kind: "read",
        // The old refresh token may be spent by the first send: never sent twice.
        idempotent: false,
        skipRateLimit: true,
        body: {
          form: {
            grant_type: "refresh_token",
            client_id: this.cfg.clientId ?? "",
            client_secret: this.cfg.clientSecret ?? "",
            refresh_token: refreshToken,
          },
        },
        classify: tokenRefused,
      });
      const b = (res.json ?? {}) as { access_token?: string; refresh_token?: string; expires_in?: number };
      if (!b.access_token) {
        throw new ConnectorError("shopier: token answer without access_token", {
          reason: "bad_response",
          system: "shopier",
          operation: "oauth2/token refresh_token",
        });
      }
      this.http.addSecret(b.access_token);
      this.http.addSecret(b.refresh_token);
      const expiresAt = this.now() + (b.expires_in ?? SHOPIER_OAUTH_TOKEN_TTL_S) * 1000;
      if (b.refresh_token) this.refreshToken = b.refresh_token;
      await this.persist?.({
        accessToken: b.access_token,
        refreshToken: this.refreshToken,
        tokenExpiresAt: String(expiresAt),
      });
      this.token = { value: b.access_token, expiresAt };
      return b.access_token;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** The bearer token: a PAT as given; an OAuth token renewed a minute before it expires. */
  private async bearer(): Promise<string> {
    if (this.refreshing) return this.refreshing;
    const t = this.token;
    if (t && (!this.refreshToken || this.now() < t.expiresAt - 60_000)) return t.value;
    return this.renew(this.refreshToken ?? "");
  }

  /** One page of a list; `totalPages` from the response header. */
  async page<T>(path: string, page: number, limit: number): Promise<{ rows: T[]; totalPages: number }> {
    let used: string | undefined;
    const res = await this.http.request({
      method: "GET",
      url: `${path}?page=${page}&limit=${limit}&sort=dateAsc`,
      operation: `GET ${path}`,
      kind: "read",
      headers: async () => {
        used = await this.bearer();
        return { authorization: `Bearer ${used}` };
      },
      // An OAuth token refused before its time (revoked, clock skew): renewed once. A PAT cannot be.
      onAuthFailure: async () => {
        // `used` unset: the renewal itself was refused, and asking again would spend nothing new.
        if (!this.refreshToken || used === undefined) return false;
        if (this.token?.value === used) this.token = undefined;
        return true;
      },
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
