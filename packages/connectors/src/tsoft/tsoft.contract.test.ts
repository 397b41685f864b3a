/**
 * T-Soft connector against its emulator: catalogue, variants, stock, prices, orders, unsupported writes and
 * faults (429 with Retry-After, 5xx, timeout, stale token). Every request the suite sends is judged at the
 * end (./judge/requests.ts): one the judge rejects or does not know fails the suite.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ShopConnector } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Product } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { describeFailures, judgeRequests } from "../testing/recorder";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { createTsoftConnector } from "./connector";
import { startTsoftEmulator, type TsoftEmulator } from "./emulator/server";
import { judgeTsoftRequest } from "./judge/requests";
import { TSOFT_VERSION_PIN } from "./judge/rules";

let emu: TsoftEmulator;
let shop: ShopConnector;

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return {
    companyId: "c1",
    rateLimitStore: new InMemoryRateLimitStore(),
    budget: { requests: 1000, windowMs: 1000 },
    timeoutMs: 2000,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5000 },
    ...over,
  };
}

beforeAll(async () => {
  emu = await startTsoftEmulator({ seed: 7, productCount: 40, orderCount: 3 });
  shop = createTsoftConnector(emu.credentials, ctx());
});

afterAll(async () => {
  const report = judgeRequests(emu.recorder.list(), judgeTsoftRequest);
  await emu.close();
  const ops = Object.entries(report.operations)
    .map(([op, s]) => `${op} ${s.requests}/${s.failed}`)
    .join(", ");
  console.log(
    `tsoft conformance: ${report.requests} requests, ${Object.keys(report.operations).length} operations, ${report.failures.length} rejected (${ops})`,
  );
  expect(emu.recorder.dropped).toBe(0);
  expect(report.failures, describeFailures(report)).toEqual([]);
});

const product = (sku: string, variants: string[]): Product => ({
  sku,
  name: `Mavi Kot Pantolon ${sku}`,
  brand: "Mavi",
  categoryPath: ["Giyim", "Pantolon"],
  vatRate: 20,
  unit: "Adet",
  isActive: true,
  images: [],
  variants:
    variants.length === 0
      ? [{ sku, barcodes: ["8691234567890"], options: {} }]
      : variants.map((v, i) => ({
          sku: `${sku}-${v}`,
          barcodes: [`869123456780${i}`],
          options: { Beden: v },
        })),
});

describe("T-Soft connection", () => {
  it("logs in and reads one product", async () => {
    const info = await shop.testConnection();
    expect(info.ok).toBe(true);
    expect(info.description).toContain("Tsoft");
  });

  it("a wrong password is an auth failure, not a retry", async () => {
    const bad = createTsoftConnector({ ...emu.credentials, apiPass: "yanlis" }, ctx());
    await expect(bad.testConnection()).rejects.toMatchObject({ reason: "auth" });
  });

  it("missing settings are a config failure", () => {
    expect(() => createTsoftConnector({ storeUrl: emu.url }, ctx())).toThrow(ConnectorError);
  });
});

describe("T-Soft catalogue", () => {
  it("lists categories with their parents", async () => {
    const cats = await shop.listCategories();
    expect(cats.length).toBeGreaterThan(1);
    const child = cats.find((c) => c.parentId);
    expect(cats.some((c) => c.id === child?.parentId)).toBe(true);
  });

  it("finds main products and sub products by SKU", async () => {
    const main = [...emu.state.products.values()];
    const single = main.find((p) => p.SubProducts.length === 0);
    const multi = main.find((p) => p.SubProducts.length > 0);
    const sub = multi?.SubProducts[0]?.SubProductCode ?? "";
    const ids = await shop.findProductsBySku([single?.ProductCode ?? "", sub, "YOK-1"]);
    expect(ids.get(single?.ProductCode ?? "")).toEqual({
      productId: single?.ProductCode,
      variantId: single?.ProductCode,
    });
    expect(ids.get(sub)).toEqual({ productId: multi?.ProductCode, variantId: sub });
    expect(ids.has("YOK-1")).toBe(false);
  });

  it("creates a product without variants and one with sub products", async () => {
    const cat = (await shop.listCategories()).find((c) => c.parentId);
    const a = await shop.createProduct({
      product: product("YENI-1", []),
      categoryId: cat?.id,
      prices: [{ sku: "YENI-1", amount: 349.9, currency: "TRY" }],
    });
    expect(a).toEqual({ productId: "YENI-1", variants: { "YENI-1": "YENI-1" } });
    expect(emu.state.products.get("YENI-1")?.SellingPrice).toBe("349.9");
    const b = await shop.createProduct({ product: product("YENI-2", ["S", "M"]) });
    expect(b.variants).toEqual({ "YENI-2-S": "YENI-2-S", "YENI-2-M": "YENI-2-M" });
    expect(emu.state.products.get("YENI-2")?.SubProducts.map((s) => s.Property1)).toEqual(["S", "M"]);
  });

  it("updates names and adds a new variant without touching stock or price", async () => {
    emu.state.products.get("YENI-2")!.SubProducts[0]!.Stock = "8";
    const p = product("YENI-2", ["S", "M", "L"]);
    p.name = "Mavi Kot Pantolon Yeni Sezon";
    const ref = await shop.updateProduct("YENI-2", { product: p });
    expect(Object.keys(ref.variants)).toEqual(["YENI-2-S", "YENI-2-M", "YENI-2-L"]);
    const stored = emu.state.products.get("YENI-2");
    expect(stored?.ProductName).toBe("Mavi Kot Pantolon Yeni Sezon");
    expect(stored?.SubProducts[0]?.Stock).toBe("8");
    await expect(shop.updateProduct("YOK-2", { product: p })).rejects.toMatchObject({ reason: "not_found" });
  });
});

describe("T-Soft stock and prices", () => {
  it("writes stock of main and sub products; an unknown SKU fails alone", async () => {
    const r = await shop.setStock([
      { sku: "YENI-1", locationId: "default", qty: 12 },
      { sku: "YENI-2-M", locationId: "default", qty: 3 },
      { sku: "YOK-3", locationId: "default", qty: 1 },
    ]);
    expect(r.applied).toBe(2);
    expect(r.failed.map((f) => [f.key, f.error.reason])).toEqual([["YOK-3", "unknown_item"]]);
    expect(r.calls).toBe(2);
    expect(emu.state.products.get("YENI-1")?.Stock).toBe("12");
    expect(emu.state.findSub("YENI-2", "YENI-2-M")?.Stock).toBe("3");
  });

  it("writes prices with the codes the engine passes", async () => {
    const r = await shop.setPrices([
      { sku: "YENI-1", amount: 299.5, currency: "TRY", productId: "YENI-1", variantId: "YENI-1" },
      { sku: "YENI-2-S", amount: 410, currency: "TRY", productId: "YENI-2", variantId: "YENI-2-S" },
    ]);
    expect(r).toMatchObject({ applied: 2, failed: [] });
    expect(emu.state.products.get("YENI-1")?.SellingPrice).toBe("299.5");
    expect(emu.state.findSub("YENI-2", "YENI-2-S")?.SellingPrice).toBe("410");
  });

  it("a batch T-Soft refuses fails its items with the store's words", async () => {
    const r = await shop.setStock([
      { sku: "X-1", locationId: "default", qty: 1, productId: "YENI-2", variantId: "YENI-2-XXL" },
    ]);
    expect(r.failed[0]?.error.reason).toBe("not_found");
    expect(r.failed[0]?.error.systemMessage).toContain("YENI-2-XXL");
  });
});

describe("T-Soft orders", () => {
  it("reads orders with their lines and statuses, paging by 200", async () => {
    emu.state.generateOrders(220);
    const all = [];
    let token: string | undefined;
    let pages = 0;
    let cursor: string | undefined;
    do {
      const page = await shop.listOrders({ pageToken: token });
      all.push(...page.items);
      token = page.nextPageToken;
      cursor = page.cursor ?? cursor;
      pages++;
    } while (token);
    expect(pages).toBe(2);
    expect(all).toHaveLength(223);
    expect(all[0]?.lines.length).toBeGreaterThan(0);
    expect(all[0]?.status).toBe("1");
    expect(all[0]?.customer.email).toContain("@");
    expect(cursor).toBeDefined();
    // The next read starts at the window's end: only orders of that second come again (the engine dedupes).
    const again = await shop.listOrders({ since: cursor });
    for (const o of again.items)
      expect(Date.parse(o.createdAt)).toBeGreaterThanOrEqual(Date.parse(cursor ?? "") - 1000);
    expect((await shop.listOrderStatuses()).map((s) => s.id)).toEqual(["9", "10"]);
  });

  it("reads the internet-sale data: payment type, tracking code, the line exchange rate", async () => {
    const [card, transfer, usd] = emu.state.generateOrders(3);
    if (!card || !transfer || !usd) throw new Error("no orders");
    Object.assign(card, { PaymentType: "Kredi Kartı", CargoTrackingCode: "YK-5005" });
    Object.assign(transfer, { PaymentType: "Havale/EFT" });
    usd.Currency = "USD";
    for (const l of usd.OrderDetails as Array<Record<string, unknown>>)
      Object.assign(l, { SellingCurrency: "USD", SellingCurrencyExchangeRate: "34.5712" });
    const read = new Map<string, import("../sdk/model").Order>();
    let token: string | undefined;
    do {
      const page = await shop.listOrders({ pageToken: token });
      for (const o of page.items) read.set(o.id, o);
      token = page.nextPageToken;
    } while (token);
    const day = new Date(Date.parse(`${String(card.OrderDate).replace(" ", "T")}Z`) + 3 * 3_600_000)
      .toISOString()
      .slice(0, 10);
    expect(read.get(String(card.OrderId))?.payment).toEqual({ means: "KREDIKARTI/BANKAKARTI", date: day });
    expect(read.get(String(card.OrderId))?.delivery).toEqual({ trackingNumber: "YK-5005" });
    expect(read.get(String(transfer.OrderId))?.payment).toEqual({ means: "EFT/HAVALE" });
    expect(read.get(String(transfer.OrderId))?.delivery).toBeUndefined();
    expect(read.get(String(usd.OrderId))?.currency).toBe("USD");
    expect(read.get(String(usd.OrderId))?.exchangeRate).toBe(34.5712);
    expect(read.get(String(card.OrderId))?.exchangeRate).toBeUndefined();
  });

  it("says in Turkish what it cannot do", async () => {
    for (const call of [
      () => shop.updateOrderStatus("5001", { status: "9" }),
      () => shop.createCategory({ name: "Yeni" }),
    ]) {
      const e = await call().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ConnectorError);
      expect((e as ConnectorError).reason).toBe("unsupported");
      expect((e as ConnectorError).merchantMessage).toMatch(/Tsoft/);
    }
  });
});

describe("T-Soft faults", () => {
  it("waits out a 429 with Retry-After and goes on", async () => {
    emu.faults.enqueue({ kind: "429", operation: "product/get" });
    expect((await shop.testConnection()).ok).toBe(true);
    expect(emu.counters.faults["429"]).toBeGreaterThan(0);
  });

  it("retries a read after a 5xx and after a timeout", async () => {
    emu.faults.set({
      hangMs: 3000,
      queue: [
        { kind: "5xx", operation: "product/get" },
        { kind: "timeout", operation: "product/get" },
      ],
    });
    const quick = createTsoftConnector(emu.credentials, ctx({ timeoutMs: 300 }));
    expect((await quick.testConnection()).ok).toBe(true);
    emu.faults.clear();
  });

  it("logs in again when the token expired and repeats the call once", async () => {
    const before = emu.counters.logins;
    emu.expireTokens();
    await shop.setStock([
      { sku: "YENI-1", locationId: "default", qty: 5, productId: "YENI-1", variantId: "YENI-1" },
    ]);
    expect(emu.counters.logins).toBe(before + 1);
    expect(emu.state.products.get("YENI-1")?.Stock).toBe("5");
    emu.faults.enqueue({ kind: "auth", operation: "product/get" });
    expect((await shop.testConnection()).ok).toBe(true);
    expect(emu.counters.logins).toBe(before + 2);
  });

  it("a write answered 5xx is not sent again: the engine looks it up first", async () => {
    emu.faults.enqueue({ kind: "5xx", operation: "product/updateProducts" });
    const e = await shop
      .setStock([{ sku: "YENI-1", locationId: "default", qty: 6, productId: "YENI-1", variantId: "YENI-1" }])
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ reason: "server_error", maybeApplied: true });
  });
});

describe("T-Soft REST1: version pin", () => {
  it("speaks a supported API version", () => expectPinnedVersionSupported(TSOFT_VERSION_PIN));
});
