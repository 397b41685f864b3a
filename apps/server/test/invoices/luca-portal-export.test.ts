import { createErpConnector, getDescriptor, InMemoryRateLimitStore, isFileInvoiceType } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { turkishDate } from "../../src/platform/time/turkey.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import {
  type Emu,
  invoicingCompanyWith,
  makeOrders,
  putOrdersInLedger,
  signedInCompany,
} from "./invoice-support.ts";

let t: TestApp;
const noRegisteredBuyers = { state: { users: [] } } as unknown as Emu;
const today = turkishDate(new Date());

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A company whose "ERP" is LucaPortal (19): no API, no connection settings. */
async function lucaCompany(prefix: string, count: number) {
  const { companyId, token } = await signedInCompany(t);
  const shopId = await invoicingCompanyWith(t.ctx, companyId, { systemType: 19, credentials: {} });
  const orders = makeOrders(count, noRegisteredBuyers, { prefix });
  await putOrdersInLedger(t.ctx, companyId, shopId, orders);
  return { companyId, token, shopConnectionId: shopId, orders };
}

const download = (url: string, token: string) =>
  t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });

describe("LucaPortal (19): invoices generated and exported as files", () => {
  it("is a file-only system whose card says it has no API", async () => {
    expect(isFileInvoiceType(19)).toBe(true);
    expect(getDescriptor("erp", 19)?.notice).toMatch(/API'si yok/);
    const erp = createErpConnector(19, {}, { companyId: "1", rateLimitStore: new InMemoryRateLimitStore() });
    expect(await erp.testConnection()).toMatchObject({
      ok: true,
      description: expect.stringMatching(/portal/),
    });
    // The connection card: LucaPortal has no form fields and says what to do instead; Trendyol e-Faturam's
    // form has Turkish help on each field.
    const { token } = await signedInCompany(t);
    const res = await call(t.app, "GET", "/api/settings/connections", { token });
    const card = (type: number) =>
      res.body.data.connectors.find(
        (c: { connectionType: string; productType: number }) =>
          c.connectionType === "erp" && c.productType === type,
      );
    expect(card(19)).toMatchObject({ implemented: true, fields: [] });
    expect(card(19).limitations.join(" ")).toMatch(/LucaPortal'ın API'si yok: .*Excel veya UBL/);
    expect(card(24).fields.map((f: { name: string }) => f.name)).toEqual(["apiUrl", "email", "password"]);
    expect(card(24).fields.every((f: { help: string }) => /portal|ağ geçidi/i.test(f.help))).toBe(true);
  });

  it("generates numbered invoices without sending, and exports the day as Excel and as UBL zip, company-scoped", async () => {
    const a = await lucaCompany("LA", 5);
    const b = await lucaCompany("LB", 2);
    // The job through the API: LucaPortal has no provider, the cycle only generates.
    const run = await call(t.app, "POST", "/api/invoices/run", { token: a.token });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ prepared: 5, generated: 5, sent: 0 });
    await runInvoiceCycle({
      db: t.ctx.database.db,
      companyId: b.companyId,
      shopConnectionId: b.shopConnectionId,
      settings: { series: "LUC", draft: false, invoiceWhen: "all", eInvoiceProfile: "TEMELFATURA" },
    });
    const rows = await t.ctx.database.db.select().from(einvoices).where(eq(einvoices.companyId, a.companyId));
    expect(rows.map((r) => r.state)).toEqual(Array(5).fill("generated"));

    const xlsx = await download(`/api/invoices/export?from=${today}&format=xlsx`, a.token);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-disposition"]).toContain(`faturalar-${today}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.name).toBe("Faturalar");
    expect(sheet?.getRow(1).getCell(1).value).toBe("Fatura No");
    expect(sheet?.rowCount).toBe(6);
    const numbers = rows.map((r) => r.number).sort();
    const listed = [2, 3, 4, 5, 6].map((i) => String(sheet?.getRow(i).getCell(1).value)).sort();
    expect(listed).toEqual(numbers);
    // Totals in the list add up: net + VAT = total on every row.
    for (let i = 2; i <= 6; i++) {
      const r = sheet?.getRow(i);
      expect(Number(r?.getCell(10).value) + Number(r?.getCell(11).value)).toBeCloseTo(
        Number(r?.getCell(12).value),
        2,
      );
    }

    const ubl = await download(`/api/invoices/export?from=${today}&to=${today}&format=ubl`, a.token);
    expect(ubl.statusCode).toBe(200);
    expect(ubl.headers["content-type"]).toBe("application/zip");
    const zip = await JSZip.loadAsync(ubl.rawPayload);
    expect(Object.keys(zip.files).sort()).toEqual(numbers.map((n) => `${n}.xml`));
    const first = await zip.file(`${numbers[0]}.xml`)?.async("string");
    expect(first).toContain(`<cbc:ID>${numbers[0]}</cbc:ID>`);
    expect(first).toContain("<cbc:ProfileID>EARSIVFATURA</cbc:ProfileID>");

    // Company B sees only its own two; A's export never carries B's invoices.
    const other = await download(`/api/invoices/export?from=${today}&format=ubl`, b.token);
    const otherZip = await JSZip.loadAsync(other.rawPayload);
    expect(Object.keys(otherZip.files)).toHaveLength(2);
    expect(Object.keys(otherZip.files).every((f) => f.startsWith("LUC"))).toBe(true);
    expect(other.headers["x-invoice-count"]).toBe("2");
    // A range that runs backwards, or a day without invoices.
    expect((await download(`/api/invoices/export?from=${today}&to=2020-01-01`, a.token)).statusCode).toBe(
      400,
    );
    // A day without invoices says so instead of giving an empty file.
    const empty = await download("/api/invoices/export?from=2020-01-01", a.token);
    expect(empty.statusCode).toBe(404);
    expect(empty.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(empty.body).message).toBe(
      "Seçilen tarih aralığında dışa aktarılacak fatura yok. Başka bir aralık seçin.",
    );
    expect((await download(`/api/invoices/export?from=${today}`, "")).statusCode).toBe(401);
  });

  it("a refunded order's e-Arşiv is to be cancelled on the portal: listed with the route and why, no IADE", async () => {
    const a = await lucaCompany("LR", 2);
    const settings = {
      series: "LRT",
      draft: false,
      invoiceWhen: "all" as const,
      eInvoiceProfile: "TEMELFATURA" as const,
    };
    const input = {
      db: t.ctx.database.db,
      companyId: a.companyId,
      shopConnectionId: a.shopConnectionId,
      settings,
    };
    await runInvoiceCycle(input);
    const order = a.orders[0];
    if (!order) throw new Error("no order");
    await t.ctx.database.db
      .update(engineSchema.orderLedger)
      .set({ payload: { ...order, status: "REFUNDED" } })
      .where(
        and(
          eq(engineSchema.orderLedger.companyId, a.companyId),
          eq(engineSchema.orderLedger.orderNo, order.orderNo),
        ),
      );
    expect(await runInvoiceCycle(input)).toMatchObject({ returns: 1, generated: 0 });
    const rows = await t.ctx.database.db.select().from(einvoices).where(eq(einvoices.companyId, a.companyId));
    expect(rows.filter((r) => r.type === "IADE")).toEqual([]);
    const sold = rows.find((r) => r.orderNo === order.orderNo);
    expect(sold).toMatchObject({ state: "generated", returnRoute: "cancel", returnReason: "noApi" });
    const listed = await call(t.app, "GET", "/api/invoices", { token: a.token });
    expect(listed.body.data.find((r: { id: number }) => r.id === sold?.id)).toMatchObject({
      returnRoute: "cancel",
      returnWhy: expect.stringContaining("portaldan (LucaPortal) iptal edin"),
    });
  });
});
