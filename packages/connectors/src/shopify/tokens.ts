/**
 * How the connector holds a Shopify Admin API token, by how the merchant's app was made:
 * - `legacy`: a custom app created in the store admin before 2026-01-01 — one `shpat_` token that never
 *   expires (Shopify closed the creation of new ones on 1 January 2026; existing ones keep working);
 * - `client_credentials`: a Dev Dashboard app of the merchant's own organisation — client id and secret
 *   are exchanged for a token that lasts about 24 h (`grant_type=client_credentials`), again when it ends;
 * - `expiring`: a public app installed by OAuth — an expiring offline token (60 min) with a refresh token
 *   that Shopify rotates on every refresh (required for public apps created from 1 April 2026).
 * Obtained and refreshed tokens are saved back with the connection (`ctx.persistCredentials`), the
 * rotated refresh token before it is used, so the next run starts from them.
 */

import type { Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient } from "../sdk/http";

export type ShopifyAuthMode = "legacy" | "client_credentials" | "expiring";

/** Which flow the stored credentials call for (undefined: not enough to call Shopify). */
export function shopifyAuthMode(creds: Credentials): ShopifyAuthMode | undefined {
  if (creds.refreshToken && creds.clientId && creds.clientSecret) return "expiring";
  if (creds.clientId && creds.clientSecret) return "client_credentials";
  if (creds.accessToken) return "legacy";
  return undefined;
}

/** Shopify's token answer (authorization code, client credentials and refresh alike). */
export interface ShopifyTokenAnswer {
  access_token?: string;
  scope?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
}

/** POST `{base}/admin/oauth/access_token` with a JSON body, as `@shopify/shopify-api` sends it. */
export async function requestShopifyToken(
  http: HttpClient,
  baseUrl: string,
  body: Record<string, string>,
  operation: string,
): Promise<ShopifyTokenAnswer & { access_token: string }> {
  const res = await http.request({
    url: `${baseUrl}/admin/oauth/access_token`,
    method: "POST",
    operation,
    kind: "read",
    // A code is single-use and a refresh token rotates: never sent twice blindly.
    idempotent: false,
    skipRateLimit: true,
    body: { json: body },
    classify: (r) =>
      r.status === 400 || r.status === 401 || r.status === 403
        ? new ConnectorError(`shopify: ${operation} refused`, {
            reason: "auth",
            httpStatus: r.status,
            systemMessage: r.text.slice(0, 200),
            system: "shopify",
            operation,
            merchantMessage:
              operation === "oauth/refresh_token"
                ? "Shopify yenileme anahtarını kabul etmedi: uygulamayı mağazanıza yeniden bağlayın (yetki verin)."
                : "Shopify erişim izni vermedi: istemci kimliğini (client ID) ve gizli anahtarı (client secret) " +
                  "kontrol edin; uygulama mağazaya kurulu olmalıdır.",
          })
        : undefined,
  });
  const b = (res.json ?? {}) as ShopifyTokenAnswer;
  if (!b.access_token) {
    throw new ConnectorError("shopify: token answer without access_token", {
      reason: "bad_response",
      system: "shopify",
      operation,
    });
  }
  http.addSecret(b.access_token);
  if (b.refresh_token) http.addSecret(b.refresh_token);
  return b as ShopifyTokenAnswer & { access_token: string };
}

/** Without `expires_in` a client-credentials token is taken to last Shopify's documented ~24 h. */
const DEFAULT_TTL_S: Record<Exclude<ShopifyAuthMode, "legacy">, number> = {
  client_credentials: 86_399,
  expiring: 3_600,
};

/** Renew this long before the end: 5 minutes, or a tenth of a short lifetime. */
function margin(ttlMs: number): number {
  return Math.min(300_000, ttlMs / 10);
}

export class ShopifyTokens {
  readonly mode: ShopifyAuthMode;
  private token?: { value: string; expiresAt: number; ttlMs: number };
  private refreshToken: string;
  private renewing?: Promise<string>;

  constructor(
    private readonly credentials: Credentials,
    private readonly http: HttpClient,
    private readonly baseUrl: string,
    private readonly now: () => number,
    private readonly persist?: (changed: Credentials) => Promise<void>,
  ) {
    const mode = shopifyAuthMode(credentials);
    if (!mode) {
      throw new ConnectorError("shopify: no access token and no client id/secret", {
        reason: "config",
        system: "shopify",
        merchantMessage:
          "Shopify bağlantısı için ya eski özel uygulamanın erişim anahtarını (shpat_) ya da Dev Dashboard " +
          "uygulamasının istemci kimliği (client ID) ve gizli anahtarını (client secret) girin.",
      });
    }
    this.mode = mode;
    this.refreshToken = credentials.refreshToken ?? "";
    for (const s of [credentials.clientSecret, credentials.refreshToken, credentials.accessToken])
      if (s) http.addSecret(s);
    if (credentials.accessToken) {
      const at = Number(credentials.tokenExpiresAt ?? "");
      const known = Number.isFinite(at) && at > 0;
      this.token = {
        value: credentials.accessToken,
        // A legacy token never expires; a stored token of unknown age is tried and renewed on a 401.
        expiresAt: mode === "legacy" ? Number.POSITIVE_INFINITY : known ? at : this.now() + 60_000,
        ttlMs: mode === "legacy" ? Number.POSITIVE_INFINITY : DEFAULT_TTL_S[mode] * 1000,
      };
    }
  }

  /** The token to send now (renewed first when it is about to end). */
  async current(): Promise<string> {
    if (this.renewing) return this.renewing;
    const t = this.token;
    if (t && this.now() < t.expiresAt - margin(t.ttlMs)) return t.value;
    return this.renew();
  }

  /**
   * Shopify refused `used`: renew once (only the holder of the refused token does) and say whether a
   * retry makes sense. A legacy token cannot be renewed: the merchant must enter a new one.
   */
  async refused(used: string | undefined): Promise<boolean> {
    if (this.mode === "legacy") return false;
    if (this.token?.value === used) this.token = undefined;
    return true;
  }

  private renew(): Promise<string> {
    if (this.mode === "legacy") return Promise.resolve(this.token?.value ?? "");
    const mode = this.mode;
    this.renewing ??= (async () => {
      const base = {
        client_id: this.credentials.clientId ?? "",
        client_secret: this.credentials.clientSecret ?? "",
      };
      const b =
        mode === "expiring"
          ? await requestShopifyToken(
              this.http,
              this.baseUrl,
              { ...base, grant_type: "refresh_token", refresh_token: this.refreshToken },
              "oauth/refresh_token",
            )
          : await requestShopifyToken(
              this.http,
              this.baseUrl,
              { ...base, grant_type: "client_credentials" },
              "oauth/client_credentials",
            );
      const ttlMs = (b.expires_in ?? DEFAULT_TTL_S[mode]) * 1000;
      const expiresAt = this.now() + ttlMs;
      this.token = { value: b.access_token, expiresAt, ttlMs };
      if (b.refresh_token) this.refreshToken = b.refresh_token;
      // Saved before first use: a rotated refresh token lost here would lock the connection out.
      await this.persist?.({
        accessToken: b.access_token,
        tokenExpiresAt: String(expiresAt),
        ...(mode === "expiring" ? { refreshToken: this.refreshToken } : {}),
      });
      return b.access_token;
    })().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }
}
