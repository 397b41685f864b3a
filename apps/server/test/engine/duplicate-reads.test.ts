import type { ErpConnector, Page, Price, Product, StockLevel } from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import { type EngineDeps, engineSchema, executeRun, insertRun, SyncLedger } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;
let deps: EngineDeps;
/** The item each listing read twice: the second copy carries a later value. */
const repeated: { stock?: StockLevel; price?: Price; product?: Product } = {};

/**
 * The ERP as it answers while someone edits it: every page lists its first item a second time,
 * at the end (stock and price rows with a changed value, a product card as it was).
 */
function repeatingErp(erp: ErpConnector): ErpConnector {
  const again = <T>(page: Page<T>, copy: (item: T) => T): Page<T> => {
    const first = page.items[0];
    return first ? { ...page, items: [...page.items, copy(first)] } : page;
  };
  return new Proxy(erp, {
    get(target, prop, receiver) {
      if (prop === "listStock")
        return async (q: Parameters<ErpConnector["listStock"]>[0]) =>
          again(await target.listStock(q), (l) => (repeated.stock ??= { ...l, qty: l.qty + 5 }));
      if (prop === "listPrices")
        return async (q: Parameters<ErpConnector["listPrices"]>[0]) =>
          again(await target.listPrices(q), (p) => (repeated.price ??= { ...p, amount: p.amount + 1 }));
      if (prop === "listProducts")
        return async (q: Parameters<ErpConnector["listProducts"]>[0]) =>
          again(await target.listProducts(q), (p) => (repeated.product ??= p));
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 31, erp: { productCount: 30 }, shop: { productCount: 25 } });
  const host = t.ctx.engine.deps;
  deps = {
    ...host,
    openConnectors: async (companyId, counter) => {
      const opened = await host.openConnectors(companyId, counter);
      return { ...opened, erp: repeatingErp(opened.erp) };
    },
  };
}, 60_000);
afterAll(async () => {
  await c?.close();
  await t?.close();
});

/** Runs a job in this process with the repeating ERP; answers its JobHistory row. */
async function run(type: JobType) {
  const db = t.ctx.database.db;
  const queued = await insertRun(db, {
    companyId: c.companyId,
    jobId: c.jobId(type),
    jobType: type,
    jobName: type,
    trigger: "manual",
    onlyKeys: null,
  });
  await executeRun(deps, queued!.id);
  const [row] = await db.select().from(engineSchema.jobRuns).where(eq(engineSchema.jobRuns.id, queued!.id));
  return row!;
}

const variant = (sku: string) => {
  const ids = c.shop.state.skuIndex.get(sku);
  return ids ? c.shop.state.findVariant(ids[0], ids[1]) : undefined;
};

describe("an ERP page that lists the same item twice (issue 11, defect 12)", () => {
  it("the ledger takes a batch with a repeated key, the last row winning", async () => {
    const db = t.ctx.database.db;
    const [shop] = await db
      .select()
      .from(engineSchema.connections)
      .where(
        and(eq(engineSchema.connections.companyId, c.companyId), eq(engineSchema.connections.kind, "shop")),
      );
    const ledger = new SyncLedger(db, shop!.id, c.companyId);
    await ledger.put("price", [
      { key: "TEKRAR-1@default", hash: "10.00 TRY" },
      { key: "TEKRAR-1@default", hash: "11.00 TRY" },
    ]);
    expect((await ledger.get("price", ["TEKRAR-1@default"])).get("TEKRAR-1@default")?.hash).toBe("11.00 TRY");
  });

  it("a product card read twice is one card: the product run succeeds", async () => {
    const result = await run("ProductIntegration");
    expect(result.status, result.report).toBe("Succeeded");
    expect(repeated.product).toBeDefined();
    expect(variant(repeated.product!.sku)).toBeDefined();
    for (const sku of c.erp.state.stokByKod.keys()) expect(variant(sku), sku).toBeDefined();
  });

  it("a warehouse row read twice counts once, with its later quantity", async () => {
    const result = await run("StockIntegration");
    expect(result.status, result.report).toBe("Succeeded");
    const { sku, location, qty } = repeated.stock!;
    const expected = [1, 2]
      .map((depot) => (String(depot) === location ? qty : c.erp.state.quantity(sku, depot)))
      .reduce((a, b) => a + b, 0);
    const shopLocation = c.shop.state.stockLocations[0]!.id;
    expect(variant(sku)!.stocks.find((s) => s.stockLocationId === shopLocation)?.stockCount).toBe(
      Math.max(0, expected),
    );
  });

  it("a price read twice is written once, with its later amount", async () => {
    const result = await run("PriceIntegration");
    expect(result.status, result.report).toBe("Succeeded");
    const { sku, amount } = repeated.price!;
    expect(variant(sku)!.prices.find((p) => !p.priceListId)?.sellPrice).toBe(Math.round(amount * 100) / 100);
  });
});
