import {
  CallCounter,
  createAmazonConnector,
  createMikroConnector,
  createTrendyolConnector,
  InMemoryRateLimitStore,
  type Order,
  startAmazonEmulator,
  startMikroEmulator,
  startTrendyolEmulator,
  startUyumsoftEmulator,
  type TrendyolEmulator,
} from "@ep/connectors";
import { erpVatRates } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveChannel } from "../../src/modules/connections/repository.ts";
import { runInvoiceCycle } from "../../src/modules/invoices/issue.ts";
import { customerLink } from "../../src/modules/invoices/links.ts";
import { einvoices } from "../../src/modules/invoices/schema.ts";
import { call, registerAndLogin } from "../harness.ts";
import { listeningServer } from "../support/listening-server.ts";
import { type Emu, putOrdersInLedger, setSellerData, uyumsoftProvider } from "./invoice-support.ts";

/**
 * Issue 37 items 4–5: a marketplace channel's orders are invoiced like the shop's, and the invoice link and
 * the tracking number go back to the marketplace (the Trendyol emulator, built from its judge) exactly once:
 * through 5xx answers, a lost answer, a killed worker's claim and two passes at once.
 */
const server = listeningServer("channel-invoices");

let trendyol: TrendyolEmulator;
let uyumsoft: Emu;
beforeAll(async () => {
  trendyol = await startTrendyolEmulator({ seed: 37, productCount: 40, orderCount: 6 });
  uyumsoft = await startUyumsoftEmulator({ seed: 37 });
});
afterAll(async () => {
  await trendyol?.close();
  await uyumsoft?.close();
});

/** A connector context with no retries of its own: every 5xx and lost answer reaches the invoice job. */
function noRetries(companyId: number, now?: () => number) {
  return {
    companyId: String(companyId),
    rateLimitStore: new InMemoryRateLimitStore(),
    budget: { requests: 1000, windowMs: 1000 },
    counter: new CallCounter(),
    timeoutMs: 5_000,
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 10 },
    ...(now ? { now } : {}),
  };
}

function trendyolShop(companyId: number) {
  return createTrendyolConnector(trendyol.credentials, noRetries(companyId));
}

/** A new company, its user signed in. */
async function signedIn(): Promise<{ companyId: number; token: string }> {
  const { account, token } = await registerAndLogin(server.app);
  return { companyId: account.company.id as number, token };
}

const linkCalls = () => trendyol.recorder.list().filter((r) => r.path.includes("/seller-invoice-links"));
const trackingCalls = () =>
  trendyol.recorder.list().filter((r) => r.path.includes("/update-tracking-number"));

describe("a marketplace channel's orders get their invoices, and the link and tracking number go back once", () => {
  let companyId = 0;
  let token = "";
  let channelId = 0;
  let orders: Order[] = [];
  let clock = Date.parse("2026-11-28T10:00:00Z");
  const now = () => new Date(clock);

  const pass = (over: Partial<Parameters<typeof runInvoiceCycle>[0]> = {}) =>
    runInvoiceCycle({
      db: server.ctx.database.db,
      companyId,
      shopConnectionId: channelId,
      provider: uyumsoftProvider(uyumsoft, companyId),
      shop: trendyolShop(companyId),
      marketplace: true,
      settings: { series: "TYF", draft: false, invoiceWhen: "paid", eInvoiceProfile: "TEMELFATURA" },
      invoiceLink: (invoice) => customerLink(server.ctx, invoice),
      now,
      leaseMs: 1_000,
      ...over,
    });

  it("invoices the channel's orders as the shop's, with the buyer as Trendyol gives it", async () => {
    ({ companyId, token } = await signedIn());
    await setSellerData(server.ctx, companyId);
    const channel = await saveChannel(server.ctx.database.db, server.ctx.credentials, {
      companyId,
      system: "trendyol",
      credentials: trendyol.credentials,
    });
    channelId = channel.id;
    const read = await trendyolShop(companyId).listOrders({});
    orders = read.items.filter((o) => o.status !== "Awaiting" && o.status !== "Cancelled").slice(0, 4);
    expect(orders.length).toBeGreaterThan(1);
    await putOrdersInLedger(server.ctx, companyId, channelId, orders);

    // The first link answers 500 and another is applied but its answer lost: both wait for the next pass.
    trendyol.faults.enqueue(
      { kind: "5xx", operation: "sendInvoiceLink" },
      { kind: "dropAfterWrite", operation: "sendInvoiceLink" },
    );
    const first = await pass();
    expect(first.prepared).toBe(orders.length);
    expect(first.sent + first.adopted).toBe(orders.length);
    expect(first.attached).toBe(orders.length - 2);
    expect(first.transient).toBeGreaterThanOrEqual(2);

    const rows = await server.ctx.database.db
      .select()
      .from(einvoices)
      .where(and(eq(einvoices.companyId, companyId), eq(einvoices.shopConnectionId, channelId)));
    expect(rows).toHaveLength(orders.length);
    for (const row of rows) {
      const order = orders.find((o) => o.orderNo === row.orderNo)!;
      // Trendyol's invoice address decides: a company with a 10-digit tax number gets an e-Fatura when it is
      // a registered user, everyone else an e-Arşiv.
      if (!order.customer.isCompany) expect(row.profile).toBe("EARSIVFATURA");
      expect(row.shopOrderId).toBe(order.id);
    }

    // A retry after the wait: the 500's link goes, the lost one meets Trendyol's 409 and counts as there.
    clock += 5_000;
    const second = await pass();
    expect(second.attached).toBe(2);
    expect(second.transient).toBe(0);
    const done = await server.ctx.database.db
      .select()
      .from(einvoices)
      .where(eq(einvoices.shopConnectionId, channelId));
    for (const row of done) {
      expect(row.attachedAt).not.toBeNull();
      const pkg = trendyol.packages.find((p) => String(p.id) === row.shopOrderId);
      expect(pkg?.invoiceLink).toBe(customerLink(server.ctx, row));
    }
    // One call a package, and one more for each of the two faults (the 500, the lost answer's 409).
    const perPackage = new Map<number, number>();
    for (const r of linkCalls()) {
      const id = (r.body as { shipmentPackageId: number }).shipmentPackageId;
      perPackage.set(id, (perPackage.get(id) ?? 0) + 1);
    }
    expect([...perPackage.values()].sort()).toEqual([...Array(orders.length - 2).fill(1), 2, 2]);

    // Nothing more on further passes.
    clock += 60_000;
    await pass();
    expect(linkCalls()).toHaveLength(orders.length + 2);
  }, 120_000);

  it("shows the channel where the Faturalar list shows the order, and refuses another company's ids", async () => {
    const list = await call(server.app, "GET", "/api/invoices", { token });
    expect(list.status).toBe(200);
    const mine = list.body.data.filter((r: { orderNo: string }) =>
      orders.some((o) => o.orderNo === r.orderNo),
    );
    expect(mine).toHaveLength(orders.length);
    for (const r of mine) expect(r).toMatchObject({ channel: "Trendyol", attached: true });

    const other = await signedIn();
    const id = mine[0].id as number;
    const refused = await call(server.app, "PUT", `/api/invoices/${id}/shipment`, {
      token: other.token,
      body: { trackingNumber: "YK123456789", carrier: "Yurtiçi Kargo" },
    });
    expect(refused.status).toBe(404);
    expect((await call(server.app, "GET", "/api/invoices", { token: other.token })).body.data).toEqual([]);
    const [row] = await server.ctx.database.db.select().from(einvoices).where(eq(einvoices.id, id));
    expect(row?.trackingNumber).toBeNull();
  });

  it("sends the tracking number the merchant entered once, through a 500 and a killed worker's claim", async () => {
    const rows = await server.ctx.database.db
      .select()
      .from(einvoices)
      .where(eq(einvoices.shopConnectionId, channelId));
    const [a, b] = rows;
    for (const [row, number] of [
      [a!, "YK100000001"],
      [b!, "YK100000002"],
    ] as const) {
      const saved = await call(server.app, "PUT", `/api/invoices/${row.id}/shipment`, {
        token,
        body: { trackingNumber: number, carrier: "Yurtiçi Kargo" },
      });
      expect(saved.status).toBe(200);
    }
    expect(
      (
        await call(server.app, "PUT", `/api/invoices/${a!.id}/shipment`, {
          token,
          body: { trackingNumber: "x" },
        })
      ).status,
    ).toBe(400);
    // b's worker claimed it and was killed before calling Trendyol: the claim lapses after the lease.
    await server.ctx.database.db
      .update(einvoices)
      .set({ trackingAttempts: 1, trackingNextAt: new Date(clock + 1_000) })
      .where(eq(einvoices.id, b!.id));
    trendyol.faults.enqueue({ kind: "5xx", operation: "updateTrackingNumber" });

    // Two passes at once: the claim lets one of them send a's number (into the 500).
    const [p1, p2] = await Promise.all([pass(), pass()]);
    expect(p1.tracked + p2.tracked).toBe(0);
    expect(trackingCalls()).toHaveLength(1);
    clock += 5_000;
    const later = await pass();
    expect(later.tracked).toBe(2);
    clock += 60_000;
    await pass();
    // a's number twice (the 500, then the send), b's once: never again on later passes.
    expect(
      trackingCalls()
        .map((r) => (r.body as { trackingNumber: string }).trackingNumber)
        .sort(),
    ).toEqual(["YK100000001", "YK100000001", "YK100000002"]);
    expect(trendyol.packages.find((p) => String(p.id) === a!.shopOrderId)?.cargoTrackingNumber).toBe(
      "YK100000001",
    );
    const list = await call(server.app, "GET", "/api/invoices", { token });
    const shown = list.body.data.find((r: { id: number }) => r.id === b!.id);
    expect(shown).toMatchObject({
      trackingNumber: "YK100000002",
      trackingSent: true,
      marketplaceMessage: null,
    });
  }, 120_000);

  it("keeps a channel's invoice setting (off: its invoice job leaves its orders alone)", async () => {
    const off = await saveChannel(server.ctx.database.db, server.ctx.credentials, {
      companyId,
      system: "hepsiburada",
      credentials: { merchantId: "m", username: "u", password: "p" },
      settings: { invoices: false },
    });
    const put = await call(server.app, "PUT", `/api/channels/${off.id}/settings`, {
      token,
      body: { invoices: false },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.settings).toMatchObject({ invoices: false });
  });
});

describe("Amazon Türkiye: no invoice link to send, the shipment confirmed once", () => {
  it("records Amazon's refusal of the link once and sends the tracking number through confirmShipment once", async () => {
    // Amazon and the connector share a clock, stepped past Amazon's two-minute lag on order reads once the
    // orders exist (as the connector's own suite does).
    let offset = 0;
    const amazonNow = () => Date.now() + offset;
    const amazon = await startAmazonEmulator({ seed: 38, productCount: 20, orderCount: 6, now: amazonNow });
    offset = 5 * 60_000;
    // The merchant's ERP holds the same catalogue (same seed and count: same SKUs, with their VAT rates).
    const mikro = await startMikroEmulator({ host: "127.0.0.1", seed: 38, productCount: 20 });
    try {
      const { companyId, token } = await signedIn();
      await setSellerData(server.ctx, companyId);
      const channel = await saveChannel(server.ctx.database.db, server.ctx.credentials, {
        companyId,
        system: "amazon",
        credentials: amazon.credentials,
      });
      const shop = () => createAmazonConnector(amazon.credentials, noRetries(companyId, amazonNow));
      // Amazon's order answer carries no VAT rate (amazon/VERIFIED.md): the invoice takes the ERP item's.
      const orders = (await shop().listOrders({})).items.slice(0, 3);
      expect(orders.length).toBeGreaterThan(0);
      await putOrdersInLedger(server.ctx, companyId, channel.id, orders);
      let clock = Date.parse("2026-11-28T10:00:00Z");
      const pass = () =>
        runInvoiceCycle({
          db: server.ctx.database.db,
          companyId,
          shopConnectionId: channel.id,
          provider: uyumsoftProvider(uyumsoft, companyId),
          shop: shop(),
          marketplace: true,
          vatRates: erpVatRates(createMikroConnector(mikro.credentials, noRetries(companyId))),
          settings: { series: "AMZ", draft: false, invoiceWhen: "paid", eInvoiceProfile: "TEMELFATURA" },
          invoiceLink: (invoice) => customerLink(server.ctx, invoice),
          now: () => new Date(clock),
          leaseMs: 1_000,
        });
      const first = await pass();
      expect(first.prepared).toBeGreaterThan(0);
      expect(first.feedbackRefused, JSON.stringify(first)).toBe(first.prepared);
      const rows = await server.ctx.database.db
        .select()
        .from(einvoices)
        .where(eq(einvoices.shopConnectionId, channel.id));
      for (const row of rows) {
        expect(row.attachRefusedAt).not.toBeNull();
        expect(row.attachMessage).toContain("Seller Central");
      }
      const row = rows[0]!;
      await call(server.app, "PUT", `/api/invoices/${row.id}/shipment`, {
        token,
        body: { trackingNumber: "AR987654321", carrier: "Aras Kargo" },
      });
      clock += 5_000;
      expect((await pass()).tracked).toBe(1);
      clock += 60_000;
      await pass();
      const confirms = amazon.recorder.list().filter((r) => r.path.endsWith("/shipmentConfirmation"));
      expect(confirms).toHaveLength(1);
      const order = amazon.orders.find((o) => String(o.orderId) === row.shopOrderId);
      const packages = (order?.packages ?? []) as Array<{ trackingNumber: string }>;
      expect(packages[0]?.trackingNumber).toBe("AR987654321");
      // The refused link was never asked again.
      const [after] = await server.ctx.database.db.select().from(einvoices).where(eq(einvoices.id, row.id));
      expect(after?.attachAttempts).toBe(1);
    } finally {
      await Promise.all([amazon.close(), mikro.close()]);
    }
  }, 120_000);
});

type Json = Record<string, any>;

/** Runs a job through the job API and waits for its end. */
async function runJob(token: string, jobId: number): Promise<Json> {
  const started = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token });
  expect(started.status).toBe(200);
  for (let i = 0; i < 1200; i++) {
    const run = (
      await call(server.app, "GET", `/api/JobHistory/report/${started.body.data.runId}`, { token })
    ).body.data;
    if (run && run.status !== "Queued" && run.status !== "Running") return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("run did not end");
}

describe("a Trendyol sandbox channel through the jobs (Mikro, IKAS, Uyumsoft)", () => {
  it("its invoice job invoices its orders and sends their links, and does nothing while the merchant has it off", async () => {
    const user = await signedIn();
    const { token: t, companyId: id } = user;
    const connected = await call(server.app, "POST", "/api/sandbox/connect", {
      token: t,
      body: { channels: ["trendyol"] },
    });
    expect(connected.status).toBe(200);
    await setSellerData(server.ctx, id);
    const sandboxes = await call(server.app, "GET", "/api/sandbox", { token: t });
    const uyumsoftBox = sandboxes.body.data.find(
      (s: Json) => s.connectionType === "einvoice" && s.productType === 8,
    ) as Json;
    const service = await call(server.app, "POST", "/api/settings/connection-setting-update/einvoice/8", {
      token: t,
      body: { fields: uyumsoftBox.credentials },
    });
    expect(service.status).toBe(200);
    const [channel] = (await call(server.app, "GET", "/api/channels", { token: t })).body.data as Json[];
    const jobs = (
      await call(server.app, "GET", "/api/Job/type-filter/OrderIntegration,InvoiceIntegration", { token: t })
    ).body.data as Json[];
    const jobOf = (type: string) => jobs.find((j) => j.type === type && j.channel_id === channel!.id)!;
    expect(jobOf("InvoiceIntegration")).toBeDefined();
    const orders = await runJob(t, jobOf("OrderIntegration").id);
    expect(orders.status).toBe("Succeeded");

    const channelRows = () =>
      server.ctx.database.db
        .select()
        .from(einvoices)
        .where(and(eq(einvoices.companyId, id), eq(einvoices.shopConnectionId, channel!.id)));
    // Off: the channel's orders are left alone.
    const off = await call(server.app, "PUT", `/api/channels/${channel!.id}/settings`, {
      token: t,
      body: { ...channel!.settings, invoices: false },
    });
    expect(off.status).toBe(200);
    expect((await runJob(t, jobOf("InvoiceIntegration").id)).status).toBe("Succeeded");
    expect(await channelRows()).toEqual([]);

    // On (the shop's behaviour): invoiced through Uyumsoft, each link sent to Trendyol once.
    await call(server.app, "PUT", `/api/channels/${channel!.id}/settings`, {
      token: t,
      body: { ...channel!.settings, invoices: true },
    });
    const run = await runJob(t, jobOf("InvoiceIntegration").id);
    expect(run.status, run.report).toBe("Succeeded");
    const rows = await channelRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.state, row.message ?? "").not.toMatch(/prepared|error/);
      expect(row.attachedAt, row.attachMessage ?? "").not.toBeNull();
      expect(row.attachAttempts).toBe(1);
    }
    const list = await call(server.app, "GET", "/api/invoices", { token: t });
    const shown = list.body.data.filter((r: Json) => r.channel === "Trendyol");
    expect(shown).toHaveLength(rows.length);
    // A second run sends nothing again.
    await runJob(t, jobOf("InvoiceIntegration").id);
    for (const row of await channelRows()) expect(row.attachAttempts).toBe(1);
  }, 300_000);
});
