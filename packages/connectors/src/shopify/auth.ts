/**
 * Shopify app authentication outside the stored credentials: the OAuth authorization-code install of a
 * public app (authorize URL → callback whose query is HMAC-signed → code exchange for an expiring offline
 * token and its refresh token) and the webhook signature. All comparisons are constant-time. Renewing
 * tokens while the connector runs is `tokens.ts`.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import type { HttpClient } from "../sdk/http";
import { normalizeShopDomain } from "./client";
import { requestShopifyToken } from "./tokens";

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface AuthorizeUrlInput {
  shop: string;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  /** The nonce the callback must bring back (store it with the install attempt). */
  state: string;
}

/** Where the merchant approves the install: `https://{shop}/admin/oauth/authorize?...`. */
export function shopifyAuthorizeUrl(input: AuthorizeUrlInput): string {
  const q = new URLSearchParams({
    client_id: input.clientId,
    scope: input.scopes.join(","),
    redirect_uri: input.redirectUri,
    state: input.state,
  });
  return `https://${normalizeShopDomain(input.shop)}/admin/oauth/authorize?${q.toString()}`;
}

/**
 * The callback query's HMAC, computed as Shopify's own library does (`@shopify/shopify-api@15.0.0`,
 * `lib/utils/hmac-validator.ts` + `processed-query.ts`): `hmac` and `signature` left out, names sorted with
 * `localeCompare`, each pair URL-encoded by `URLSearchParams` (arrays as `name[]=v`, objects as
 * `name[key]=v`), `+` turned into `%20`, joined with `&`; hex HMAC-SHA256 with the app secret. Values are the
 * decoded query values, so a `host` ending in base64 `=` padding is signed as `%3D`.
 */
export function shopifyQueryHmac(
  query: Record<string, string | string[] | Record<string, string> | undefined>,
  secret: string,
): string {
  const params = new URLSearchParams();
  for (const k of Object.keys(query)
    .filter((x) => x !== "hmac" && x !== "signature")
    .sort((a, b) => a.localeCompare(b))) {
    const v = query[k];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) params.append(`${k}[]`, x);
    else if (typeof v === "object") for (const [e, x] of Object.entries(v)) params.append(`${k}[${e}]`, x);
    else params.append(k, v);
  }
  const message = params.toString().replace(/\+/g, "%20");
  return createHmac("sha256", secret).update(message).digest("hex");
}

export interface CallbackCheck {
  ok: boolean;
  /** Why not, for logs (never shown with secrets). */
  problem?: "hmac" | "state" | "shop" | "stale";
  shop?: string;
}

/**
 * Verify the install callback: its HMAC, the state nonce we issued, a myshopify.com shop, and (when
 * given) a timestamp no older than `maxAgeS`.
 */
export function verifyShopifyCallback(
  query: Record<string, string | string[] | Record<string, string> | undefined>,
  opts: { clientSecret: string; state: string; now?: number; maxAgeS?: number },
): CallbackCheck {
  const hmac = typeof query.hmac === "string" ? query.hmac : "";
  if (!hmac || !safeEqual(shopifyQueryHmac(query, opts.clientSecret), hmac.toLowerCase())) {
    return { ok: false, problem: "hmac" };
  }
  if (typeof query.state !== "string" || !safeEqual(query.state, opts.state))
    return { ok: false, problem: "state" };
  let shop: string;
  try {
    shop = normalizeShopDomain(typeof query.shop === "string" ? query.shop : "");
  } catch {
    return { ok: false, problem: "shop" };
  }
  if (shop !== query.shop) return { ok: false, problem: "shop" };
  const ts = Number(query.timestamp);
  if (
    opts.maxAgeS !== undefined &&
    (!Number.isFinite(ts) || (opts.now ?? Date.now()) / 1000 - ts > opts.maxAgeS)
  ) {
    return { ok: false, problem: "stale" };
  }
  return { ok: true, shop };
}

export interface CodeExchangeInput {
  shop: string;
  clientId: string;
  clientSecret: string;
  code: string;
  /**
   * Ask for an expiring offline token with a refresh token (`expiring: "1"`, as the official library
   * sends it): required for public apps created from 1 April 2026. Default true.
   */
  expiring?: boolean;
  /** Emulator/sandbox only: used instead of `https://{shop}`. */
  baseUrl?: string;
  now?: () => number;
}

export interface ShopifyTokenGrant {
  accessToken: string;
  scopes: string[];
  /** Expiring tokens only: store these with the connection (`refreshToken`, `tokenExpiresAt`). */
  refreshToken?: string;
  expiresAt?: number;
}

/** Trade the callback's code for the shop's offline Admin API token (expiring, with a refresh token). */
export async function exchangeShopifyCode(
  http: HttpClient,
  input: CodeExchangeInput,
): Promise<ShopifyTokenGrant> {
  const shop = normalizeShopDomain(input.shop);
  http.addSecret(input.clientSecret);
  http.addSecret(input.code);
  const b = await requestShopifyToken(
    http,
    input.baseUrl?.replace(/\/+$/, "") ?? `https://${shop}`,
    {
      client_id: input.clientId,
      client_secret: input.clientSecret,
      code: input.code,
      expiring: input.expiring === false ? "0" : "1",
    },
    "oauth/access_token",
  );
  return {
    accessToken: b.access_token,
    scopes: (b.scope ?? "").split(",").filter(Boolean),
    ...(b.refresh_token ? { refreshToken: b.refresh_token } : {}),
    ...(b.expires_in ? { expiresAt: (input.now ?? Date.now)() + b.expires_in * 1000 } : {}),
  };
}

/** A webhook's `X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body with the app secret. */
export function verifyShopifyWebhook(
  rawBody: string | Buffer,
  hmacHeader: string | undefined,
  secret: string,
): boolean {
  if (!hmacHeader) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest("base64");
  return safeEqual(expected, hmacHeader.trim());
}
