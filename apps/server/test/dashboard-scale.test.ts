import { AsyncLocalStorage } from "node:async_hooks";
import { startMikroEmulator } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_LIMIT } from "../src/modules/dashboard/repository.ts";
import { DashboardService } from "../src/modules/dashboard/service.ts";
import { EXACT_COUNT_LIMIT } from "../src/platform/db/count-rows.ts";
import { licenses } from "../src/platform/db/schema.ts";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const { jobRuns, jobErrorReports, notifications } = engineSchema;

let t: TestApp;
let c: ConnectedCompany;
let other: { token: string; companyId: number };
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 83 });
  const o = await registerAndLogin(t.app);
  other = { token: o.token, companyId: o.account.company.id as number };
});
afterAll(async () => {
  await c?.close();
  await t?.close();
});

const get = (url: string, token = c.token) => call(t.app, "GET", url, { token });

/**
 * Statements the Drizzle handle sends for `work` (the database's query log hook): only those `work`
 * itself sends, by its async context, not the scheduler's or another test's sent meanwhile.
 */
const ownWork = new AsyncLocalStorage<symbol>();
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const mine = Symbol("statementsOf");
  const stop = t.ctx.database.observeQueries((q) => {
    if (ownWork.getStore() === mine) seen.push(q);
  });
  try {
    await ownWork.run(mine, work);
  } finally {
    stop();
  }
  return seen;
}

describe("the dashboard and the lists with a long history", () => {
  it("answers the dashboard in one statement (two while a licence notice is due), however long the history", async () => {
    const db = t.ctx.database.db;
    const service = new DashboardService(t.ctx);
    const empty = await statementsOf(() => service.dashboard(c.companyId));
    expect(empty).toHaveLength(1);

    await runJob(t, c, "ProductIntegration");
    const stockJob = c.jobId("StockIntegration");
    const now = t.ctx.clock.now();
    // More open failed tasks than the dashboard counts, and a licence due (its notification is inserted too).
    await db.insert(jobErrorReports).values(
      Array.from({ length: COUNT_LIMIT + 5 }, (_, i) => ({
        companyId: c.companyId,
        jobId: stockJob,
        jobType: "StockIntegration",
        jobRunId: 0,
        entityKey: `SKU-${i}`,
        errorType: "validation",
        message: "Stok değeri geçersiz.",
      })),
    );
    await db
      .update(licenses)
      .set({ expiresAt: new Date(now.getTime() + 3 * 86_400_000) })
      .where(eq(licenses.companyId, c.companyId));

    let dto: Awaited<ReturnType<DashboardService["dashboard"]>> | undefined;
    const busy = await statementsOf(async () => {
      dto = await service.dashboard(c.companyId);
    });
    expect(busy.length).toBeLessThanOrEqual(4);
    expect(busy.some((q) => q.startsWith('insert into "notifications"'))).toBe(true);
    const stock = dto?.failedJobReports.find((r) => r.jobType === "StockIntegration");
    expect(stock).toMatchObject({ failedOperationCount: COUNT_LIMIT, failedOperationCountAtLeast: true });
    expect(dto?.productIntegrationReport.description).toMatch(/^Ürün Aktarımı son çalışmasında/);

    // The same through the API, and another company sees none of it.
    const mine = (await get("/api/Dashboard")).body.data;
    expect(mine.failedJobReports).toHaveLength(1);
    const theirs = (await get("/api/Dashboard", other.token)).body.data;
    expect(theirs.failedJobReports).toEqual([]);
    expect(theirs.companyJobs).toEqual([]);
    expect(theirs.connectionStatuses.erp.state).toBe("none");
  });

  it("pages JobHistory and Notification with exact counts up to a limit and an estimate past it", async () => {
    const db = t.ctx.database.db;
    const productJob = c.jobId("ProductIntegration");
    const base = t.ctx.clock.now().getTime() - 86_400_000;
    const many = EXACT_COUNT_LIMIT + 200;
    await db.insert(jobRuns).values(
      Array.from({ length: many }, (_, i) => ({
        jobId: productJob,
        companyId: c.companyId,
        jobType: "ProductIntegration",
        jobName: "Ürün Aktarımı",
        trigger: "schedule" as const,
        status: "Succeeded" as const,
        queuedAt: new Date(base + i * 1000),
        finishedAt: new Date(base + i * 1000 + 500),
      })),
    );
    await db.insert(notifications).values(
      Array.from({ length: many }, (_, i) => ({
        companyId: c.companyId,
        type: "Info" as const,
        text: `Bildirim ${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    );
    await db.execute(sql`analyze`);

    const history = (await get("/api/JobHistory?pageNumber=1&pageSize=20")).body.data;
    expect(history.dataList).toHaveLength(20);
    expect(history.totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(history.totalCount).toBeLessThan(many * 3);
    // Newest first: the run the test started (a moment ago) precedes the inserted history.
    const dates = history.dataList.map((r: { queued_date: string }) => Date.parse(r.queued_date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    // A filter under the limit is counted exactly.
    const stock = (await get("/api/JobHistory?jobTypes=StockIntegration&pageNumber=1&pageSize=20")).body.data;
    expect(stock.totalCount).toBe(0);

    const list = (await get("/api/Notification/1/20")).body.data;
    expect(list.dataList).toHaveLength(20);
    expect(list.dataList[0].notification_Text).not.toBe("Bildirim 0");
    expect(list.totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect((await get("/api/Notification/count")).body.data).toBeGreaterThan(EXACT_COUNT_LIMIT);

    // Another company's lists stay empty.
    expect((await get("/api/JobHistory?pageNumber=1&pageSize=20", other.token)).body.data.totalCount).toBe(0);
    const theirs = (await get("/api/Notification/1/20", other.token)).body.data;
    expect(theirs.totalCount).toBe(0);
    expect(theirs.dataList).toEqual([]);
  });
});

describe("connection status", () => {
  it("comes from the newest of the last test and the last runs, the same on the dashboard and the API page", async () => {
    const d = await connectedCompany(t, { seed: 84 });
    try {
      const statuses = async () => {
        const dash = (await get("/api/Dashboard", d.token)).body.data;
        const page = (await get("/api/settings/connections", d.token)).body.data;
        // The API page and the dashboard answer the same status.
        expect(page.erp.status).toEqual(dash.connectionStatuses.erp);
        expect(page.ecommerce.status).toEqual(dash.connectionStatuses.eCommerce);
        expect(dash.erpapiConnectionStatus).toBe(dash.connectionStatuses.erp.state === "connected");
        return dash;
      };
      // Saved but never tested nor run.
      let dash = await statuses();
      expect(dash.connectionStatuses.erp).toMatchObject({ state: "untested", source: null });

      await runJob(t, d, "ProductIntegration");
      dash = await statuses();
      expect(dash.connectionStatuses.erp).toMatchObject({ state: "connected", source: "run" });
      expect(dash.connectionStatuses.eCommerce).toMatchObject({ state: "connected", source: "run" });

      // The ERP goes away: the next run ends on ECONNREFUSED, and the ERP turns red with the reason.
      await d.erp.close();
      const failed = await runJob(t, d, "StockIntegration");
      expect(failed.status).toBe("Failed");
      dash = await statuses();
      expect(dash.erpapiConnectionStatus).toBe(false);
      expect(dash.connectionStatuses.erp).toMatchObject({ state: "failed", source: "run" });
      expect(dash.connectionStatuses.erp.message).toMatch(/son görev çalışması bu sisteme bağlanamadı/);
      expect(dash.connectionStatuses.erp.message).toContain("ulaşılamadı");
      // The shop answered on the last run that reached it.
      expect(dash.connectionStatuses.eCommerce.state).toBe("connected");

      // Fixed: new credentials are saved and tested, which is newer than the failed run.
      const erp = await startMikroEmulator({ host: "127.0.0.1", seed: 84, productCount: 60 });
      try {
        const saved = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/9", {
          token: d.token,
          body: { fields: erp.credentials },
        });
        expect(saved.status).toBe(200);
        expect(saved.body.data.connection.status).toMatchObject({ state: "connected", source: "test" });
        dash = await statuses();
        expect(dash.connectionStatuses.erp).toMatchObject({ state: "connected", source: "test" });
      } finally {
        await erp.close();
      }
      // Another company's dashboard knows nothing of it.
      const theirs = (await get("/api/Dashboard", other.token)).body.data;
      expect(theirs.connectionStatuses.erp.state).toBe("none");
    } finally {
      await d.close().catch(() => undefined);
    }
  }, 90_000);
});
