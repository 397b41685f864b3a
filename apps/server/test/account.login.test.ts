import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp, validRegistration } from "./harness.ts";

async function solvedCaptcha(t: TestApp): Promise<string> {
  const response = await t.app.inject({ method: "GET", url: "/api/account/captcha-challenge" });
  const challenge = response.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

async function registered(t: TestApp) {
  const body = validRegistration();
  expect((await call(t.app, "POST", "/api/account/register", { body })).status).toBe(200);
  return body;
}

describe("login (CAPTCHA=adaptive)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "adaptive" });
  });
  afterAll(() => t.close());

  it("returns a token, its expiry and the user", async () => {
    const user = await registered(t);
    const res = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.token).toMatch(/^ey/);
    expect(new Date(res.body.data.expiration).getTime()).toBeGreaterThan(Date.now());
    expect(res.body.data.user).toMatchObject({ email: user.email, first_Name: "Ayşe", last_Name: "Yılmaz" });
    expect(JSON.stringify(res.body)).not.toContain("password");
  });

  it("answers a wrong password and an unknown e-mail identically", async () => {
    const user = await registered(t);
    const wrong = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: "Yanlis.Parola1" },
      ip: "10.1.0.1",
    });
    const unknown = await call(t.app, "POST", "/api/account/login", {
      body: { email: "nobody@example.com", password: "Yanlis.Parola1" },
      ip: "10.1.0.2",
    });
    expect(wrong).toEqual(unknown);
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Kullanıcı adı veya şifre yanlış.");
  });

  it("validates the login form with the spec's messages", async () => {
    const res = await call(t.app, "POST", "/api/account/login", { body: { email: "", password: "" } });
    expect(res.status).toBe(400);
    const messages = Object.fromEntries(
      res.body.data.errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    expect(messages).toEqual({ email: "E-pota adı zorunludur.", password: "Şifre zorunludur." });
  });

  it("demands a solved captcha after 3 failures for that e-mail, and accepts each solution once", async () => {
    const user = await registered(t);
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, "POST", "/api/account/login", {
        body: { email: user.email, password: "x-wrong-1" },
        ip: `10.2.0.${i}`,
      });
      expect(res.status).toBe(401);
    }
    const without = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
    });
    expect(without.status).toBe(400);
    expect(without.body.statusCode).toBe(130);
    const captcha = await solvedCaptcha(t);
    const withCaptcha = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha },
    });
    expect(withCaptcha.status).toBe(200);
    const replay = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.statusCode).toBe(131);
    // The good sign-in cleared the failures: no captcha needed any more.
    const after = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
    });
    expect(after.status).toBe(200);
  });

  it("refuses a forged captcha payload", async () => {
    const res = await call(t.app, "POST", "/api/account/login", {
      body: {
        email: "a@example.com",
        password: "whatever",
        captcha: Buffer.from('{"challenge":{}}').toString("base64"),
      },
    });
    expect(res.body.statusCode).toBe(131);
  });
});

describe("login throttling (CAPTCHA=off)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "off" });
  });
  afterAll(() => t.close());

  it("answers 429 after 10 failures for one e-mail in 15 minutes, even with the right password", async () => {
    const user = await registered(t);
    for (let i = 0; i < 10; i++) {
      const res = await call(t.app, "POST", "/api/account/login", {
        body: { email: user.email, password: "wrong-pass" },
        ip: `10.3.0.${i}`,
      });
      expect(res.status).toBe(401);
    }
    const blocked = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.3.1.1",
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe(
      "Çok fazla başarısız giriş denemesi yapıldı. Lütfen 15 dakika sonra tekrar deneyiniz.",
    );
    t.clock.advance(16 * 60_000);
    const later = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.3.1.1",
    });
    expect(later.status).toBe(200);
  });

  it("answers 429 after 10 failures from one address across e-mails", async () => {
    for (let i = 0; i < 10; i++) {
      await call(t.app, "POST", "/api/account/login", {
        body: { email: `x${i}@example.com`, password: "wrong-pass" },
        ip: "10.4.0.1",
      });
    }
    const user = await registered(t);
    const blocked = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.4.0.1",
    });
    expect(blocked.status).toBe(429);
    const elsewhere = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.4.0.2",
    });
    expect(elsewhere.status).toBe(200);
  });

  it("does not let a forged X-Forwarded-For choose the address it counts", async () => {
    for (let i = 0; i < 10; i++) {
      await t.app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email: `y${i}@example.com`, password: "wrong-pass" },
        headers: { "x-forwarded-for": `203.0.113.${i}` },
        remoteAddress: "10.5.0.1",
      });
    }
    const user = await registered(t);
    const blocked = await t.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: user.email, password: user.password },
      headers: { "x-forwarded-for": "198.51.100.7" },
      remoteAddress: "10.5.0.1",
    });
    expect(blocked.statusCode).toBe(429);
  });
});

describe("login (CAPTCHA=required)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "required" });
  });
  afterAll(() => t.close());

  it("always demands a solved captcha", async () => {
    const user = await registered(t);
    const without = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
    });
    expect(without.body.statusCode).toBe(130);
    const ok = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha: await solvedCaptcha(t) },
    });
    expect(ok.status).toBe(200);
  });

  it("tells the sign-in screen which captcha mode is on", async () => {
    const res = await call(t.app, "GET", "/api/config");
    expect(res.body.data.captcha).toBe("required");
  });
});
