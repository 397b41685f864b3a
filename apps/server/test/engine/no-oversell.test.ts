/**
 * No oversell under concurrent orders on three channels (issue 37, item 2), at the engine level: the
 * real order transfer flow, the real order ledger (PGlite, or PostgreSQL when DATABASE_URL is set) and
 * `channelOffers`, with buyers, stock rounds and transfers running at once, their steps interleaved by a
 * seeded scheduler. The model:
 * - a channel sells only what it was last offered: its counter is set by a stock round, lowered by a sale;
 * - a sale is in the order ledger before the next stock round reads it (webhook ingestion): sales and a
 *   round's read-compute-push take turns (the round's push is the channel's absolute stock update);
 * - order transfer runs on its own schedule per channel, any time, and the ERP's stock drops when it
 *   creates the sales order (the ledger says `confirmed` only after).
 * Across every interleaving, the units sold of a SKU never exceed the ERP's stock of it.
 */
import {
  type CreateSalesOrderInput,
  type ErpConnector,
  type Order,
  Prng,
  type ShopConnector,
} from "@ep/connectors";
import {
  allocateStock,
  type ChannelShare,
  channelOffers,
  DEFAULT_MAPPINGS,
  engineSchema,
  FLOWS,
  type FlowContext,
  pendingOrderQuantities,
  RunTally,
} from "@ep/engine";
import { describe, expect, it } from "vitest";
import { moduleDatabase } from "../support/module-database.ts";

const { orderLedger, connections } = engineSchema;
const store = moduleDatabase();
const NOW = new Date("2026-11-28T12:00:00Z");
const SKUS = ["A", "B"];
const ERP_STOCK: Record<string, number> = { A: 12, B: 5 };
const ORDERS = 40;
const ROUNDS = 15;
const SEEDS = 6;

const SHARES: ChannelShare[] = [
  { channelKey: "shop", safety: { units: 0 } },
  { channelKey: "trendyol", safety: { units: 1 }, weight: 2 },
  { channelKey: "hepsiburada", safety: { percent: 10 } },
];

/** A turn-taking lock: a sale and a stock round's read-compute-push never overlap. */
class Turns {
  private tail = Promise.resolve();
  async run<T>(work: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise((r) => {
      release = r;
    });
    await before;
    try {
      return await work();
    } finally {
      release();
    }
  }
}

type Channel = { key: string; connectionId: number; counter: Map<string, number>; orders: Order[] };

function saleOrder(no: string, sku: string, qty: number): Order {
  const address = { firstName: "Ayşe", lastName: "Yılmaz", line1: "Moda Cad. 1", city: "İstanbul" };
  return {
    id: `id-${no}`,
    orderNo: no,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    status: "CREATED",
    currency: "TRY",
    customer: { ref: `c-${no}`, firstName: "Ayşe", lastName: "Yılmaz", isCompany: false },
    billingAddress: address,
    shippingAddress: address,
    lines: [{ sku, name: sku, qty, unitPrice: 10, vatRate: 20, discount: 0, total: 10 * qty }],
    shipping: { cost: 0 },
    totals: { subtotal: 10 * qty, discount: 0, shipping: 0, tax: 0, grandTotal: 10 * qty },
  } as Order;
}

type Reading = "pending first" | "erp first";

/** One company, three channels and everything running at once under one seed; answers units sold per SKU. */
async function simulate(seed: number, reading: Reading) {
  const rng = new Prng(seed);
  /** Lets the other actors run a random number of turns (0–5), seeded. */
  const yieldSome = async () => {
    for (let n = rng.int(0, 5); n > 0; n--) await new Promise<void>((r) => setImmediate(r));
  };
  const { companyId, shopConnectionId } = await store.company();
  const channels: Channel[] = [];
  // The marketplaces' connections: on main a company holds one connection per kind (the channels
  // branch adds marketplace connections of their own); the ledger needs only a connection id.
  const kinds = [undefined, "erp", "einvoice"] as const;
  for (const [i, share] of SHARES.entries()) {
    const kind = kinds[i];
    const connectionId = !kind
      ? shopConnectionId
      : (
          await store.db
            .insert(connections)
            .values({ companyId, kind, systemType: 1, credentialsSealed: "-" })
            .returning({ id: connections.id })
        )[0]!.id;
    channels.push({ key: share.channelKey, connectionId, counter: new Map(), orders: [] });
  }
  const erpStock = new Map(Object.entries(ERP_STOCK));
  const sold = new Map<string, number>();
  const turns = new Turns();

  const readErp = async (skus: readonly string[]) => {
    // The ERP reads its stock some time into the request and answers later: transfers move on meanwhile.
    await yieldSome();
    const read = new Map(skus.map((s) => [s, erpStock.get(s) ?? 0]));
    await yieldSome();
    return read;
  };

  const buyer = async (i: number) => {
    await yieldSome();
    const channel = rng.pick(channels);
    const sku = rng.pick(SKUS);
    const qty = rng.int(1, 2);
    await turns.run(async () => {
      const left = channel.counter.get(sku) ?? 0;
      if (left < qty) return; // the channel shows too few: no sale
      channel.counter.set(sku, left - qty);
      sold.set(sku, (sold.get(sku) ?? 0) + qty);
      const order = saleOrder(`${channel.key}-${i}`, sku, qty);
      // Webhook ingestion: the order is in the ledger as order transfer would write it, before the
      // channel lists it (a transfer run that lists it first would write the same ledger row).
      await store.db.insert(orderLedger).values({
        companyId,
        shopConnectionId: channel.connectionId,
        orderNo: order.orderNo,
        shopOrderId: order.id,
        orderDate: new Date(order.createdAt),
        grandTotal: order.totals.grandTotal,
        currency: order.currency,
        shopUpdatedAt: new Date(order.updatedAt),
        payload: order,
      });
      channel.orders.push(order);
    });
  };

  const stockRound = async () => {
    await yieldSome();
    await turns.run(async () => {
      let offers: Map<string, Map<string, number>>;
      if (reading === "pending first") {
        offers = await channelOffers({
          db: store.db,
          companyId,
          skus: SKUS,
          readErpAvailable: readErp,
          channels: SHARES,
        });
      } else {
        const available = await readErp(SKUS);
        const pending = await pendingOrderQuantities(store.db, companyId, SKUS);
        offers = new Map(
          SKUS.map((sku) => [
            sku,
            allocateStock({
              erpAvailable: available.get(sku) ?? 0,
              pendingNotInErp: pending.get(sku) ?? 0,
              channels: SHARES,
            }),
          ]),
        );
      }
      for (const sku of SKUS) {
        const bySku = offers.get(sku)!;
        const total = [...bySku.values()].reduce((s, n) => s + n, 0);
        expect(total).toBeLessThanOrEqual(ERP_STOCK[sku]!);
        for (const channel of channels) channel.counter.set(sku, bySku.get(channel.key)!);
      }
    });
  };

  const transferRun = async (channel: Channel) => {
    await yieldSome();
    const shop = {
      descriptor: { system: "ikas", name: channel.key },
      listOrders: async () => ({ items: [...channel.orders], cursor: undefined, nextPageToken: undefined }),
      updateOrderStatus: async () => undefined,
    } as unknown as ShopConnector;
    const erp = {
      descriptor: { system: "mikro", name: "Mikro" },
      findOrderByRef: async () => null,
      createCustomer: async (c: { ref: string }) => ({ code: `C-${c.ref}` }),
      createSalesOrder: async (input: CreateSalesOrderInput) => {
        await yieldSome();
        for (const l of input.order.lines) erpStock.set(l.sku, (erpStock.get(l.sku) ?? 0) - l.qty);
        await yieldSome(); // the document exists; the ledger learns it a little later
        return { documentId: `DOC-${input.order.orderNo}` };
      },
    } as unknown as ErpConnector;
    await FLOWS.OrderIntegration({
      db: store.db,
      companyId,
      runId: 1,
      job: { id: 1, type: "OrderIntegration", name: "Sipariş", options: {} },
      erp,
      shop,
      erpConnectionId: 0,
      shopConnectionId: channel.connectionId,
      ledger: undefined as never,
      mappings: DEFAULT_MAPPINGS,
      onlyKeys: null,
      trigger: "manual",
      now: () => NOW,
      tally: new RunTally(),
      signal: new AbortController().signal,
      workerId: `worker-${channel.key}`,
      lockMs: 60_000,
    } as FlowContext);
  };

  const rounds = async () => {
    for (let r = 0; r < ROUNDS; r++) await stockRound();
  };
  const transfers = async (channel: Channel) => {
    for (let r = 0; r < 4; r++) await transferRun(channel);
  };
  await stockRound(); // the first offers
  await Promise.all([
    rounds(),
    ...channels.map(transfers),
    ...Array.from({ length: ORDERS }, (_, i) => buyer(i)),
  ]);
  // Whatever is left goes to the ERP: every sale was a real order it now holds.
  for (const channel of channels) await transferRun(channel);
  return { sold, erpStock };
}

describe("one stock pool on three channels", () => {
  it("never sells more than the ERP holds, however orders, stock rounds and transfers interleave", async () => {
    let soldAll = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { sold, erpStock } = await simulate(seed, "pending first");
      for (const sku of SKUS) {
        expect(sold.get(sku) ?? 0, `seed ${seed}, ${sku}`).toBeLessThanOrEqual(ERP_STOCK[sku]!);
        expect(erpStock.get(sku), `seed ${seed}, ${sku}`).toBe(ERP_STOCK[sku]! - (sold.get(sku) ?? 0));
        soldAll += sold.get(sku) ?? 0;
      }
    }
    // The channels did sell: the pool was offered, not held back.
    expect(soldAll).toBeGreaterThan(SEEDS * 10);
  }, 300_000);

  it("oversells when a round reads the ERP's stock before the pending orders (why channelOffers does not)", async () => {
    // An order confirmed between the two reads is in neither: its units are offered again. The first
    // seed that shows it is enough (the same harness, so the test above can fail).
    let oversoldAt: number | undefined;
    // Searched over many seeds: how the turns interleave depends on the database's answer times (on a
    // loaded PostgreSQL the first 24 seeds once showed none), and the first seed that shows it ends the search.
    for (let seed = 1; seed <= 20 * SEEDS && oversoldAt === undefined; seed++) {
      const { sold } = await simulate(seed, "erp first");
      if (SKUS.some((sku) => (sold.get(sku) ?? 0) > ERP_STOCK[sku]!)) oversoldAt = seed;
    }
    expect(oversoldAt).toBeDefined();
  }, 300_000);
});
