import { generateCatalog } from "@ep/connectors";
import { convertVat } from "@ep/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;
const SEED = 11;
const ERP_SKUS = 120;
const SHOP_SKUS = 90;
const catalog = generateCatalog({ seed: SEED, count: ERP_SKUS });

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, {
    seed: SEED,
    erp: { productCount: ERP_SKUS },
    shop: { productCount: SHOP_SKUS },
  });
});
afterAll(async () => {
  await c.close();
  await t.close();
});

const shopVariant = (sku: string) => {
  const ids = c.shop.state.skuIndex.get(sku);
  return ids ? c.shop.state.findVariant(ids[0], ids[1]) : undefined;
};

describe("product area sync against the Mikro and IKAS emulators", () => {
  it("creates the ERP models the shop lacks, adopts the ones it has, and never creates twice", async () => {
    const categories = await runJob(t, c, "CategoryIntegration");
    expect(categories.status).toBe("Succeeded");
    const before = c.shop.state.products.size;
    const run = await runJob(t, c, "ProductIntegration");
    expect(run.status).toBe("Succeeded");
    for (const item of catalog) expect(shopVariant(item.sku), item.sku).toBeDefined();
    const created = c.shop.state.products.size - before;
    expect(created).toBeGreaterThan(0);
    expect(run.counts.written).toBe(created);
    const again = await runJob(t, c, "ProductIntegration");
    expect(again.status).toBe("Succeeded");
    expect(c.shop.state.products.size - before).toBe(created);
    expect(again.calls.shop.write).toBe(0);
  });

  it("writes stock summed over the ERP warehouses, then nothing when nothing changed", async () => {
    const first = await runJob(t, c, "StockIntegration");
    expect(first.status).toBe("Succeeded");
    const location = c.shop.state.stockLocations[0]!.id;
    for (const item of catalog) {
      const expected = Math.max(0, c.erp.state.quantity(item.sku, 1) + c.erp.state.quantity(item.sku, 2));
      const stock =
        shopVariant(item.sku)!.stocks.find((s) => s.stockLocationId === location)?.stockCount ?? 0;
      expect(stock, item.sku).toBe(expected);
    }
    const second = await runJob(t, c, "StockIntegration");
    expect(second.status).toBe("Succeeded");
    expect(second.calls.shop.write).toBe(0);
    expect(second.counts.changed).toBe(0);
    expect(second.report).toContain("Değişiklik yok");
  });

  it("after a few stock changes writes exactly those, in one batch", async () => {
    const changed = catalog.slice(0, 7);
    for (const [i, item] of changed.entries()) c.erp.state.setStock(item.sku, 1, 500 + i);
    const calls = c.shop.counters.stockCalls;
    const run = await runJob(t, c, "StockIntegration");
    expect(run.counts.changed).toBe(7);
    expect(run.counts.written).toBe(7);
    expect(run.calls.shop.write).toBe(1);
    expect(c.shop.counters.stockCalls - calls).toBe(1);
  });

  it("writes prices with VAT as the shop expects, rounded to kuruş, and only changes later", async () => {
    const first = await runJob(t, c, "PriceIntegration");
    expect(first.status).toBe("Succeeded");
    for (const item of catalog) {
      const price = shopVariant(item.sku)!.prices.find((p) => !p.priceListId);
      // Group 1 is VAT-included in Mikro, and so is IKAS: the amount goes over as it is, in kuruş.
      expect(price?.sellPrice, item.sku).toBe(convertVat(item.retailPrice, item.vatRate, true, true));
    }
    const unchanged = await runJob(t, c, "PriceIntegration");
    expect(unchanged.calls.shop.write).toBe(0);
    c.erp.state.setPrice(catalog[3]!.sku, 1, 123.456);
    const one = await runJob(t, c, "PriceIntegration");
    expect(one.counts.written).toBe(1);
    expect(one.calls.shop.write).toBe(1);
    expect(shopVariant(catalog[3]!.sku)!.prices.find((p) => !p.priceListId)?.sellPrice).toBe(123.46);
  });

  it("files a permanent error on one record as a failed task, moves the rest, and resolves it later", async () => {
    const bad = catalog[5]!.sku;
    const good = catalog[6]!.sku;
    c.erp.state.setPrice(bad, 1, -10);
    c.erp.state.setPrice(good, 1, 77.7);
    const run = await runJob(t, c, "PriceIntegration");
    expect(run.status).toBe("PartiallyFailed");
    expect(run.counts.failed).toBe(1);
    expect(shopVariant(good)!.prices.find((p) => !p.priceListId)?.sellPrice).toBe(77.7);
    const failed = await call(t.app, "GET", "/api/JobErrorReport/1/10/PriceIntegration", { token: c.token });
    expect(failed.body.data.totalCount).toBe(1);
    const task = failed.body.data.dataList[0];
    expect(task).toMatchObject({ entityKey: bad, errorType: "validation", status: "Open", jobRunId: run.id });
    expect(task.payload).toMatchObject({ sku: bad, amount: -10 });

    const notifications = await t.ctx.database.db.execute(
      `select type, text from notifications where company_id = ${c.companyId} order by id desc limit 1` as never,
    );
    expect(JSON.stringify(notifications)).toContain(
      "Fiyat Güncelleme görevi tamamlandı ancak 1 kayıt aktarılamadı",
    );

    c.erp.state.setPrice(bad, 1, 12.5);
    const retried = await call(t.app, "POST", "/api/JobErrorReport/retry", {
      token: c.token,
      body: { jobErrorIdList: [task.id] },
    });
    expect(retried.status).toBe(200);
    const { waitForRun } = await import("./engine-harness.ts");
    const retryRun = await waitForRun(t, c.token, retried.body.data.runIds[0]);
    expect(retryRun.status).toBe("Succeeded");
    expect(retryRun.counts.written).toBe(1);
    const after = await call(t.app, "GET", "/api/JobErrorReport/1/10/PriceIntegration?status=Open", {
      token: c.token,
    });
    expect(after.body.data.totalCount).toBe(0);
    const resolved = await call(t.app, "GET", "/api/JobErrorReport/1/10/PriceIntegration?status=Resolved", {
      token: c.token,
    });
    expect(resolved.body.data.dataList[0].entityKey).toBe(bad);
  });
});

describe("a product the shop refuses", () => {
  it("fails alone as a failed task; the other new products are created; a later run moves it", async () => {
    const own = await connectedCompany(t, {
      seed: 23,
      erp: { productCount: 80 },
      shop: { productCount: 60 },
    });
    try {
      const items = generateCatalog({ seed: 23, count: 80 });
      const inShop = new Set(items.slice(0, 60).map((i) => i.modelCode));
      const erpOnly = items.filter((i) => !inShop.has(i.modelCode));
      const victimModel = erpOnly[0]!.modelCode;
      const victimCards = erpOnly.filter((i) => i.modelCode === victimModel);
      // IKAS refuses a product without a name.
      for (const card of victimCards) own.erp.state.updateProduct(card.sku, { sto_isim: "" });
      const before = own.shop.state.products.size;
      const run = await runJob(t, own, "ProductIntegration");
      expect(run.status).toBe("PartiallyFailed");
      expect(run.counts.failed).toBe(1);
      const otherModels = new Set(erpOnly.filter((i) => i.modelCode !== victimModel).map((i) => i.modelCode));
      expect(own.shop.state.products.size - before).toBe(otherModels.size);
      const failed = await call(t.app, "GET", "/api/JobErrorReport/1/10/ProductIntegration", {
        token: own.token,
      });
      expect(failed.body.data.dataList[0]).toMatchObject({
        entityKey: victimModel,
        errorType: "validation",
        status: "Open",
      });

      for (const card of victimCards) own.erp.state.updateProduct(card.sku, { sto_isim: card.name });
      const next = await runJob(t, own, "ProductIntegration");
      expect(next.status).toBe("Succeeded");
      expect(next.counts.written).toBe(1);
      expect(next.report).toContain("Önceki çalışmalarda aktarılamayan 1 kayıt bu çalışmada aktarıldı.");
      const open = await call(t.app, "GET", "/api/JobErrorReport/1/10/ProductIntegration?status=Open", {
        token: own.token,
      });
      expect(open.body.data.totalCount).toBe(0);
    } finally {
      await own.close();
    }
  });
});
