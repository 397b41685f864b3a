import { engineSchema } from "@ep/engine";
import { and, count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoCompany } from "../src/modules/demo/demo-company.ts";
import { clearSandboxLedgers, HISTORY_ORDER_PREFIX } from "../src/modules/demo/history.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";

const DEMO = { email: "demo@entegrasyonpaneli.com", password: "Demo.Panel2026" };

describe("the demo company's 90 days of history", () => {
  let t: TestApp;
  let companyId: number;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ CAPTCHA: "off" });
    ({ companyId } = await startDemoCompany(t.ctx, DEMO));
    const login = await call(t.app, "POST", "/api/account/login", { body: DEMO, ip: "10.31.0.1" });
    token = login.body.data.token;
  }, 120_000);
  afterAll(() => t.close());

  const historyOrders = async () => {
    const { orderLedger } = engineSchema;
    const [row] = await t.ctx.database.db
      .select({ n: count() })
      .from(orderLedger)
      .where(
        and(eq(orderLedger.companyId, companyId), like(orderLedger.orderNo, `${HISTORY_ORDER_PREFIX}%`)),
      );
    return row?.n ?? 0;
  };

  it("shows a quarter of orders in the sales report on the first visit", async () => {
    const now = t.ctx.clock.now();
    const from = new Date(now.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
    const report = await call(t.app, "GET", `/api/SalesReport?pageNumber=1&pageSize=20&startDate=${from}`, {
      token,
    });
    expect(report.status).toBe(200);
    // 90 days of 6 to 26 orders a day.
    expect(report.body.data.totalCount).toBeGreaterThan(90 * 6);
    expect(report.body.data.totalAmount).toBeGreaterThan(0);
    expect(report.body.data.dataList[0].customer).not.toBe("");
  });

  it("has runs of every job, a few failed, and open failed tasks with Turkish reasons", async () => {
    const stats = await call(t.app, "GET", "/api/SalesReport/run-statistics", { token });
    const rows = stats.body.data as Array<{ runs: number; failures: number }>;
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.every((r) => r.runs >= 90 * 4)).toBe(true);
    expect(rows.some((r) => r.failures > 0)).toBe(true);
    const failed = await call(t.app, "GET", "/api/JobErrorReport/1/20/ProductIntegration", { token });
    expect(failed.status).toBe(200);
    const messages = JSON.stringify(failed.body.data);
    expect(messages).toContain("Barkod geçersiz");
  });

  it("counts the same invoices on the Faturalar screen and in the Reports (issue 35: 522 vs none)", async () => {
    const stats = await call(t.app, "GET", "/api/SalesReport/run-statistics", { token });
    const written = (stats.body.data as Array<{ jobType: string; written: number }>).find(
      (r) => r.jobType === "InvoiceIntegration",
    )?.written;
    const summary = await call(t.app, "GET", "/api/invoices/summary", { token });
    // The demo's ERP (Mikro) issued an invoice for each past order and the job took it to the shop.
    expect(summary.body.data).toMatchObject({ route: "erp", service: 0 });
    expect(summary.body.data.total).toBe(await historyOrders());
    expect(written).toBe(summary.body.data.total);
    const listed = await call(t.app, "GET", "/api/invoices?limit=5", { token });
    expect(listed.body.data).toHaveLength(5);
    expect(listed.body.data[0]).toMatchObject({
      source: "erp",
      state: "delivered",
      orderNo: expect.any(String),
    });
    expect(listed.body.data[0].buyer).not.toBe("");
  });

  it("keeps the past when the sandboxes restart, and seeds it only once", async () => {
    const before = await historyOrders();
    const invoicesBefore = (await call(t.app, "GET", "/api/invoices/summary", { token })).body.data.total;
    await clearSandboxLedgers(t.ctx.database.db, companyId);
    expect(await historyOrders()).toBe(before);
    // The past's invoices stay with its orders.
    expect((await call(t.app, "GET", "/api/invoices/summary", { token })).body.data.total).toBe(
      invoicesBefore,
    );
    await startDemoCompany(t.ctx, DEMO);
    expect(await historyOrders()).toBe(before);
  }, 120_000);
});
