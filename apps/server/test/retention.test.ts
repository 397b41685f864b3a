import { DEFAULT_RETENTION } from "@ep/contracts";
import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities } from "../src/modules/activities/schema.ts";
import { agentRelayCalls } from "../src/modules/agents/schema.ts";
import { saveConnection } from "../src/modules/connections/repository.ts";
import { RETENTION_BATCH, RetentionService } from "../src/modules/retention/service.ts";
import { RETENTION_QUEUE } from "../src/modules/retention/workers.ts";
import { webhookDeliveries, webhookEndpoints } from "../src/modules/webhooks/schema.ts";
import { mailMessages } from "../src/platform/db/schema.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const { jobs, jobRuns, jobErrorReports, notifications } = engineSchema;
const DAY = 86_400_000;

describe("retention: old records leave in batches, by each company's own periods (issue 34, item 5)", () => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof registerAndLogin>>;
  let b: Awaited<ReturnType<typeof registerAndLogin>>;
  const companyA = () => a.account.company.id as number;
  const companyB = () => b.account.company.id as number;
  const db = () => t.ctx.database.db;
  const ago = (days: number) => new Date(t.clock.now().getTime() - days * DAY);

  const firstJob = async (companyId: number) => {
    const [job] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.companyId, companyId))
      .orderBy(jobs.id)
      .limit(2);
    if (!job) throw new Error("no job");
    return job;
  };
  const addRun = async (companyId: number, daysAgo: number, report = "rapor") => {
    const job = await firstJob(companyId);
    const at = ago(daysAgo);
    const [run] = await db()
      .insert(jobRuns)
      .values({
        jobId: job.id,
        companyId,
        jobType: job.type,
        jobName: job.name,
        trigger: "schedule",
        status: "Succeeded",
        queuedAt: at,
        enqueuedAt: at,
        startedAt: at,
        finishedAt: at,
        report,
        counts: { read: 5, changed: 2, written: 2, failed: 0 },
        calls: { erp: { read: 3, write: 0 }, shop: { read: 1, write: 2 } },
      })
      .returning({ id: jobRuns.id });
    return run?.id as number;
  };
  const countRuns = async (companyId: number) =>
    (await db().select({ id: jobRuns.id }).from(jobRuns).where(eq(jobRuns.companyId, companyId))).length;

  beforeAll(async () => {
    t = await startTestApp();
    a = await registerAndLogin(t.app, { company_Name: "Anadolu Yapı Market" });
    b = await registerAndLogin(t.app, { company_Name: "Ege Kırtasiye" });
    for (const id of [companyA(), companyB()]) await ensureCompanyJobs(db(), id, new Date());
  }, 60_000);
  afterAll(async () => t?.close());

  it("offers the defaults, refuses periods out of bounds in Turkish, and keeps each company's own", async () => {
    const fresh = await call(t.app, "GET", "/api/retention", { token: a.token });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toMatchObject({ settings: DEFAULT_RETENTION, lastRun_Date: null });

    const tooShort = await call(t.app, "PUT", "/api/retention", {
      token: a.token,
      body: { ...DEFAULT_RETENTION, runs: 5 },
    });
    expect(tooShort.status).toBe(400);
    expect(JSON.stringify(tooShort.body)).toContain("en kısa süreden az olamaz");

    const saved = await call(t.app, "PUT", "/api/retention", {
      token: a.token,
      body: { runs: 30, runReports: 7, resolvedFailedTasks: 7, notifications: 7, activities: 30 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toContain("Saklama süreleri kaydedildi");
    expect((saved.body.data as { settings: unknown }).settings).toMatchObject({ runs: 30, runReports: 7 });

    // Another company sees its own (the defaults), never A's.
    const other = await call(t.app, "GET", "/api/retention", { token: b.token });
    expect((other.body.data as { settings: unknown }).settings).toEqual(DEFAULT_RETENTION);
    const [logged] = await db()
      .select()
      .from(activities)
      .where(and(eq(activities.companyId, companyA()), eq(activities.action, "retentionChanged")));
    expect(logged?.detail).toContain("30 / 7 / 7 / 7 / 30");
  });

  it("removes A's old runs, reports, resolved tasks, notifications and activities, keeps what screens still read, and leaves B alone", async () => {
    const service = new RetentionService(t.ctx);
    const keptByOpenTask = await addRun(companyA(), 200);
    const oldRuns = [await addRun(companyA(), 120), await addRun(companyA(), 90)];
    const reportOnly = await addRun(companyA(), 10);
    const recent = await addRun(companyA(), 1);
    const latest = await addRun(companyA(), 0.5);
    const job = await firstJob(companyA());
    await db()
      .insert(jobErrorReports)
      .values([
        {
          companyId: companyA(),
          jobId: job.id,
          jobType: job.type,
          jobRunId: keptByOpenTask,
          entityKey: "SKU-ACIK",
          errorType: "validation",
          message: "açık",
          createdAt: ago(200),
          lastSeenAt: ago(200),
        },
        {
          companyId: companyA(),
          jobId: job.id,
          jobType: job.type,
          jobRunId: oldRuns[0] as number,
          entityKey: "SKU-ESKI",
          errorType: "validation",
          message: "çözüldü",
          status: "Resolved",
          createdAt: ago(100),
          lastSeenAt: ago(100),
          resolvedAt: ago(100),
        },
      ]);
    for (const companyId of [companyA(), companyB()]) {
      await db()
        .insert(notifications)
        .values([
          { companyId, type: "Info", text: "eski", createdAt: ago(30) },
          { companyId, type: "Info", text: "yeni", createdAt: ago(1) },
        ]);
      await db()
        .insert(activities)
        .values([
          { companyId, action: "custom", detail: "eski", createdAt: ago(60) },
          { companyId, action: "custom", detail: "yeni", createdAt: ago(1) },
        ]);
    }
    // Company B keeps the defaults: its 200-day-old run stays (365 days).
    const bOld = await addRun(companyB(), 200);
    const bLatest = await addRun(companyB(), 0.5);
    const bBefore = await countRuns(companyB());

    const removed = await service.applyCompany(companyA());
    expect(removed).toMatchObject({ runs: 2, resolvedFailedTasks: 1, notifications: 1, activities: 1 });
    // Runs cleared of their reports: every finished run older than 7 days that still had one.
    expect(removed.runReports).toBeGreaterThanOrEqual(2);

    const left = await db()
      .select({ id: jobRuns.id, report: jobRuns.report, calls: jobRuns.calls, counts: jobRuns.counts })
      .from(jobRuns)
      .where(eq(jobRuns.companyId, companyA()));
    const ids = left.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([keptByOpenTask, reportOnly, recent, latest]));
    expect(ids).not.toContain(oldRuns[0]);
    expect(ids).not.toContain(oldRuns[1]);
    const cleared = left.find((r) => r.id === reportOnly);
    expect(cleared?.report).toBe("");
    expect(cleared?.calls).toEqual({ erp: { read: 0, write: 0 }, shop: { read: 0, write: 0 } });
    // Reports keep the run's counts.
    expect(cleared?.counts).toMatchObject({ written: 2 });
    expect(left.find((r) => r.id === recent)?.report).toBe("rapor");

    // B untouched by A's clean-up.
    expect(await countRuns(companyB())).toBe(bBefore);
    const bNotes = await db().select().from(notifications).where(eq(notifications.companyId, companyB()));
    expect(bNotes.map((n) => n.text).sort()).toEqual(["eski", "yeni"]);

    // The same clean-up again removes nothing, and the panel says what the last one did.
    expect(await service.applyCompany(companyA())).toEqual({
      runs: 0,
      runReports: 0,
      resolvedFailedTasks: 0,
      notifications: 0,
      activities: 0,
    });
    const state = await call(t.app, "GET", "/api/retention", { token: a.token });
    expect((state.body.data as { lastRun_Date: string | null }).lastRun_Date).not.toBeNull();

    // B under its defaults: the 200-day-old run stays, the latest too.
    await service.applyCompany(companyB());
    const bIds = (
      await db().select({ id: jobRuns.id }).from(jobRuns).where(eq(jobRuns.companyId, companyB()))
    ).map((r) => r.id);
    expect(bIds).toEqual(expect.arrayContaining([bOld, bLatest]));
  }, 60_000);

  it("keeps a job's latest finished run whatever its age", async () => {
    const service = new RetentionService(t.ctx);
    await db().delete(jobRuns).where(eq(jobRuns.companyId, companyA()));
    const only = await addRun(companyA(), 400);
    await service.applyCompany(companyA());
    const ids = (
      await db().select({ id: jobRuns.id }).from(jobRuns).where(eq(jobRuns.companyId, companyA()))
    ).map((r) => r.id);
    expect(ids).toEqual([only]);
  });

  it("removes more than one batch completely, a batch at a time", async () => {
    const service = new RetentionService(t.ctx);
    const total = RETENTION_BATCH * 2 + 17;
    await db().execute(
      sql`insert into ${notifications} (company_id, type, text, created_at)
          select ${companyA()}, 'Info', 'toplu', ${ago(40)}::timestamptz from generate_series(1, ${total})`,
    );
    const removed = await service.applyCompany(companyA());
    expect(removed.notifications).toBe(total);
    const [{ n } = { n: -1 }] = (
      await db().execute<{ n: number }>(
        sql`select count(*)::int as n from ${notifications} where company_id = ${companyA()} and text = 'toplu'`,
      )
    ).rows;
    expect(n).toBe(0);
  }, 120_000);

  it("clears the system's own records past their purpose: sent mail, webhook keys past the window, unanswered relay calls", async () => {
    const service = new RetentionService(t.ctx);
    await db()
      .insert(mailMessages)
      .values([
        { to: "eski@example.com", subject: "eski", body: "x", status: "sent", createdAt: ago(120) },
        { to: "bekleyen@example.com", subject: "bekleyen", body: "x", status: "queued", createdAt: ago(120) },
        { to: "yeni@example.com", subject: "yeni", body: "x", status: "sent", createdAt: ago(1) },
      ]);
    const { id: connectionId } = await saveConnection(db(), t.ctx.credentials, {
      companyId: companyA(),
      kind: "shop",
      systemType: 1,
      credentials: { storeName: "magaza", clientId: "id", clientSecret: "sir" },
    });
    const [endpoint] = await db()
      .insert(webhookEndpoints)
      .values({ companyId: companyA(), connectionId, token: "tok-retention", systemType: 1 })
      .returning({ id: webhookEndpoints.id });
    await db()
      .insert(webhookDeliveries)
      .values([
        {
          endpointId: endpoint?.id as number,
          deliveryId: "eski",
          topic: "orders/create",
          receivedAt: ago(2),
        },
        {
          endpointId: endpoint?.id as number,
          deliveryId: "yeni",
          topic: "orders/create",
          receivedAt: ago(0.1),
        },
      ]);
    await db()
      .insert(agentRelayCalls)
      .values([
        { id: "eski-cagri", agentId: 1, request: {}, createdAt: ago(1) },
        { id: "yeni-cagri", agentId: 1, request: {}, createdAt: new Date(t.clock.now().getTime() - 60_000) },
      ]);

    const removed = await service.applySystem();
    expect(removed.mail).toBeGreaterThanOrEqual(1);
    expect(removed.relayCalls).toBe(1);
    const subjects = (await db().select({ s: mailMessages.subject }).from(mailMessages)).map((m) => m.s);
    expect(subjects).toEqual(expect.arrayContaining(["bekleyen", "yeni"]));
    expect(subjects).not.toContain("eski");
    expect(removed.webhookDeliveries).toBe(1);
    const keys = (await db().select({ d: webhookDeliveries.deliveryId }).from(webhookDeliveries)).map(
      (d) => d.d,
    );
    expect(keys).toEqual(["yeni"]);
  });

  it("runs on the queue each night, as one singleton job for the cluster", async () => {
    const schedules = await t.ctx.queue.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(RETENTION_QUEUE);
  });
});
