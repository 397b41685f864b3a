/**
 * Access tokens of an emulated OAuth / login endpoint: issued with a lifetime, checked on every call,
 * expirable on demand (a test's "the token ran out mid-run").
 */

import { randomBytes } from "node:crypto";

export type TokenCheck = "ok" | "missing" | "unknown" | "expired";

export class TokenStore {
  private readonly tokens = new Map<string, number>();

  constructor(
    /** Lifetime of a new token (IKAS: 14,400 s). */
    public ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new random token; `expiresIn` is in whole seconds, as OAuth answers carry it. */
  issue(): { token: string; expiresIn: number; expiresAt: number } {
    const token = randomBytes(24).toString("base64url");
    const expiresAt = this.now() + this.ttlMs;
    this.tokens.set(token, expiresAt);
    return { token, expiresIn: Math.round(this.ttlMs / 1000), expiresAt };
  }

  check(token: string | undefined): TokenCheck {
    if (!token) return "missing";
    const exp = this.tokens.get(token);
    if (exp === undefined) return "unknown";
    return exp <= this.now() ? "expired" : "ok";
  }

  /** Make every issued token expired now. */
  expireAll(): void {
    for (const k of this.tokens.keys()) this.tokens.set(k, 0);
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  /** Every token issued so far (tests check that none reaches a log). */
  issued(): string[] {
    return [...this.tokens.keys()];
  }
}

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m?.[1];
}
