import {
  createMikroConnector,
  InMemoryRateLimitStore,
  type Order,
  startAmazonEmulator,
  startUyumsoftEmulator,
} from "@ep/connectors";
import { engineSchema, ensureChannelJobs, erpVatRates } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveChannel } from "../../src/modules/connections/repository.ts";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { setSellerData, uyumsoftProvider } from "../invoices/invoice-support.ts";
import { connectedCompany, waitForRun } from "./engine-harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

/** Mikro's tax list positions (VergiListesiV2): KDV %10 is 3, KDV %20 is 4. */
const MIKRO_VAT_POINTER: Record<number, number> = { 10: 3, 20: 4 };

/**
 * Issue 37: Amazon's order answer carries amounts only (amazon/VERIFIED.md). Its lines take the ERP
 * item's VAT rate, in the ERP sales order and in the e-invoice; a SKU the ERP has no card for keeps the
 * order refused with a reason naming it, never a 0 % document.
 */
describe("an Amazon order's VAT rates come from the ERP's stock cards", () => {
  it("writes the order to Mikro and invoices it at the items' rates (20 and 10); an unknown SKU stays refused", async () => {
    // Amazon and Mikro share the seeded catalogue (same seed and count: same SKUs). Amazon's orders are
    // made ten minutes back, past its two-minute lag on order reads.
    let offset = -10 * 60_000;
    const amazon = await startAmazonEmulator({
      seed: 38,
      productCount: 20,
      orderCount: 6,
      now: () => Date.now() + offset,
    });
    offset = 0;
    const c = await connectedCompany(t, { seed: 38, erp: { productCount: 20 } });
    const uyumsoft = await startUyumsoftEmulator({ seed: 38 });
    try {
      const db = t.ctx.database.db;
      const { orderLedger, jobs } = engineSchema;
      const channel = await saveChannel(db, t.ctx.credentials, {
        companyId: c.companyId,
        system: "amazon",
        credentials: amazon.credentials,
      });
      await ensureChannelJobs(db, c.companyId, channel.id, new Date());
      const [job] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.connectionId, channel.id), eq(jobs.type, "OrderIntegration")));

      // Three orders with SKUs of their own: the first's items at 20 % in Mikro, the second's at 10 %,
      // the third's first SKU with no stock card at all.
      const skusOf = (o: { orderItems?: unknown }) =>
        (o.orderItems as Array<{ product: { sellerSku: string } }>).map((i) => i.product.sellerSku);
      const picked: Array<{ orderId: string; skus: string[] }> = [];
      const taken = new Set<string>();
      for (const o of amazon.orders) {
        const skus = skusOf(o);
        if (skus.some((s) => taken.has(s))) continue;
        for (const s of skus) taken.add(s);
        picked.push({ orderId: String(o.orderId), skus });
        if (picked.length === 3) break;
      }
      expect(picked).toHaveLength(3);
      const [at20, at10, unknown] = picked as [(typeof picked)[0], (typeof picked)[0], (typeof picked)[0]];
      const setRate = (sku: string, rate: number) =>
        c.erp.state.updateProduct(sku, {
          sto_perakende_vergi: MIKRO_VAT_POINTER[rate],
          sto_toptan_vergi: MIKRO_VAT_POINTER[rate],
        });
      for (const s of at20.skus) setRate(s, 20);
      for (const s of at10.skus) setRate(s, 10);
      const missingSku = unknown.skus[0]!;
      const stok = c.erp.state.table("STOKLAR").rows;
      stok.splice(
        stok.findIndex((r) => r.sto_kod === missingSku),
        1,
      );

      const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${job!.id}`, { token: c.token });
      expect(started.status).toBe(200);
      const run = await waitForRun(t, c.token, started.body.data.runId as number);
      expect(run.counts.written, run.report).toBeGreaterThanOrEqual(2);

      const ledger = async (orderId: string) =>
        (
          await db
            .select()
            .from(orderLedger)
            .where(and(eq(orderLedger.shopConnectionId, channel.id), eq(orderLedger.orderNo, orderId)))
        )[0]!;
      const mikroLines = (orderId: string) =>
        c.erp.state.table("SIPARISLER").rows.filter((r) => r.sip_belgeno === `AMZ-${orderId}`);
      for (const [order, rate] of [
        [at20, 20],
        [at10, 10],
      ] as const) {
        const row = await ledger(order.orderId);
        expect(row.state).toBe("confirmed");
        const lines = (row.payload as Order).lines;
        expect(lines.map((l) => [l.vatRate, l.vatRateUnknown])).toEqual(lines.map(() => [rate, undefined]));
        const written = mikroLines(order.orderId);
        expect(written.length).toBe(order.skus.length);
        for (const l of written) expect(l.sip_vergi_pntr).toBe(MIKRO_VAT_POINTER[rate]);
      }
      const refused = await ledger(unknown.orderId);
      expect(refused.state).toBe("failed");
      expect(refused.lastError).toContain(missingSku);
      expect(refused.lastError).toContain("KDV oranı ERP'de bulunamadı");
      expect(mikroLines(unknown.orderId)).toHaveLength(0);

      // The invoice pass: the two orders at their ERP rates, the third waits unnumbered, its SKU named.
      await setSellerData(t.ctx, c.companyId);
      const erp = createMikroConnector(c.erp.credentials, {
        companyId: String(c.companyId),
        rateLimitStore: new InMemoryRateLimitStore(),
        timeoutMs: 8_000,
      });
      const report = await runInvoiceCycle({
        db,
        companyId: c.companyId,
        shopConnectionId: channel.id,
        provider: uyumsoftProvider(uyumsoft, c.companyId),
        vatRates: erpVatRates(erp),
        settings: { series: "AMZ", draft: false, invoiceWhen: "paid", eInvoiceProfile: "TEMELFATURA" },
        marketplace: true,
        now: () => new Date("2026-11-28T10:00:00Z"),
        leaseMs: 1_000,
      });
      expect(report.waitingVat, JSON.stringify(report)).toBeGreaterThanOrEqual(1);
      expect(report.waitingVatSkus).toContain(missingSku);
      const invoices = await db.select().from(einvoices).where(eq(einvoices.shopConnectionId, channel.id));
      const invoiceOf = (orderId: string) => invoices.find((i) => i.orderNo === orderId);
      expect(invoiceOf(unknown.orderId)).toBeUndefined();
      for (const [order, rate] of [
        [at20, 20],
        [at10, 10],
      ] as const) {
        const invoice = invoiceOf(order.orderId);
        // Sent to the service (its UBL kept as sent).
        expect(invoice?.state, JSON.stringify(report)).not.toMatch(/prepared|error/);
        const percents = [...String(invoice?.ubl).matchAll(/<cbc:Percent>([\d.]+)<\/cbc:Percent>/g)].map(
          (m) => Number(m[1]),
        );
        expect(percents.length).toBeGreaterThan(0);
        expect(new Set(percents)).toEqual(new Set([rate]));
      }
    } finally {
      await Promise.all([amazon.close(), uyumsoft.close(), c.close()]);
    }
  }, 180_000);
});
