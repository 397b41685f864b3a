import {
  InMemoryRateLimitStore,
  startTrendyolEFaturamEmulator,
  type TrendyolEFaturamEmulator,
  TrendyolEFaturamProvider,
} from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InvoiceCycleInput } from "../../src/modules/invoices/cycle-types.ts";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { retryDelayMs } from "../../src/modules/invoices/send.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import {
  type Emu,
  invoicingCompanyWith,
  makeOrders,
  putOrdersInLedger,
  recordingShop,
  signedInCompany,
} from "./invoice-support.ts";

const REGISTERED = [{ vkn: "1234567890", title: "Örnek Ticaret A.Ş.", enabled: true }];
/** makeOrders takes its registered e-Fatura buyers from an emulator's user list; here Trendyol's taxpayers. */
const buyers = { state: { users: REGISTERED } } as unknown as Emu;
/** Every test company signs in to the one emulated Trendyol account, whose numbers are unique: a series each. */
const settingsFor = (series: string) => ({
  series,
  draft: false,
  invoiceWhen: "all" as const,
  eInvoiceProfile: "TEMELFATURA" as const,
});

let t: TestApp;
let emu: TrendyolEFaturamEmulator;

beforeAll(async () => {
  t = await startTestApp();
  emu = await startTrendyolEFaturamEmulator({ taxpayers: REGISTERED.map((u) => u.vkn) });
  // A server and an emulator on the shared box: more than the default minute when it is busy.
}, 180_000);
afterAll(async () => {
  await emu?.close();
  await t?.close();
});

function provider(timeoutMs = 400) {
  return new TrendyolEFaturamProvider(emu.credentials, {
    companyId: "t",
    rateLimitStore: new InMemoryRateLimitStore(),
    budget: { requests: 1000, windowMs: 1000 },
    timeoutMs,
    retry: { maxRetries: 1, baseDelayMs: 2, maxDelayMs: 10, maxRetryAfterMs: 1000 },
  });
}

/** A company whose "ERP" is Trendyol e-Faturam (24), with seller data and a shop connection. */
async function trendyolCompany() {
  const { companyId, token } = await signedInCompany(t);
  const shopId = await invoicingCompanyWith(t.ctx, companyId, {
    systemType: 24,
    credentials: emu.credentials,
  });
  return { companyId, token, shopConnectionId: shopId };
}

const rowsOf = (companyId: number) =>
  t.ctx.database.db
    .select()
    .from(einvoices)
    .where(eq(einvoices.companyId, companyId))
    .orderBy(asc(einvoices.id));

describe("Trendyol e-Faturam through the invoice flow", () => {
  it("sends each order exactly once in the vendor's JSON under 5xx, timeouts and dropped answers", async () => {
    const c = await trendyolCompany();
    const orders = makeOrders(40, buyers, { prefix: "TY", eInvoiceEvery: 5 });
    await putOrdersInLedger(t.ctx, c.companyId, c.shopConnectionId, orders);
    emu.faults.set({ rate5xx: 0.1, timeoutRate: 0.05, dropAfterWriteRate: 0.05, hangMs: 300 });
    const { shop, attached } = recordingShop();
    const p = provider(200);
    const cycle = () =>
      runInvoiceCycle({
        db: t.ctx.database.db,
        companyId: c.companyId,
        shopConnectionId: c.shopConnectionId,
        provider: p,
        shop,
        settings: settingsFor("TRA"),
        leaseMs: 0,
      });
    for (let pass = 0; pass < 40; pass++) {
      await Promise.all([cycle(), cycle()]);
      const rows = await rowsOf(c.companyId);
      if (rows.length === 40 && rows.every((r) => r.state !== "prepared" && r.attachedAt)) break;
    }
    emu.faults.clear();
    const rows = await rowsOf(c.companyId);
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.state === "prepared" || r.state === "error")).toEqual([]);
    // One document per ETTN and per number at the service, and one per order.
    const mine = [...emu.documents.values()].filter((d) => rows.some((r) => r.ettn === d.uuid));
    expect(mine).toHaveLength(40);
    expect(new Set(mine.map((d) => d.body.localReferenceId)).size).toBe(40);
    expect(mine.filter((d) => d.kind === "outgoing-einvoice")).toHaveLength(8);
    // Gap-free numbers TRN<year>000000001 … 40.
    const seq = rows.map((r) => Number(r.number.slice(7))).sort((x, y) => x - y);
    expect(seq).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(attached.size).toBe(40);
    // 40 orders through faults on a shared, loaded box: more than the default 30 s (no timing asserted).
  }, 180_000);

  it("an order cancelled within the period has its e-Arşiv cancelled at Trendyol once, shown with why", async () => {
    const c = await trendyolCompany();
    const orders = makeOrders(4, buyers, { prefix: "TI" });
    await putOrdersInLedger(t.ctx, c.companyId, c.shopConnectionId, orders);
    const input: InvoiceCycleInput = {
      db: t.ctx.database.db,
      companyId: c.companyId,
      shopConnectionId: c.shopConnectionId,
      provider: provider(),
      shop: recordingShop().shop,
      settings: settingsFor("TRB"),
    };
    await runInvoiceCycle(input);
    const cancelled = orders.slice(0, 2);
    for (const o of cancelled) {
      await t.ctx.database.db
        .update(engineSchema.orderLedger)
        .set({ payload: { ...o, status: "CANCELLED" } })
        .where(
          and(
            eq(engineSchema.orderLedger.companyId, c.companyId),
            eq(engineSchema.orderLedger.orderNo, o.orderNo),
          ),
        );
    }
    const report = await runInvoiceCycle(input);
    expect(report).toMatchObject({ returns: 2, cancelled: 2 });
    expect((await runInvoiceCycle(input)).returns).toBe(0);
    const rows = await rowsOf(c.companyId);
    // The seller issues no IADE: numbers stay the four sales'.
    expect(rows.filter((r) => r.type === "IADE")).toEqual([]);
    expect(rows.map((r) => Number(r.number.slice(7))).sort((x, y) => x - y)).toEqual([1, 2, 3, 4]);
    const gone = rows.filter((r) => r.state === "cancelled");
    expect(gone.map((r) => r.orderNo).sort()).toEqual(cancelled.map((o) => o.orderNo).sort());
    // Trendyol keeps them as cancelled (status 305).
    for (const r of gone) expect(emu.documents.get(r.ettn)?.status).toBe(305);
    const listed = await call(t.app, "GET", "/api/invoices", { token: c.token });
    const shown = listed.body.data.filter((r: { returnRoute: string | null }) => r.returnRoute === "cancel");
    expect(shown).toHaveLength(2);
    expect(shown[0].returnWhy).toContain("8 günlük iptal süresi");
  });

  it("retries a transiently failed send with growing waits, looks it up first, and stops at the cap", async () => {
    const c = await trendyolCompany();
    await putOrdersInLedger(t.ctx, c.companyId, c.shopConnectionId, makeOrders(1, buyers, { prefix: "TR" }));
    let clock = Date.parse("2026-11-23T09:00:00Z");
    const input: InvoiceCycleInput = {
      db: t.ctx.database.db,
      companyId: c.companyId,
      shopConnectionId: c.shopConnectionId,
      provider: provider(),
      settings: settingsFor("TRC"),
      now: () => new Date(clock),
      leaseMs: 0,
      retry: { baseMs: 60_000, maxMs: 240_000, maxAttempts: 4 },
    };
    expect(retryDelayMs(1, { baseMs: 60_000, maxMs: 240_000, maxAttempts: 4 })).toBe(60_000);
    expect(retryDelayMs(5, { baseMs: 60_000, maxMs: 240_000, maxAttempts: 4 })).toBe(240_000);
    // Every send answers 503 (the HTTP client's own retry included).
    emu.faults.enqueue({ kind: "5xx", operation: "createEArchive", times: 100 });
    expect((await runInvoiceCycle(input)).transient).toBe(1);
    let [row] = await rowsOf(c.companyId);
    expect(row).toMatchObject({ state: "prepared", sendAttempts: 1 });
    expect(row?.nextAttemptAt?.getTime()).toBe(clock + 60_000);
    emu.recorder.clear();
    // Before the wait is over nothing is sent.
    clock += 30_000;
    await runInvoiceCycle(input);
    expect(
      emu.recorder.list().filter((r) => r.method === "POST" && r.path.endsWith("/earchive")),
    ).toHaveLength(0);
    // Second and third tries: each looks the ETTN up before sending again; waits double.
    clock += 30_000;
    await runInvoiceCycle(input);
    [row] = await rowsOf(c.companyId);
    expect(row?.sendAttempts).toBe(2);
    expect(row?.nextAttemptAt?.getTime()).toBe(clock + 120_000);
    const paths = emu.recorder.list().map((r) => r.path);
    expect(paths.indexOf(`/api/invoice/documents/earchive/status/${row?.ettn}`)).toBeLessThan(
      paths.indexOf("/api/invoice/documents/earchive"),
    );
    clock += 120_000;
    await runInvoiceCycle(input);
    clock += 240_000;
    const last = await runInvoiceCycle(input);
    expect(last.failed).toBe(1);
    [row] = await rowsOf(c.companyId);
    expect(row).toMatchObject({ state: "error", sendAttempts: 4 });
    expect(row?.message).toMatch(/4 denemede geçici hata/);
    emu.faults.clear();
    expect([...emu.documents.values()].filter((d) => d.uuid === row?.ettn)).toHaveLength(0);
  });

  it("at the cap, a send that did land (answer lost) is adopted, not marked failed", async () => {
    const c = await trendyolCompany();
    await putOrdersInLedger(t.ctx, c.companyId, c.shopConnectionId, makeOrders(1, buyers, { prefix: "TD" }));
    const input: InvoiceCycleInput = {
      db: t.ctx.database.db,
      companyId: c.companyId,
      shopConnectionId: c.shopConnectionId,
      provider: provider(),
      settings: settingsFor("TRD"),
      leaseMs: 0,
      retry: { baseMs: 0, maxAttempts: 1 },
    };
    emu.faults.enqueue(
      { kind: "dropAfterWrite", operation: "createEArchive" },
      { kind: "5xx", operation: "earchiveStatus", times: 4 },
    );
    // sendOnce's own lookup fails (503 twice), and so does the last lookup at the cap (1 try): it waits.
    await runInvoiceCycle(input);
    let [row] = await rowsOf(c.companyId);
    expect(row?.state).toBe("prepared");
    const next = await runInvoiceCycle(input);
    [row] = await rowsOf(c.companyId);
    expect(next.adopted).toBe(1);
    expect(row?.state).not.toBe("error");
    expect([...emu.documents.values()].filter((d) => d.uuid === row?.ettn)).toHaveLength(1);
  });
});
