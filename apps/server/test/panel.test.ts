import { engineSchema, notifyCompany } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordActivity } from "../src/modules/activities/repository.ts";
import { salesWindow } from "../src/modules/dashboard/service.ts";
import { licenses } from "../src/platform/db/schema.ts";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let c: ConnectedCompany;
let other: { token: string; companyId: number };
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 71 });
  const o = await registerAndLogin(t.app);
  other = { token: o.token, companyId: o.account.company.id as number };
});
afterAll(async () => {
  await c.close();
  await t.close();
});

const get = (url: string, token = c.token) => call(t.app, "GET", url, { token });

describe("activities", () => {
  it("records sign-in, job changes and runs, newest first, scoped to the company", async () => {
    const job = c.jobId("StockIntegration");
    await call(t.app, "PUT", "/api/job", { token: c.token, body: { id: job, is_enabled: false } });
    await call(t.app, "PUT", "/api/job", { token: c.token, body: { id: job, is_enabled: true } });
    await runJob(t, c, "CategoryIntegration");
    const res = await get("/api/Activity/1/30");
    expect(res.status).toBe(200);
    const texts = res.body.data.map((a: { activity_Description: string }) => a.activity_Description);
    expect(texts).toEqual([
      "Kategori Aktarımı görevi elle çalıştırıldı.",
      "Stok Güncelleme görevi aktif edildi.",
      "Stok Güncelleme görevi pasif edildi.",
      "Panele giriş yapıldı.",
    ]);
    expect(res.body.data[0].user).toMatchObject({ first_Name: "Ayşe" });
    const paged = await get("/api/Activity/2/3");
    expect(paged.body.data).toHaveLength(1);
    const ranged = await get(
      `/api/Activity/1/30?startDate=${new Date(Date.now() + 3_600_000).toISOString()}`,
    );
    expect(ranged.body.data).toEqual([]);
    const posted = await call(t.app, "POST", "/api/activity", {
      token: c.token,
      body: { activity_Description: "Rapor indirildi." },
    });
    expect(posted.status).toBe(200);
    const [row] = await t.ctx.database.db
      .insert(engineSchema.jobErrorReports)
      .values({
        companyId: c.companyId,
        jobId: job,
        jobType: "StockIntegration",
        jobRunId: 1,
        entityKey: "SKU-X",
        errorType: "Validation",
        message: "Negatif stok",
      })
      .returning();
    const foreignDelete = await call(t.app, "POST", "/api/JobErrorReport/delete", {
      token: other.token,
      body: { jobErrorIdList: [row!.id] },
    });
    expect(foreignDelete.body.data.deleted).toBe(0);
    await call(t.app, "POST", "/api/JobErrorReport/delete", {
      token: c.token,
      body: { jobErrorIdList: [row!.id] },
    });
    expect((await get("/api/Activity/1/1")).body.data[0].activity_Description).toBe(
      "1 hatalı görev kaydı silindi.",
    );
    const theirs = await get("/api/Activity/1/30", other.token);
    expect(theirs.body.data.map((a: { action: string }) => a.action)).toEqual(["signIn"]);
  });
});

describe("notifications", () => {
  it("lists, counts and marks read only the caller's notifications", async () => {
    const db = t.ctx.database.db;
    await notifyCompany(db, c.companyId, "Error", "Birinci", "test:1");
    await notifyCompany(db, c.companyId, "Info", "İkinci", "test:2");
    await notifyCompany(db, c.companyId, "Info", "İkinci tekrar", "test:2");
    const list = await get("/api/Notification/1/10");
    const mine = list.body.data.dataList.filter((n: { notification_Text: string }) =>
      ["Birinci", "İkinci"].includes(n.notification_Text),
    );
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({ is_Read: false, type: "Info", notification_Text: "İkinci" });
    const before = (await get("/api/Notification/count")).body.data as number;
    const foreign = await call(t.app, "POST", "/api/Notification/mark-as-read", {
      token: other.token,
      body: [mine[0].id],
    });
    expect(foreign.body.data.updated).toBe(0);
    expect((await get("/api/Notification/1/10", other.token)).body.data.dataList).toEqual([]);
    const marked = await call(t.app, "POST", "/api/Notification/mark-as-read", {
      token: c.token,
      body: [mine[0].id],
    });
    expect(marked.body).toMatchObject({ successful: true, data: { updated: 1 } });
    expect((await get("/api/Notification/count")).body.data).toBe(before - 1);
  });

  it("warns once when a licence expires within 7 days, and once when it has expired", async () => {
    const db = t.ctx.database.db;
    const now = t.ctx.clock.now();
    await db
      .update(licenses)
      .set({ expiresAt: new Date(now.getTime() + 3 * 86_400_000 - 60_000) })
      .where(eq(licenses.companyId, c.companyId));
    await get("/api/Notification/count");
    await get("/api/Notification/count");
    const texts = async () =>
      (await get("/api/Notification/1/50")).body.data.dataList.map(
        (n: { notification_Text: string }) => n.notification_Text,
      ) as string[];
    const expiring = (await texts()).filter((s) => s.includes("lisansınızın süresi") && s.includes("3 gün"));
    expect(expiring).toHaveLength(2);
    expect(expiring[0]).toMatch(/\d{2}-\d{2}-\d{4} tarihinde doluyor \(3 gün kaldı\)\.$/);
    await db
      .update(licenses)
      .set({ expiresAt: new Date(now.getTime() - 60_000) })
      .where(eq(licenses.companyId, c.companyId));
    await get("/api/Dashboard");
    await get("/api/Notification/count");
    expect(
      (await texts()).filter((s) =>
        s.endsWith("lisansınızın süresi doldu; ilgili görevler çalıştırılmıyor."),
      ),
    ).toHaveLength(2);
    await db
      .update(licenses)
      .set({ expiresAt: new Date(now.getTime() + 30 * 86_400_000) })
      .where(eq(licenses.companyId, c.companyId));
  });
});

describe("dashboard and reports", () => {
  it("answers the dashboard of spec section 3 for the caller's company only", async () => {
    await runJob(t, c, "ProductIntegration");
    const res = await get("/api/Dashboard");
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.companyJobs).toHaveLength(7);
    expect(d.licences.map((l: { product_type: string }) => l.product_type).sort()).toEqual([
      "ECommerceIntegration",
      "ErpIntegration",
    ]);
    expect(d.productIntegrationReport.description).toMatch(/^Ürün Aktarımı son çalışmasında/);
    expect(d.stockIntegrationReport.description).toBe("Stok Güncelleme henüz çalışmadı.");
    expect(typeof d.erpapiConnectionStatus).toBe("boolean");
    expect(d.freshness).toHaveLength(7);
    // The freshness row says whether the job ran at all: the run one has a date, the rest wait for their first.
    const fresh = (type: string) => d.freshness.find((f: { jobType: string }) => f.jobType === type);
    expect(fresh("ProductIntegration").last_run_date).toEqual(expect.any(String));
    expect(fresh("StockIntegration").last_run_date).toBeNull();
    const theirs = (await get("/api/Dashboard", other.token)).body.data;
    expect(theirs.companyJobs).toEqual([]);
    expect(theirs.failedJobReports).toEqual([]);
  });

  it("sums sales per Turkish day for the week and month, and pages the sales report", async () => {
    const db = t.ctx.database.db;
    const [shop] = await db
      .select()
      .from(engineSchema.connections)
      .where(eq(engineSchema.connections.companyId, c.companyId));
    const { from } = salesWindow(t.ctx.clock.now(), "weekly");
    const at = (hours: number) => new Date(from.getTime() + hours * 3_600_000);
    const rows = [
      { no: "T-1", date: at(1), total: 100.5 },
      { no: "T-2", date: at(23), total: 99.5 },
      { no: "T-3", date: at(25), total: 1234.56 },
    ];
    for (const r of rows) {
      await db.insert(engineSchema.orderLedger).values({
        companyId: c.companyId,
        shopConnectionId: shop!.id,
        orderNo: r.no,
        shopOrderId: r.no,
        orderDate: r.date,
        grandTotal: r.total,
        payload: { customer: { firstName: "Ali", lastName: "Kaya" } },
      });
    }
    const weekly = await get("/api/Dashboard/sales-reports?timePeriod=weekly");
    expect(weekly.body.data.slice(0, 2).map((d: { amount: number }) => d.amount)).toEqual([200, 1234.56]);
    const mondayTr = new Date(from.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    expect(weekly.body.data[0].created_date).toBe(mondayTr);
    expect((await get("/api/Dashboard/sales-reports?timePeriod=yearly")).status).toBe(400);
    const report = await get(
      `/api/SalesReport?pageNumber=1&pageSize=2&startDate=${from.toISOString()}&endDate=${at(48).toISOString()}`,
    );
    expect(report.body.data).toMatchObject({ totalCount: 3, totalAmount: 1434.56, pageSize: 2 });
    expect(report.body.data.dataList[0]).toMatchObject({ orderNo: "T-3", customer: "Ali Kaya" });
    expect((await get("/api/SalesReport?pageNumber=1&pageSize=10", other.token)).body.data.totalCount).toBe(
      0,
    );
    const stats = await get("/api/SalesReport/run-statistics");
    expect(
      stats.body.data.find((s: { jobType: string }) => s.jobType === "ProductIntegration"),
    ).toMatchObject({
      runs: 1,
    });
    await recordActivity(db, { companyId: c.companyId, userId: null, action: "settingsSaved", detail: "x" });
  });
});
