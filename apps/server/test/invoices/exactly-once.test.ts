import { type EInvoiceProvider, startUyumsoftEmulator } from "@ep/connectors";
import { parseInvoiceNumber } from "@ep/einvoice";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { startTestApp, type TestApp } from "../harness.ts";
import {
  companyOfNewUser,
  type Emu,
  makeInvoicingCompany,
  makeOrders,
  putOrdersInLedger,
  recordingShop,
  uyumsoftProvider,
} from "./invoice-support.ts";

/** CI runs 200 orders; `INVOICE_ORDERS=500 npx vitest run test/invoices/exactly-once.test.ts` is the bench size. */
const ORDERS = Number(process.env.INVOICE_ORDERS ?? 200);
const KILLS = 2;
/**
 * The emulator hangs a call for 2 s; the connector gives up after 1.5 s. A plain answer on a loaded
 * box (the emulator shares this process with the embedded database) stays well under it.
 */
const HUNG_AFTER_MS = 1_500;

class WorkerKilled extends Error {}

/**
 * Wraps the provider like a worker that dies right after the provider stored a document and before
 * the worker could write down the answer: the cycle aborts, the ledger row stays `prepared`.
 */
function killingProvider(inner: EInvoiceProvider, killAfterSends: number[]) {
  let sends = 0;
  let kills = 0;
  const provider: EInvoiceProvider = Object.create(inner);
  provider.sendInvoice = async (input) => {
    const answer = await inner.sendInvoice(input);
    sends++;
    if (killAfterSends.includes(sends)) {
      kills++;
      throw new WorkerKilled(`killed after send ${sends}`);
    }
    return answer;
  };
  return { provider, kills: () => kills };
}

let t: TestApp;
let emu: Emu;

beforeAll(async () => {
  t = await startTestApp();
  emu = await startUyumsoftEmulator({
    seed: 17,
    faults: {
      rate5xx: 0.1,
      timeoutRate: 0.05,
      dropAfterWriteRate: 0.05,
      hangMs: 2_000,
      retryAfterSeconds: 0,
    },
    rateLimit: false,
  });
});
afterAll(async () => {
  await emu?.close();
  await t?.close();
});

describe("shop orders become e-invoices exactly once", () => {
  it(`${ORDERS} orders, 10 % 5xx, timeouts, dropped answers and ${KILLS} killed workers → ${ORDERS} invoices`, async () => {
    const companyId = await companyOfNewUser(t);
    const shopConnectionId = await makeInvoicingCompany(t.ctx, companyId, emu);
    const orders = makeOrders(ORDERS, emu, { prefix: "SP", eInvoiceEvery: 10 });
    await putOrdersInLedger(t.ctx, companyId, shopConnectionId, orders);
    const { shop, attached } = recordingShop();
    const killer = killingProvider(uyumsoftProvider(emu, companyId, HUNG_AFTER_MS), [
      Math.floor(ORDERS / 4),
      Math.floor(ORDERS / 2),
    ]);
    const settings = {
      series: "WEB",
      draft: false,
      invoiceWhen: "paid" as const,
      eInvoiceProfile: "TEMELFATURA" as const,
    };
    const cycle = () =>
      runInvoiceCycle({
        db: t.ctx.database.db,
        companyId,
        shopConnectionId,
        provider: killer.provider,
        shop,
        settings,
        invoiceLink: ({ id }) => `http://panel.test/api/public/invoices/${id}`,
        leaseMs: 0,
        limit: 150,
      }).catch((e) => {
        if (!(e instanceof WorkerKilled)) throw e;
        return null;
      });

    let passes = 0;
    for (; passes < 80; passes++) {
      // Two workers at once on the same company: the claim keeps them off each other's rows.
      await Promise.all([cycle(), cycle()]);
      const rows = await t.ctx.database.db.select().from(einvoices).where(eq(einvoices.companyId, companyId));
      const done = rows.filter((r) => r.state !== "prepared" && r.attachedAt !== null);
      if (rows.length === ORDERS && done.length === ORDERS) break;
    }

    const rows = await t.ctx.database.db.select().from(einvoices).where(eq(einvoices.companyId, companyId));
    expect(killer.kills()).toBe(KILLS);
    expect(rows).toHaveLength(ORDERS);
    expect(new Set(rows.map((r) => r.orderNo)).size).toBe(ORDERS);
    expect(rows.filter((r) => r.state === "error")).toEqual([]);
    expect(rows.filter((r) => r.state === "prepared")).toEqual([]);
    // Gap-free numbers: WEB2026000000001 … WEB2026000000{ORDERS}.
    const sequences = rows
      .map((r) => parseInvoiceNumber(r.number)?.sequence)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(sequences).toEqual(Array.from({ length: ORDERS }, (_, i) => i + 1));
    // The provider holds one document per order: no buyer got two invoices.
    const perOrder = new Map<string, number>();
    for (const inv of emu.state.outbox.values())
      perOrder.set(inv.localId ?? "", (perOrder.get(inv.localId ?? "") ?? 0) + 1);
    expect(emu.state.outbox.size).toBe(ORDERS);
    expect([...perOrder.values()].every((n) => n === 1)).toBe(true);
    expect(perOrder.size).toBe(ORDERS);
    // Every ledger ETTN is the one the provider holds for that order.
    for (const r of rows) expect(emu.state.find(r.ettn)?.localId).toBe(r.orderNo);
    // Registered buyers got an e-Fatura, the others e-Arşiv.
    expect(rows.filter((r) => r.profile === "TEMELFATURA").length).toBe(Math.ceil(ORDERS / 10));
    // Number and PDF link reached every shop order.
    expect(attached.size).toBe(ORDERS);
    for (const r of rows) {
      const got = attached.get(r.shopOrderId)?.[0]?.invoice;
      expect(got?.number).toBe(r.number);
      expect(got?.uuid).toBe(r.ettn);
      expect(got?.url).toContain(`/api/public/invoices/${r.id}`);
    }
    console.log(
      `invoices: ${ORDERS} orders, ${KILLS} kills, ${passes + 1} passes, faults 10% 5xx / 5% timeouts / 5% dropped answers`,
    );
  }, 600_000);
});
