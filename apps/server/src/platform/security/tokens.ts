import { createHmac, timingSafeEqual } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

export type TokenClaims = {
  sessionId: string;
  userId: number;
  companyId: number | null;
  role: "company" | "support";
};

/** Signs and checks session tokens (HS256). The session row decides whether a valid token still counts. */
export class TokenService {
  private readonly key: Uint8Array;
  /** The key signed cookies (the OAuth state's) are signed with: derived, never the token key itself. */
  readonly cookieSecret: string;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.cookieSecret = createHmac("sha256", secret).update("ep-cookie-signing").digest("base64url");
  }

  sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ cid: claims.companyId, role: claims.role })
      .setProtectedHeader({ alg: "HS256" })
      .setJti(claims.sessionId)
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"] });
      if (!payload.jti || !payload.sub) return null;
      return {
        sessionId: payload.jti,
        userId: Number(payload.sub),
        companyId: typeof payload.cid === "number" ? payload.cid : null,
        role: payload.role === "support" ? "support" : "company",
      };
    } catch {
      return null;
    }
  }

  /** HMAC of a public link's subject (e.g. "invoice-pdf:12:1795400000"), for links given out without a session. */
  linkSignature(subject: string): string {
    return createHmac("sha256", this.key).update(`link:${subject}`).digest("base64url");
  }

  linkSignatureValid(subject: string, signature: string): boolean {
    const expected = Buffer.from(this.linkSignature(subject));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
