import { message } from "@ep/contracts";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PASSWORD_RECOVERY_QUEUE,
  RECOVER_WINDOW_MS,
  RESET_LINK_TTL_MS,
} from "../src/modules/account/service.ts";
import { mailMessages } from "../src/platform/db/schema.ts";
import { MAIL_BODY_EXPIRY_QUEUE, MAIL_QUEUE } from "../src/platform/mail/mailer.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

type Received = { to: string; raw: string };

/** A real SMTP server in the test: mails go over the wire and are read back here. */
async function startSmtp(): Promise<{ url: string; inbox: Received[]; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, inbox, close: () => new Promise((r) => server.close(() => r())) };
}

/** Decodes a quoted-printable or plain body enough to find the reset link. */
function resetCodeIn(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const match = unfolded.match(/reset-password\?rowid=([A-Za-z0-9_-]+)/);
  if (!match?.[1]) throw new Error(`no reset link in mail:\n${raw}`);
  return match[1];
}

async function waitFor<T>(check: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("password recovery over real SMTP", () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ CAPTCHA: "off", SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  /** A new user asks for a reset; the mail that arrives. */
  const newUserResetMail = async () => {
    const { registration } = await registerAndLogin(t.app);
    await call(
      t.app,
      "POST",
      `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
    );
    return waitFor(
      () => smtp.inbox.find((m) => m.to === registration.email && m.raw.includes("reset-password")),
      "the reset mail",
    );
  };

  it("mails a link that resets the password once, then signs in with the new one", async () => {
    const { registration, token } = await registerAndLogin(t.app);
    const res = await call(
      t.app,
      "POST",
      `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("E-posta adresiniz kayıtlıysa şifre sıfırlama bağlantısı gönderildi.");
    const mail = await waitFor(
      () => smtp.inbox.find((m) => m.to === registration.email && m.raw.includes("reset-password")),
      "the reset mail",
    );
    expect(mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=")).toContain(
      "http://panel.test/account/reset-password?rowid=",
    );
    const rowid = resetCodeIn(mail.raw);

    expect((await call(t.app, "POST", `/api/account/check-row-id?rowid=${rowid}`)).body.successful).toBe(
      true,
    );
    const mismatch = await call(t.app, "POST", "/api/account/reset-password", {
      body: { rowid, newPassword: "Yeni.Sifre9", confirmPassword: "Yeni.Sifre8" },
    });
    expect(mismatch.body.data.errors).toEqual([
      { field: "confirmPassword", message: "Yeni şifre alanları eşleşmiyor." },
    ]);
    const tooLong = await call(t.app, "POST", "/api/account/reset-password", {
      body: { rowid, newPassword: "a".repeat(17), confirmPassword: "a".repeat(17) },
    });
    expect(tooLong.body.data.errors[0].message).toBe("En fazla 16 karakter girilebilir.");

    const reset = await call(t.app, "POST", "/api/account/reset-password", {
      body: { rowid, newPassword: "Yeni.Sifre9", confirmPassword: "Yeni.Sifre9" },
    });
    expect(reset.status).toBe(200);
    // The old session ended with the reset; the link is spent.
    expect((await call(t.app, "GET", "/api/Account", { token })).status).toBe(401);
    expect((await call(t.app, "POST", `/api/account/check-row-id?rowid=${rowid}`)).status).toBe(404);
    const again = await call(t.app, "POST", "/api/account/reset-password", {
      body: { rowid, newPassword: "Baska.Sifre1", confirmPassword: "Baska.Sifre1" },
    });
    expect(again.status).toBe(400);
    const login = await call(t.app, "POST", "/api/account/login", {
      body: { email: registration.email, password: "Yeni.Sifre9" },
    });
    expect(login.status).toBe(200);
    const [row] = await t.ctx.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, registration.email));
    expect(row?.status).toBe("sent");
  });

  it("accepts the spec's query-string form of reset-password", async () => {
    const mail = await newUserResetMail();
    const rowId = resetCodeIn(mail.raw);
    const q = new URLSearchParams({ rowId, password: "Query.Sifre1", confirmPassword: "Query.Sifre1" });
    expect((await call(t.app, "POST", `/api/account/reset-password?${q}`)).status).toBe(200);
  });

  it("expires a link after one hour", async () => {
    const mail = await newUserResetMail();
    const rowid = resetCodeIn(mail.raw);
    t.clock.advance(60 * 60_000 + 1000);
    expect((await call(t.app, "POST", `/api/account/check-row-id?rowid=${rowid}`)).status).toBe(404);
    const res = await call(t.app, "POST", "/api/account/reset-password", {
      body: { rowid, newPassword: "Yeni.Sifre9", confirmPassword: "Yeni.Sifre9" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Şifre sıfırlama bağlantısı geçersiz veya süresi dolmuş.");
  });

  it("answers an unknown address exactly like a known one, and mails nothing", async () => {
    const before = smtp.inbox.length;
    const { registration } = await registerAndLogin(t.app);
    await waitFor(() => (smtp.inbox.length > before ? true : undefined), "the welcome mail");
    const count = smtp.inbox.length;
    const known = await call(
      t.app,
      "POST",
      `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
    );
    const unknown = await call(t.app, "POST", "/api/account/recover-password?email=hic.kimse%40example.com");
    expect(unknown).toEqual(known);
    await waitFor(() => (smtp.inbox.length === count + 1 ? true : undefined), "exactly one more mail");
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.inbox.slice(count).every((m) => m.to === registration.email)).toBe(true);
  });

  it("validates the forgot-password address", async () => {
    const res = await call(t.app, "POST", "/api/account/recover-password?email=not-an-address");
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].message).toBe("Hatalı e-posta formatı");
  });
});

describe("mail without SMTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "off" });
  });
  afterAll(() => t.close());

  const recover = (email: string, ip = "127.0.0.1") =>
    call(t.app, "POST", `/api/account/recover-password?email=${encodeURIComponent(email)}`, { ip });

  it("keeps the reset link in the outbox row for the operator, never in the log", async () => {
    const { registration } = await registerAndLogin(t.app);
    await recover(registration.email);
    const rows = await waitForRows(t, registration.email, 2);
    expect(rows.every((r) => r.status === "outbox")).toBe(true);
    const reset = rows.find((r) => r.body.includes("reset-password?rowid="));
    const code = reset?.body.match(/rowid=([A-Za-z0-9_-]+)/)?.[1];
    expect(code).toBeDefined();
    expect(t.logs.some((l) => l.includes("mail written to outbox"))).toBe(true);
    expect(t.logs.some((l) => l.includes("reset-password?rowid=") || l.includes(code!))).toBe(false);
  });

  it("clears a reset mail's body once its link has expired, by the scheduled job; other mails keep theirs", async () => {
    const { registration } = await registerAndLogin(t.app);
    await recover(registration.email);
    await waitForRows(t, registration.email, 2);
    const schedules = await t.ctx.queue.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(MAIL_BODY_EXPIRY_QUEUE);
    expect(await t.ctx.mailer.clearExpiredBodies()).toBe(0);
    t.clock.advance(RESET_LINK_TTL_MS + 1000);
    expect(await t.ctx.mailer.clearExpiredBodies()).toBeGreaterThanOrEqual(1);
    const rows = await t.ctx.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, registration.email));
    const reset = rows.find((r) => r.subject === message("mail.resetSubject"));
    const welcome = rows.find((r) => r.subject === message("mail.welcomeSubject"));
    expect(reset?.body).toBe("");
    expect(reset?.status).toBe("outbox");
    expect(welcome?.body.length).toBeGreaterThan(0);
  });

  it("queues one recovery job for a known and for an unknown address alike; only the known one gets a mail", async () => {
    const { registration } = await registerAndLogin(t.app);
    const unknown = `hic.kimse.${Date.now()}@example.com`;
    const a = await recover(registration.email, "10.20.0.1");
    const b = await recover(unknown, "10.20.0.2");
    expect(b).toEqual(a);
    expect(await recoveryJobs(t, registration.email)).toBe(1);
    expect(await recoveryJobs(t, unknown)).toBe(1);
    await waitForQueueIdle(t);
    expect(await t.ctx.database.db.select().from(mailMessages).where(eq(mailMessages.to, unknown))).toEqual(
      [],
    );
  });

  it("mails one address at most 3 links an hour, however many requests come from however many addresses", async () => {
    const { registration } = await registerAndLogin(t.app);
    for (let i = 0; i < 60; i++) {
      const res = await recover(registration.email, `10.21.${Math.floor(i / 200)}.${i % 200}`);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe("E-posta adresiniz kayıtlıysa şifre sıfırlama bağlantısı gönderildi.");
    }
    await waitForQueueIdle(t);
    const rows = await waitForRows(t, registration.email, 4);
    expect(rows.filter((r) => r.subject === message("mail.resetSubject"))).toHaveLength(3);
  }, 90_000);

  it("answers 429 past 20 requests an hour from one client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await recover(`kisi${i}@example.com`, "10.22.0.1")).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    const refused = await recover("kisi99@example.com", "10.22.0.1");
    expect(refused.body.message).toBe(message("api.rateLimited"));
    const raw = await t.app.inject({
      method: "POST",
      url: "/api/account/recover-password?email=kisi98%40example.com",
      remoteAddress: "10.22.0.1",
    });
    const wait = Number(raw.headers["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(RECOVER_WINDOW_MS / 1000);
    expect((await recover("kisi99@example.com", "10.22.0.2")).status).toBe(200);
  });
});

async function recoveryJobs(t: TestApp, email: string): Promise<number> {
  const result = (await t.ctx.database.executeSql(
    "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'email' = $2",
    [PASSWORD_RECOVERY_QUEUE, email.toLowerCase()],
  )) as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

/** Waits until no recovery or mail job is left to run. */
async function waitForQueueIdle(t: TestApp) {
  const until = Date.now() + 30_000;
  for (;;) {
    const result = (await t.ctx.database.executeSql(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = ANY($1) AND state IN ('created', 'retry', 'active')",
      [[PASSWORD_RECOVERY_QUEUE, MAIL_QUEUE]],
    )) as { rows: Array<{ n: number }> };
    if (result.rows[0]?.n === 0) return;
    if (Date.now() > until) throw new Error("the recovery and mail queues did not drain");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitForRows(t: TestApp, to: string, count: number) {
  const until = Date.now() + 15_000;
  for (;;) {
    const rows = await t.ctx.database.db.select().from(mailMessages).where(eq(mailMessages.to, to));
    if (rows.length >= count && rows.every((r) => r.status !== "queued")) return rows;
    if (Date.now() > until) throw new Error(`mails not delivered: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
