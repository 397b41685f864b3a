import { engineSchema } from "@ep/engine";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConnection } from "../src/modules/connections/repository.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let mine: { token: string; companyId: number };
let other: { token: string; companyId: number };

/** A company with a shop connection, so orders can be recorded against it. */
async function companyWithOrders(orders: { no: string; date: Date; total: number }[]) {
  const { token, account } = await registerAndLogin(t.app);
  const companyId = account.company.id as number;
  const db = t.ctx.database.db;
  const shop = await saveConnection(db, t.ctx.credentials, {
    companyId,
    kind: "shop",
    systemType: 1,
    credentials: { baseUrl: "http://127.0.0.1:1", clientId: "x", clientSecret: "y" },
  });
  for (const o of orders) {
    await db.insert(engineSchema.orderLedger).values({
      companyId,
      shopConnectionId: shop.id,
      orderNo: o.no,
      shopOrderId: o.no,
      orderDate: o.date,
      grandTotal: o.total,
      state: "sent",
      payload: { customer: { firstName: "Ali", lastName: "Kaya" } },
    });
  }
  return { token, companyId };
}

const DAY = 86_400_000;
const base = Date.UTC(2026, 9, 1, 9, 0, 0);

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  // 50 orders over 50 days with totals that do not sum to round figures; 10 more outside the range.
  const orders = Array.from({ length: 60 }, (_, i) => ({
    no: `S-${i + 1}`,
    date: new Date(base + i * DAY),
    total: Math.round((1234.56 + i * 731.17 + (i % 7) * 0.33) * 100) / 100,
  }));
  mine = await companyWithOrders(orders);
  other = await companyWithOrders(orders.slice(0, 5));
}, 60_000);
afterAll(async () => {
  await t.close();
});

async function download(url: string, token: string) {
  const res = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
  return res;
}

async function sheetOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error("no sheet");
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { name: sheet.name, rows };
}

describe("GET /api/SalesReport/export", () => {
  const startDate = new Date(base - DAY / 2).toISOString();
  const endDate = new Date(base + 49 * DAY + DAY / 2).toISOString();
  const filter = `startDate=${encodeURIComponent(startDate)}&endDate=${encodeURIComponent(endDate)}`;

  it("holds every row of the filter, not one page, and its rows sum to the report's Toplam", async () => {
    const report = await call(t.app, "GET", `/api/SalesReport?pageNumber=1&pageSize=20&${filter}`, {
      token: mine.token,
    });
    expect(report.body.data.totalCount).toBe(50);
    expect(report.body.data.dataList).toHaveLength(20);

    const res = await download(`/api/SalesReport/export?${filter}`, mine.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    // Named after the Turkish days it covers: from 30 Sep 21:00 UTC (1 Oct in Turkey) up to 19 Nov.
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="satis-raporu-2026-10-01-2026-11-19.xlsx"',
    );
    const { name, rows } = await sheetOf(res.rawPayload);
    expect(name).toBe("Satış Raporu");
    expect(rows[0]).toEqual(["Sipariş No", "Tarih", "Müşteri", "Durum", "Tutar", "Para Birimi"]);
    const orders = rows.slice(1, -1);
    expect(orders).toHaveLength(report.body.data.totalCount);
    // Newest first, the same order as the screen.
    expect(orders[0]?.[0]).toBe("S-50");
    expect(orders.at(-1)?.[0]).toBe("S-1");
    expect(orders[0]?.slice(2, 4)).toEqual(["Ali Kaya", "ERP'ye gönderildi"]);
    // Dates are Turkish wall time (UTC+3): 09:00 UTC reads 12:00.
    expect((orders.at(-1)?.[1] as Date | undefined)?.toISOString()).toBe(
      new Date(base + 3 * 3_600_000).toISOString(),
    );
    const cents = orders.reduce((sum, r) => sum + Math.round((r[4] as number) * 100), 0);
    expect(cents / 100).toBe(report.body.data.totalAmount);
    const total = rows.at(-1) ?? [];
    expect(total[0]).toBe("Toplam");
    expect(total[4]).toMatchObject({ formula: "SUM(E2:E51)", result: report.body.data.totalAmount });
  });

  it("exports only the caller's company", async () => {
    const theirs = await sheetOf(
      (await download(`/api/SalesReport/export?${filter}`, other.token)).rawPayload,
    );
    expect(theirs.rows.slice(1, -1).map((r) => r[0])).toEqual(["S-5", "S-4", "S-3", "S-2", "S-1"]);
    const all = await sheetOf((await download("/api/SalesReport/export", mine.token)).rawPayload);
    expect(all.rows.slice(1, -1)).toHaveLength(60);
  });

  it("writes a Toplam of 0 for an empty range", async () => {
    const res = await download("/api/SalesReport/export?startDate=2020-01-01&endDate=2020-01-31", mine.token);
    const { rows } = await sheetOf(res.rawPayload);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(["Toplam", undefined, undefined, undefined, 0]);
  });

  it("refuses a start date after the end date with a Turkish message, and a caller without a session", async () => {
    const res = await call(t.app, "GET", "/api/SalesReport/export?startDate=2026-10-20&endDate=2026-10-01", {
      token: mine.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "Başlangıç tarihi bitiş tarihinden sonra olamaz. Tarihleri düzeltip tekrar deneyin.",
    );
    const bad = await call(t.app, "GET", "/api/SalesReport/export?startDate=dün", { token: mine.token });
    expect(bad.status).toBe(400);
    expect((await call(t.app, "GET", "/api/SalesReport/export")).status).toBe(401);
  });
});
