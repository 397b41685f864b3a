import { type Challenge, createChallenge, type Payload, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

const ALGORITHM = "SHA-256";
/**
 * `normal`: about 50k hashes on average, a fraction of a second in a browser, costly at bot scale.
 * `hard`: ten hash rounds per attempt, ten times the work; demanded after repeated failures
 * (OWASP: slow the guesser down instead of locking the account).
 */
export type CaptchaLevel = "normal" | "hard";
const COST: Record<CaptchaLevel, number> = { normal: 1, hard: 10 };
const CHALLENGE_TTL_MS = 10 * 60_000;

/** Self-hosted proof-of-work captcha (ALTCHA); no third party is ever called. */
export class CaptchaService {
  constructor(private readonly secret: string) {}

  challenge(level: CaptchaLevel = "normal"): Promise<Challenge> {
    return createChallenge({
      algorithm: ALGORITHM,
      cost: COST[level],
      deriveKey,
      keyPrefix: "0000",
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.secret,
    });
  }

  /**
   * Verifies a widget payload (base64 JSON); answers the challenge signature for replay checks and
   * the level solved (the cost is covered by the challenge's signature, so it cannot be lowered).
   */
  async verify(
    payloadBase64: string,
  ): Promise<{ ok: boolean; signature?: string; expiresAt?: Date; level?: CaptchaLevel }> {
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
      level: payload.challenge.parameters.cost >= COST.hard ? "hard" : "normal",
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    };
  }
}
