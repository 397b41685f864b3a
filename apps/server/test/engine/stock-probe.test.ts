import { generateCatalog } from "@ep/connectors";
import { engineSchema, probeStockChanges } from "@ep/engine";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob, waitForRun } from "./engine-harness.ts";

// Issue 13 item 7: a light "changed since" probe moves ERP stock changes to the shop within seconds,
// asking the ERP once per probe when nothing changed.
let t: TestApp;
let c: ConnectedCompany;
const SEED = 23;
const catalog = generateCatalog({ seed: SEED, count: 80 });
const INTERVAL_MS = 15_000;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: SEED, erp: { productCount: 80 }, shop: { productCount: 80 } });
});
afterAll(async () => {
  await c.close();
  await t.close();
});

const db = () => t.ctx.database.db;
const stockJob = () => c.jobId("StockIntegration");
const probe = () => probeStockChanges(t.ctx.engine.deps, { intervalMs: INTERVAL_MS });
/** Makes the stock job due for a probe now (the scheduler's clock is the test's). */
const dueNow = () =>
  db()
    .update(engineSchema.jobs)
    .set({ nextProbeAt: new Date(t.ctx.clock.now().getTime() - 1000) })
    .where(eq(engineSchema.jobs.id, stockJob()));
const shopQty = (sku: string) => {
  const ids = c.shop.state.skuIndex.get(sku);
  const variant = ids ? c.shop.state.findVariant(ids[0], ids[1]) : undefined;
  const location = c.shop.state.stockLocations[0]!.id;
  return variant?.stocks.find((s) => s.stockLocationId === location)?.stockCount ?? 0;
};
const latestRun = async () => {
  const [run] = await db()
    .select()
    .from(engineSchema.jobRuns)
    .where(eq(engineSchema.jobRuns.jobId, stockJob()))
    .orderBy(desc(engineSchema.jobRuns.id))
    .limit(1);
  return run!;
};

describe("the stock probe", () => {
  it("waits for a first full run's mark before asking the ERP anything", async () => {
    await dueNow();
    const before = c.erp.counters.requests;
    expect((await probe()).get(stockJob())).toBe("no-mark");
    expect(c.erp.counters.requests).toBe(before);
  });

  it("after a full run, asks once per probe and starts nothing while nothing changes", async () => {
    expect((await runJob(t, c, "ProductIntegration")).status).toBe("Succeeded");
    expect((await runJob(t, c, "StockIntegration")).status).toBe("Succeeded");
    const runs = (await latestRun()).id;
    for (let i = 0; i < 3; i++) {
      await dueNow();
      const before = c.erp.counters.requests;
      expect((await probe()).get(stockJob())).toBe("unchanged");
      expect(c.erp.counters.requests - before).toBeLessThanOrEqual(1);
    }
    expect((await latestRun()).id).toBe(runs);
  });

  it("is not due again before its interval", async () => {
    await dueNow();
    await probe();
    const before = c.erp.counters.requests;
    expect((await probe()).has(stockJob())).toBe(false);
    expect(c.erp.counters.requests).toBe(before);
    const [job] = await db().select().from(engineSchema.jobs).where(eq(engineSchema.jobs.id, stockJob()));
    const ahead = job!.nextProbeAt!.getTime() - t.ctx.clock.now().getTime();
    expect(ahead).toBeGreaterThan(INTERVAL_MS - 5_000);
    expect(ahead).toBeLessThanOrEqual(INTERVAL_MS);
  });

  it("a change starts a run that reads and writes only the changed SKUs, and moves the mark", async () => {
    const changed = catalog.slice(3, 6);
    for (const [i, item] of changed.entries()) c.erp.state.setStock(item.sku, 1, 700 + i);
    await dueNow();
    expect((await probe()).get(stockJob())).toBe("changed");
    const queued = await latestRun();
    expect(queued.trigger).toBe("change");
    const run = await waitForRun(t, c.token, queued.id);
    expect(run.status).toBe("Succeeded");
    expect(run.trigger).toBe("change");
    expect(run.counts.changed).toBe(3);
    expect(run.counts.written).toBe(3);
    // Only the changed SKUs' warehouses were read (two per SKU), not the catalogue.
    expect(run.counts.read).toBeLessThanOrEqual(changed.length * 2);
    expect(run.calls.shop.write).toBe(1);
    for (const item of changed) {
      const expected = Math.max(0, c.erp.state.quantity(item.sku, 1) + c.erp.state.quantity(item.sku, 2));
      expect(shopQty(item.sku), item.sku).toBe(expected);
    }
    // The mark moved past those movements: the next probe sees nothing.
    await dueNow();
    expect((await probe()).get(stockJob())).toBe("unchanged");
  });

  it("does not probe a job that is disabled, and leaves a busy job to its active run", async () => {
    await db()
      .update(engineSchema.jobs)
      .set({ isEnabled: false })
      .where(eq(engineSchema.jobs.id, stockJob()));
    await dueNow();
    expect((await probe()).has(stockJob())).toBe(false);
    await db().update(engineSchema.jobs).set({ isEnabled: true }).where(eq(engineSchema.jobs.id, stockJob()));
    const [active] = await db()
      .insert(engineSchema.jobRuns)
      .values({
        companyId: c.companyId,
        jobId: stockJob(),
        jobType: "StockIntegration",
        jobName: "Stok",
        trigger: "manual",
        status: "Running",
      })
      .returning();
    c.erp.state.setStock(catalog[10]!.sku, 1, 42);
    await dueNow();
    const before = c.erp.counters.requests;
    expect((await probe()).get(stockJob())).toBe("busy");
    expect(c.erp.counters.requests).toBe(before);
    await db()
      .update(engineSchema.jobRuns)
      .set({ status: "Failed", finishedAt: new Date() })
      .where(and(eq(engineSchema.jobRuns.id, active!.id)));
  });
});
