/**
 * n11 product listing against its emulator (issue 37): the brand as free text sent as the category's
 * `Marka` attribute (by its listed value's id when the category lists it), product-create tasks of at
 * most 1,000 SKUs read back through task-details, per-SKU refusals in n11's words (stock code used,
 * unknown value id, shipment template), whole-task rules kept from sinking a task (a short title), and
 * the judge refusing a create body n11 would refuse. Every request is judged with the rules.
 */

import { beforeAll, describe, expect, it } from "vitest";
import type { ListingItem } from "../sdk/listing";
import { hasListing } from "../sdk/listing";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, testContext } from "../testing/contract";
import { ConformanceTally, judgeMarketplaceSuite, refusedListing } from "../testing/contract-suite";
import type { RecordedRequest } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { createN11Connector, type N11Connector } from "./connector";
import { type N11Emulator, startN11Emulator } from "./emulator/server";
import { judgeN11Request } from "./judge/requests";
import { n11Rules } from "./judge/rules";
import { n11CreateSku } from "./listing";

const store = new InMemoryRateLimitStore();
const ctx = () => testContext(store, undefined, { asyncBatch: { intervalMs: 15, maxPolls: 40 } });
const tally = new ConformanceTally(judgeN11Request, n11Rules());
let emu: N11Emulator;
let shop: N11Connector;
let leafId = "";

const item = (n: number, over: Partial<ListingItem> = {}): ListingItem => ({
  sku: `LST-${n}`,
  barcode: `869100${String(n).padStart(7, "0")}`,
  modelKey: `LSTM-${Math.floor(n / 3)}`,
  title: `Basic Pamuklu Tişört ${n}`,
  description: "Pamuklu tişört",
  brandId: "Koton",
  categoryId: leafId,
  attributes: [{ attributeId: "2", valueId: "2000" }],
  quantity: 0,
  salePrice: 199.9,
  vatRate: 10,
  images: ["https://cdn.example.com/tisort.jpg"],
  ...over,
});

beforeAll(async () => {
  emu = await startN11Emulator({ seed: 12, productCount: 20, taskDelayMs: 40 });
  shop = createN11Connector(emu.credentials, ctx()) as N11Connector;
  const cats = await shop.listCategories();
  const parents = new Set(cats.map((c) => c.parentId));
  leafId = cats.find((c) => c.parentId && !parents.has(c.id))!.id;
});
judgeMarketplaceSuite("n11 listing", tally, () => emu, 5);

describe("n11 listing", () => {
  it("offers listing with a free-text brand (n11 has no brand service), single product writes still refused unsent", async () => {
    expect(hasListing(shop)).toBe(true);
    expect(shop.freeTextBrand).toBe(true);
    expect(await shop.listBrands(" Koton ")).toEqual([{ id: "Koton", name: "Koton" }]);
    expect(await shop.listBrands()).toEqual([]);
    const before = emu.counters.requests;
    expect((await refusedListing(shop)).reason).toBe("unsupported");
    expect(emu.counters.requests).toBe(before);
  });

  it("creates 2,100 products in tasks of at most 1,000 and reads each task's SKU results", async () => {
    const r = await shop.createListings(Array.from({ length: 2100 }, (_, n) => item(n)));
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(2100);
    const created = emu.products.filter((p) => String(p.stockCode).startsWith("LST-"));
    expect(created).toHaveLength(2100);
    // A listed brand goes by its value id; the category's attributes were read once.
    expect(created[0]).toMatchObject({
      status: "InCatalogApproval",
      productMainId: "LSTM-0",
      categoryId: Number(leafId),
      shipmentTemplate: "Standart Kargo",
      attributes: [
        { id: 1, valueId: 1000, customValue: null },
        { id: 2, valueId: 2000, customValue: null },
      ],
    });
    const creates = emu.recorder.list().filter((q) => q.path.endsWith("/product-create"));
    expect(creates.map((q) => (q.body as { payload: { skus: unknown[] } }).payload.skus.length)).toEqual([
      1000, 1000, 100,
    ]);
    expect(emu.recorder.list().filter((q) => q.path.endsWith("/attribute"))).toHaveLength(1);
    // The new products are found by stock code, as the next run looks for them.
    const found = await shop.findProductsBySku(["LST-0", "LST-2099"]);
    expect([...found.keys()]).toEqual(["LST-0", "LST-2099"]);
  });

  it("reports each refused SKU with n11's reason, and applies the rest; a short title never reaches n11", async () => {
    // n11depom holds DEPO-1: product-query (sender SELLER) does not show it, product-create finds it used.
    emu.products.push({ ...emu.products[0], stockCode: "DEPO-1", sender: "N11" });
    expect((await shop.findProductsBySku(["DEPO-1"])).size).toBe(0);
    const r = await shop.createListings([
      item(5000, { brandId: "Yeni Marka" }),
      item(5001, { attributes: [] }),
      item(5002, { attributes: [{ attributeId: "2", valueId: "2999" }] }),
      item(5003, { title: "Kısa ad" }),
      item(5004, { sku: "DEPO-1" }),
      item(0),
    ]);
    expect(r.applied).toBe(1);
    const why = new Map(r.failed.map((f) => [f.key, f.error]));
    expect(why.get("LST-5001")).toMatchObject({
      reason: "validation",
      systemMessage: "Renk özelliği zorunludur",
    });
    expect(why.get("LST-5002")?.systemMessage).toBe("2999 idli özellik değeri kategorisinde bulunmamaktadır");
    expect(why.get("LST-5003")?.systemMessage).toMatch(/15 karakter altında ürün adları/);
    expect(why.get("DEPO-1")?.systemMessage).toBe(
      "Girdiğiniz DEPO-1 seller stock code tarafınızdan kullanılmaktadır",
    );
    expect(why.get("LST-0")?.systemMessage).toMatch(/LST-0 seller stock code tarafınızdan kullanılmaktadır/);
    // A brand the category does not list goes as free text.
    expect(emu.products.find((p) => p.stockCode === "LST-5000")?.attributes).toContainEqual({
      id: 1,
      valueId: null,
      customValue: "Yeni Marka",
    });
    const sent = emu.recorder.list().filter((q) => q.path.endsWith("/product-create"));
    expect(JSON.stringify(sent.at(-1)?.body)).not.toContain("LST-5003");
  });

  it("refuses every item, unsent, with a Turkish reason when the connection names no shipment template", async () => {
    const bare = createN11Connector({ ...emu.credentials, shipmentTemplate: "" }, ctx()) as N11Connector;
    const before = emu.counters.requests;
    const e = await caught(bare.createListings([item(6000)]));
    expect(e.reason).toBe("validation");
    expect(e.merchantMessage).toMatch(/kargo şablonu/);
    expect(emu.counters.requests).toBe(before);
    // A template the seller does not have: n11's own words, per SKU.
    const wrong = createN11Connector({ ...emu.credentials, shipmentTemplate: "Yok" }, ctx()) as N11Connector;
    const r = await wrong.createListings([item(6001)]);
    expect(r.failed[0]?.error).toMatchObject({ systemMessage: "shipmentTemplate alanı geçersizdir" });
  });

  it("the judge and the rules refuse a create body n11 refuses", () => {
    const req = (skus: unknown[]): RecordedRequest => ({
      method: "POST",
      path: "/ms/product/tasks/product-create",
      query: {},
      headers: { appkey: "k", appsecret: "s" },
      body: { payload: { integrator: "EntegrasyonPaneli", skus } },
      at: Date.now(),
    });
    const good = n11CreateSku(item(1), { shipmentTemplate: "Standart Kargo", preparingDay: 3 });
    expect(judgeN11Request(req([good]))?.problems).toEqual([]);
    const bad = {
      ...good,
      currencyType: "TRY",
      vatRate: 18,
      images: [{ url: "http://cdn.example.com/a.jpg", order: 0 }],
      attributes: [{ id: 2 }],
      shipmentTemplate: undefined,
    };
    expect(judgeN11Request(req([bad]))?.problems.join("; ")).toMatch(
      /shipmentTemplate required.*currencyType must be one of.*vatRate must be one of 0, 1, 10, 20.*https.*neither valueId nor customValue/,
    );
    const ruled = judgeWithRules(
      [req([{ ...good, title: "Kısa", listPrice: 100, salePrice: 120 }])],
      judgeN11Request,
      n11Rules(),
    );
    expect(JSON.stringify(ruled)).toMatch(
      /n11\.list-price-not-below-sale[\s\S]*n11\.title-15-chars|n11\.title-15-chars[\s\S]*n11\.list-price-not-below-sale/,
    );
  });
});
