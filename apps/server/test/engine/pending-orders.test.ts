/**
 * What the stock pool subtracts (issue 37, item 2): per SKU, the units ordered on any channel and not
 * yet in the ERP, read from the order ledger as order transfer writes it (the real flow, scripted
 * connectors, a real database: PGlite, or PostgreSQL when DATABASE_URL is set).
 */
import {
  ConnectorError,
  type CreateSalesOrderInput,
  type ErpConnector,
  type Order,
  type OrderLine,
  type ShopConnector,
} from "@ep/connectors";
import {
  type CompanyMappings,
  DEFAULT_MAPPINGS,
  engineSchema,
  FLOWS,
  type FlowContext,
  pendingOrderQuantities,
  RunTally,
} from "@ep/engine";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moduleDatabase } from "../support/module-database.ts";

const { orderLedger, connections } = engineSchema;
const store = moduleDatabase();
const NOW = new Date("2026-11-28T12:00:00Z");

function line(sku: string, qty: number): OrderLine {
  return { sku, name: sku, qty, unitPrice: 10, vatRate: 20, discount: 0, total: 10 * qty };
}

function order(no: string, lines: OrderLine[], status = "CREATED"): Order {
  const address = { firstName: "Ayşe", lastName: "Yılmaz", line1: "Moda Cad. 1", city: "İstanbul" };
  return {
    id: `id-${no}`,
    orderNo: no,
    createdAt: "2026-11-28T10:00:00Z",
    updatedAt: "2026-11-28T10:00:00Z",
    status,
    currency: "TRY",
    customer: { ref: `c-${no}`, firstName: "Ayşe", lastName: "Yılmaz", isCompany: false },
    billingAddress: address,
    shippingAddress: address,
    lines,
    shipping: { cost: 0 },
    totals: { subtotal: 0, discount: 0, shipping: 0, tax: 0, grandTotal: 0 },
  } as Order;
}

/** One order transfer run of a channel: the channel lists `orders`, the ERP answers `create`. */
async function transfer(
  companyId: number,
  channelId: number,
  orders: Order[],
  create: (input: CreateSalesOrderInput) => void,
  mappings: Partial<CompanyMappings> = {},
) {
  const shop = {
    descriptor: { system: "ikas", name: "IKAS" },
    listOrders: async () => ({ items: orders, cursor: undefined, nextPageToken: undefined }),
    updateOrderStatus: async () => undefined,
  } as unknown as ShopConnector;
  const erp = {
    descriptor: { system: "mikro", name: "Mikro" },
    findOrderByRef: async () => null,
    createCustomer: async (c: { ref: string }) => ({ code: `C-${c.ref}` }),
    createSalesOrder: async (input: CreateSalesOrderInput) => {
      create(input);
      return { documentId: `DOC-${input.order.orderNo}` };
    },
  } as unknown as ErpConnector;
  const ctx = {
    db: store.db,
    companyId,
    runId: 1,
    job: { id: 1, type: "OrderIntegration", name: "Sipariş", options: {} },
    erp,
    shop,
    erpConnectionId: 0,
    shopConnectionId: channelId,
    ledger: undefined as never,
    mappings: { ...DEFAULT_MAPPINGS, ...mappings },
    onlyKeys: null,
    trigger: "manual",
    now: () => NOW,
    tally: new RunTally(),
    signal: new AbortController().signal,
    workerId: "worker-1",
    lockMs: 60_000,
  } as FlowContext;
  await FLOWS.OrderIntegration(ctx);
}

const offline = () => {
  throw new ConnectorError("agent offline", { reason: "network" });
};
const refused = () => {
  throw new ConnectorError("stok kodu yok", { reason: "validation" });
};
const accepted = () => undefined;

/**
 * A second sales channel's connection. On main a company holds one connection per kind (the channels
 * branch adds marketplace connections of their own); the ledger needs only the connection's id.
 */
async function secondChannel(companyId: number) {
  const [row] = await store.db
    .insert(connections)
    .values({ companyId, kind: "einvoice", systemType: 1, credentialsSealed: "-" })
    .returning({ id: connections.id });
  return row!.id;
}

async function states(channelId: number) {
  const rows = await store.db.select().from(orderLedger).where(eq(orderLedger.shopConnectionId, channelId));
  return Object.fromEntries(rows.map((r) => [r.orderNo, r.state]));
}

describe("pendingOrderQuantities", () => {
  it("sums the lines of every order on every channel not yet in the ERP, until the ERP has it", async () => {
    const { companyId, shopConnectionId: shop } = await store.company();
    const trendyol = await secondChannel(companyId);
    const other = await store.company();

    // The ERP is out of reach: the shop's orders stay `sent` (the ERP may or may not have them).
    await transfer(
      companyId,
      shop,
      [order("S1", [line("A", 2), line("B", 1)]), order("S2", [line("A", 3)])],
      offline,
    );
    // Trendyol's order is refused by the ERP: `failed`, still a sale the merchant has to settle.
    await transfer(companyId, trendyol, [order("T1", [line("A", 4), line("C", 1), line("A", 1)])], refused);
    // Another company's order of the same SKU is not ours.
    await transfer(other.companyId, other.shopConnectionId, [order("X1", [line("A", 50)])], offline);
    expect(await states(shop)).toEqual({ S1: "sent", S2: "sent" });
    expect(await states(trendyol)).toEqual({ T1: "failed" });

    const before = await pendingOrderQuantities(store.db, companyId, ["A", "B", "C", "D"]);
    expect(Object.fromEntries(before)).toEqual({ A: 10, B: 1, C: 1 });
    // Without SKUs: every SKU with something pending.
    expect(Object.fromEntries(await pendingOrderQuantities(store.db, companyId))).toEqual({
      A: 10,
      B: 1,
      C: 1,
    });
    // Only the SKUs asked for; a SKU asked twice counts once.
    expect(Object.fromEntries(await pendingOrderQuantities(store.db, companyId, ["B", "B"]))).toEqual({
      B: 1,
    });
    expect(await pendingOrderQuantities(store.db, companyId, [])).toEqual(new Map());

    // The ERP is back: the shop's orders are confirmed there and no longer pending.
    await transfer(companyId, shop, [], accepted);
    expect(await states(shop)).toEqual({ S1: "confirmed", S2: "confirmed" });
    expect(Object.fromEntries(await pendingOrderQuantities(store.db, companyId, ["A", "B", "C"]))).toEqual({
      A: 5,
      C: 1,
    });
    expect(Object.fromEntries(await pendingOrderQuantities(store.db, other.companyId, ["A"]))).toEqual({
      A: 50,
    });
  });

  it("lets go of an order its channel has cancelled since (the ledger keeps what the channel says)", async () => {
    const { companyId, shopConnectionId: shop } = await store.company();
    // A merchant who takes cancelled orders too (so the refreshed status reaches the ledger).
    const mappings = { orderStatusesToTransfer: ["CREATED", "İptal Edildi"] };
    await transfer(
      companyId,
      shop,
      [order("C1", [line("A", 2)]), order("C2", [line("A", 1)])],
      refused,
      mappings,
    );
    expect(Object.fromEntries(await pendingOrderQuantities(store.db, companyId, ["A"]))).toEqual({ A: 3 });
    await transfer(companyId, shop, [order("C1", [line("A", 2)], "İptal Edildi")], refused, mappings);
    expect(Object.fromEntries(await pendingOrderQuantities(store.db, companyId, ["A"]))).toEqual({ A: 1 });
  });

  it("reads thousands of SKUs in chunks and ignores lines without a quantity", async () => {
    const { companyId, shopConnectionId: shop } = await store.company();
    const skus = Array.from({ length: 2500 }, (_, i) => `K${i}`);
    const lines = skus.map((sku, i) => line(sku, (i % 3) + 1));
    const broken = { ...line("K7", 1), qty: "lots" } as unknown as OrderLine;
    await transfer(companyId, shop, [order("BIG", [...lines, broken])], offline);
    const pending = await pendingOrderQuantities(store.db, companyId, skus);
    expect(pending.size).toBe(2500);
    expect(pending.get("K0")).toBe(1);
    expect(pending.get("K7")).toBe(2);
    expect(pending.get("K2499")).toBe(1);
  });
});
