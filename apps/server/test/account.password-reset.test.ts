import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailMessages } from "../src/platform/db/schema.ts";
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
    const { registration } = await registerAndLogin(t.app);
    await call(
      t.app,
      "POST",
      `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
    );
    const mail = await waitFor(
      () => smtp.inbox.find((m) => m.to === registration.email && m.raw.includes("reset-password")),
      "the reset mail",
    );
    const rowId = resetCodeIn(mail.raw);
    const q = new URLSearchParams({ rowId, password: "Query.Sifre1", confirmPassword: "Query.Sifre1" });
    expect((await call(t.app, "POST", `/api/account/reset-password?${q}`)).status).toBe(200);
  });

  it("expires a link after one hour", async () => {
    const { registration } = await registerAndLogin(t.app);
    await call(
      t.app,
      "POST",
      `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
    );
    const mail = await waitFor(
      () => smtp.inbox.find((m) => m.to === registration.email && m.raw.includes("reset-password")),
      "the reset mail",
    );
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
  it("lands in the outbox table and the log, never dropped", async () => {
    const t = await startTestApp({ CAPTCHA: "off" });
    try {
      const { registration } = await registerAndLogin(t.app);
      await call(
        t.app,
        "POST",
        `/api/account/recover-password?email=${encodeURIComponent(registration.email)}`,
      );
      const rows = await waitForRows(t, registration.email, 2);
      expect(rows.every((r) => r.status === "outbox")).toBe(true);
      expect(
        t.logs.some((l) => l.includes("mail written to outbox") && l.includes("reset-password?rowid=")),
      ).toBe(true);
    } finally {
      await t.close();
    }
  });
});

async function waitForRows(t: TestApp, to: string, count: number) {
  const until = Date.now() + 15_000;
  for (;;) {
    const rows = await t.ctx.database.db.select().from(mailMessages).where(eq(mailMessages.to, to));
    if (rows.length >= count && rows.every((r) => r.status !== "queued")) return rows;
    if (Date.now() > until) throw new Error(`mails not delivered: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
