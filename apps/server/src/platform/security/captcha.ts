import { type Challenge, createChallenge, type Payload, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

const ALGORITHM = "SHA-256";
// About 50k hashes on average: a fraction of a second in a browser, costly at bot scale.
const COST = 1;
const CHALLENGE_TTL_MS = 10 * 60_000;

/** Self-hosted proof-of-work captcha (ALTCHA); no third party is ever called. */
export class CaptchaService {
  constructor(private readonly secret: string) {}

  challenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: ALGORITHM,
      cost: COST,
      deriveKey,
      keyPrefix: "0000",
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.secret,
    });
  }

  /** Verifies a widget payload (base64 JSON); answers the challenge signature for replay checks. */
  async verify(payloadBase64: string): Promise<{ ok: boolean; signature?: string; expiresAt?: Date }> {
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(payloadBase64, "base64").toString("utf8")) as Payload;
    } catch {
      return { ok: false };
    }
    if (!payload?.challenge?.parameters || !payload.solution) return { ok: false };
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: this.secret,
    }).catch(() => null);
    if (!result?.verified) return { ok: false };
    return {
      ok: true,
      signature: payload.challenge.signature,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    };
  }
}
