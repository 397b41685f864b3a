/**
 * A first sync writes the bindings of the products it creates in groups (issue 13, item 6): two
 * ledger statements per group, not per product. A group not written (the worker died, the
 * database went away) loses and doubles nothing: the next run finds those products by SKU.
 */
import { FLOWS, SyncLedger } from "@ep/engine";
import { expect, it } from "vitest";
import type { TestApp } from "../harness.ts";
import {
  type ConnectedCompany,
  connectedCompany,
  productRunContext,
  useEngineTestApp,
} from "./engine-harness.ts";

let t: TestApp;
useEngineTestApp((app) => {
  t = app;
});

/** A ledger that counts its product writes, and can refuse them like a database gone away. */
class WatchedLedger extends SyncLedger {
  productWrites = 0;
  refuseProducts = false;
  override async put(...args: Parameters<SyncLedger["put"]>) {
    const [entity, rows] = args;
    if (entity === "product" && rows.length > 0) {
      this.productWrites++;
      if (this.refuseProducts) throw new Error("connection terminated");
    }
    return super.put(...args);
  }
}

/** A ProductIntegration context around the company's real connectors, on a clock that stands still. */
async function productRun(c: ConnectedCompany, ledger?: WatchedLedger) {
  let watched = ledger;
  const ctx = await productRunContext(t, c, "2026-11-27T09:00:00+03:00", (shopId) => {
    watched ??= new WatchedLedger(t.ctx.database.db, shopId, c.companyId);
    return watched;
  });
  return { ctx, ledger: watched as WatchedLedger };
}

const shopSkus = (c: ConnectedCompany) => [...c.shop.state.skuIndex.keys()];

it("creates 40 models in the shop and binds them in one group", async () => {
  const c = await connectedCompany(t, { seed: 51, erp: { productCount: 40 }, shop: { productCount: 0 } });
  try {
    const { ctx, ledger } = await productRun(c);
    await FLOWS.ProductIntegration(ctx);
    const models = ctx.tally.counts.written;
    expect(models).toBeGreaterThan(0);
    expect(c.shop.state.products.size).toBe(models);
    // One statement for the group (the old flow wrote one per product).
    expect(ledger.productWrites).toBe(1);
    const bound = await ledger.all("product");
    expect(bound.filter((r) => r.externalId).length).toBe(models);
  } finally {
    await c.close();
  }
});

it("loses and doubles nothing when a group's bindings are not written", async () => {
  const c = await connectedCompany(t, { seed: 52, erp: { productCount: 30 }, shop: { productCount: 0 } });
  try {
    const first = await productRun(c);
    first.ledger.refuseProducts = true;
    await expect(FLOWS.ProductIntegration(first.ctx)).rejects.toThrow("connection terminated");
    const created = c.shop.state.products.size;
    expect(created).toBeGreaterThan(0);
    expect(await first.ledger.all("product")).toEqual([]);

    const again = await productRun(c);
    await FLOWS.ProductIntegration(again.ctx);
    // The same shop products, now bound; no SKU made twice.
    expect(c.shop.state.products.size).toBe(created);
    expect(new Set(shopSkus(c)).size).toBe(shopSkus(c).length);
    const bound = await again.ledger.all("product");
    expect(bound.filter((r) => r.externalId).length).toBe(created);
  } finally {
    await c.close();
  }
});
