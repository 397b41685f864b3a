import { type Order, startUyumsoftEmulator } from "@ep/connectors";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findConnection } from "../../src/modules/connections/repository.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { companies } from "../../src/platform/db/schema.ts";
import { call, registerAndLogin } from "../harness.ts";
import { runJobOfType } from "../support/job-run.ts";
import { listeningServer } from "../support/listening-server.ts";
import { makeOrders, putOrdersInLedger } from "./invoice-support.ts";

const server = listeningServer("einvoice-service");

type Json = Record<string, any>;

/** Runs a company's job of that type through the job API and waits for its end. */
function runJob(token: string, type: string) {
  return runJobOfType(server.app, token, type);
}

/** A Mikro + IKAS company on the sandboxes, its seller settings filled in (web address included). */
async function mikroCompany() {
  const user = await registerAndLogin(server.app, { erpType: 9, ecommerceType: 1 });
  const companyId = user.account.company.id as number;
  const connected = await call(server.app, "POST", "/api/sandbox/connect", { token: user.token });
  expect(connected.body.data.erp).toMatchObject({ productType: 9, lastTest: { ok: true } });
  const company = await call(server.app, "PUT", "/api/Account/company", {
    token: user.token,
    body: {
      company_Name: user.account.company.company_Name,
      tax_Office: "Kadıköy",
      tax_Number: "3880512345",
      address: "Moda Cad. No: 12, Kadıköy/İstanbul",
      phone: "",
      website: "https://deneme-magaza.com.tr",
    },
  });
  expect(company.status).toBe(200);
  expect(company.body.data.company.website).toBe("https://deneme-magaza.com.tr");
  return { ...user, companyId };
}

/** Adds the Uyumsoft sandbox as the company's e-invoice service (settings' third connection). */
async function addUyumsoftService(token: string) {
  const sandboxes = await call(server.app, "GET", "/api/sandbox", { token });
  const uyumsoft = sandboxes.body.data.find(
    (s: Json) => s.connectionType === "einvoice" && s.productType === 8,
  ) as Json;
  expect(uyumsoft).toBeDefined();
  return call(server.app, "POST", "/api/settings/connection-setting-update/einvoice/8", {
    token,
    body: { fields: uyumsoft.credentials },
  });
}

describe("an e-invoice service beside the ERP (issue 35)", () => {
  it("a Mikro company adds Uyumsoft in settings; its orders become e-invoices through it, the ERP stays", async () => {
    const a = await mikroCompany();
    const before = await call(server.app, "GET", "/api/settings/connections", { token: a.token });
    expect(before.body.data).toMatchObject({ einvoice: null, invoiceRoute: "erp" });
    // The third connection offers only the systems that issue invoices, never another ERP.
    const offered = before.body.data.connectors
      .filter((c: Json) => c.connectionType === "einvoice")
      .map((c: Json) => c.productType);
    expect(offered).toEqual(expect.arrayContaining([8, 24, 19]));
    expect(offered).not.toContain(9);
    expect(
      (
        await call(server.app, "POST", "/api/settings/connection-setting-update/einvoice/9", {
          token: a.token,
          body: { fields: {} },
        })
      ).status,
    ).toBe(404);

    // Without a service, "Şimdi Faturala" points to the real place to add one.
    const refused = await call(server.app, "POST", "/api/invoices/run", { token: a.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("API Bağlantıları");
    expect(refused.body.message).toContain("E-Fatura Servisi");

    const saved = await addUyumsoftService(a.token);
    expect(saved.status).toBe(200);
    expect(saved.body.data.connection).toMatchObject({
      connectionType: "einvoice",
      productType: 8,
      isEmulated: true,
      lastTest: { ok: true },
    });
    const after = await call(server.app, "GET", "/api/settings/connections", { token: a.token });
    expect(after.body.data).toMatchObject({
      invoiceRoute: "service",
      erp: { productType: 9 },
      einvoice: { productType: 8, status: { state: "connected" } },
    });
    const dashboard = await call(server.app, "GET", "/api/Dashboard", { token: a.token });
    expect(dashboard.body.data.einvoiceService).toMatchObject({
      route: "service",
      system: "Uyumsoft",
      status: { state: "connected" },
    });

    const seedEmu = await startUyumsoftEmulator({ seed: 3 });
    const shop = (await findConnection(server.ctx.database.db, a.companyId, "shop"))!;
    await putOrdersInLedger(server.ctx, a.companyId, shop.id, makeOrders(3, seedEmu, { prefix: "MKR" }));
    await seedEmu.close();
    const run = await runJob(a.token, "InvoiceIntegration");
    expect(run.status).not.toBe("Failed");
    const list = await call(server.app, "GET", "/api/invoices", { token: a.token });
    const issued = list.body.data.filter((r: Json) => r.source === "service");
    expect(issued).toHaveLength(3);
    for (const r of issued) {
      expect(r.state).not.toMatch(/prepared|error/);
      expect(r.issueTime).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(r.link).toMatch(/\/api\/public\/invoices\/\d+\?t=/);
    }
    const [row] = await server.ctx.database.db.select().from(einvoices).where(eq(einvoices.id, issued[0].id));
    // The document sent carries the seller's web address and the issue time.
    expect(row?.ubl).toContain("https://deneme-magaza.com.tr");
    expect(row?.ubl).toContain(`<cbc:IssueTime>${row?.issueTime}</cbc:IssueTime>`);

    // Reports and Faturalar count the same invoices.
    const summary = await call(server.app, "GET", "/api/invoices/summary", { token: a.token });
    expect(summary.body.data).toMatchObject({ total: 3, service: 3, route: "service" });
    const stats = await call(server.app, "GET", "/api/SalesReport/run-statistics", { token: a.token });
    expect(stats.body.data.find((s: Json) => s.jobType === "InvoiceIntegration")?.written).toBe(3);

    // Another company sees none of it.
    const b = await mikroCompany();
    expect((await call(server.app, "GET", "/api/invoices", { token: b.token })).body.data).toEqual([]);
    expect(
      (await call(server.app, "GET", `/api/invoices/${issued[0].id}/view`, { token: b.token })).status,
    ).toBe(404);
    expect(
      (await call(server.app, "GET", "/api/settings/connections", { token: b.token })).body.data.einvoice,
    ).toBe(null);
  }, 240_000);

  it("invoices a USD order with the merchant's rate, and waits with a Turkish reason without one", async () => {
    const a = await mikroCompany();
    expect((await addUyumsoftService(a.token)).status).toBe(200);
    const seedEmu = await startUyumsoftEmulator({ seed: 4 });
    const [usd] = makeOrders(1, seedEmu, { prefix: "USD" }) as [Order];
    await seedEmu.close();
    const order: Order = { ...usd, currency: "USD" };
    const shop = (await findConnection(server.ctx.database.db, a.companyId, "shop"))!;
    await putOrdersInLedger(server.ctx, a.companyId, shop.id, [order]);

    const first = await call(server.app, "POST", "/api/invoices/run", { token: a.token });
    expect(first.body.data).toMatchObject({ prepared: 0, waitingRate: 1, waitingCurrencies: ["USD"] });
    const waiting = await call(server.app, "GET", "/api/invoices/exchange-rates", { token: a.token });
    expect(waiting.body.data.waiting).toEqual([{ currency: "USD", orders: 1 }]);

    // TRY needs no rate: refused in Turkish.
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const bad = await call(server.app, "PUT", "/api/invoices/exchange-rates", {
      token: a.token,
      body: { currency: "TRY", date: today, rate: 1 },
    });
    expect(bad.status).toBe(400);
    const put = await call(server.app, "PUT", "/api/invoices/exchange-rates", {
      token: a.token,
      body: { currency: "usd", date: today, rate: 34.5678 },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual([{ currency: "USD", date: today, rate: 34.5678 }]);

    // Another company can neither see nor delete it.
    const b = await mikroCompany();
    expect(
      (await call(server.app, "GET", "/api/invoices/exchange-rates", { token: b.token })).body.data.rates,
    ).toEqual([]);
    expect(
      (await call(server.app, "DELETE", `/api/invoices/exchange-rates/USD/${today}`, { token: b.token }))
        .status,
    ).toBe(404);

    const second = await call(server.app, "POST", "/api/invoices/run", { token: a.token });
    expect(second.body.data).toMatchObject({ prepared: 1, waitingRate: 0 });
    const [row] = await server.ctx.database.db
      .select()
      .from(einvoices)
      .where(eq(einvoices.companyId, a.companyId));
    expect(row).toMatchObject({ currency: "USD", exchangeRate: 34.5678, rateSource: "merchant" });
    expect(row?.state).not.toMatch(/prepared|error/);
    expect(row?.ubl).toContain("<cbc:CalculationRate>34.5678</cbc:CalculationRate>");
    const listed = (await call(server.app, "GET", "/api/invoices", { token: a.token })).body.data[0];
    expect(listed).toMatchObject({ exchangeRate: 34.5678, rateSource: "merchant", currency: "USD" });
  }, 240_000);

  it("the customer's link opens only its own invoice, as a page and a PDF; empty exports say so", async () => {
    const a = await mikroCompany();
    expect((await addUyumsoftService(a.token)).status).toBe(200);
    const seedEmu = await startUyumsoftEmulator({ seed: 5 });
    const shop = (await findConnection(server.ctx.database.db, a.companyId, "shop"))!;
    await putOrdersInLedger(server.ctx, a.companyId, shop.id, makeOrders(2, seedEmu, { prefix: "LNK" }));
    await seedEmu.close();
    await call(server.app, "POST", "/api/invoices/run", { token: a.token });
    const rows = (await call(server.app, "GET", "/api/invoices", { token: a.token })).body.data as Json[];
    expect(rows).toHaveLength(2);
    const link = new URL(rows[0]!.link);
    const path = `${link.pathname}${link.search}`;
    const page = await server.app.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain(rows[0]!.number);
    const pdfPath = path.replace(`/invoices/${rows[0]!.id}?`, `/invoices/${rows[0]!.id}/pdf?`);
    const pdf = await server.app.inject({ method: "GET", url: pdfPath });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // The same token on the other invoice, or on another company's, opens nothing.
    const other = path.replace(`/invoices/${rows[0]!.id}?`, `/invoices/${rows[1]!.id}?`);
    expect((await server.app.inject({ method: "GET", url: other })).statusCode).toBe(403);
    const b = await mikroCompany();
    expect((await addUyumsoftService(b.token)).status).toBe(200);
    const shopB = (await findConnection(server.ctx.database.db, b.companyId, "shop"))!;
    const seedB = await startUyumsoftEmulator({ seed: 6 });
    await putOrdersInLedger(server.ctx, b.companyId, shopB.id, makeOrders(1, seedB, { prefix: "LNB" }));
    await seedB.close();
    await call(server.app, "POST", "/api/invoices/run", { token: b.token });
    const rowB = (await call(server.app, "GET", "/api/invoices", { token: b.token })).body.data[0] as Json;
    const foreign = path.replace(`/invoices/${rows[0]!.id}?`, `/invoices/${rowB.id}?`);
    expect((await server.app.inject({ method: "GET", url: foreign })).statusCode).toBe(403);
    expect(
      (await server.app.inject({ method: "GET", url: `/api/public/invoices/${rowB.id}` })).statusCode,
    ).toBe(403);

    const empty = await call(server.app, "GET", "/api/invoices/export?from=2020-01-01&format=xlsx", {
      token: a.token,
    });
    expect(empty.status).toBe(404);
    expect(empty.body.message).toContain("dışa aktarılacak fatura yok");
  }, 240_000);

  it("a company whose company settings hold a bad web address is told so in Turkish", async () => {
    const a = await registerAndLogin(server.app, { erpType: 9, ecommerceType: 1 });
    const res = await call(server.app, "PUT", "/api/Account/company", {
      token: a.token,
      body: { company_Name: "Deneme Ticaret", website: "magazam nokta com" },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("web adresi");
    const [company] = await server.ctx.database.db
      .select({ website: companies.website })
      .from(companies)
      .where(eq(companies.id, a.account.company.id as number));
    expect(company?.website).toBe("");
  }, 60_000);
});
