/**
 * Registration is throttled per client address: after a few registrations the captcha the sign-in
 * uses is demanded (CAPTCHA=adaptive or required), and a flood is refused with 429 in any mode.
 */
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTER_CAPTCHA_AFTER, REGISTER_FLOOD_LIMIT } from "../src/modules/account/service.ts";
import { call, startTestApp, type TestApp, validRegistration } from "./harness.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "adaptive" });
}, 60_000);
afterAll(async () => t?.close());

async function solvedCaptcha(): Promise<string> {
  const challenge = (await t.app.inject({ url: "/api/account/captcha-challenge" })).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

const register = (ip: string, extra: Record<string, unknown> = {}) =>
  call(t.app, "POST", "/api/account/register", { body: validRegistration(extra), ip });

describe("registration throttled per address", () => {
  it("demands the captcha after a few registrations from one address, and takes a solved one once", async () => {
    const ip = "10.50.0.1";
    for (let i = 0; i < REGISTER_CAPTCHA_AFTER; i++) expect((await register(ip)).status).toBe(200);
    const demanded = await register(ip);
    expect(demanded.status).toBe(400);
    expect(demanded.body).toMatchObject({ statusCode: 130, data: { captchaRequired: true } });
    expect(demanded.body.message).toBe("Lütfen robot olmadığınızı doğrulayınız.");
    // Another address is not affected.
    expect((await register("10.50.0.2")).status).toBe(200);
    const captcha = await solvedCaptcha();
    expect((await register(ip, { captcha })).status).toBe(200);
    // The same solution does not work twice.
    expect((await register(ip, { captcha })).body.statusCode).toBe(131);
  });

  it("refuses a flood from one address with 429 and a Retry-After, captcha or not", async () => {
    const ip = "10.50.0.3";
    const codes: number[] = [];
    for (let i = 0; i < REGISTER_FLOOD_LIMIT; i++) {
      const extra = i >= REGISTER_CAPTCHA_AFTER ? { captcha: await solvedCaptcha() } : {};
      codes.push((await register(ip, extra)).status);
    }
    expect(codes.every((c) => c === 200)).toBe(true);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/account/register",
      payload: { ...validRegistration(), captcha: await solvedCaptcha() },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(res.json().message).toBe(
      "Bu bağlantıdan çok fazla kayıt isteği geldi. Lütfen bir süre sonra tekrar deneyiniz.",
    );
  }, 60_000);
});
