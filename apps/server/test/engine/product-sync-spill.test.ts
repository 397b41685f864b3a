/**
 * A first sync in bounded memory (issue 34, item 2): a catalogue over `SPILL_DEFAULTS.holdAt` cards
 * is spread over files by model key and read back a file at a time. The flow's outcome must be the
 * one of the catalogue held whole: every model once, a model's cards together however the ERP
 * paged them, a card listed twice counted once, and no file left behind.
 */
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { FLOWS, GroupSpill, SPILL_DEFAULTS } from "@ep/engine";
import { describe, expect, it } from "vitest";
import type { TestApp } from "../harness.ts";
import {
  type ConnectedCompany,
  connectedCompany,
  productRunContext,
  useEngineTestApp,
} from "./engine-harness.ts";

type Card = { sku: string; group: string; n: number };

const spillFolders = async () => (await readdir(tmpdir())).filter((f) => f.startsWith("ep-cards-")).sort();

describe("GroupSpill", () => {
  const small = { holdAt: 4, partitions: 3, flushBytes: 40 };

  it("holds a few records in memory and hands them back as one group, in order", async () => {
    const spill = new GroupSpill<Card>((c) => c.group, small);
    await spill.add([
      { sku: "a", group: "g1", n: 1 },
      { sku: "b", group: "g2", n: 2 },
    ]);
    const groups: Card[][] = [];
    for await (const g of spill.groups()) groups.push(g);
    await spill.close();
    expect(spill.spilled).toBe(false);
    expect(groups).toEqual([
      [
        { sku: "a", group: "g1", n: 1 },
        { sku: "b", group: "g2", n: 2 },
      ],
    ]);
  });

  it("past its limit keeps each group's records in one partition, in the order read, and removes its files", async () => {
    const before = await spillFolders();
    const spill = new GroupSpill<Card>((c) => c.group, small);
    const all: Card[] = [];
    for (let page = 0; page < 6; page++) {
      const items = Array.from({ length: 5 }, (_, i) => ({
        sku: `s${page}-${i}`,
        group: `g${(page + i) % 7}`,
        n: page,
      }));
      all.push(...items);
      await spill.add(items);
    }
    expect(spill.spilled).toBe(true);
    const groups: Card[][] = [];
    for await (const g of spill.groups()) groups.push(g);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.length).toBeLessThanOrEqual(3);
    // Every record once, and a group never split over two partitions.
    expect(
      groups
        .flat()
        .map((c) => c.sku)
        .sort(),
    ).toEqual(all.map((c) => c.sku).sort());
    const home = new Map<string, number>();
    groups.forEach((g, p) => {
      for (const c of g) {
        expect(home.get(c.group) ?? p).toBe(p);
        home.set(c.group, p);
      }
      // Within a partition, the order they were read.
      const order = g.map((c) => all.findIndex((x) => x.sku === c.sku));
      expect(order).toEqual([...order].sort((x, y) => x - y));
    });
    expect((await spillFolders()).length).toBe(before.length + 1);
    await spill.close();
    expect(await spillFolders()).toEqual(before);
  });
});

describe("ProductIntegration over a spilled catalogue", () => {
  let t: TestApp;
  useEngineTestApp((app) => {
    t = app;
  });

  async function firstSync(c: ConnectedCompany) {
    const ctx = await productRunContext(t, c, "2026-11-28T09:00:00+03:00");
    const ledger = ctx.ledger;
    await FLOWS.ProductIntegration(ctx);
    const shopModels = [...c.shop.state.products.values()]
      .map((p) => JSON.stringify([...p.variants.map((v) => v.sku ?? "")].sort()))
      .sort();
    return { written: ctx.tally.counts.written, shopModels, bound: (await ledger.all("product")).length };
  }

  it("creates the same shop products as with the catalogue held whole, and leaves no file behind", async () => {
    const whole = await connectedCompany(t, {
      seed: 61,
      erp: { productCount: 45 },
      shop: { productCount: 0 },
    });
    const spilled = await connectedCompany(t, {
      seed: 61,
      erp: { productCount: 45 },
      shop: { productCount: 0 },
    });
    const before = await spillFolders();
    const saved = { ...SPILL_DEFAULTS };
    try {
      const a = await firstSync(whole);
      // Mikro pages 45 cards; over 6 held, they go to 5 files by model code.
      Object.assign(SPILL_DEFAULTS, { holdAt: 6, partitions: 5, flushBytes: 256 });
      const b = await firstSync(spilled);
      expect(a.written).toBeGreaterThan(0);
      expect(b.written).toBe(a.written);
      expect(b.bound).toBe(a.bound);
      // The same models, each with its variants together (Mikro's sto_model_kodu groups them).
      expect(b.shopModels).toEqual(a.shopModels);
      expect(a.shopModels.some((m) => JSON.parse(m).length > 1)).toBe(true);
      expect(await spillFolders()).toEqual(before);
    } finally {
      Object.assign(SPILL_DEFAULTS, saved);
      await whole.close();
      await spilled.close();
    }
  });
});
