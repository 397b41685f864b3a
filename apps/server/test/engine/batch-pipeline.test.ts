/**
 * The stock writer with several batches in flight (issue 13, item 2): against the IKAS emulator with
 * answer times, a batch that fails while others are in flight, a row the shop refuses inside a batch,
 * and a record read twice across two batches.
 */
import {
  createErpConnector,
  createShopConnector,
  InMemoryRateLimitStore,
  type ShopConnector,
  type StockUpdate,
} from "@ep/connectors";
import { BatchWriter, DEFAULT_MAPPINGS, FLOWS, type FlowContext, RunTally, SyncLedger } from "@ep/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findConnection } from "../../src/modules/connections/repository.ts";
import { startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;
let shopConnectionId = 0;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 23, erp: { productCount: 40 }, shop: { productCount: 40 } });
  shopConnectionId = (await findConnection(t.ctx.database.db, c.companyId, "shop"))!.id;
});
afterAll(async () => {
  await c.close();
  await t.close();
});

/** A flow context around the real IKAS and Mikro connectors and the real ledger of the company. */
function flowContext(
  company: ConnectedCompany = c,
  erpBatch?: { page: number; readChains: number },
  shopId = shopConnectionId,
): { ctx: FlowContext; shop: ShopConnector } {
  const common = {
    companyId: String(company.companyId),
    rateLimitStore: new InMemoryRateLimitStore(),
    retry: { maxRetries: 0 },
  };
  const shop = createShopConnector(1, { ...company.shop.credentials }, common);
  const erp = createErpConnector(9, { ...company.erp.credentials }, { ...common, batch: erpBatch });
  const ctx: FlowContext = {
    db: t.ctx.database.db,
    companyId: company.companyId,
    runId: 0,
    job: { id: company.jobId("StockIntegration"), type: "StockIntegration", name: "Stok", options: {} },
    erp,
    shop,
    erpConnectionId: 0,
    shopConnectionId: shopId,
    ledger: new SyncLedger(t.ctx.database.db, shopId, company.companyId),
    mappings: DEFAULT_MAPPINGS,
    onlyKeys: null,
    trigger: "manual",
    now: () => new Date(),
    tally: new RunTally(),
    signal: new AbortController().signal,
    workerId: "test",
    lockMs: 60_000,
  };
  return { ctx, shop };
}

const skus = () => [...c.shop.state.skuIndex.keys()].sort();
const location = () => c.shop.state.stockLocations[0]!.id;
const shopQty = (sku: string) => {
  const [productId, variantId] = c.shop.state.skuIndex.get(sku)!;
  return c.shop.state.findVariant(productId, variantId)?.stocks.find((s) => s.stockLocationId === location())
    ?.stockCount;
};
const update = (sku: string, qty: number): StockUpdate => {
  const [productId, variantId] = c.shop.state.skuIndex.get(sku)!;
  return { sku, locationId: location(), qty, productId, variantId };
};
const write = (sku: string, qty: number) => ({
  key: sku,
  ledgerKey: `${sku}@${location()}`,
  hash: String(qty),
  item: update(sku, qty),
});

/** Wraps the real `setStock` to see how many batches are in flight at once and in what order. */
function watched(shop: ShopConnector) {
  let inFlight = 0;
  const seen = { maxInFlight: 0, events: [] as string[] };
  const send = async (items: StockUpdate[]) => {
    inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
    seen.events.push(`start ${items.map((i) => `${i.sku}=${i.qty}`).join(",")}`);
    try {
      return await shop.setStock(items);
    } finally {
      inFlight--;
      seen.events.push(`end ${items.map((i) => `${i.sku}=${i.qty}`).join(",")}`);
    }
  };
  return { send, seen };
}

describe("stock batches in flight at once", () => {
  it("sends several batches at once and records each one that lands, whatever the order of answers", async () => {
    c.shop.setFaults({ latencyMs: 60, latencyJitterMs: 60 });
    const { ctx, shop } = flowContext();
    const { send, seen } = watched(shop);
    const writer = new BatchWriter(ctx, "stock", 4, send, (i) => i.sku, { inFlight: 3, waiting: 2 });
    const all = skus().slice(0, 24);
    for (const [i, sku] of all.entries()) await writer.add(write(sku, 1000 + i));
    await writer.flush();
    c.shop.setFaults({});
    expect(seen.maxInFlight).toBeGreaterThan(1);
    expect(seen.maxInFlight).toBeLessThanOrEqual(3);
    const ledger = await ctx.ledger.get(
      "stock",
      all.map((s) => `${s}@${location()}`),
    );
    for (const [i, sku] of all.entries()) {
      expect(shopQty(sku), sku).toBe(1000 + i);
      expect(ledger.get(`${sku}@${location()}`)?.hash, sku).toBe(String(1000 + i));
    }
    expect(ctx.tally.counts.written).toBe(24);
  });

  it("a batch failing while others are in flight: its rows stay for the next run, the others land and are recorded, a refused row is a failed task", async () => {
    c.shop.setFaults({ latencyMs: 80 });
    // The next stock write answers 500 (the connector does not retry here): the first batch fails
    // while the second and third are in flight.
    c.shop.faults.enqueue({ kind: "5xx", operation: "saveProductStockLocations", times: 1 });
    const { ctx, shop } = flowContext();
    const { send, seen } = watched(shop);
    const writer = new BatchWriter(ctx, "stock", 3, send, (i) => i.sku, { inFlight: 3, waiting: 1 });
    const all = skus().slice(0, 30);
    const want = (sku: string) => 2000 + all.indexOf(sku);
    // One record the shop refuses (a variant it does not have), in the second batch.
    const refused = all[4]!;
    for (const sku of all) {
      const w = write(sku, want(sku));
      if (sku === refused) w.item = { ...w.item, variantId: "no-such-variant" };
      await writer.add(w);
    }
    await writer.flush();
    c.shop.setFaults({});
    expect(seen.maxInFlight).toBeGreaterThan(1);

    const keys = all.map((s) => `${s}@${location()}`);
    const ledger = await ctx.ledger.get("stock", keys);
    const recorded = all.filter((s) => ledger.get(`${s}@${location()}`)?.hash === String(want(s)));
    const landed = all.filter((s) => shopQty(s) === want(s));
    // Exactly what the shop applied is recorded: nothing lost, nothing recorded that did not land.
    expect(recorded).toEqual(landed);
    // The failed batch (the first three) did not land and is left for the next run; the refused row
    // is a failed task of its own; everything else landed, batches in flight and after alike.
    expect(landed).toEqual(all.filter((s, i) => i >= 3 && s !== refused));
    expect(writer.transientLeft).toBe(3);
    expect(ctx.tally.failures.map((f) => f.key)).toEqual([refused]);
    expect(ctx.tally.counts.written).toBe(landed.length);

    // The next run moves what was left, once.
    const next = flowContext();
    const again = new BatchWriter<StockUpdate>(
      next.ctx,
      "stock",
      3,
      (items) => next.shop.setStock(items),
      (i) => i.sku,
    );
    const last = await next.ctx.ledger.get("stock", keys);
    for (const sku of all) {
      if (sku === refused || last.get(`${sku}@${location()}`)?.hash === String(want(sku))) continue;
      await again.add(write(sku, want(sku)));
    }
    await again.flush();
    expect(next.ctx.tally.counts.written).toBe(3);
    for (const sku of all.filter((s) => s !== refused)) expect(shopQty(sku), sku).toBe(want(sku));
  });

  it("a send that throws: batches in flight still land and are recorded, none starts after, flush rethrows", async () => {
    c.shop.setFaults({ latencyMs: 80 });
    const { ctx, shop } = flowContext();
    const { send, seen } = watched(shop);
    let calls = 0;
    // The second batch's write is answered, then its caller throws (e.g. the process loses the answer
    // to a bug): the batch's rows count as not moved.
    const throwing = async (items: StockUpdate[]) => {
      const n = ++calls;
      const result = await send(items);
      if (n === 2) throw new Error("lost answer");
      return result;
    };
    const writer = new BatchWriter(ctx, "stock", 3, throwing, (i) => i.sku, { inFlight: 3, waiting: 0 });
    const all = skus().slice(0, 30);
    const want = (sku: string) => 3000 + all.indexOf(sku);
    let added = 0;
    await expect(
      (async () => {
        for (const sku of all) {
          await writer.add(write(sku, want(sku)));
          added++;
        }
        await writer.flush();
      })(),
    ).rejects.toThrow("lost answer");
    await writer.drain();
    c.shop.setFaults({});
    expect(added).toBeLessThan(all.length);
    const ledger = await ctx.ledger.get(
      "stock",
      all.map((s) => `${s}@${location()}`),
    );
    const recorded = all.filter((s) => ledger.get(`${s}@${location()}`)?.hash === String(want(s)));
    const failedBatch = all.slice(3, 6);
    const failedEnd = seen.events.indexOf(`end ${failedBatch.map((s) => `${s}=${want(s)}`).join(",")}`);
    expect(failedEnd).toBeGreaterThan(-1);
    // Nothing started after the failure was known.
    expect(seen.events.slice(failedEnd + 1).filter((e) => e.startsWith("start"))).toEqual([]);
    // Every other batch that was sent (in flight with the failing one, or before its answer) landed
    // and is recorded; the failing batch's rows are not recorded.
    const sent = seen.events
      .filter((e) => e.startsWith("start"))
      .flatMap((e) =>
        e
          .slice(6)
          .split(",")
          .map((p) => p.slice(0, p.lastIndexOf("="))),
      );
    expect(sent.length).toBeGreaterThanOrEqual(9);
    expect(sent.length).toBeLessThan(all.length);
    expect(recorded).toEqual(sent.filter((s) => !failedBatch.includes(s)));
    for (const s of recorded) expect(shopQty(s), s).toBe(want(s));
    expect(ctx.tally.counts.written).toBe(recorded.length);
  });

  it("a record read twice goes out in order: the batch holding it again waits for the first one", async () => {
    c.shop.setFaults({ latencyMs: 50, latencyJitterMs: 100 });
    const { ctx, shop } = flowContext();
    const { send, seen } = watched(shop);
    const writer = new BatchWriter(ctx, "stock", 2, send, (i) => i.sku, { inFlight: 4, waiting: 4 });
    const [a, b, d, e] = skus().slice(30, 34) as [string, string, string, string];
    await writer.add(write(a, 1));
    await writer.add(write(b, 1));
    await writer.add(write(a, 2));
    await writer.add(write(d, 1));
    await writer.add(write(e, 1));
    await writer.add(write(b, 2));
    await writer.flush();
    c.shop.setFaults({});
    expect(shopQty(a)).toBe(2);
    expect(shopQty(b)).toBe(2);
    const ledger = await ctx.ledger.get("stock", [`${a}@${location()}`, `${b}@${location()}`]);
    expect(ledger.get(`${a}@${location()}`)?.hash).toBe("2");
    expect(ledger.get(`${b}@${location()}`)?.hash).toBe("2");
    // The second batch (a=2) started only after the first (a=1, b=1) ended.
    const firstEnd = seen.events.indexOf(`end ${a}=1,${b}=1`);
    const secondStart = seen.events.indexOf(`start ${a}=2,${d}=1`);
    expect(firstEnd).toBeGreaterThan(-1);
    expect(secondStart).toBeGreaterThan(firstEnd);
  });
});

describe("full ERP reads as several key ranges at once", () => {
  it("reads stock and prices in disjoint ranges in flight together, writes each record once, and a range failing mid-way loses and doubles nothing", async () => {
    const other = await connectedCompany(t, {
      seed: 29,
      erp: { productCount: 50 },
      shop: { productCount: 50 },
    });
    const otherShopId = (await findConnection(t.ctx.database.db, other.companyId, "shop"))!.id;
    try {
      other.erp.setFaults({ latencyMs: 30, latencyJitterMs: 30 });
      // Small pages: each of the 3 ranges takes several pages.
      const batch = { page: 8, readChains: 3 };
      /** The real connector, watched: ERP reads in flight at once; a 500 queued on the `failAt`-th read. */
      const watchedRun = async (type: "StockIntegration" | "PriceIntegration", failAt?: number) => {
        const { ctx } = flowContext(other, batch, otherShopId);
        const erp = ctx.erp;
        const seen = { reads: 0, inFlight: 0, maxInFlight: 0 };
        const watch =
          <Q, R>(list: (q: Q) => Promise<R>) =>
          async (q: Q) => {
            seen.reads++;
            if (seen.reads === failAt) other.erp.faults.enqueue({ kind: "5xx", operation: "SqlVeriOkuV2" });
            seen.inFlight++;
            seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
            try {
              return await list.call(erp, q);
            } finally {
              seen.inFlight--;
            }
          };
        ctx.erp = Object.assign(Object.create(erp), {
          listStock: watch(erp.listStock),
          listPrices: watch(erp.listPrices),
        });
        ctx.job = { ...ctx.job, id: other.jobId(type), type };
        const error = await FLOWS[type](ctx).then(
          () => undefined,
          (e: unknown) => e,
        );
        return { ctx, seen, error };
      };

      // A stock run whose 6th read fails: what landed before is recorded, the run fails.
      const failed = await watchedRun("StockIntegration", 6);
      expect(failed.error).toBeTruthy();
      expect(failed.seen.maxInFlight).toBeGreaterThan(1);
      const firstWritten = failed.ctx.tally.counts.written;
      // The next run writes exactly the rest: every SKU the shop has, once in all.
      const stock = await watchedRun("StockIntegration");
      expect(stock.error).toBeUndefined();
      expect(stock.seen.maxInFlight).toBeGreaterThan(1);
      expect(stock.seen.maxInFlight).toBeLessThanOrEqual(3);
      const inShop = [...other.shop.state.skuIndex.keys()].filter((sku) =>
        other.erp.state.stokByKod.has(sku),
      );
      expect(inShop.length).toBeGreaterThan(20);
      expect(firstWritten + stock.ctx.tally.counts.written).toBe(inShop.length);
      const at = other.shop.state.stockLocations[0]!.id;
      for (const sku of inShop) {
        const [productId, variantId] = other.shop.state.skuIndex.get(sku)!;
        const shown = other.shop.state
          .findVariant(productId, variantId)
          ?.stocks.find((x) => x.stockLocationId === at)?.stockCount;
        const total = other.erp.state.quantity(sku, 1) + other.erp.state.quantity(sku, 2);
        expect(shown, sku).toBe(Math.max(0, Math.floor(total)));
      }
      // Nothing changed: a third run writes nothing.
      expect((await watchedRun("StockIntegration")).ctx.tally.counts.written).toBe(0);

      // Prices the same way: several ranges in flight, every price once.
      const prices = await watchedRun("PriceIntegration");
      expect(prices.error).toBeUndefined();
      expect(prices.seen.maxInFlight).toBeGreaterThan(1);
      expect(prices.ctx.tally.counts.written).toBe(inShop.length);
      expect((await watchedRun("PriceIntegration")).ctx.tally.counts.written).toBe(0);
    } finally {
      await other.close();
    }
  });
});
