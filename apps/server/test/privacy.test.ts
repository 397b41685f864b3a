import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConnection } from "../src/modules/connections/repository.ts";
import { companyDeletions } from "../src/modules/privacy/schema.ts";
import { COMPANY_DELETION_QUEUE, PrivacyService } from "../src/modules/privacy/service.ts";
import { createSupportUser } from "../src/modules/support/create-support-user.ts";
import { companies, mailMessages, users } from "../src/platform/db/schema.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const DAY = 86_400_000;

describe("KVKK: data export and account deletion", () => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof registerAndLogin>>;
  let b: Awaited<ReturnType<typeof registerAndLogin>>;
  let support: string;
  const companyA = () => a.account.company.id as number;
  const companyB = () => b.account.company.id as number;

  beforeAll(async () => {
    t = await startTestApp();
    a = await registerAndLogin(t.app, { company_Name: "Anadolu Yapı Market" });
    b = await registerAndLogin(t.app, { company_Name: "Ege Kırtasiye" });
    const db = t.ctx.database.db;
    for (const [companyId, secret] of [
      [companyA(), "gizli-anahtar-A"],
      [companyB(), "gizli-anahtar-B"],
    ] as const) {
      await saveConnection(db, t.ctx.credentials, {
        companyId,
        kind: "erp",
        systemType: 9,
        credentials: { apiKey: secret },
      });
      await ensureCompanyJobs(db, companyId, new Date());
    }
    await createSupportUser(db, { email: "destek@kvkk.test", password: "Destek.Parola1" });
    const login = await call(t.app, "POST", "/api/account/login", {
      body: { email: "destek@kvkk.test", password: "Destek.Parola1" },
      ip: "10.7.0.9",
    });
    support = login.body.data.token;
  });
  afterAll(() => t?.close());

  it("exports the company's own data as JSON, without secrets and without another company's rows", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/privacy/export?format=json",
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toMatch(/attachment; filename=".+\.json"/);
    const data = response.json();
    expect(data.company).toEqual([expect.objectContaining({ id: companyA(), name: "Anadolu Yapı Market" })]);
    expect(data.users.map((u: { email: string }) => u.email)).toEqual([a.registration.email]);
    expect(data.connections).toHaveLength(1);
    expect(data.jobs.length).toBeGreaterThan(0);
    expect(data.jobs.every((j: { companyId: number }) => j.companyId === companyA())).toBe(true);
    const text = response.body;
    expect(text).not.toContain("passwordHash");
    expect(text).not.toContain("credentialsSealed");
    expect(text).not.toContain("gizli-anahtar");
    expect(text).not.toContain(b.registration.email);
    expect(text).not.toContain("Ege Kırtasiye");
  });

  it("exports the same data as an Excel workbook, one sheet per table", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/privacy/export?format=xlsx",
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("spreadsheetml");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const names = workbook.worksheets.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["company", "users", "connections", "jobs", "orders"]));
    const usersSheet = workbook.getWorksheet("users")!;
    const header = (usersSheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain("email");
    expect(header).not.toContain("passwordHash");
    const emailColumn = header.indexOf("email") + 1;
    expect(usersSheet.getRow(2).getCell(emailColumn).value).toBe(a.registration.email);
  });

  it("refuses an unknown export format, and every call without a company session", async () => {
    const bad = await call(t.app, "GET", "/api/privacy/export?format=pdf", { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.body.successful).toBe(false);
    expect((await call(t.app, "GET", "/api/privacy/export")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/privacy/deletion", { token: support })).status).toBe(403);
  });

  it("asks for confirmation and the current password before recording a deletion request", async () => {
    const noConfirm = await call(t.app, "POST", "/api/privacy/deletion", {
      token: a.token,
      body: { password: a.registration.password },
    });
    expect(noConfirm.status).toBe(400);
    expect(JSON.stringify(noConfirm.body.data)).toContain("onaylayınız");
    const wrong = await call(t.app, "POST", "/api/privacy/deletion", {
      token: a.token,
      body: { password: "Yanlis.Parola9", confirm: true },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.errors[0]).toMatchObject({ field: "password" });
    expect(wrong.body.data.errors[0].message).toContain("mevcut şifresini");
    const none = await call(t.app, "GET", "/api/privacy/deletion", { token: a.token });
    expect(none.body.data).toEqual({ request: null, graceDays: 30 });
  });

  it("records the request with a 30-day grace period, queues the job for that day and mails the user", async () => {
    const before = t.clock.now().getTime();
    const res = await call(t.app, "POST", "/api/privacy/deletion", {
      token: a.token,
      body: { password: a.registration.password, confirm: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain("30 gün sonra");
    expect(res.body.message).toContain("iptal edebilirsiniz");
    const due = Date.parse(res.body.data.due_Date);
    expect(due - before).toBeGreaterThanOrEqual(30 * DAY);
    expect(due - before).toBeLessThan(30 * DAY + 60_000);
    const jobs = await t.ctx.database.executeSql(
      "SELECT start_after, data FROM pgboss.job WHERE name = $1 AND data->>'deletionId' = $2",
      [COMPANY_DELETION_QUEUE, String(res.body.data.id)],
    );
    expect(jobs.rows).toHaveLength(1);
    expect(new Date(jobs.rows[0]!.start_after as string).getTime()).toBe(due);
    const mails = await t.ctx.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, a.registration.email));
    expect(mails.some((m) => m.subject === "Hesap silme talebiniz alındı")).toBe(true);

    const again = await call(t.app, "POST", "/api/privacy/deletion", {
      token: a.token,
      body: { password: a.registration.password, confirm: true },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("zaten bekleyen");
  });

  it("keeps each company to its own request: another company's id is not found", async () => {
    const mine = (await call(t.app, "GET", "/api/privacy/deletion", { token: a.token })).body.data.request;
    expect(mine.status).toBe("pending");
    const foreign = await call(t.app, "POST", `/api/privacy/deletion/${mine.id}/cancel`, { token: b.token });
    expect(foreign.status).toBe(404);
    expect(
      (await call(t.app, "GET", "/api/privacy/deletion", { token: b.token })).body.data.request,
    ).toBeNull();
    const still = (await call(t.app, "GET", "/api/privacy/deletion", { token: a.token })).body.data.request;
    expect(still.status).toBe("pending");
  });

  it("shows pending deletions to support only", async () => {
    const list = await call(t.app, "GET", "/api/support/deletions", { token: support });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        companyId: companyA(),
        companyName: "Anadolu Yapı Market",
        requestedBy: a.registration.email,
        daysLeft: 30,
      }),
    ]);
    expect((await call(t.app, "GET", "/api/support/deletions", { token: a.token })).status).toBe(403);
  });

  it("cancels during the grace period; the job then finds nothing to delete", async () => {
    const mine = (await call(t.app, "GET", "/api/privacy/deletion", { token: a.token })).body.data.request;
    const res = await call(t.app, "POST", `/api/privacy/deletion/${mine.id}/cancel`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Hesap silme talebiniz iptal edildi. Hesabınız ve verileriniz korunuyor.");
    expect(res.body.data.status).toBe("cancelled");
    const twice = await call(t.app, "POST", `/api/privacy/deletion/${mine.id}/cancel`, { token: a.token });
    expect(twice.status).toBe(409);
    expect((await call(t.app, "GET", "/api/support/deletions", { token: support })).body.data).toEqual([]);

    t.clock.advance(31 * DAY);
    try {
      expect(await new PrivacyService(t.ctx).perform(mine.id)).toBe(false);
    } finally {
      t.clock.advance(-31 * DAY);
    }
    const [company] = await t.ctx.database.db.select().from(companies).where(eq(companies.id, companyA()));
    expect(company).toBeDefined();
  });

  it("deletes the company only when due: connections, credentials and personal data go, the log stays", async () => {
    const res = await call(t.app, "POST", "/api/privacy/deletion", {
      token: a.token,
      body: { password: a.registration.password, confirm: true },
    });
    expect(res.status).toBe(200);
    const id = res.body.data.id as number;
    const service = new PrivacyService(t.ctx);
    const db = t.ctx.database.db;

    // Early (a job run before its date): nothing is deleted, and the job is queued again.
    expect(await service.perform(id)).toBe(false);
    expect(await db.select().from(users).where(eq(users.companyId, companyA()))).toHaveLength(1);

    t.clock.advance(30 * DAY + 1000);
    try {
      expect(await service.perform(id)).toBe(true);
    } finally {
      t.clock.advance(-(30 * DAY + 1000));
    }
    expect(await db.select().from(companies).where(eq(companies.id, companyA()))).toHaveLength(0);
    expect(await db.select().from(users).where(eq(users.companyId, companyA()))).toHaveLength(0);
    expect(
      await db
        .select()
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.companyId, companyA())),
    ).toHaveLength(0);
    expect(
      await db.select().from(engineSchema.jobs).where(eq(engineSchema.jobs.companyId, companyA())),
    ).toHaveLength(0);
    expect(
      await db.select().from(mailMessages).where(eq(mailMessages.to, a.registration.email)),
    ).toHaveLength(0);
    const [log] = await db.select().from(companyDeletions).where(eq(companyDeletions.id, id));
    expect(log).toMatchObject({ status: "completed", companyId: companyA() });
    expect(log!.removed).toMatchObject({ company: 1, users: 1, connections: 1 });
    expect(JSON.stringify(log)).not.toContain(a.registration.email);

    // The session is gone with the user; the other company is untouched.
    expect((await call(t.app, "GET", "/api/privacy/deletion", { token: a.token })).status).toBe(401);
    const login = await call(t.app, "POST", "/api/account/login", {
      body: { email: a.registration.email, password: a.registration.password },
      ip: "10.7.0.10",
    });
    expect(login.status).not.toBe(200);
    expect(await db.select().from(companies).where(eq(companies.id, companyB()))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.companyId, companyB())),
    ).toHaveLength(1);
    // A second run of the same job (a retry) is a no-op.
    expect(await service.perform(id)).toBe(false);
  });
});
