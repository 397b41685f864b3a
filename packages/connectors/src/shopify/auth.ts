/**
 * Shopify app authentication outside the custom-app token: the OAuth authorization-code install of a
 * public app (authorize URL → callback whose query is HMAC-signed → code exchange for an offline access
 * token) and the webhook signature. All comparisons are constant-time.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient } from "../sdk/http";
import { normalizeShopDomain } from "./client";

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
 * The callback query's HMAC: hex HMAC-SHA256 with the app secret over every other parameter, sorted by
 * name, joined as `name=value` with `&` (`hmac` itself, and the legacy `signature`, left out).
 */
export function shopifyQueryHmac(
  query: Record<string, string | string[] | undefined>,
  secret: string,
): string {
  const message = Object.keys(query)
    .filter((k) => k !== "hmac" && k !== "signature" && query[k] !== undefined)
    .sort()
    .map((k) => {
      const v = query[k];
      return `${k}=${Array.isArray(v) ? `["${v.join('", "')}"]` : v}`;
    })
    .join("&");
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
  query: Record<string, string | string[] | undefined>,
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
  /** Emulator/sandbox only: used instead of `https://{shop}`. */
  baseUrl?: string;
}

/** Trade the callback's code for the shop's offline Admin API access token. */
export async function exchangeShopifyCode(
  http: HttpClient,
  input: CodeExchangeInput,
): Promise<{ accessToken: string; scopes: string[] }> {
  const shop = normalizeShopDomain(input.shop);
  http.addSecret(input.clientSecret);
  http.addSecret(input.code);
  const res = await http.request({
    url: `${input.baseUrl?.replace(/\/+$/, "") ?? `https://${shop}`}/admin/oauth/access_token`,
    method: "POST",
    operation: "oauth/access_token",
    kind: "read",
    // A code is single-use: never sent twice.
    idempotent: false,
    skipRateLimit: true,
    body: { json: { client_id: input.clientId, client_secret: input.clientSecret, code: input.code } },
    classify: (r) =>
      r.status === 400 || r.status === 401 || r.status === 403
        ? new ConnectorError("shopify: authorization code refused", {
            reason: "auth",
            httpStatus: r.status,
            systemMessage: r.text.slice(0, 200),
            system: "shopify",
            operation: "oauth/access_token",
          })
        : undefined,
  });
  const b = (res.json ?? {}) as { access_token?: string; scope?: string };
  if (!b.access_token) {
    throw new ConnectorError("shopify: token answer without access_token", {
      reason: "bad_response",
      system: "shopify",
      operation: "oauth/access_token",
    });
  }
  http.addSecret(b.access_token);
  return { accessToken: b.access_token, scopes: (b.scope ?? "").split(",").filter(Boolean) };
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
