import { engineSchema, insertRun, scheduleDueJobs, sweepCrashedRuns } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenses } from "../../src/platform/db/schema.ts";
import { turkishDate } from "../../src/platform/time/turkey.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob, waitForRun } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" }, { leaseMs: 2_000 });
  c = await connectedCompany(t, { seed: 51 });
});
afterAll(async () => {
  await c.close();
  await t.close();
});

const notificationsOf = (companyId: number) =>
  t.ctx.database.db
    .select()
    .from(engineSchema.notifications)
    .where(eq(engineSchema.notifications.companyId, companyId))
    .orderBy(engineSchema.notifications.id);

describe("job API", () => {
  it("lists the company's jobs by type with the spec's field names", async () => {
    const res = await call(t.app, "GET", "/api/Job/type-filter/OrderIntegration,InvoiceIntegration", {
      token: c.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((j: { type: string }) => j.type).sort()).toEqual([
      "InvoiceIntegration",
      "OrderIntegration",
    ]);
    expect(res.body.data[0]).toMatchObject({
      is_enabled: true,
      last_Run_State: null,
      last_run_date: null,
      area: "order",
    });
    const bad = await call(t.app, "GET", "/api/Job/type-filter/NotAJob", { token: c.token });
    expect(bad.status).toBe(400);
    const all = await call(
      t.app,
      "GET",
      "/api/Job/type-filter/ProductIntegration,PriceIntegration,StockIntegration,ProductUpdate,CategoryIntegration",
      { token: c.token },
    );
    expect(all.body.data.map((j: { name: string }) => j.name).sort()).toEqual(
      ["Fiyat Güncelleme", "Kategori Aktarımı", "Stok Güncelleme", "Ürün Aktarımı", "Ürün Güncelleme"].sort(),
    );
  });

  it("updates enabled state and schedule, validating cron expressions (Europe/Istanbul)", async () => {
    const id = c.jobId("StockIntegration");
    const off = await call(t.app, "PUT", "/api/job", { token: c.token, body: { id, is_enabled: false } });
    expect(off.body.data).toMatchObject({ is_enabled: false, next_run_date: null });
    const cron = await call(t.app, "PUT", "/api/job", {
      token: c.token,
      body: { id, is_enabled: true, schedule: { kind: "cron", expression: "30 2 * * *" } },
    });
    expect(cron.status).toBe(200);
    const next = new Date(cron.body.data.next_run_date);
    // 02:30 in Istanbul (UTC+3) is 23:30 UTC.
    expect(next.getUTCHours()).toBe(23);
    expect(next.getUTCMinutes()).toBe(30);
    const bad = await call(t.app, "PUT", "/api/job", {
      token: c.token,
      body: { id, schedule: { kind: "cron", expression: "every day at noon" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].message).toBe("Geçerli bir cron ifadesi giriniz (ör. 0 */2 * * *).");
    const interval = await call(t.app, "PUT", "/api/job", {
      token: c.token,
      body: { id, schedule: { kind: "interval", minutes: 10 } },
    });
    expect(interval.body.data.schedule).toEqual({ kind: "interval", minutes: 10 });
  });

  it("refuses a second run while one is active (409), and the scheduler never doubles a run", async () => {
    const id = c.jobId("InvoiceIntegration");
    const db = t.ctx.database.db;
    await db
      .update(engineSchema.jobs)
      .set({ isEnabled: false })
      .where(eq(engineSchema.jobs.companyId, c.companyId));
    // A queued run nobody picks up yet (held as Queued by hand).
    const held = await insertRun(db, {
      companyId: c.companyId,
      jobId: id,
      jobType: "InvoiceIntegration",
      jobName: "x",
      trigger: "manual",
      onlyKeys: null,
    });
    expect(held).toBeDefined();
    const second = await call(t.app, "POST", `/api/Job/run-job?jobId=${id}`, { token: c.token });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe("Bu görev zaten sırada veya çalışıyor.");
    await db
      .update(engineSchema.jobs)
      .set({ isEnabled: true, nextRunAt: new Date(0) })
      .where(eq(engineSchema.jobs.id, id));
    await scheduleDueJobs(t.ctx.engine.deps);
    const active = await db
      .select()
      .from(engineSchema.jobRuns)
      .where(and(eq(engineSchema.jobRuns.jobId, id)));
    expect(active.filter((r) => r.status === "Queued" || r.status === "Running")).toHaveLength(1);
    await db
      .update(engineSchema.jobRuns)
      .set({ status: "Failed" })
      .where(eq(engineSchema.jobRuns.id, held!.id));
    await db.update(engineSchema.jobs).set({ isEnabled: false }).where(eq(engineSchema.jobs.id, id));
  });

  it("answers the long poll as soon as a run of the company moves", async () => {
    const poll = t.app.inject({
      method: "GET",
      url: "/api/JobHistory/do-long-polling?jobTypes=StockIntegration&channelName=panel-1",
      headers: { authorization: `Bearer ${c.token}` },
    });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const run = await call(t.app, "POST", `/api/Job/run-job?jobId=${c.jobId("StockIntegration")}`, {
      token: c.token,
    });
    const answer = (await poll).json();
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(answer.data.channelName).toBe("panel-1");
    expect(answer.data.events[0]).toMatchObject({ runId: run.body.data.runId, jobType: "StockIntegration" });
    await waitForRun(t, c.token, run.body.data.runId);
  });

  it("pages and filters the job history, and shows each run's report", async () => {
    await runJob(t, c, "CategoryIntegration");
    const all = await call(t.app, "GET", "/api/JobHistory?pageNumber=1&pageSize=2", { token: c.token });
    expect(all.body.data.dataList).toHaveLength(2);
    expect(all.body.data.totalCount).toBeGreaterThanOrEqual(3);
    const onlyCategory = await call(t.app, "GET", "/api/JobHistory?jobTypes=CategoryIntegration", {
      token: c.token,
    });
    expect(
      onlyCategory.body.data.dataList.every((r: { jobType: string }) => r.jobType === "CategoryIntegration"),
    ).toBe(true);
    // Bare dates are Turkish calendar days (from 21:00 UTC on, Turkey's date is the next UTC date).
    const tomorrow = turkishDate(new Date(Date.now() + 86_400_000));
    const future = await call(t.app, "GET", `/api/JobHistory?startDate=${tomorrow}`, { token: c.token });
    expect(future.body.data.totalCount).toBe(0);
    const today = turkishDate(new Date());
    const upToToday = await call(t.app, "GET", `/api/JobHistory?endDate=${today}`, { token: c.token });
    expect(upToToday.body.data.totalCount).toBe(all.body.data.totalCount);
    const report = await call(
      t.app,
      "GET",
      `/api/JobHistory/report/${onlyCategory.body.data.dataList[0].id}`,
      { token: c.token },
    );
    expect(report.body.data.report).toContain("kayıt okundu");
  });

  it("reads a bare startDate/endDate as Turkish calendar days", async () => {
    // 23:59:59 on 10 March and 00:00 on 11 March in Turkey: both on the same UTC date.
    const lateOn10th = new Date("2025-03-10T20:59:59Z");
    const earlyOn11th = new Date("2025-03-10T21:00:00Z");
    const base = {
      companyId: c.companyId,
      jobId: c.jobId("CategoryIntegration"),
      jobType: "CategoryIntegration",
      jobName: "Kategori Entegrasyonu",
      trigger: "manual",
      status: "Succeeded",
    } as const;
    const inserted = await t.ctx.database.db
      .insert(engineSchema.jobRuns)
      .values([
        { ...base, queuedAt: lateOn10th, startedAt: lateOn10th, finishedAt: lateOn10th },
        { ...base, queuedAt: earlyOn11th, startedAt: earlyOn11th, finishedAt: earlyOn11th },
      ])
      .returning({ id: engineSchema.jobRuns.id });
    const idsOn = async (query: string) =>
      (
        (await call(t.app, "GET", `/api/JobHistory?${query}`, { token: c.token })).body.data
          .dataList as Array<{
          id: number;
        }>
      ).map((r) => r.id);
    expect(await idsOn("startDate=2025-03-10&endDate=2025-03-10")).toEqual([inserted[0]!.id]);
    expect(await idsOn("startDate=2025-03-11&endDate=2025-03-11")).toEqual([inserted[1]!.id]);
    // A full timestamp is the instant it names; its end is exclusive.
    expect(await idsOn("startDate=2025-03-10T00:00:00Z&endDate=2025-03-10T21:00:00Z")).toEqual([
      inserted[0]!.id,
    ]);
  });

  it("marks a run whose worker died Crashed, never touching finished runs, and notifies", async () => {
    const db = t.ctx.database.db;
    const id = c.jobId("ProductUpdate");
    const [dead] = await db
      .insert(engineSchema.jobRuns)
      .values({
        companyId: c.companyId,
        jobId: id,
        jobType: "ProductUpdate",
        jobName: "Ürün Güncelleme",
        trigger: "manual",
        status: "Running",
        startedAt: new Date(),
        leaseOwner: "gone-worker",
        leaseExpiresAt: new Date(Date.now() - 1000),
      })
      .returning();
    const finishedBefore = await db
      .select()
      .from(engineSchema.jobRuns)
      .where(eq(engineSchema.jobRuns.status, "Succeeded"));
    expect(await sweepCrashedRuns(t.ctx.engine.deps)).toBe(1);
    const report = await call(t.app, "GET", `/api/JobHistory/report/${dead!.id}`, { token: c.token });
    expect(report.body.data.status).toBe("Crashed");
    const finishedAfter = await db
      .select()
      .from(engineSchema.jobRuns)
      .where(eq(engineSchema.jobRuns.status, "Succeeded"));
    expect(finishedAfter.map((r) => r.finishedAt?.getTime())).toEqual(
      finishedBefore.map((r) => r.finishedAt?.getTime()),
    );
    const notes = await notificationsOf(c.companyId);
    expect(notes.at(-1)).toMatchObject({ type: "Error" });
    expect(notes.at(-1)!.text).toContain("Ürün Güncelleme görevi yarıda kesildi");
    // The next good run tells the company it recovered.
    await runJob(t, c, "ProductUpdate");
    expect((await notificationsOf(c.companyId)).at(-1)).toMatchObject({
      type: "Info",
      text: "Ürün Güncelleme görevi yeniden başarıyla çalıştı.",
    });
  });

  it("refuses to run a job whose licence has expired, saying why", async () => {
    const db = t.ctx.database.db;
    await db
      .update(licenses)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(licenses.companyId, c.companyId));
    const run = await runJob(t, c, "CategoryIntegration");
    expect(run.status).toBe("Failed");
    expect(run.report).toContain("lisansınızın süresi doldu");
    await db
      .update(licenses)
      .set({ expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(licenses.companyId, c.companyId));
  });
});
