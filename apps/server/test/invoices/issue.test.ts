/**
 * The invoice issuer's own rules (issue 41), against a scripted e-invoice service on a real database
 * (PGlite, or PostgreSQL when DATABASE_URL is set): which orders are invoiced and how, the profile, the
 * return invoice, the file-only path, the claim and the lookups before a second send, the retry waits,
 * the status refresh and what goes to the shop. The emulator suites (exactly-once, Trendyol) run the
 * same cycle under faults.
 */

import { randomUUID } from "node:crypto";
import {
  ConnectorError,
  type ConnectorErrorInit,
  type EInvoiceProvider,
  type EInvoiceStatusInfo,
  type InvoiceAttachment,
  type Order,
  type SendInvoiceInput,
  type SentInvoice,
  type ShopConnector,
} from "@ep/connectors";
import { message } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { InvoiceCycleInput, InvoiceJobSettings } from "../../src/modules/invoices/cycle-types.ts";
import { buildFor, invoicesWithOrders } from "../../src/modules/invoices/documents.ts";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { sellerFromCompany } from "../../src/modules/invoices/seller.ts";
import { moduleDatabase } from "../support/module-database.ts";
import { type Emu, makeOrders } from "./invoice-support.ts";

const REGISTERED = [{ vkn: "1234567890", title: "Örnek Ticaret A.Ş.", enabled: true }];
const buyers = { state: { users: REGISTERED } } as unknown as Emu;
const NOW = new Date("2026-11-20T12:00:00Z");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const store = moduleDatabase();

const fail = (reason: ConnectorErrorInit["reason"], text: string = reason, maybeApplied = false) =>
  new ConnectorError(text, { reason, maybeApplied });

/** A company with seller data and a shop connection, its orders in the ledger. */
async function company(orders: Order[], seller = true) {
  const at = await store.company(
    seller
      ? {
          taxNumber: "3880512345",
          taxOffice: "Kadıköy",
          address: "Moda Cad. No: 12, Kadıköy/İstanbul",
          website: "https://deneme-magaza.com.tr",
        }
      : {},
  );
  for (const [i, o] of orders.entries())
    await store.db.insert(engineSchema.orderLedger).values({
      ...at,
      orderNo: o.orderNo,
      shopOrderId: o.id,
      orderDate: new Date(NOW.getTime() - (orders.length - i) * 60_000),
      payload: o,
    });
  return at;
}

type Script = {
  registered?: (vkn: string) => Promise<boolean>;
  cancel?: (ettn: string, n: number) => Promise<void> | undefined;
  send?: (input: SendInvoiceInput, n: number) => Promise<Partial<SentInvoice> | undefined> | undefined;
  query?: (ettns: string[]) => Promise<EInvoiceStatusInfo[]> | undefined;
};

/** A scripted e-invoice service holding what it was sent; every call recorded. */
function service(script: Script = {}) {
  const held = new Map<string, EInvoiceStatusInfo>();
  const sends: SendInvoiceInput[] = [];
  const queries: string[][] = [];
  const cancels: string[] = [];
  const notes: string[] = [];
  const provider = {
    descriptor: { system: "uyumsoft", name: "Uyumsoft" },
    isEInvoiceUser: (vkn: string) =>
      script.registered?.(vkn) ?? Promise.resolve(REGISTERED.some((u) => u.vkn === vkn)),
    async sendInvoice(input: SendInvoiceInput): Promise<SentInvoice> {
      sends.push(input);
      const answer = await script.send?.(input, sends.length);
      held.set(input.ettn, { ettn: input.ettn, found: true, status: answer?.status ?? "queued" });
      return { ettn: input.ettn, status: "queued", existed: false, ...answer };
    },
    async cancelEArchive(ettn: string, note: string): Promise<void> {
      cancels.push(ettn);
      notes.push(note);
      await script.cancel?.(ettn, cancels.length);
      held.set(ettn, { ettn, found: true, status: "cancelled" });
    },
    async queryStatus(ettns: string[]): Promise<EInvoiceStatusInfo[]> {
      queries.push(ettns);
      const scripted = script.query?.(ettns);
      if (scripted) return scripted;
      return ettns.map((ettn) => held.get(ettn) ?? { ettn, found: false });
    },
  } as unknown as EInvoiceProvider;
  return { provider, held, sends, queries, cancels, notes };
}

function recordingShop(refuse?: (orderId: string) => Error | undefined) {
  const attached: [string, InvoiceAttachment][] = [];
  const shop = {
    async attachInvoice(orderId: string, attachment: InvoiceAttachment) {
      const error = refuse?.(orderId);
      if (error) throw error;
      attached.push([orderId, attachment]);
    },
  } as unknown as ShopConnector;
  return { shop, attached };
}

const settings = (over: Partial<InvoiceJobSettings> = {}): InvoiceJobSettings => ({
  series: "EPA",
  draft: false,
  invoiceWhen: "all",
  eInvoiceProfile: "TICARIFATURA",
  ...over,
});

function cycle(
  at: { companyId: number; shopConnectionId: number },
  over: Partial<InvoiceCycleInput> = {},
  now = NOW,
) {
  return runInvoiceCycle({
    db: store.db,
    companyId: at.companyId,
    shopConnectionId: at.shopConnectionId,
    settings: settings(),
    now: () => now,
    ...over,
  });
}

const rowsOf = (companyId: number) =>
  store.db.select().from(einvoices).where(eq(einvoices.companyId, companyId)).orderBy(asc(einvoices.id));

const byOrder = async (companyId: number) => new Map((await rowsOf(companyId)).map((r) => [r.orderNo, r]));

describe("which orders are invoiced, and how", () => {
  it("gives each eligible order its ETTN, gap-free number, profile, buyer and amounts, in order date order", async () => {
    const orders = makeOrders(4, buyers, { prefix: "IS1", eInvoiceEvery: 2 });
    orders[3]!.status = "CANCELLED";
    const at = await company(orders);
    const s = service();
    const report = await cycle(at, { provider: s.provider });
    expect(report).toMatchObject({ prepared: 3, sent: 3, failed: 0, transient: 0, returns: 0, generated: 0 });
    const rows = await rowsOf(at.companyId);
    expect(rows.map((r) => r.orderNo)).toEqual(["IS1-00001", "IS1-00002", "IS1-00003"]);
    expect(rows.map((r) => r.number)).toEqual(["EPA2026000000001", "EPA2026000000002", "EPA2026000000003"]);
    expect(rows.map((r) => r.profile)).toEqual(["TICARIFATURA", "EARSIVFATURA", "TICARIFATURA"]);
    const first = rows[0]!;
    expect(first).toMatchObject({
      shopOrderId: "IS1-id-1",
      buyer: REGISTERED[0]!.title,
      total: orders[0]!.totals.grandTotal,
      currency: "TRY",
      issueDate: "2026-11-20",
      type: "SATIS",
      state: "queued",
      sendAttempts: 1,
    });
    expect(first.ettn).toMatch(UUID);
    expect(new Set(rows.map((r) => r.ettn)).size).toBe(3);
    expect(rows[1]!.buyer).toBe(`${orders[1]!.customer.firstName} ${orders[1]!.customer.lastName}`);
    // What went to the service: the document, as an e-Fatura or an e-Arşiv, under the order number.
    const sent = new Map(s.sends.map((x) => [x.localId, x]));
    expect(sent.get("IS1-00001")).toMatchObject({ ettn: first.ettn, draft: false, scenario: "eInvoice" });
    expect(sent.get("IS1-00002")!.scenario).toBe("eArchive");
    expect(sent.get("IS1-00001")!.xml).toContain(`<cbc:UUID>${first.ettn}</cbc:UUID>`);
    expect(sent.get("IS1-00001")!.xml).toContain("EPA2026000000001");
    expect(sent.get("IS1-00001")!.document).toMatchObject({ number: "EPA2026000000001" });
    // A second pass invoices nothing again.
    expect((await cycle(at, { provider: s.provider })).prepared).toBe(0);
    expect(s.sends).toHaveLength(3);
  });

  it("names the buyer by company, else by person, else by the shop's customer ref; numbers the Turkish year", async () => {
    const orders = makeOrders(3, buyers, { prefix: "IS2" });
    orders[0]!.customer = { ...orders[0]!.customer, companyName: "  ", firstName: "Ali", lastName: "Kaya" };
    orders[1]!.customer = { ...orders[1]!.customer, companyName: undefined, firstName: " ", lastName: "" };
    orders[2]!.customer = { ...orders[2]!.customer, companyName: " Kaya Ltd. " };
    const at = await company(orders);
    // 22:30 UTC on New Year's Eve is already 2027 in Türkiye.
    await cycle(at, {}, new Date("2026-12-31T22:30:00Z"));
    const rows = await rowsOf(at.companyId);
    expect(rows.map((r) => r.buyer)).toEqual(["Ali Kaya", orders[1]!.customer.ref, "Kaya Ltd."]);
    expect(rows[0]).toMatchObject({ issueDate: "2027-01-01", number: "EPA2027000000001" });
  });

  it("takes the registered-user directory over the service's; without either every buyer gets an e-Arşiv", async () => {
    const orders = makeOrders(1, buyers, { prefix: "IS3", eInvoiceEvery: 1 });
    const asked: string[] = [];
    const directory = {
      isEInvoiceUser: async (vkn: string) => {
        asked.push(vkn);
        return false;
      },
    };
    const viaDirectory = await company(orders);
    await cycle(viaDirectory, { provider: service().provider, directory });
    expect(asked).toEqual(["1234567890"]);
    expect((await rowsOf(viaDirectory.companyId))[0]!.profile).toBe("EARSIVFATURA");

    const viaService = await company(makeOrders(1, buyers, { prefix: "IS3b", eInvoiceEvery: 1 }));
    await cycle(viaService, {
      provider: service().provider,
      settings: settings({ eInvoiceProfile: "TEMELFATURA" }),
    });
    expect((await rowsOf(viaService.companyId))[0]!.profile).toBe("TEMELFATURA");

    const portal = await company(makeOrders(1, buyers, { prefix: "IS3c", eInvoiceEvery: 1 }));
    await cycle(portal);
    expect((await rowsOf(portal.companyId))[0]!.profile).toBe("EARSIVFATURA");
  });

  it("leaves an order whose buyer lookup failed transiently for the next pass; other failures stop the pass", async () => {
    const orders = makeOrders(2, buyers, { prefix: "IS4", eInvoiceEvery: 1 });
    const at = await company(orders);
    let calls = 0;
    const flaky = service({
      registered: async () => {
        if (++calls === 1) throw fail("timeout");
        return true;
      },
    });
    const report = await cycle(at, { provider: flaky.provider });
    expect(report).toMatchObject({ prepared: 1, transient: 1 });
    expect((await cycle(at, { provider: flaky.provider })).prepared).toBe(1);

    const broken = await company(makeOrders(1, buyers, { prefix: "IS4b", eInvoiceEvery: 1 }));
    const refused = service({ registered: () => Promise.reject(fail("auth")) });
    await expect(cycle(broken, { provider: refused.provider })).rejects.toThrow("auth");
  });

  it("refuses an invalid series instead of skipping the orders", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IS5" }));
    await expect(cycle(at, { settings: settings({ series: "ep" }) })).rejects.toThrow(RangeError);
    expect(await rowsOf(at.companyId)).toEqual([]);
  });

  it("takes only the eligible orders, at most `limit` a pass", async () => {
    const orders = makeOrders(4, buyers, { prefix: "IS6" });
    const at = await company(orders);
    // makeOrders: every second order is SHIPPED, all are PAID.
    await cycle(at, { settings: settings({ invoiceWhen: "shipped" }) });
    expect((await rowsOf(at.companyId)).map((r) => r.orderNo)).toEqual(["IS6-00002", "IS6-00004"]);
    const limited = await company(makeOrders(3, buyers, { prefix: "IS6b" }));
    expect((await cycle(limited, { limit: 2 })).prepared).toBe(2);
  });

  it("two passes at once invoice each order once, with no gap in the numbers", async () => {
    const at = await company(makeOrders(6, buyers, { prefix: "IS7" }));
    const [a, b] = await Promise.all([cycle(at), cycle(at)]);
    expect(a.prepared + b.prepared).toBe(6);
    expect((await rowsOf(at.companyId)).map((r) => r.number).sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `EPA2026${String(n).padStart(9, "0")}`),
    );
  });
});

describe("a portal without an API", () => {
  it("generates the documents for the export; one whose document cannot be built is marked with why", async () => {
    const orders = makeOrders(2, buyers, { prefix: "IG1" });
    orders[1]!.lines = [{ ...orders[1]!.lines[0]!, qty: 0 }];
    const at = await company(orders);
    const report = await cycle(at, { shop: recordingShop().shop });
    expect(report).toMatchObject({ prepared: 2, generated: 1, failed: 1, sent: 0, attached: 0 });
    const rows = await byOrder(at.companyId);
    expect(rows.get("IG1-00001")).toMatchObject({ state: "generated", message: null });
    expect(rows.get("IG1-00001")!.updatedAt.toISOString()).toBe(NOW.toISOString());
    expect(rows.get("IG1-00002")!.state).toBe("error");
    expect(rows.get("IG1-00002")!.message).toMatch(/Miktar/);
  });

  it("an e-Arşiv without the internet-sale data waits unnumbered and says what it lacks; an e-Fatura does not", async () => {
    const [plain, registered] = makeOrders(2, buyers, { prefix: "IW1", eInvoiceEvery: 2 }).reverse() as [
      Order,
      Order,
    ];
    const { payment: _payment, ...unpaid } = plain;
    const at = await company([unpaid, registered]);
    const s = service();
    const first = await cycle(at, { provider: s.provider });
    expect(first).toMatchObject({ prepared: 1, waitingData: 1 });
    expect(first.waitingDataReasons.join()).toContain("ödeme şekli");
    expect((await rowsOf(at.companyId)).map((r) => r.profile)).toEqual(["TICARIFATURA"]);
    // The payment arrives with the order's next read: the e-Arşiv is numbered next, no gap.
    await store.db
      .update(engineSchema.orderLedger)
      .set({ payload: plain })
      .where(eq(engineSchema.orderLedger.orderNo, plain.orderNo));
    expect(await cycle(at, { provider: s.provider })).toMatchObject({ prepared: 1, waitingData: 0 });
    expect((await rowsOf(at.companyId)).map((r) => r.number)).toEqual([
      "EPA2026000000001",
      "EPA2026000000002",
    ]);
    // Without the seller's web address every e-Arşiv waits, with the place to fix it.
    const noSite = await store.company({
      taxNumber: "3880512345",
      taxOffice: "Kadıköy",
      address: "Moda Cad. No: 12, Kadıköy/İstanbul",
    });
    const [o] = makeOrders(1, buyers, { prefix: "IW2" }) as [Order];
    await store.db.insert(engineSchema.orderLedger).values({
      ...noSite,
      orderNo: o.orderNo,
      shopOrderId: o.id,
      orderDate: NOW,
      payload: o,
    });
    const waited = await cycle(noSite, { provider: s.provider });
    expect(waited).toMatchObject({ prepared: 0, waitingData: 1 });
    expect(waited.waitingDataReasons.join()).toContain("Ayarlar › Firma");
  });

  it("a transfer or a payment at the door, which no shop dates, goes out with the invoice day as its payment date", async () => {
    const [plain] = makeOrders(1, buyers, { prefix: "IW3" }) as [Order];
    const transfer: Order = { ...plain, payment: { means: "EFT/HAVALE" } };
    const at = await company([transfer]);
    const s = service();
    expect(await cycle(at, { provider: s.provider })).toMatchObject({ prepared: 1, waitingData: 0, sent: 1 });
    expect(s.sends[0]!.xml).toContain("<cbc:PaymentDueDate>2026-11-20</cbc:PaymentDueDate>");
    // The stored order keeps what the shop said: the date is the document's, not the order's.
    const [row] = await store.db
      .select({ payload: engineSchema.orderLedger.payload })
      .from(engineSchema.orderLedger)
      .where(eq(engineSchema.orderLedger.orderNo, transfer.orderNo));
    expect((row!.payload as Order).payment).toEqual({ means: "EFT/HAVALE" });
  });

  it("says what the company settings lack before anything is built", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IG2" }), false);
    await expect(cycle(at)).rejects.toThrow(/eksik/);
  });
});

describe("returns by the rules (einvoice's returnRoute)", () => {
  it("a consumer's return after the cancellation period: no document from the seller, the route and why kept", async () => {
    const orders = makeOrders(3, buyers, { prefix: "IR1" });
    const at = await company(orders);
    const s = service();
    await cycle(at, { provider: s.provider });
    for (const no of ["IR1-00001", "IR1-00002"]) {
      const o = orders.find((x) => x.orderNo === no)!;
      await store.db
        .update(engineSchema.orderLedger)
        .set({
          payload: {
            ...o,
            status: no === "IR1-00001" ? "İptal Edildi" : o.status,
            paymentStatus: no === "IR1-00002" ? "REFUNDED" : "PAID",
          },
        })
        .where(eq(engineSchema.orderLedger.orderNo, no));
    }
    const sendsBefore = s.sends.length;
    // Past the e-Arşiv cancellation period (8 days): a consumer issues no invoice, nor does the seller.
    const report = await cycle(at, { provider: s.provider }, new Date("2026-12-05T09:00:00Z"));
    expect(report).toMatchObject({ returns: 2, sent: 0, cancelled: 0 });
    expect(s.cancels).toEqual([]);
    expect(s.sends).toHaveLength(sendsBefore);
    const rows = await rowsOf(at.companyId);
    expect(rows.filter((r) => r.type === "IADE")).toEqual([]);
    for (const no of ["IR1-00001", "IR1-00002"])
      expect(rows.find((r) => r.orderNo === no)).toMatchObject({
        returnRoute: "none",
        returnReason: "consumerAfterPeriod",
      });
    expect(rows.find((r) => r.orderNo === "IR1-00003")?.returnRoute).toBeNull();
    // Decided once.
    expect((await cycle(at, { provider: s.provider }, new Date("2026-12-05T09:00:00Z"))).returns).toBe(0);
  });

  it("a returned e-Arşiv within its period is cancelled at the service, once; an e-Fatura buyer issues the IADE", async () => {
    const orders = makeOrders(3, buyers, { prefix: "RC1", eInvoiceEvery: 3 });
    const at = await company(orders);
    let unanswered = true;
    const s = service({
      // The first cancels' answers are lost: the next pass settles them, never cancelling twice after one landed.
      cancel: () => (unanswered ? Promise.reject(fail("timeout", "timeout", true)) : undefined),
    });
    await cycle(at, { provider: s.provider });
    const before = await byOrder(at.companyId);
    expect(before.get("RC1-00001")?.profile).toBe("TICARIFATURA");
    expect(before.get("RC1-00002")?.profile).toBe("EARSIVFATURA");
    for (const o of orders)
      await store.db
        .update(engineSchema.orderLedger)
        .set({ payload: { ...o, status: "RETURNED" } })
        .where(eq(engineSchema.orderLedger.orderNo, o.orderNo));
    const later = new Date("2026-11-22T09:00:00Z");
    const first = await cycle(at, { provider: s.provider }, later);
    // The lost answers: the lookup finds nothing cancelled (the scripted service marks only a cancel that
    // returned), so both wait; the e-Fatura's return is the buyer's IADE at once.
    expect(first).toMatchObject({ returns: 1, cancelled: 0 });
    unanswered = false;
    const second = await cycle(at, { provider: s.provider }, later);
    expect(second).toMatchObject({ returns: 2, cancelled: 2 });
    expect((await cycle(at, { provider: s.provider }, later)).returns).toBe(0);
    const rows = await rowsOf(at.companyId);
    expect(rows.filter((r) => r.type === "IADE")).toEqual([]);
    expect(rows.find((r) => r.orderNo === "RC1-00001")).toMatchObject({
      returnRoute: "iade",
      returnReason: "buyerIssuesIade",
      state: "queued",
    });
    for (const no of ["RC1-00002", "RC1-00003"])
      expect(rows.find((r) => r.orderNo === no)).toMatchObject({
        state: "cancelled",
        returnRoute: "cancel",
        returnReason: "cancelWithinPeriod",
      });
    // Two lost cancels, then one that landed for each e-Arşiv: none after it.
    expect(s.cancels).toHaveLength(4);
  });

  it("no return route for a sale not out yet or one that failed; a portal's is cancelled there", async () => {
    const orders = makeOrders(2, buyers, { prefix: "IR2" });
    const at = await company(orders);
    await cycle(at, { provider: service({ send: () => Promise.reject(fail("validation")) }).provider });
    const cancelled = orders.map((o) => ({ ...o, status: "CANCELLED" }));
    for (const o of cancelled)
      await store.db
        .update(engineSchema.orderLedger)
        .set({ payload: o })
        .where(eq(engineSchema.orderLedger.orderNo, o.orderNo));
    expect((await rowsOf(at.companyId)).map((r) => r.state)).toEqual(["error", "error"]);
    expect((await cycle(at, { provider: service().provider })).returns).toBe(0);
    // Generated for the export counts as out.
    const portal = await company(makeOrders(1, buyers, { prefix: "IR3" }));
    await cycle(portal);
    await store.db
      .update(engineSchema.orderLedger)
      .set({ payload: { ...makeOrders(1, buyers, { prefix: "IR3" })[0]!, status: "CANCELLED" } })
      .where(eq(engineSchema.orderLedger.orderNo, "IR3-00001"));
    // A portal without an API cannot cancel: the merchant is told to cancel it there.
    expect(await cycle(portal)).toMatchObject({ returns: 1, generated: 0 });
    expect((await rowsOf(portal.companyId))[0]).toMatchObject({
      returnRoute: "cancel",
      returnReason: "noApi",
    });
    expect(await cycle(portal)).toMatchObject({ returns: 0, generated: 0 });
  });
});

describe("sending exactly once", () => {
  it("keeps drafts at the service when asked, and counts a send the service already held as adopted", async () => {
    const at = await company(makeOrders(2, buyers, { prefix: "IX1" }));
    const s = service({
      send: async (_, n) => (n === 2 ? { existed: true, status: "sent" } : { status: "draft" }),
    });
    const report = await cycle(at, { provider: s.provider, settings: settings({ draft: true }) });
    expect(report).toMatchObject({ sent: 1, adopted: 1 });
    expect(s.sends.every((x) => x.draft === true)).toBe(true);
    expect((await rowsOf(at.companyId)).map((r) => r.state)).toEqual(["draft", "sent"]);
  });

  it("a send left unanswered is looked up first on the next pass, after the lease; one the service holds is adopted", async () => {
    const at = await company(makeOrders(2, buyers, { prefix: "IX2" }));
    // Both sends time out; the first one did reach the service.
    const s = service({
      send: async (input, n) => {
        if (n === 1)
          s.held.set(input.ettn, {
            ettn: input.ettn,
            found: true,
            status: "approved",
            providerStatus: "Onaylandı",
            message: "ok",
          });
        throw fail("timeout");
      },
    });
    const first = await cycle(at, { provider: s.provider, leaseMs: 1000, retry: { baseMs: 0 } });
    expect(first).toMatchObject({ transient: 2, sent: 0 });
    const waiting = await rowsOf(at.companyId);
    expect(waiting.map((r) => [r.state, r.sendAttempts, r.message])).toEqual([
      ["prepared", 1, "timeout"],
      ["prepared", 1, "timeout"],
    ]);
    // Within the lease nobody touches them (another worker may still be on them).
    s.queries.length = 0;
    const soon = await cycle(
      at,
      { provider: s.provider, leaseMs: 1000, retry: { baseMs: 0 } },
      new Date(NOW.getTime() + 500),
    );
    expect(soon).toMatchObject({ sent: 0, adopted: 0, transient: 0 });
    expect(s.sends).toHaveLength(2);

    const later = new Date(NOW.getTime() + 5000);
    const fixed = service();
    fixed.held.set(waiting[0]!.ettn, s.held.get(waiting[0]!.ettn)!);
    const report = await cycle(at, { provider: fixed.provider, leaseMs: 1000, retry: { baseMs: 0 } }, later);
    expect(report).toMatchObject({ adopted: 1, sent: 1 });
    expect(fixed.queries[0]).toEqual([waiting[0]!.ettn]);
    expect(fixed.sends.map((x) => x.ettn)).toEqual([waiting[1]!.ettn]);
    const rows = await rowsOf(at.companyId);
    expect(rows[0]).toMatchObject({
      state: "approved",
      providerStatus: "Onaylandı",
      message: "ok",
      sendAttempts: 2,
    });
    expect(rows[0]!.updatedAt.toISOString()).toBe(later.toISOString());
    expect(rows[1]).toMatchObject({ state: "queued", sendAttempts: 2 });
  });

  it("waits longer after each transient failure, and at the cap looks the ETTN up once more before giving up", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IX3" }));
    const s = service({ send: () => Promise.reject(fail("server_error", "503")) });
    const retry = { baseMs: 1000, maxMs: 3000, maxAttempts: 3 };
    const input = { provider: s.provider, leaseMs: 0, retry };
    expect((await cycle(at, input)).transient).toBe(1);
    const [r1] = await rowsOf(at.companyId);
    expect(r1!.nextAttemptAt?.toISOString()).toBe(new Date(NOW.getTime() + 1000).toISOString());
    expect(r1!.message).toBe("503");
    // Not before its time.
    expect((await cycle(at, input, new Date(NOW.getTime() + 999))).transient).toBe(0);
    const t2 = new Date(NOW.getTime() + 1000);
    expect((await cycle(at, input, t2)).transient).toBe(1);
    const [r2] = await rowsOf(at.companyId);
    expect(r2!.nextAttemptAt?.toISOString()).toBe(new Date(t2.getTime() + 2000).toISOString());
    expect(r2!.state).toBe("prepared");
    // Third send: the cap. The lookup that cannot be answered keeps it waiting.
    const t3 = new Date(t2.getTime() + 2000);
    let down = true;
    const s3 = service({
      send: () => Promise.reject(fail("server_error", "503")),
      query: (ettns) =>
        down && ettns.length === 1 && s3.sends.length > 0 ? Promise.reject(fail("timeout")) : undefined,
    });
    expect(await cycle(at, { ...input, provider: s3.provider }, t3)).toMatchObject({
      transient: 1,
      failed: 0,
    });
    expect((await rowsOf(at.companyId))[0]!.state).toBe("prepared");
    // Answered: not there, so it is an error after that many tries.
    down = false;
    s3.sends.length = 0;
    const t4 = new Date(t3.getTime() + 3000);
    expect(await cycle(at, { ...input, provider: s3.provider }, t4)).toMatchObject({
      failed: 1,
      transient: 0,
    });
    const [last] = await rowsOf(at.companyId);
    expect(last).toMatchObject({ state: "error", sendAttempts: 4 });
    expect(last!.message).toBe("4 denemede geçici hata: 503");
    expect(last!.updatedAt.toISOString()).toBe(t4.toISOString());
  });

  it("at the cap, a send the service did take is adopted", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IX4" }));
    // Every send's answer is lost; the lookups after each one miss it, the last one at the cap finds it.
    const s = service({
      send: async (input) => {
        s.held.set(input.ettn, { ettn: input.ettn, found: true });
        throw fail("timeout", "zaman aşımı", true);
      },
      query: (ettns) =>
        s.queries.length <= 3 ? Promise.resolve(ettns.map((ettn) => ({ ettn, found: false }))) : undefined,
    });
    const report = await cycle(at, { provider: s.provider, leaseMs: 0, retry: { maxAttempts: 1 } });
    expect(report).toMatchObject({ adopted: 1, failed: 0, transient: 0 });
    expect(s.sends).toHaveLength(3);
    expect((await rowsOf(at.companyId))[0]).toMatchObject({ state: "queued", providerStatus: null });
  });

  it("a refusal of a document the service holds is adopted; other refusals mark the invoice with the service's words", async () => {
    const at = await company(makeOrders(2, buyers, { prefix: "IX5" }));
    const s = service({
      send: async (input, n) => {
        if (n === 1)
          s.held.set(input.ettn, { ettn: input.ettn, found: true, status: "sent", providerStatus: "GİB'de" });
        throw fail("conflict", n === 1 ? "ETTN zaten kayıtlı" : "Alıcı VKN geçersiz");
      },
    });
    const report = await cycle(at, { provider: s.provider });
    expect(report).toMatchObject({ adopted: 1, failed: 1, sent: 0 });
    const rows = await rowsOf(at.companyId);
    expect(rows[0]).toMatchObject({ state: "sent", providerStatus: "GİB'de" });
    expect(rows[1]).toMatchObject({ state: "error", message: "Alıcı VKN geçersiz", providerStatus: null });
  });

  it("a refusal whose lookup fails too is an error; an unexpected failure stops the pass", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IX6" }));
    const s = service({
      send: () => Promise.reject(fail("validation", "Şema hatası")),
      query: () => Promise.reject(fail("timeout")),
    });
    expect(await cycle(at, { provider: s.provider })).toMatchObject({ failed: 1 });
    expect((await rowsOf(at.companyId))[0]).toMatchObject({ state: "error", message: "Şema hatası" });

    const other = await company(makeOrders(1, buyers, { prefix: "IX7" }));
    const bug = service({ send: () => Promise.reject(new TypeError("boom")) });
    await expect(cycle(other, { provider: bug.provider })).rejects.toThrow("boom");
  });

  it("a document that cannot be built is an error, not a send", async () => {
    const orders = makeOrders(1, buyers, { prefix: "IX8" });
    orders[0]!.lines = [{ ...orders[0]!.lines[0]!, vatRate: 7 }];
    const at = await company(orders);
    const s = service();
    expect(await cycle(at, { provider: s.provider })).toMatchObject({ failed: 1, sent: 0 });
    expect(s.sends).toEqual([]);
    expect((await rowsOf(at.companyId))[0]!.message).toMatch(/KDV/);
  });

  it("a pass claims each invoice: a second worker that read the same count sends nothing", async () => {
    const at = await company(makeOrders(3, buyers, { prefix: "IX9" }));
    const s = service();
    await Promise.all([cycle(at, { provider: s.provider }), cycle(at, { provider: s.provider })]);
    expect(s.sends).toHaveLength(3);
    expect((await rowsOf(at.companyId)).map((r) => r.sendAttempts)).toEqual([1, 1, 1]);
  });
});

describe("status refresh and the shop", () => {
  it("asks the service for pending invoices' status and keeps what it says", async () => {
    const at = await company(makeOrders(3, buyers, { prefix: "IU1" }));
    const s = service();
    await cycle(at, { provider: s.provider, shop: recordingShop().shop });
    const rows = await rowsOf(at.companyId);
    const answers: Record<string, EInvoiceStatusInfo> = {
      [rows[0]!.ettn]: {
        ettn: rows[0]!.ettn,
        found: true,
        status: "approved",
        providerStatus: "Kabul",
        message: "tamam",
      },
      [rows[1]!.ettn]: { ettn: rows[1]!.ettn, found: true },
      [rows[2]!.ettn]: { ettn: rows[2]!.ettn, found: false, status: "rejected" },
    };
    const asked: string[][] = [];
    const refresh = service({
      query: async (ettns) => {
        asked.push(ettns);
        return ettns.map((e) => answers[e]!);
      },
    });
    const later = new Date(NOW.getTime() + 60_000);
    expect((await cycle(at, { provider: refresh.provider }, later)).refreshed).toBe(1);
    expect(asked[0]!.sort()).toEqual(rows.map((r) => r.ettn).sort());
    const after = await rowsOf(at.companyId);
    expect(after[0]).toMatchObject({ state: "approved", providerStatus: "Kabul", message: "tamam" });
    expect(after[0]!.updatedAt.toISOString()).toBe(later.toISOString());
    expect(after.slice(1).map((r) => r.state)).toEqual(["queued", "queued"]);
    // Approved is final: not asked again.
    asked.length = 0;
    await cycle(at, { provider: refresh.provider }, later);
    expect(asked[0]!.sort()).toEqual([rows[1]!.ettn, rows[2]!.ettn].sort());

    const down = service({ query: () => Promise.reject(fail("unavailable")) });
    expect((await cycle(at, { provider: down.provider })).transient).toBe(1);
    const broken = service({ query: () => Promise.reject(fail("auth")) });
    await expect(cycle(at, { provider: broken.provider })).rejects.toThrow("auth");
  });

  it("asks about 50 invoices at a time", async () => {
    const at = await company(makeOrders(51, buyers, { prefix: "IU2" }));
    await cycle(at, { provider: service().provider });
    const asked: number[] = [];
    const s = service({
      query: async (ettns) => {
        asked.push(ettns.length);
        return ettns.map((ettn) => ({ ettn, found: true, status: "sent" as const }));
      },
    });
    expect((await cycle(at, { provider: s.provider })).refreshed).toBe(51);
    expect(asked).toEqual([50, 1]);
  });

  it("gives the shop order its sale invoice's number, ETTN, total and PDF link once; a refusal is tried again", async () => {
    const orders = makeOrders(2, buyers, { prefix: "IA1" });
    const at = await company(orders);
    let refuse = true;
    const first = recordingShop((id) => (refuse && id === "IA1-id-2" ? fail("server_error") : undefined));
    const report = await cycle(at, {
      provider: service().provider,
      shop: first.shop,
      invoiceLink: ({ id }) => `https://panel/pdf/${id}`,
    });
    expect(report).toMatchObject({ attached: 1, transient: 1 });
    const [row] = await rowsOf(at.companyId);
    expect(first.attached).toEqual([
      [
        "IA1-id-1",
        {
          invoice: {
            orderRef: "IA1-00001",
            number: row!.number,
            uuid: row!.ettn,
            date: "2026-11-20",
            currency: "TRY",
            lines: [],
            totals: { net: 0, tax: 0, gross: row!.total },
            url: `https://panel/pdf/${row!.id}`,
          },
        },
      ],
    ]);
    expect(row!.attachedAt?.toISOString()).toBe(NOW.toISOString());
    refuse = false;
    const again = await cycle(at, { provider: service().provider, shop: first.shop });
    expect(again.attached).toBe(1);
    expect(first.attached.map(([id]) => id)).toEqual(["IA1-id-1", "IA1-id-2"]);
    expect("url" in first.attached[1]![1].invoice).toBe(false);
    // A return invoice is not attached over the sale's.
    await store.db
      .update(engineSchema.orderLedger)
      .set({ payload: { ...orders[0]!, status: "CANCELLED" } })
      .where(eq(engineSchema.orderLedger.orderNo, "IA1-00001"));
    // Past the cancellation period, so the route is an IADE.
    expect(
      await cycle(at, { provider: service().provider, shop: first.shop }, new Date("2026-12-05T09:00:00Z")),
    ).toMatchObject({ returns: 1, attached: 0 });

    const bug = recordingShop(() => new TypeError("boom"));
    const other = await company(makeOrders(1, buyers, { prefix: "IA2" }));
    await expect(cycle(other, { provider: service().provider, shop: bug.shop })).rejects.toThrow("boom");
  });
});

// Pinned for issue 41 (mutation testing): rules the tests above pass through without asserting.
describe("rules pinned by mutation testing", () => {
  it("a refusal whose outcome is unknown (it may already have been applied) waits for a retry, not an error", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IM1" }));
    const s = service({ send: () => Promise.reject(fail("bad_response", "okunamayan cevap", true)) });
    expect(await cycle(at, { provider: s.provider, retry: { baseMs: 1000 } })).toMatchObject({
      transient: 1,
      failed: 0,
    });
    const [row] = await rowsOf(at.companyId);
    expect(row).toMatchObject({ state: "prepared", sendAttempts: 1, message: "okunamayan cevap" });
    expect(row!.nextAttemptAt?.toISOString()).toBe(new Date(NOW.getTime() + 1000).toISOString());
  });

  it("a lookup that answers nothing for the ETTN counts as not found: the invoice is sent again", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IM2" }));
    const lost = service({ send: () => Promise.reject(fail("timeout")) });
    expect((await cycle(at, { provider: lost.provider, leaseMs: 0, retry: { baseMs: 0 } })).transient).toBe(
      1,
    );
    const silent = service({ query: () => Promise.resolve([]) });
    const later = new Date(NOW.getTime() + 1);
    expect(await cycle(at, { provider: silent.provider, leaseMs: 0 }, later)).toMatchObject({
      sent: 1,
      adopted: 0,
    });
    expect(silent.sends).toHaveLength(1);
  });

  it("at the cap, a lookup that cannot be answered sets no further wait", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IM3" }));
    const s = service({
      send: () => Promise.reject(fail("server_error", "503")),
      query: () => Promise.reject(fail("timeout")),
    });
    expect(await cycle(at, { provider: s.provider, retry: { maxAttempts: 1 } })).toMatchObject({
      transient: 1,
      failed: 0,
    });
    expect((await rowsOf(at.companyId))[0]).toMatchObject({ state: "prepared", nextAttemptAt: null });
  });

  it("by default waits the lease first, never more than an hour, and gives up after the eighth send", async () => {
    const lease = await company(makeOrders(1, buyers, { prefix: "IM4" }));
    const down = service({ send: () => Promise.reject(fail("server_error", "503")) });
    await cycle(lease, { provider: down.provider, leaseMs: 1000 });
    expect((await rowsOf(lease.companyId))[0]!.nextAttemptAt?.toISOString()).toBe(
      new Date(NOW.getTime() + 1000).toISOString(),
    );
    const long = await company(makeOrders(1, buyers, { prefix: "IM4b" }));
    await cycle(long, { provider: down.provider, retry: { baseMs: 7_200_000 } });
    expect((await rowsOf(long.companyId))[0]!.nextAttemptAt?.toISOString()).toBe(
      new Date(NOW.getTime() + 3_600_000).toISOString(),
    );
    const capped = await company(makeOrders(1, buyers, { prefix: "IM4c" }));
    for (let pass = 1; pass <= 8; pass++) {
      const report = await cycle(
        capped,
        { provider: down.provider, leaseMs: 0, retry: { baseMs: 0 } },
        new Date(NOW.getTime() + pass),
      );
      expect(report, `pass ${pass}`).toMatchObject(pass < 8 ? { transient: 1, failed: 0 } : { failed: 1 });
    }
    expect((await rowsOf(capped.companyId))[0]).toMatchObject({
      state: "error",
      message: "8 denemede geçici hata: 503",
    });
  });

  it("a document that cannot be built is not looked up at the service", async () => {
    const orders = makeOrders(1, buyers, { prefix: "IM5" });
    orders[0]!.lines = [{ ...orders[0]!.lines[0]!, qty: -1 }];
    const at = await company(orders);
    const s = service();
    expect(await cycle(at, { provider: s.provider })).toMatchObject({ failed: 1 });
    expect(s.queries).toEqual([]);
  });

  it("drafts, queued and sent invoices are asked for their status; sent and approved ones go to the shop", async () => {
    const orders = makeOrders(4, buyers, { prefix: "IM6" });
    const at = await company(orders);
    const status = ["sent", "approved", "draft", "queued"] as const;
    const s = service({ send: async (_, n) => ({ status: status[n - 1] }) });
    const shop = recordingShop();
    expect(await cycle(at, { provider: s.provider, shop: shop.shop })).toMatchObject({
      sent: 4,
      attached: 3,
    });
    expect(shop.attached.map(([id]) => id)).toEqual(["IM6-id-1", "IM6-id-2", "IM6-id-4"]);
    const rows = await rowsOf(at.companyId);
    expect(s.queries.map((q) => [...q].sort())).toEqual([
      [rows[0]!.ettn, rows[2]!.ettn, rows[3]!.ettn].sort(),
    ]);
  });

  it("a status answer that leaves an ETTN out changes nothing for it", async () => {
    const at = await company(makeOrders(2, buyers, { prefix: "IM7" }));
    await cycle(at, { provider: service().provider });
    const rows = await rowsOf(at.companyId);
    const partial = service({
      query: async () => [{ ettn: rows[1]!.ettn, found: true, status: "approved" }],
    });
    expect((await cycle(at, { provider: partial.provider })).refreshed).toBe(1);
    expect((await rowsOf(at.companyId)).map((r) => r.state)).toEqual(["queued", "approved"]);
  });

  it("orders waiting for a rate name each currency once, in capitals, in alphabetical order", async () => {
    const orders = makeOrders(3, buyers, { prefix: "IM10" });
    const currencies = ["usd", "EUR", "USD"];
    for (const [i, o] of orders.entries()) o.currency = currencies[i]!;
    const at = await company(orders);
    expect(await cycle(at, { provider: service().provider })).toMatchObject({
      prepared: 0,
      waitingRate: 3,
      waitingCurrencies: ["EUR", "USD"],
    });
    expect(await rowsOf(at.companyId)).toEqual([]);
  });

  it("a cancel that fails is settled by the lookup: done, refused, or tried again on the next pass", async () => {
    const orders = makeOrders(6, buyers, { prefix: "IM11" });
    // A company buying as a consumer would (e-Arşiv), returned after the period: the buyer's to answer.
    orders[5]!.customer = { ...orders[5]!.customer, isCompany: true };
    const at = await company(orders);
    await cycle(at, { provider: service().provider });
    const sold = await byOrder(at.companyId);
    const ettn = (i: number) => sold.get(orders[i]!.orderNo)!.ettn;
    expect([...sold.values()].map((r) => r.profile)).toEqual(Array(6).fill("EARSIVFATURA"));
    for (const o of orders)
      await store.db
        .update(engineSchema.orderLedger)
        .set({ payload: { ...o, status: "RETURNED" } })
        .where(eq(engineSchema.orderLedger.orderNo, o.orderNo));
    const failures = new Map<string, ConnectorError>([
      [ettn(0), fail("timeout")], // transient, surely not applied: tried again
      [ettn(1), fail("bad_response", "okunamayan cevap", true)], // may have been applied: tried again
      [ettn(2), fail("validation")], // refused, and the lookup fails: tried again
      [ettn(3), fail("validation")], // refused, but the service shows it cancelled: done
      [ettn(4), fail("validation", "İptal edilemez")], // refused, and the service still holds it: refused
    ]);
    const lookups = new Map<string, () => Promise<EInvoiceStatusInfo[]>>([
      [ettn(2), () => Promise.reject(fail("timeout"))],
      [ettn(3), async () => [{ ettn: ettn(3), found: true, status: "cancelled" }]],
      [ettn(4), async () => [{ ettn: ettn(4), found: true, status: "sent" }]],
    ]);
    const s = service({
      cancel: (e) => (failures.has(e) ? Promise.reject(failures.get(e)) : undefined),
      query: (ettns) => (ettns.length === 1 ? lookups.get(ettns[0]!)?.() : undefined),
    });
    const within = new Date("2026-11-22T09:00:00Z");
    expect(await cycle(at, { provider: s.provider }, within)).toMatchObject({
      cancelled: 2,
      returns: 3,
      transient: 3,
    });
    expect(s.notes).toEqual(Array(6).fill(message("einvoices.returnCancelNote")));
    const rows = await byOrder(at.companyId);
    for (const i of [0, 1, 2]) expect(rows.get(orders[i]!.orderNo)).toMatchObject({ returnRoute: null });
    expect(rows.get(orders[3]!.orderNo)).toMatchObject({
      state: "cancelled",
      returnRoute: "cancel",
      returnReason: "cancelWithinPeriod",
    });
    expect(rows.get(orders[4]!.orderNo)).toMatchObject({
      state: "queued",
      returnRoute: "cancel",
      returnReason: "cancelRefused",
    });
    // The company's e-Arşiv cancel that went through; after the period its return is the buyer's.
    expect(rows.get(orders[5]!.orderNo)).toMatchObject({ state: "cancelled", returnRoute: "cancel" });
    const late = await company([orders[5]!]);
    await cycle(late, { provider: service().provider });
    await store.db
      .update(engineSchema.orderLedger)
      .set({ payload: { ...orders[5]!, status: "RETURNED" } })
      .where(eq(engineSchema.orderLedger.companyId, late.companyId));
    expect(await cycle(late, { provider: s.provider }, new Date("2026-12-05T09:00:00Z"))).toMatchObject({
      returns: 1,
      cancelled: 0,
    });
    expect((await rowsOf(late.companyId))[0]).toMatchObject({
      returnRoute: "iade",
      returnReason: "companyBuyerIssues",
    });

    // A failure that is not the service's stops the pass.
    const broken = await company(makeOrders(1, buyers, { prefix: "IM11b" }));
    await cycle(broken, { provider: service().provider });
    await store.db
      .update(engineSchema.orderLedger)
      .set({ payload: { ...makeOrders(1, buyers, { prefix: "IM11b" })[0]!, status: "RETURNED" } })
      .where(eq(engineSchema.orderLedger.companyId, broken.companyId));
    const bug = service({ cancel: () => Promise.reject(new TypeError("boom")) });
    await expect(cycle(broken, { provider: bug.provider }, within)).rejects.toThrow("boom");
  });

  it("each step of a pass takes at most `limit` invoices", async () => {
    const orders = makeOrders(3, buyers, { prefix: "IM12" });
    const at = await company(orders);
    // Three numbered, none sent (every send timed out); then one a pass is sent.
    const down = service({ send: () => Promise.reject(fail("timeout")) });
    expect((await cycle(at, { provider: down.provider, leaseMs: 0, retry: { baseMs: 0 } })).prepared).toBe(3);
    const up = service();
    const limited = { provider: up.provider, leaseMs: 0, limit: 1 };
    expect(await cycle(at, limited, new Date(NOW.getTime() + 1))).toMatchObject({ sent: 1 });
    expect(up.sends).toHaveLength(1);
    await cycle(at, { provider: up.provider, leaseMs: 0 }, new Date(NOW.getTime() + 2));
    expect((await rowsOf(at.companyId)).map((r) => r.state)).toEqual(["queued", "queued", "queued"]);
    // Status and the shop: one a pass.
    const shop = recordingShop();
    expect(await cycle(at, { ...limited, shop: shop.shop })).toMatchObject({ refreshed: 1, attached: 1 });
    expect(up.queries.at(-1)).toHaveLength(1);
    // Returns: one decided a pass.
    for (const o of orders)
      await store.db
        .update(engineSchema.orderLedger)
        .set({ payload: { ...o, status: "RETURNED" } })
        .where(eq(engineSchema.orderLedger.orderNo, o.orderNo));
    const after = new Date("2026-12-05T09:00:00Z");
    expect((await cycle(at, limited, after)).returns).toBe(1);
    expect((await cycle(at, { provider: up.provider }, after)).returns).toBe(2);
  });

  it("a stored return invoice is built with the sale it returns; a row without its time takes its creation's", async () => {
    const at = await company(makeOrders(1, buyers, { prefix: "IM13" }));
    expect((await cycle(at)).generated).toBe(1);
    const [sale] = await rowsOf(at.companyId);
    // An IADE row as the seller issued them before issue 35, numbered before migration 0048 (no time).
    await store.db.insert(einvoices).values({
      ...at,
      orderNo: sale!.orderNo,
      shopOrderId: sale!.shopOrderId,
      ettn: randomUUID(),
      number: "EPA2026000000002",
      profile: "EARSIVFATURA",
      type: "IADE",
      returnOfId: sale!.id,
      buyer: sale!.buyer,
      total: sale!.total,
      currency: "TRY",
      issueDate: "2026-11-21",
      createdAt: new Date("2026-11-21T07:08:09Z"),
    });
    expect(await cycle(at)).toMatchObject({ generated: 1, failed: 0 });
    const rows = await rowsOf(at.companyId);
    const iade = rows.find((r) => r.type === "IADE")!;
    expect(iade.state).toBe("generated");
    // Turkish time of its creation; the sale keeps the time it was numbered at (12:00 UTC is 15:00).
    expect(iade.ubl).toContain("<cbc:IssueTime>10:08:09</cbc:IssueTime>");
    expect(sale!.ubl).toContain(`<cbc:IssueTime>${sale!.issueTime}</cbc:IssueTime>`);
    expect(sale!.issueTime).toBe("15:00:00");
    expect(iade.ubl).toMatch(
      new RegExp(
        `<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${sale!.number}</cbc:ID>\\s*<cbc:IssueDate>${sale!.issueDate}</cbc:IssueDate>`,
      ),
    );
    expect(sale!.ubl).not.toContain("BillingReference");
    const [joined] = await invoicesWithOrders(store.db, eq(einvoices.id, iade.id));
    const { document } = buildFor(joined!, await sellerFromCompany(store.db, at.companyId));
    expect(document.returnOf).toEqual({ number: sale!.number, issueDate: sale!.issueDate, ettn: sale!.ettn });
  });

  it("a portal pass stops at a failure that is not the document's", async () => {
    const orders = makeOrders(1, buyers, { prefix: "IM9" });
    (orders[0] as { lines: unknown }).lines = null;
    const at = await company(orders);
    await expect(cycle(at)).rejects.toThrow(TypeError);
    expect((await rowsOf(at.companyId))[0]!.state).toBe("prepared");
  });
});
