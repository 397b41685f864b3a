import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext } from "../sdk/connector";
import type { HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, readAllPages, testContext } from "../testing/contract";
import { addToReport, type ConformanceReport, describeFailures, judgeRequests } from "../testing/recorder";
import { ShopierConnector } from "./connector";
import { type ShopierEmulator, startShopierEmulator } from "./emulator/server";
import { judgeShopierRequest } from "./judge/requests";

let emu: ShopierEmulator;
let conn: ShopierConnector;
const logs: HttpLogEntry[] = [];
const store = new InMemoryRateLimitStore();

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, logs, { batch: { page: 20 }, ...over });
}

const conformance: ConformanceReport = { requests: 0, operations: {}, failures: [] };

beforeAll(async () => {
  emu = await startShopierEmulator({ seed: 13, productCount: 100 });
  conn = new ShopierConnector(emu.credentials, ctx());
});

afterAll(async () => {
  await emu.close();
});

afterEach(() => {
  emu.faults.clear();
  const r = judgeRequests(emu.recorder.list(), judgeShopierRequest);
  emu.recorder.clear();
  addToReport(conformance, r);
});

describe("Shopier connector against the emulator", () => {
  it("connects with the personal access token, and a wrong one is an auth failure", async () => {
    expect((await conn.testConnection()).ok).toBe(true);
    const bad = new ShopierConnector({ ...emu.credentials, accessToken: "yanlis" }, ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    expect(JSON.stringify(logs)).not.toContain(emu.credentials.accessToken);
  });

  it("reads every product page; variants keyed by product id and selection ids", async () => {
    const { items, pages } = await readAllPages((t) => conn.listProducts({ pageToken: t }));
    expect(items).toHaveLength(emu.products.length);
    expect(pages).toBe(Math.ceil(emu.products.length / 20));
    const withVariants = items.find((p) => p.variants.length > 1);
    const source = emu.products.find((p) => p.id === withVariants?.sku);
    expect(withVariants?.variants[0]?.sku).toBe(`${source?.id}-${source?.variants?.[0]?.selectionId[0]}`);
    expect(Object.values(withVariants?.variants[0]?.options ?? {})).toEqual([
      source?.variants?.[0]?.selectionTitle[0],
    ]);
    expect(new Set(items.flatMap((p) => p.variants.map((v) => v.sku))).size).toBe(100);
    expect(items.every((p) => p.vatRate === 20 && p.categoryPath.length === 1)).toBe(true);
  });

  it("reads stock per SKU and the price a buyer pays (discounted when a discount is on)", async () => {
    const stock = await readAllPages((t) => conn.listStock({ pageToken: t }));
    expect(stock.items).toHaveLength(100);
    expect(stock.items.every((s) => s.location === "shopier")).toBe(true);
    const prices = await readAllPages((t) => conn.listPrices({ pageToken: t }));
    expect(prices.items).toHaveLength(100);
    const discounted = emu.products.find((p) => p.priceData.discount && (p.variants ?? []).length === 0);
    const price = prices.items.find((p) => p.sku === discounted?.id);
    expect(price?.amount).toBeCloseTo(Number(discounted?.priceData.discountedPrice), 2);
    expect(prices.items.every((p) => p.vatIncluded && p.currency === "TRY")).toBe(true);
  });

  it("reads the categories", async () => {
    const cats = (await conn.listCategories()).items;
    expect(cats.map((c) => c.id).sort()).toEqual(emu.categories.map((c) => c.id).sort());
  });

  it("refuses a VAT rate setting that is no Turkish rate, in Turkish", async () => {
    const c = new ShopierConnector({ ...emu.credentials, vatRate: "18" }, ctx());
    const e = await caught(c.listProducts());
    expect(e.reason).toBe("config");
    expect(e.merchantMessage).toContain("18");
  });

  it("says what Shopier as the ERP means: orders and customers are not written, and nothing is sent", async () => {
    const before = emu.counters.requests;
    for (const p of [
      conn.createSalesOrder({ order: {} as never, customerCode: "x" }),
      conn.createCustomer({} as never),
      conn.findOrderByRef("WEB-1"),
      conn.listInvoicesForOrder("WEB-1"),
    ]) {
      const e = await caught(p);
      expect(e.reason).toBe("unsupported");
      expect(e.merchantMessage).toContain("Shopier");
    }
    expect(emu.counters.requests).toBe(before);
    expect(conn.descriptor.notes).toContain("Shopier'e yazılamaz");
  });

  it("accepts a notification signed with the webhook token and refuses others", () => {
    const body = JSON.stringify({ id: "9001", status: "unfulfilled" });
    expect(conn.verifyWebhook(body, emu.signWebhook(body))).toBe(true);
    expect(conn.verifyWebhook(`${body}x`, emu.signWebhook(body))).toBe(false);
    expect(conn.verifyWebhook(body, undefined)).toBe(false);
  });
});

describe("Shopier faults", () => {
  it("retries after 429 with Retry-After, a 5xx and a timeout", async () => {
    emu.faults.set({
      retryAfterSeconds: 1,
      hangMs: 1_000,
      queue: [{ kind: "429" }, { kind: "5xx" }, { kind: "timeout" }],
    });
    const p = await conn.listProducts();
    expect(p.items).toHaveLength(20);
    expect(emu.counters.faults["429"]).toBe(1);
    expect(emu.counters.faults["5xx"]).toBe(1);
    expect(emu.counters.faults.timeout).toBe(1);
  });

  it("a revoked token is a permanent auth failure (a PAT cannot be refreshed)", async () => {
    emu.faults.enqueue({ kind: "auth" });
    expect((await caught(conn.listProducts())).reason).toBe("auth");
  });
});

describe("Shopier conformance", () => {
  it("every request the connector sent was judged and none was rejected", () => {
    const ops = Object.entries(conformance.operations)
      .map(([op, v]) => `${op}=${v.requests}`)
      .join(", ");
    console.log(
      `shopier conformance: ${conformance.requests} requests, ${Object.keys(conformance.operations).length} operations, ${conformance.failures.length} rejected (${ops})`,
    );
    expect(conformance.requests).toBeGreaterThan(10);
    expect(describeFailures(conformance)).toBe("");
  });
});
