import { startUyumsoftEmulator } from "@ep/connectors";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { customerLink } from "../../src/modules/invoices/links.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import {
  type Emu,
  makeInvoicingCompany,
  makeOrders,
  putOrdersInLedger,
  recordingShop,
  signedInCompany,
  uyumsoftProvider,
} from "./invoice-support.ts";

let t: TestApp;
let emu: Emu;
let a: { companyId: number; token: string };
let b: { companyId: number; token: string };
let rows: Array<typeof einvoices.$inferSelect>;

beforeAll(async () => {
  t = await startTestApp();
  emu = await startUyumsoftEmulator({ seed: 5, rateLimit: false });
  a = await signedInCompany(t);
  b = await signedInCompany(t);
  const shopConnectionId = await makeInvoicingCompany(t.ctx, a.companyId, emu);
  await putOrdersInLedger(
    t.ctx,
    a.companyId,
    shopConnectionId,
    makeOrders(6, emu, { prefix: "AP", eInvoiceEvery: 3 }),
  );
  await runInvoiceCycle({
    db: t.ctx.database.db,
    companyId: a.companyId,
    shopConnectionId,
    provider: uyumsoftProvider(emu, a.companyId),
    shop: recordingShop().shop,
    settings: { series: "WEB", draft: false, invoiceWhen: "all", eInvoiceProfile: "TEMELFATURA" },
  });
  rows = await t.ctx.database.db.select().from(einvoices).where(eq(einvoices.companyId, a.companyId));
  // A server, an emulator and a first cycle on the shared box: more than the default minute when it is busy.
}, 180_000);
afterAll(async () => {
  await emu?.close();
  await t?.close();
});

const pdf = (url: string, token?: string) =>
  t.app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("Faturalar API", () => {
  it("lists the company's invoices with type and GİB status, filtered by status and date", async () => {
    expect(rows).toHaveLength(6);
    const all = await call(t.app, "GET", "/api/invoices", { token: a.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(6);
    expect(all.body.data.filter((r: { type: string }) => r.type === "eInvoice")).toHaveLength(2);
    const first = all.body.data[0];
    expect(first).toMatchObject({
      buyer: expect.any(String),
      total: expect.any(Number),
      orderNo: expect.stringMatching(/^AP-/),
    });
    const errors = await call(t.app, "GET", "/api/invoices?state=error", { token: a.token });
    expect(errors.body.data).toEqual([]);
    const future = await call(t.app, "GET", "/api/invoices?from=2099-01-01", { token: a.token });
    expect(future.body.data).toEqual([]);
  });

  it("refuses another company's invoices", async () => {
    const target = rows[0]!;
    const list = await call(t.app, "GET", "/api/invoices", { token: b.token });
    expect(list.body.data).toEqual([]);
    expect((await pdf(`/api/invoices/${target.id}/pdf`, b.token)).statusCode).toBe(404);
    const cancel = await call(t.app, "POST", `/api/invoices/${target.id}/cancel`, {
      token: b.token,
      body: { reason: "Müşteri vazgeçti" },
    });
    expect(cancel.status).toBe(404);
    expect(emu.state.find(target.ettn)?.cancelDate).toBeUndefined();
  });

  it("serves the PDF to the company and through the signed customer link only", async () => {
    const target = rows[0]!;
    const own = await pdf(`/api/invoices/${target.id}/pdf`, a.token);
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("application/pdf");
    expect(own.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await pdf(`/api/invoices/${target.id}/pdf`)).statusCode).toBe(401);

    const link = new URL(customerLink(t.ctx, target, "pdf"));
    const path = `${link.pathname}${link.search}`;
    expect((await pdf(path)).statusCode).toBe(200);
    expect((await pdf(path.replace(`/invoices/${target.id}/`, `/invoices/${rows[1]!.id}/`))).statusCode).toBe(
      403,
    );
    expect(
      (await pdf(path.replace(/t=[^&]+/, "t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))).statusCode,
    ).toBe(403);
    // The shop order keeps the link: it does not run out.
    t.clock.advance(400 * 86_400_000);
    try {
      expect((await pdf(path)).statusCode).toBe(200);
    } finally {
      t.clock.advance(-400 * 86_400_000);
    }
  });

  it("cancels an e-Arşiv invoice within the period, refuses e-Fatura and late cancellations", async () => {
    const archive = rows.filter((r) => r.profile === "EARSIVFATURA");
    const eInvoice = rows.find((r) => r.profile !== "EARSIVFATURA")!;
    const refused = await call(t.app, "POST", `/api/invoices/${eInvoice.id}/cancel`, {
      token: a.token,
      body: { reason: "Müşteri vazgeçti" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("e-Arşiv");

    const ok = await call(t.app, "POST", `/api/invoices/${archive[0]!.id}/cancel`, {
      token: a.token,
      body: { reason: "Müşteri vazgeçti" },
    });
    expect(ok.status).toBe(200);
    expect(emu.state.find(archive[0]!.ettn)?.cancelDate).toBeDefined();
    const again = await call(t.app, "POST", `/api/invoices/${archive[0]!.id}/cancel`, {
      token: a.token,
      body: { reason: "Müşteri vazgeçti" },
    });
    expect(again.status).toBe(409);

    // Issued ten days ago (the clock stays: the session would run out too).
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    await t.ctx.database.db
      .update(einvoices)
      .set({ issueDate: tenDaysAgo })
      .where(eq(einvoices.id, archive[1]!.id));
    const late = await call(t.app, "POST", `/api/invoices/${archive[1]!.id}/cancel`, {
      token: a.token,
      body: { reason: "Müşteri vazgeçti" },
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain("8 gün");
    expect(emu.state.find(archive[1]!.ettn)?.cancelDate).toBeUndefined();
  });

  it("keeps the invoice job settings per company", async () => {
    const defaults = await call(t.app, "GET", "/api/invoices/settings", { token: b.token });
    expect(defaults.body.data).toMatchObject({ series: "WEB", draft: false, invoiceWhen: "paid" });
    const saved = await call(t.app, "PUT", "/api/invoices/settings", {
      token: a.token,
      body: { series: "ABC", draft: true, invoiceWhen: "shipped", eInvoiceProfile: "TICARIFATURA" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ series: "ABC", draft: true, invoiceWhen: "shipped" });
    const bad = await call(t.app, "PUT", "/api/invoices/settings", {
      token: a.token,
      body: { series: "ab", draft: true, invoiceWhen: "shipped", eInvoiceProfile: "TICARIFATURA" },
    });
    expect(bad.status).toBe(400);
    expect((await call(t.app, "GET", "/api/invoices/settings", { token: b.token })).body.data.series).toBe(
      "WEB",
    );
  });

  it("tells a company without an e-invoice service what to do", async () => {
    const run = await call(t.app, "POST", "/api/invoices/run", { token: b.token });
    expect(run.status).toBe(409);
    expect(run.body.message).toContain("Uyumsoft");
  });
});
