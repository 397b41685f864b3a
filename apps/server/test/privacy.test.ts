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

  it("exports an Excel workbook a person reads: Turkish titles, Turkish times, words not codes or JSON", async () => {
    const db = t.ctx.database.db;
    const { jobs, jobRuns, jobErrorReports, orderLedger, connections } = engineSchema;
    const [job] = await db.select().from(jobs).where(eq(jobs.companyId, companyA()));
    const [run] = await db
      .insert(jobRuns)
      .values({
        jobId: job!.id,
        companyId: companyA(),
        jobType: job!.type,
        jobName: job!.name,
        trigger: "manual",
        status: "PartiallyFailed",
        counts: { read: 3, changed: 2, written: 1, failed: 1 },
      })
      .returning();
    // A failed task carrying a nested payload, and an order whose customer is named like a formula.
    await db.insert(jobErrorReports).values({
      companyId: companyA(),
      jobId: job!.id,
      jobRunId: run!.id,
      jobType: "ProductIntegration",
      entityKey: "STK-1",
      errorType: "validation",
      message: "Barkod geçersiz.",
      payload: { sku: "STK-1", barcode: "869", price: 89.5 },
      createdAt: new Date("2026-03-05T11:07:00Z"),
      lastSeenAt: new Date("2026-03-05T11:07:00Z"),
    });
    const [erp] = await db.select().from(connections).where(eq(connections.companyId, companyA()));
    await db.insert(orderLedger).values({
      companyId: companyA(),
      shopConnectionId: erp!.id,
      orderNo: "1001",
      shopOrderId: "o-1",
      state: "confirmed",
      orderDate: new Date("2026-03-05T21:30:00Z"),
      grandTotal: 349.9,
      payload: {
        customer: { firstName: '=HYPERLINK("x")', lastName: "Kaya" },
        shippingAddress: { city: "İzmir" },
      },
    });

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
    expect(names).toEqual(
      expect.arrayContaining(["Şirket", "Kullanıcılar", "Bağlantılar", "Görevler", "Siparişler"]),
    );
    const sheetRows = (name: string) => {
      const sheet = workbook.getWorksheet(name)!;
      const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
      const rows: Array<Record<string, ExcelJS.Cell>> = [];
      for (let n = 2; n <= sheet.rowCount; n++) {
        const row = sheet.getRow(n);
        rows.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1)])));
      }
      return { header, rows };
    };

    // No database names anywhere: every title is a Turkish label, no camelCase or snake_case.
    for (const sheet of workbook.worksheets) {
      const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
      for (const title of [sheet.name, ...header]) expect(title).not.toMatch(/[a-z][A-Z]|_|^(id|key|value)$/);
      expect(header).not.toContain("passwordHash");
    }
    // No JSON in any cell.
    for (const sheet of workbook.worksheets) {
      sheet.eachRow((row) => row.eachCell((cell) => expect(String(cell.value)).not.toMatch(/^[[{]|"\w+":/)));
    }

    const users = sheetRows("Kullanıcılar");
    expect(users.rows[0]!["E-posta"]!.value).toBe(a.registration.email);
    expect(users.rows[0]!.Dil!.value).toBe("Türkçe");

    const company = sheetRows("Şirket");
    expect(company.rows[0]!["ERP sistemi"]!.value).toBe("Mikro");
    expect(company.rows[0]!["Demo hesabı"]!.value).toBe("Hayır");

    // Dates: Turkish wall time (21:30 UTC is 00:30 the next day in Turkey), in the panel's format.
    const orders = sheetRows("Siparişler");
    const order = orders.rows.find((r) => r["Sipariş no"]!.value === "1001")!;
    expect(order.Tarih!.numFmt).toBe("dd-mm-yyyy hh:mm");
    expect((order.Tarih!.value as Date).toISOString()).toBe("2026-03-06T00:30:00.000Z");
    expect(order.Durum!.value).toBe("Onaylandı");
    expect(order.Şehir!.value).toBe("İzmir");
    expect(order.Tutar!.value).toBe(349.9);
    // A customer named like a formula stays text.
    expect(order.Müşteri!.value).toBe('\'=HYPERLINK("x") Kaya');

    const tasks = sheetRows("Hatalı görevler");
    const task = tasks.rows.find((r) => r.Kayıt!.value === "STK-1")!;
    expect(task.Görev!.value).toBe("Ürün Aktarımı");
    const detail = String(task.Ayrıntı!.value).split(", ");
    expect(detail.sort()).toEqual(["Barkod: 869", "Fiyat: 89,5", "Stok kodu: STK-1"]);
    expect(task.Durum!.value).toBe("Açık");
    expect((task["İlk görülme"]!.value as Date).toISOString()).toBe("2026-03-05T14:07:00.000Z");

    const connectionsSheet = sheetRows("Bağlantılar");
    expect(connectionsSheet.rows[0]!.Tür!.value).toBe("ERP");
    expect(connectionsSheet.rows[0]!.Sistem!.value).toBe("Mikro");
    expect(connectionsSheet.rows[0]!["Deneme sistemi"]!.value).toBe("Hayır");
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
