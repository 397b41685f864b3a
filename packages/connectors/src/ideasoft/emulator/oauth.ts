/**
 * The Ideasoft emulator's OAuth2 authorization-code flow (the OpenAPI file's securitySchemes): `/panel/auth`
 * consents at once and redirects with a code; `/oauth/v2/token` exchanges codes and refreshes, rotating the
 * refresh token as Ideasoft does unless told not to. The Admin API routes are server.ts.
 */

import { randomBytes } from "node:crypto";
import { TokenStore } from "../../testing/auth";
import type { EmulatorCounters } from "../../testing/faults";
import type { EmulatorServer } from "../../testing/server";

export interface IdeasoftEmulatorCounters extends EmulatorCounters {
  tokensIssued: number;
  refreshes: number;
  refused: number;
}

export interface IdeasoftOAuthOptions {
  storeDomain: string;
  clientId: string;
  clientSecret: string;
  refreshToken?: string;
  tokenTtlMs?: number;
  rotateRefreshTokens?: boolean;
  codeTtlMs?: number;
}

export function serveIdeasoftOAuth(
  server: EmulatorServer<IdeasoftEmulatorCounters>,
  opts: IdeasoftOAuthOptions,
) {
  const { counters, now, app } = server;
  const { storeDomain, clientId, clientSecret } = opts;
  const tokens = new TokenStore(opts.tokenTtlMs ?? 86_400_000, now);
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const refreshTokens = new Set<string>();
  const initialRefresh = opts.refreshToken ?? randomBytes(24).toString("base64url");
  refreshTokens.add(initialRefresh);

  function issue() {
    counters.tokensIssued++;
    const t = tokens.issue();
    const refresh = randomBytes(24).toString("base64url");
    refreshTokens.add(refresh);
    return { access_token: t.token, expires_in: t.expiresIn, token_type: "bearer", refresh_token: refresh };
  }

  // Consent: the merchant is signed in to the panel and approves at once.
  app.get("/panel/auth", async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== clientId || q.response_type !== "code" || !q.redirect_uri) {
      counters.errors++;
      return reply.code(400).type("text/html").send("<p>Geçersiz uygulama isteği</p>");
    }
    const code = randomBytes(16).toString("hex");
    codes.set(code, { redirectUri: q.redirect_uri, expiresAt: now() + (opts.codeTtlMs ?? 30_000) });
    const target = new URL(q.redirect_uri);
    target.searchParams.set("code", code);
    if (q.state) target.searchParams.set("state", q.state);
    target.searchParams.set("domain", storeDomain);
    return reply.redirect(target.toString(), 302);
  });

  server.tokenEndpoint("/oauth/v2/token", "oauth/v2/token", async (b, _req, reply) => {
    const refuse = (error: string, description: string) => {
      counters.errors++;
      counters.authFailures++;
      return reply.code(400).send({ error, error_description: description });
    };
    if (b.client_id !== clientId || b.client_secret !== clientSecret)
      return refuse("invalid_client", "Client authentication failed");
    if (b.grant_type === "authorization_code") {
      const c = b.code ? codes.get(b.code) : undefined;
      if (!c || c.expiresAt < now() || c.redirectUri !== b.redirect_uri)
        return refuse("invalid_grant", "Invalid or expired authorization code");
      codes.delete(b.code ?? "");
      return reply.send(issue());
    }
    if (b.grant_type === "refresh_token") {
      if (!b.refresh_token || !refreshTokens.has(b.refresh_token))
        return refuse("invalid_grant", "Invalid refresh token");
      counters.refreshes++;
      if (opts.rotateRefreshTokens === false) {
        counters.tokensIssued++;
        const t = tokens.issue();
        return reply.send({
          access_token: t.token,
          expires_in: t.expiresIn,
          token_type: "bearer",
          refresh_token: b.refresh_token,
        });
      }
      refreshTokens.delete(b.refresh_token);
      return reply.send(issue());
    }
    return refuse("unsupported_grant_type", "Unsupported grant type");
  });
  return { tokens, refreshTokens, initialRefresh };
}
