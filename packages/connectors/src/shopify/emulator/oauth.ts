/**
 * The app's tokens: the custom app's legacy token, Dev Dashboard client-credentials tokens, public apps'
 * expiring offline tokens with rotating refresh tokens, single-use authorization codes, and the
 * `/admin/oauth/access_token` endpoint that exchanges them.
 */

import { randomBytes } from "node:crypto";
import type { EmulatorServer } from "../../testing/server";
import type { ShopifyEmulatorCounters, ShopifyEmulatorOptions } from "./types";

const SCOPES =
  "read_products,write_products,read_inventory,write_inventory,read_orders,write_orders,write_merchant_managed_fulfillment_orders";

export class ShopifyTokens {
  /** The legacy token (`shpat_…`, never ends); replaced by a dead one on revoke. */
  accessToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  private readonly authCodes = new Set<string>();
  // Issued tokens with their end (epoch ms); the legacy token never ends.
  private readonly issued = new Map<string, number>();
  // Refresh token → the one it was replaced by (undefined: current), for the rotation rule.
  private readonly refreshTokens = new Map<string, string | undefined>();
  private readonly ccTtlS: number;
  private readonly expiringTtlS: number;

  constructor(
    private readonly opts: ShopifyEmulatorOptions,
    private readonly counters: ShopifyEmulatorCounters,
    private readonly now: () => number,
  ) {
    this.accessToken = opts.accessToken ?? `shpat_${randomBytes(16).toString("hex")}`;
    this.clientId = opts.clientId ?? "shopify-emulator-client";
    this.clientSecret = opts.clientSecret ?? "shopify-emulator-secret-0123456789";
    this.ccTtlS = opts.clientCredentialsTtlS ?? 86_399;
    this.expiringTtlS = opts.expiringTtlS ?? 3_600;
  }

  valid(t: unknown): boolean {
    return typeof t === "string" && (t === this.accessToken || (this.issued.get(t) ?? 0) > this.now());
  }

  /** The pair Shopify's code exchange (with `expiring: "1"`) and refresh grant answer. */
  expiringPair() {
    const access = this.issue("shpat_", this.expiringTtlS);
    const refresh = `shprt_${randomBytes(16).toString("hex")}`;
    this.refreshTokens.set(refresh, undefined);
    return {
      access_token: access,
      expires_in: this.expiringTtlS,
      refresh_token: refresh,
      refresh_token_expires_in: 90 * 86_400,
    };
  }

  issueAuthCode(): string {
    const code = randomBytes(16).toString("hex");
    this.authCodes.add(code);
    return code;
  }

  revoke(): void {
    this.accessToken = `revoked-${randomBytes(8).toString("hex")}`;
    this.issued.clear();
    this.refreshTokens.clear();
  }

  expire(): void {
    for (const t of this.issued.keys()) this.issued.set(t, 0);
  }

  /** Serves the OAuth token endpoint on the emulator server. */
  route(server: EmulatorServer<ShopifyEmulatorCounters>): void {
    server.tokenEndpoint("/admin/oauth/access_token", "oauth/access_token", async (b, _req, reply) => {
      const refuse = (error: string, error_description: string) => {
        this.counters.errors++;
        this.counters.authFailures++;
        return reply.code(400).send({ error, error_description });
      };
      if (b.client_id !== this.clientId || b.client_secret !== this.clientSecret)
        return refuse("invalid_client", "Client authentication failed");
      if (b.grant_type === "client_credentials") {
        // Dev Dashboard apps: a token for about 24 h, no refresh token (ask again).
        return reply.send({
          access_token: this.issue("shpat_", this.ccTtlS),
          scope: SCOPES,
          expires_in: this.ccTtlS,
        });
      }
      if (b.grant_type === "refresh_token") {
        const r = b.refresh_token ?? "";
        if (!this.refreshTokens.has(r))
          return refuse("invalid_grant", "The refresh token is invalid or was revoked");
        // "retain": a replaced token still works until its replacement has been used ("strict": never).
        if (this.refreshTokens.get(r) !== undefined && this.opts.refreshRotation === "strict")
          return refuse("invalid_grant", "The refresh token is invalid or was revoked");
        const pair = this.expiringPair();
        this.refreshTokens.set(r, pair.refresh_token);
        // Using a replacement retires whatever it replaced.
        for (const [old, next] of this.refreshTokens) if (next === r) this.refreshTokens.delete(old);
        return reply.send({ ...pair, scope: SCOPES });
      }
      if (b.grant_type !== undefined) return refuse("unsupported_grant_type", "Unsupported grant type");
      if (!b.code || !this.authCodes.has(b.code))
        return refuse("invalid_request", "The authorization code was not found or was already used");
      this.authCodes.delete(b.code);
      // `expiring: "1"` (public apps from 2026-04-01): an expiring offline token with a refresh token.
      if (b.expiring === "1") return reply.send({ ...this.expiringPair(), scope: SCOPES });
      return reply.send({ access_token: this.accessToken, scope: SCOPES });
    });
  }

  private issue(prefix: string, ttlS: number): string {
    const t = `${prefix}${randomBytes(16).toString("hex")}`;
    this.issued.set(t, this.now() + ttlS * 1000);
    this.counters.tokensIssued++;
    return t;
  }
}
