import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordLoginAttempt } from "../src/modules/account/repository.ts";
import { AUTH_HOUSEKEEPING_QUEUE, pruneAuthCounters } from "../src/modules/account/workers.ts";
import { loginAttempts } from "../src/platform/db/schema.ts";
import { countHits } from "../src/platform/security/throttle.ts";
import { call, startTestApp, type TestApp, validRegistration } from "./harness.ts";

async function solvedCaptcha(t: TestApp, level: "normal" | "hard" = "normal"): Promise<string> {
  const response = await t.app.inject({
    method: "GET",
    url: `/api/account/captcha-challenge?level=${level}`,
  });
  const challenge = response.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

async function registered(t: TestApp) {
  const body = validRegistration();
  // An address of its own: registrations from one address are throttled.
  const ip = `10.6.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  expect((await call(t.app, "POST", "/api/account/register", { body, ip })).status).toBe(200);
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

/** Wrong-password attempts for one e-mail, each from its own address. */
async function failFor(t: TestApp, email: string, times: number, ipPrefix: string) {
  for (let i = 0; i < times; i++) {
    const res = await call(t.app, "POST", "/api/account/login", {
      body: { email, password: "wrong-pass" },
      ip: `${ipPrefix}.${i}`,
    });
    expect(res.status).toBe(401);
  }
}

/** Wrong-password attempts with made-up e-mails, all from one address. */
async function failFrom(t: TestApp, ip: string, times: number, tag: string) {
  for (let i = 0; i < times; i++) {
    const res = await call(t.app, "POST", "/api/account/login", {
      body: { email: `${tag}${i}@example.com`, password: "wrong-pass" },
      ip,
    });
    expect(res.status).toBe(401);
  }
}

describe("login throttling (CAPTCHA=off): a harder captcha, never a lock", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "off" });
  });
  afterAll(() => t.close());

  it("after 10 failures for one e-mail demands the harder captcha instead of locking, and the right password with it gets in", async () => {
    const user = await registered(t);
    await failFor(t, user.email, 10, "10.3.0");
    const login = (captcha?: string) =>
      call(t.app, "POST", "/api/account/login", {
        body: { email: user.email, password: user.password, ...(captcha ? { captcha } : {}) },
        ip: "10.3.1.1",
      });
    const without = await login();
    expect(without.status).toBe(400);
    expect(without.body.statusCode).toBe(130);
    expect(without.body.data).toEqual({ captchaRequired: true, captchaLevel: "hard" });
    expect(without.body.message).toContain("ek doğrulama");
    // A proof of the ordinary level is not enough any more, and is not spent by the refusal.
    const easy = await solvedCaptcha(t, "normal");
    const tooEasy = await login(easy);
    expect(tooEasy.body.statusCode).toBe(130);
    expect(tooEasy.body.data.captchaLevel).toBe("hard");
    const inside = await login(await solvedCaptcha(t, "hard"));
    expect(inside.status).toBe(200);
    expect(inside.body.data.token).toMatch(/^ey/);
  }, 120_000);

  it("a wrong password with the harder captcha is still a plain 401, never a lock", async () => {
    const user = await registered(t);
    // Ten failures as the sign-in records them (the test above makes them through the API).
    for (let i = 0; i < 10; i++) {
      await recordLoginAttempt(t.ctx.database.db, user.email, `10.3.2.${i}`, false, t.clock.now());
    }
    const wrong = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: "still-wrong", captcha: await solvedCaptcha(t, "hard") },
      ip: "10.3.3.1",
    });
    expect(wrong.status).toBe(401);
    const right = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha: await solvedCaptcha(t, "hard") },
      ip: "10.3.3.1",
    });
    expect(right.status).toBe(200);
  }, 120_000);

  it("counts an address apart from the accounts: made-up e-mails ask that address for a captcha, and lock nobody", async () => {
    await failFrom(t, "10.4.0.1", 10, "x");
    const user = await registered(t);
    const sameOffice = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.4.0.1",
    });
    expect(sameOffice.status).toBe(400);
    expect(sameOffice.body.data).toEqual({ captchaRequired: true, captchaLevel: "normal" });
    const withCaptcha = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha: await solvedCaptcha(t) },
      ip: "10.4.0.1",
    });
    expect(withCaptcha.status).toBe(200);
    // The account itself carries no failure: from elsewhere it signs in without any captcha.
    const elsewhere = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.4.0.2",
    });
    expect(elsewhere.status).toBe(200);
  });

  it("an address with 30 failures needs the harder captcha, and with it the right password gets in", async () => {
    await failFrom(t, "10.4.1.1", 10, "y");
    // Twenty more failures as the sign-in records them (solving twenty captchas here only costs time).
    for (let i = 10; i < 30; i++) {
      await recordLoginAttempt(t.ctx.database.db, `y${i}@example.com`, "10.4.1.1", false, t.clock.now());
    }
    const user = await registered(t);
    const easy = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha: await solvedCaptcha(t) },
      ip: "10.4.1.1",
    });
    expect(easy.body.data).toEqual({ captchaRequired: true, captchaLevel: "hard" });
    const hard = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha: await solvedCaptcha(t, "hard") },
      ip: "10.4.1.1",
    });
    expect(hard.status).toBe(200);
  }, 120_000);

  it("forgets failures after the 15-minute window", async () => {
    const user = await registered(t);
    await failFor(t, user.email, 10, "10.6.0");
    t.clock.advance(16 * 60_000);
    const later = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.6.1.1",
    });
    expect(later.status).toBe(200);
  });

  it("does not let a forged X-Forwarded-For choose the address it counts", async () => {
    for (let i = 0; i < 10; i++) {
      await t.app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email: `z${i}@example.com`, password: "wrong-pass" },
        headers: { "x-forwarded-for": `203.0.113.${i}` },
        remoteAddress: "10.5.0.1",
      });
    }
    const user = await registered(t);
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: user.email, password: user.password },
      headers: { "x-forwarded-for": "198.51.100.7" },
      remoteAddress: "10.5.0.1",
    });
    expect(asked.statusCode).toBe(400);
    expect(asked.json().data.captchaRequired).toBe(true);
  });
});

describe("login flood ceiling per address", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "off" });
  });
  afterAll(() => t.close());

  it("answers 429 past 60 sign-in requests a minute from one address, and only that address", async () => {
    const user = await registered(t);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await call(t.app, "POST", "/api/account/login", {
        body: { email: `flood${i}@example.com`, password: "wrong-pass" },
        ip: "10.7.0.1",
      });
      statuses.push(res.status);
    }
    // The first ten are plain failures, then the address is asked for a captcha; nothing is refused yet.
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const flooded = await t.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: user.email, password: user.password, captcha: await solvedCaptcha(t, "hard") },
      remoteAddress: "10.7.0.1",
    });
    expect(flooded.statusCode).toBe(429);
    // The oldest of the minute's requests ages out within the minute: that is the wait announced.
    const wait = Number(flooded.headers["retry-after"]);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(flooded.json().message).toBe(
      "Bu bağlantıdan çok fazla giriş isteği geldi. Lütfen bir dakika sonra tekrar deneyiniz.",
    );
    const otherAddress = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password },
      ip: "10.7.0.2",
    });
    expect(otherAddress.status).toBe(200);
    t.clock.advance(61_000);
    const nextMinute = await call(t.app, "POST", "/api/account/login", {
      body: { email: user.email, password: user.password, captcha: await solvedCaptcha(t) },
      ip: "10.7.0.1",
    });
    expect(nextMinute.status).toBe(200);
  }, 120_000);

  it("an hourly job prunes counters older than a day, and nothing younger", async () => {
    const schedules = await t.ctx.queue.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(AUTH_HOUSEKEEPING_QUEUE);
    const db = t.ctx.database.db;
    const since = new Date(0);
    expect(await countHits(db, "login:address", "10.7.0.1", since)).toBeGreaterThan(60);
    await pruneAuthCounters(t.ctx);
    expect(await countHits(db, "login:address", "10.7.0.1", since)).toBeGreaterThan(60);
    t.clock.advance(25 * 60 * 60_000);
    await pruneAuthCounters(t.ctx);
    expect(await countHits(db, "login:address", "10.7.0.1", since)).toBe(0);
    const attempts = await db.select().from(loginAttempts).where(eq(loginAttempts.ip, "10.7.0.1"));
    expect(attempts).toEqual([]);
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
