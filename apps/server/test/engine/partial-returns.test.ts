import {
  type Order,
  startAmazonEmulator,
  startTrendyolEmulator,
  startUyumsoftEmulator,
} from "@ep/connectors";
import { returnedPart } from "@ep/einvoice";
import {
  engineSchema,
  ensureChannelJobs,
  type FlowContext,
  pendingOrderQuantities,
  RunTally,
  recordReturns,
} from "@ep/engine";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveChannel } from "../../src/modules/connections/repository.ts";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { setSellerData, uyumsoftProvider } from "../invoices/invoice-support.ts";
import { connectedCompany, waitForRun } from "./engine-harness.ts";

type Row = Record<string, unknown>;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

/** The channel saved for the company, its jobs made, and a function that runs its order job to the end. */
async function channelOrderJob(
  c: Awaited<ReturnType<typeof connectedCompany>>,
  system: "trendyol" | "amazon",
  credentials: Record<string, string>,
) {
  const db = t.ctx.database.db;
  const { jobs } = engineSchema;
  const channel = await saveChannel(db, t.ctx.credentials, { companyId: c.companyId, system, credentials });
  await ensureChannelJobs(db, c.companyId, channel.id, new Date());
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.connectionId, channel.id), eq(jobs.type, "OrderIntegration")));
  const run = async () => {
    const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${job!.id}`, { token: c.token });
    expect(started.status).toBe(200);
    return waitForRun(t, c.token, started.body.data.runId as number);
  };
  return { channel, run };
}

/**
 * Issue 37, partial returns: a Trendyol package of three lines (1, 2 and 1 units, with an order discount)
 * whose buyer returns the first line, then one unit of the second, through Trendyol's claims. Each claim is
 * recorded once per unit (however often the claims are read again), only the returned units leave the
 * stock pool's hold, and the invoice cycle decides each returned part once, never cancelling the sale's
 * e-Arşiv for a part; the Faturalar list shows each part with its amount.
 */
describe("a partial return, line by line", () => {
  it("records each returned unit once, releases only those from the pool, and documents only them", async () => {
    const trendyol = await startTrendyolEmulator({ seed: 53, productCount: 10, orderCount: 0 });
    const uyumsoft = await startUyumsoftEmulator({ seed: 53 });
    const c = await connectedCompany(t, { seed: 53 });
    try {
      const db = t.ctx.database.db;
      const { orderLedger, orderReturnLines } = engineSchema;
      // One package of three lines, a consumer's, 30 TL off the whole package.
      const [pkg] = trendyol.generateOrders(1) as [Row];
      const products = trendyol.products.slice(0, 3);
      pkg.lines = products.map((p, i) => {
        const qty = i === 1 ? 2 : 1;
        return {
          id: 900 + i,
          quantity: qty,
          barcode: p.barcode,
          merchantSku: p.stockCode,
          productName: p.title,
          price: p.salePrice,
          amount: Math.round(Number(p.salePrice) * qty * 100) / 100,
          discount: 0,
          vatBaseAmount: p.vatRate,
          currencyCode: "TRY",
          orderLineItemStatusName: "Created",
        };
      });
      const gross = Math.round((pkg.lines as Row[]).reduce((s, l) => s + Number(l.amount), 0) * 100) / 100;
      Object.assign(pkg, { grossAmount: gross, totalDiscount: 30, totalPrice: gross - 30 });
      (pkg.invoiceAddress as Row).company = "";
      const skus = products.map((p) => String(p.stockCode));

      const { channel, run } = await channelOrderJob(c, "trendyol", trendyol.credentials);
      // Mikro takes no order for now: the package stays waiting, holding its units in the pool.
      c.erp.setFaults({ queue: [{ kind: "5xx", operation: "SiparisKaydetV2", times: 100_000 }] });
      await run();
      const key = `${pkg.orderNumber}/${pkg.id}`;
      const [row] = await db
        .select()
        .from(orderLedger)
        .where(and(eq(orderLedger.shopConnectionId, channel.id), eq(orderLedger.orderNo, key)));
      expect(row, "the package is in the ledger").toBeDefined();
      expect((row!.payload as Order).lines.map((l) => l.qty)).toEqual([1, 2, 1]);
      const held = async () => {
        const pool = await pendingOrderQuantities(db, c.companyId, skus);
        return skus.map((s) => pool.get(s) ?? 0);
      };
      const before = await held();
      expect(before.every((q, i) => q >= [1, 2, 1][i]!)).toBe(true);

      // The sale's e-Arşiv goes out (consumer, today: within its 8 days).
      await setSellerData(t.ctx, c.companyId);
      const clock = new Date();
      const pass = () =>
        runInvoiceCycle({
          db,
          companyId: c.companyId,
          shopConnectionId: channel.id,
          provider: uyumsoftProvider(uyumsoft, c.companyId),
          settings: { series: "TYF", draft: false, invoiceWhen: "paid", eInvoiceProfile: "TEMELFATURA" },
          marketplace: true,
          now: () => clock,
          leaseMs: 1_000,
        });
      await pass();
      const saleOf = async () =>
        (
          await db
            .select()
            .from(einvoices)
            .where(and(eq(einvoices.shopConnectionId, channel.id), eq(einvoices.orderNo, key)))
        )[0];
      const sale = await saleOf();
      expect(sale?.profile).toBe("EARSIVFATURA");
      expect(sale?.state).not.toMatch(/prepared|error/);

      const returnsOf = () =>
        db
          .select()
          .from(orderReturnLines)
          .where(eq(orderReturnLines.ledgerId, row!.id))
          .orderBy(asc(orderReturnLines.id));

      // 1. The first line comes back (its only unit); the claims are read on every run, twice here.
      trendyol.acceptClaim(String(pkg.id), { "900": 1 });
      const first = await run();
      expect(first.report).toContain("1 siparişin bazı kalemleri iade edildi (1 adet)");
      await run();
      expect((await returnsOf()).map((r) => [r.lineNo, r.sku, r.qty])).toEqual([[0, skus[0], 1]]);
      expect(await held()).toEqual([before[0]! - 1, before[1]!, before[2]!]);
      const [afterFirst] = await db.select().from(orderLedger).where(eq(orderLedger.id, row!.id));
      // A part, not the order: it is neither marked returned nor left out of the pool.
      expect(afterFirst?.returnKind).toBeNull();

      await pass();
      const one = await returnsOf();
      expect(one[0]).toMatchObject({ route: "none", reason: "partialConsumer", einvoiceId: sale!.id });
      // The e-Arşiv stays: it can only be cancelled whole.
      expect((await saleOf())?.state).not.toBe("cancelled");
      expect((await saleOf())?.returnRoute).toBeNull();

      // 2. One unit of the second line (of two); then the claims again, and a third read that adds nothing.
      trendyol.acceptClaim(String(pkg.id), { "901": 1 });
      await run();
      await run();
      const two = await returnsOf();
      expect(two.map((r) => [r.lineNo, r.qty])).toEqual([
        [0, 1],
        [1, 1],
      ]);
      expect(await held()).toEqual([before[0]! - 1, before[1]! - 1, before[2]!]);
      await pass();
      await pass();
      const routed = await returnsOf();
      expect(routed.map((r) => r.route)).toEqual(["none", "none"]);
      expect(routed[1]!.routedAt!.getTime()).toBeGreaterThanOrEqual(routed[0]!.routedAt!.getTime());
      expect((await saleOf())?.state).not.toBe("cancelled");

      // The Faturalar list: the sale with its two returned parts, each with its own amount.
      const list = await call(t.app, "GET", "/api/invoices", { token: c.token });
      const shown = list.body.data.find((r: { id: number }) => r.id === sale!.id);
      const order = row!.payload as Order;
      const part1 = returnedPart(order, [{ line: 0, qty: 1 }]).totals.grandTotal;
      const part2 = returnedPart(order, [{ line: 1, qty: 1 }]).totals.grandTotal;
      expect(shown.returnedParts).toEqual([
        expect.objectContaining({ lines: `${skus[0]} × 1`, total: part1, route: "none" }),
        expect.objectContaining({ lines: `${skus[1]} × 1`, total: part2, route: "none" }),
      ]);
      expect(shown.returnedParts[0].why).toContain("gider pusulası");
      // The parts carry their share of the 30 TL discount: less than the lines' list prices.
      expect(part1).toBeLessThan(Number(products[0]!.salePrice));
      expect(part1 + part2).toBeLessThan(order.totals.grandTotal);
    } finally {
      await Promise.all([trendyol.close(), uyumsoft.close(), c.close()]);
    }
  }, 180_000);

  it("Amazon: a returns-report row takes back only its units, once, however often the report is read", async () => {
    // Orders and the return are made on a clock run back, past Amazon's two-minute lag on reads.
    let offset = -10 * 60_000;
    const amazon = await startAmazonEmulator({
      seed: 54,
      productCount: 20,
      orderCount: 4,
      now: () => Date.now() + offset,
    });
    offset = 0;
    const c = await connectedCompany(t, { seed: 54, erp: { productCount: 20 } });
    try {
      const db = t.ctx.database.db;
      const { orderLedger, orderReturnLines } = engineSchema;
      c.erp.setFaults({ queue: [{ kind: "5xx", operation: "SiparisKaydetV2", times: 100_000 }] });
      const { channel, run } = await channelOrderJob(c, "amazon", amazon.credentials);
      const ingest = await run();
      const picked = amazon.orders.find((o) => (o.orderItems as unknown[]).length > 1) ?? amazon.orders[0]!;
      const orderId = String(picked.orderId);
      const items = picked.orderItems as Array<{ product: { sellerSku: string }; quantityOrdered: number }>;
      const sku = items[0]!.product.sellerSku;
      const [row] = await db
        .select()
        .from(orderLedger)
        .where(and(eq(orderLedger.shopConnectionId, channel.id), eq(orderLedger.orderNo, orderId)));
      expect(row, `the Amazon order is in the ledger: ${ingest.report}`).toBeDefined();
      const pool = async () => (await pendingOrderQuantities(db, c.companyId, [sku])).get(sku) ?? 0;
      const before = await pool();

      offset = -5 * 60_000;
      amazon.returnOrder(orderId, { [sku]: 1 });
      offset = 0;
      const reports = () => amazon.recorder.list().filter((r) => r.path === "/reports/2021-06-30/reports");
      const first = await run();
      expect(first.report).toContain("(1 adet)");
      await run();
      // One returns report a run, and the same row read by both recorded once.
      expect(reports()).toHaveLength(3);
      const lines = await db.select().from(orderReturnLines).where(eq(orderReturnLines.ledgerId, row!.id));
      expect(lines.map((l) => [l.sku, l.qty, l.ref.startsWith("rma:")])).toEqual([[sku, 1, true]]);
      expect(await pool()).toBe(before - 1);
      const [after] = await db.select().from(orderLedger).where(eq(orderLedger.id, row!.id));
      expect(after?.returnKind ?? null).toBe(
        items.length === 1 && items[0]!.quantityOrdered === 1 ? "return" : null,
      );
    } finally {
      await Promise.all([amazon.close(), c.close()]);
    }
  }, 180_000);

  it("runs reading the same returns at once take each one once, and never more units than were sold", async () => {
    const c = await connectedCompany(t, { seed: 55 });
    try {
      const db = t.ctx.database.db;
      const { orderLedger, orderReturnLines, connections } = engineSchema;
      const [shop] = await db
        .select()
        .from(connections)
        .where(and(eq(connections.companyId, c.companyId), eq(connections.kind, "shop")));
      const line = (sku: string, qty: number) => ({
        sku,
        name: sku,
        qty,
        unitPrice: 10,
        vatRate: 20,
        discount: 0,
        total: 10 * qty,
      });
      const order = {
        id: "R-1",
        orderNo: "R-1",
        status: "Delivered",
        lines: [line("A", 1), line("B", 2), line("C", 1)],
      } as unknown as Order;
      const [row] = await db
        .insert(orderLedger)
        .values({
          companyId: c.companyId,
          shopConnectionId: shop!.id,
          orderNo: "R-1",
          shopOrderId: "R-1",
          orderDate: new Date(),
          payload: order,
        })
        .returning();
      const ctx = {
        db,
        companyId: c.companyId,
        shopConnectionId: shop!.id,
        mappings: { orderStatusesToTransfer: [] },
        now: () => new Date(),
        tally: new RunTally(),
      } as unknown as FlowContext;
      const back = (...returned: { ref: string; sku: string; qty: number }[]) =>
        recordReturns(ctx, [{ ...order, status: "Returned", returned }], (o) => o.orderNo);
      // The same claim read by two runs at once, and a second claim for the same line asking for both units.
      const round = () =>
        Promise.all([
          back({ ref: "x1", sku: "B", qty: 1 }),
          back({ ref: "x1", sku: "B", qty: 1 }),
          back({ ref: "x2", sku: "B", qty: 2 }),
        ]);
      await round();
      await round();
      const taken = await db.select().from(orderReturnLines).where(eq(orderReturnLines.ledgerId, row!.id));
      expect(taken.filter((r) => r.ref === "x1").length).toBeLessThanOrEqual(1);
      expect(taken.reduce((sum, r) => sum + (r.lineNo === 1 ? r.qty : 0), 0)).toBe(2);
      // The order stays an order: two of its lines were never returned.
      const [after] = await db.select().from(orderLedger).where(eq(orderLedger.id, row!.id));
      expect(after?.returnKind).toBeNull();
      // The rest comes back: now the whole order is returned, once.
      await back({ ref: "x3", sku: "A", qty: 1 }, { ref: "x4", sku: "C", qty: 5 });
      const [whole] = await db.select().from(orderLedger).where(eq(orderLedger.id, row!.id));
      expect(whole).toMatchObject({ returnKind: "return", returnState: "pending" });
      const all = await db.select().from(orderReturnLines).where(eq(orderReturnLines.ledgerId, row!.id));
      expect(all.find((r) => r.ref === "x4")?.qty).toBe(1);
    } finally {
      await c.close();
    }
  }, 120_000);
});
