/**
 * Trendyol connector against its emulator (built from the judge and the runtime rules): catalogue lists,
 * stock and prices in batches of 1,000 with their asynchronous results, the 15-minute rule (never a
 * repeated body; a lost answer's retry meets the refusal and counts as applied), orders from the stream
 * with cancellations and returns coming back, Picking → Invoiced, tracking number, invoice link, faults.
 * Every request is judged with the rules at the end of each test.
 */

import { beforeAll, describe, expect, it } from "vitest";
import {
  createSalesChannelConnector,
  listConnectors,
  listSalesChannelSandboxes,
  listSalesChannels,
} from "../registry";
import type { ShopConnector } from "../sdk/connector";
import type { Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, readAllPages, testContext } from "../testing/contract";
import {
  ConformanceTally,
  describeRulesDocumented,
  describeVersionPin,
  judgeMarketplaceSuite,
  refusedListing,
  withChannelSandbox,
} from "../testing/contract-suite";
import { judgeWithRules } from "../testing/runtime-rules";
import { createTrendyolConnector, TrendyolConnector } from "./connector";
import { TRENDYOL_MAX_QUANTITY } from "./descriptor";
import { startTrendyolEmulator, type TrendyolEmulator } from "./emulator/server";
import { judgeTrendyolRequest } from "./judge/requests";
import { TRENDYOL_VERSION_PIN, trendyolRules } from "./judge/rules";

const store = new InMemoryRateLimitStore();
const ctx = (over = {}) =>
  testContext(store, undefined, { asyncBatch: { intervalMs: 15, maxPolls: 40 }, ...over });
const tally = new ConformanceTally(judgeTrendyolRequest, trendyolRules());
let emu: TrendyolEmulator;
let shop: ShopConnector;

beforeAll(async () => {
  emu = await startTrendyolEmulator({ seed: 7, productCount: 2600, orderCount: 250, batchDelayMs: 40 });
  shop = createTrendyolConnector(emu.credentials, ctx());
});
judgeMarketplaceSuite("trendyol", tally, () => emu, 9);

describe("Trendyol catalogue", () => {
  it("connects with Basic Auth and User-Agent", async () => {
    const info = await shop.testConnection();
    expect(info.description).toContain("2600 onaylı ürün");
  });

  it("reads the category tree and a category's attributes (the marketplace's own lists)", async () => {
    const cats = await shop.listCategories();
    const leaf = cats.find((c) => c.parentId);
    expect(leaf).toBeDefined();
    const attrs = await shop.listCategoryAttributes?.(String(leaf?.id));
    expect(attrs?.find((a) => a.name === "Renk")).toMatchObject({ required: true, variant: true });
    expect(attrs?.find((a) => a.name === "Materyal")?.allowCustom).toBe(true);
  });

  it("refuses a shop-style single product write without calling Trendyol (listing is listing.ts's)", async () => {
    const before = emu.counters.writes;
    const e = await refusedListing(shop);
    expect(e.reason).toBe("unsupported");
    expect(emu.counters.writes).toBe(before);
  });
});

describe("Trendyol stock and prices", () => {
  it("sends 2,600 stock changes in requests of at most 1,000 and reads each batch's item results", async () => {
    const items = emu.products.map((p, i) => ({
      sku: String(p.stockCode),
      locationId: "default",
      qty: i === 0 ? 25_000 : 7,
    }));
    const r = await shop.setStock(items);
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(2600);
    const posts = emu.recorder.list().filter((q) => q.path.endsWith("/price-and-inventory"));
    expect(posts.map((q) => (q.body as { items: unknown[] }).items.length)).toEqual([1000, 1000, 600]);
    expect(emu.products[0]?.quantity).toBe(TRENDYOL_MAX_QUANTITY);
    expect(emu.products[5]?.quantity).toBe(7);
    // Results were polled until ready (batchDelayMs), not taken from the first answer.
    expect(
      emu.recorder.list().filter((q) => q.path.includes("/batch-requests/")).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it("sends prices with a list price never below the sale price", async () => {
    const [a, b] = emu.products;
    const r = await shop.setPrices([
      { sku: String(a?.stockCode), amount: 199.9, listAmount: 249.9, currency: "TRY" },
      { sku: String(b?.stockCode), amount: 99.9, listAmount: 50, currency: "TRY" },
    ]);
    expect(r).toMatchObject({ applied: 2, failed: [] });
    expect(emu.products[0]).toMatchObject({ salePrice: 199.9, listPrice: 249.9 });
    expect(emu.products[1]).toMatchObject({ salePrice: 99.9, listPrice: 99.9 });
  });

  it("never sends the same body twice within 15 minutes (Trendyol would refuse it)", async () => {
    const p = emu.products[10];
    const change = [{ sku: String(p?.stockCode), locationId: "default", qty: 3 }];
    expect((await shop.setStock(change)).applied).toBe(1);
    const again = await shop.setStock(change);
    expect(again).toMatchObject({ applied: 1, calls: 0 });
  });

  it("the emulator refuses a repeated body in Trendyol's words", async () => {
    const auth = `Basic ${Buffer.from(`${emu.credentials.apiKey}:${emu.credentials.apiSecret}`).toString("base64")}`;
    const send = () =>
      fetch(
        `${emu.credentials.apiUrl}/inventory/sellers/${emu.credentials.sellerId}/products/price-and-inventory`,
        {
          method: "POST",
          headers: {
            authorization: auth,
            "user-agent": `${emu.credentials.sellerId} - SelfIntegration`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ items: [{ barcode: emu.products[20]?.barcode, quantity: 11 }] }),
        },
      );
    expect((await send()).status).toBe(200);
    const second = await send();
    expect(second.status).toBe(400);
    expect(JSON.stringify(await second.json())).toContain("15 dakika boyunca aynı isteği");
    const refusals = judgeWithRules(emu.recorder.list(), judgeTrendyolRequest, trendyolRules()).failures;
    expect(refusals.map((f) => f.problems.join())).toEqual([
      expect.stringContaining("trendyol.same-request-15-min"),
    ]);
    emu.recorder.clear(); // hand-made requests, judged above
  });

  it("a lost answer's retry meets the 15-minute refusal and counts as applied, not failed", async () => {
    emu.faults.set({ queue: [{ kind: "dropAfterWrite", operation: "updatePriceAndInventory" }] });
    const fresh = createTrendyolConnector(emu.credentials, ctx());
    const p = emu.products[30];
    const r = await fresh.setStock([{ sku: String(p?.stockCode), locationId: "default", qty: 42 }]);
    expect(r).toMatchObject({ applied: 1, failed: [] });
    expect(emu.products[30]?.quantity).toBe(42);
    // The retry is the one request the 15-minute rule refuses: judged here, expected.
    const failures = judgeWithRules(emu.recorder.list(), judgeTrendyolRequest, trendyolRules()).failures;
    expect(failures).toHaveLength(1);
    expect(failures[0]?.problems.join()).toContain("trendyol.same-request-15-min");
    emu.recorder.clear();
  });

  it("low → high → low within 15 minutes across runs: never counted applied while Trendyol shows high", async () => {
    const p = emu.products[40];
    const set = (qty: number) =>
      createTrendyolConnector(emu.credentials, ctx()).setStock([
        { sku: String(p?.stockCode), locationId: "default", qty },
      ]);
    expect((await set(4)).applied).toBe(1);
    expect((await set(9)).applied).toBe(1);
    // The third run's body is the first run's: refused, and Trendyol still shows 9.
    const third = await set(4);
    expect(third.applied).toBe(0);
    expect(third.failed).toHaveLength(1);
    expect(third.failed[0]?.error).toMatchObject({ kind: "transient", itemKeys: [String(p?.stockCode)] });
    expect(third.failed[0]?.error.merchantMessage).toContain("15 dakika");
    expect(emu.products[40]?.quantity).toBe(9);
    // Within one connector's life the same: the repeated body is not taken for one Trendyol holds.
    const one = createTrendyolConnector(emu.credentials, ctx());
    const q = emu.products[41];
    const change = (qty: number) => one.setStock([{ sku: String(q?.stockCode), locationId: "default", qty }]);
    await change(5);
    await change(8);
    expect((await change(5)).applied).toBe(0);
    expect(emu.products[41]?.quantity).toBe(8);
    const refused = judgeWithRules(emu.recorder.list(), judgeTrendyolRequest, trendyolRules()).failures;
    expect(refused.map((f) => f.problems.join())).toEqual([
      expect.stringContaining("trendyol.same-request-15-min"),
      expect.stringContaining("trendyol.same-request-15-min"),
    ]);
    emu.recorder.clear();
  });

  it("a repeated many-item body goes out in halves, each a body of its own", async () => {
    const [a, b] = [emu.products[50], emu.products[51]];
    const both = (qa: number, qb: number) =>
      createTrendyolConnector(emu.credentials, ctx()).setStock([
        { sku: String(a?.stockCode), locationId: "default", qty: qa },
        { sku: String(b?.stockCode), locationId: "default", qty: qb },
      ]);
    await both(3, 6);
    await createTrendyolConnector(emu.credentials, ctx()).setStock([
      { sku: String(a?.stockCode), locationId: "default", qty: 7 },
    ]);
    const again = await both(3, 6);
    expect(again).toMatchObject({ applied: 2, failed: [] });
    expect([emu.products[50]?.quantity, emu.products[51]?.quantity]).toEqual([3, 6]);
    const refused = judgeWithRules(emu.recorder.list(), judgeTrendyolRequest, trendyolRules()).failures;
    expect(refused).toHaveLength(1);
    emu.recorder.clear();
  });

  it("a repeated body Trendyol already holds counts as applied", async () => {
    const p = emu.products[60];
    const set = () =>
      createTrendyolConnector(emu.credentials, ctx()).setStock([
        { sku: String(p?.stockCode), locationId: "default", qty: 12 },
      ]);
    await set();
    expect(await set()).toMatchObject({ applied: 1, failed: [] });
    expect(judgeWithRules(emu.recorder.list(), judgeTrendyolRequest, trendyolRules()).failures).toHaveLength(
      1,
    );
    emu.recorder.clear();
  });

  it("an unknown stock code fails as unknown_item without a call; a refused item keeps Trendyol's words", async () => {
    const r = await shop.setStock([
      { sku: "YOK-1", locationId: "default", qty: 1 },
      { sku: "ignored", variantId: "0000000000000", locationId: "default", qty: 1 },
    ]);
    expect(r.failed.map((f) => [f.key, f.error.reason])).toEqual([
      ["YOK-1", "unknown_item"],
      ["ignored", "validation"],
    ]);
    expect(r.failed[1]?.error.systemMessage).toBe("Ürün bulunamadı");
  });
});

describe("Trendyol orders", () => {
  let first: Order[];
  let cursor: string | undefined;

  it("reads every package from the stream (cursor pages of 200)", async () => {
    const read = await readAllPages((t) => shop.listOrders({ pageToken: t }));
    first = read.items;
    cursor = read.cursor;
    expect(first).toHaveLength(250);
    // Two stream pages, then the accepted claims in 14-day windows reaching 28 days further back.
    expect(read.pages).toBe(2 + 3);
    const o = first[0] as Order;
    expect(o.lines[0]?.sku).toMatch(/^STK-/);
    expect(o.lines[0]?.externalVariantId).toMatch(/^\d{13}$/);
    expect(o).toMatchObject({
      status: "Created",
      salesChannel: "Trendyol",
      payment: { means: "ODEMEARACISI" },
    });
    expect(o.customer.email).toContain("@trendyolmail.com");
  });

  it("cancellations and returns come back as changed packages", async () => {
    const [a, b] = first;
    emu.cancelPackage(String(a?.id));
    emu.returnPackage(String(b?.id));
    const read = await readAllPages((t) => shop.listOrders({ since: cursor, pageToken: t }));
    const byId = new Map(read.items.map((o) => [o.id, o.status]));
    expect(byId.get(String(a?.id))).toBe("Cancelled");
    expect(byId.get(String(b?.id))).toBe("Returned");
  });

  it("an accepted return claim comes back as its package in Returned, with the returned lines only", async () => {
    const c = first[2] as Order;
    emu.acceptClaim(c.id);
    const before = emu.counters.byOperation.getClaims ?? 0;
    const read = await readAllPages((t) => shop.listOrders({ since: cursor, pageToken: t }));
    const returned = read.items.find((o) => o.id === c.id && o.status === "Returned");
    expect(returned?.orderNo).toBe(c.orderNo);
    expect(returned?.lines.map((l) => [l.sku, l.qty])).toEqual(c.lines.map((l) => [l.sku, l.qty]));
    expect((emu.counters.byOperation.getClaims ?? 0) - before).toBeGreaterThan(0);
  });

  it("sets Picking then Invoiced, the tracking number, and the invoice link once", async () => {
    const pkg = first[5] as Order;
    await shop.updateOrderStatus(pkg.id, { status: "Invoiced" });
    const sent = emu.recorder
      .list()
      .filter((r) => r.method === "PUT")
      .map((r) => (r.body as { status: string }).status);
    expect(sent).toEqual(["Picking", "Invoiced"]);
    await shop.updateOrderStatus(pkg.id, { status: "Invoiced", trackingNumber: "YK123456789" });
    const p = emu.packages.find((x) => String(x.id) === pkg.id);
    expect(p).toMatchObject({ status: "Invoiced", cargoTrackingNumber: "YK123456789" });
    const invoice = {
      orderRef: pkg.orderNo,
      number: "EPA2026000000123",
      uuid: "u-1",
      date: "2026-11-28T10:00:00Z",
      currency: "TRY",
      lines: [],
      totals: { net: 0, tax: 0, gross: 0 },
      url: "https://fatura.example/EPA2026000000123.pdf",
    };
    await shop.attachInvoice(pkg.id, { invoice });
    await shop.attachInvoice(pkg.id, { invoice }); // 409 from Trendyol: already there
    expect(p?.invoiceLink).toBe(invoice.url);
  });
});

describe("Trendyol faults and refusals", () => {
  it("retries 429 with Retry-After and 5xx", async () => {
    emu.faults.set({
      queue: [
        { kind: "429", operation: "getShipmentPackagesStream" },
        { kind: "5xx", operation: "getShipmentPackagesStream" },
      ],
    });
    const page = await createTrendyolConnector(emu.credentials, ctx()).listOrders({});
    expect(page.items.length).toBeGreaterThan(0);
  });

  it("wrong credentials are an auth failure (ClientApiAuthenticationException)", async () => {
    const bad = createTrendyolConnector({ ...emu.credentials, apiSecret: "yanlis" }, ctx());
    const e = await caught(bad.testConnection());
    expect(e).toMatchObject({ reason: "auth", httpStatus: 401 });
    expect(e.systemMessage).toContain("ClientApiAuthenticationException");
  });

  it("the emulator refuses a request without User-Agent (403) and product V1 writes (410)", async () => {
    const auth = `Basic ${Buffer.from(`${emu.credentials.apiKey}:${emu.credentials.apiSecret}`).toString("base64")}`;
    const noUa = await fetch(`${emu.credentials.apiUrl}/product/product-categories`, {
      headers: { authorization: auth, "user-agent": "" },
    });
    expect(noUa.status).toBe(403);
    const v1 = await fetch(`${emu.credentials.apiUrl}/product/sellers/${emu.credentials.sellerId}/products`, {
      method: "POST",
      headers: {
        authorization: auth,
        "user-agent": `${emu.credentials.sellerId} - SelfIntegration`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ items: [] }),
    });
    expect(v1.status).toBe(410);
    const failures = judgeWithRules(emu.recorder.list(), judgeTrendyolRequest, trendyolRules()).failures;
    expect(failures.map((f) => f.problems.join()).join("\n")).toMatch(
      /trendyol.user-agent[\s\S]*trendyol.product-v1-retired/,
    );
    emu.recorder.clear();
  });

  it("is a TrendyolConnector registered as a sales channel, not a registration type", () => {
    expect(listSalesChannels().map((d) => d.system)).toContain("trendyol");
    expect(listConnectors("shop").map((d) => d.system)).not.toContain("trendyol");
    expect(createSalesChannelConnector("trendyol", emu.credentials, ctx())).toBeInstanceOf(TrendyolConnector);
  });
});

describe("Trendyol sandbox", () => {
  it("starts from the registry's channel sandboxes with orders placed and the judge in front", async () => {
    const entry = listSalesChannelSandboxes().find((s) => s.system === "trendyol");
    await withChannelSandbox(entry, async (app, credentials) => {
      const headers = {
        authorization: `Basic ${Buffer.from(`${credentials.apiKey}:${credentials.apiSecret}`).toString("base64")}`,
        "user-agent": `${credentials.sellerId} - ${credentials.integratorName}`,
      };
      const res = await app.inject({
        method: "GET",
        url: `/integration/order/sellers/${credentials.sellerId}/orders/stream?size=50`,
        headers,
      });
      expect(res?.statusCode).toBe(200);
      expect(((res?.json() as { content?: unknown[] } | undefined)?.content ?? []).length).toBeGreaterThan(0);
    });
  });
});

describeRulesDocumented(
  "Trendyol rules are documented and sourced",
  new URL("./VERIFIED.md", import.meta.url),
  trendyolRules(),
);

describeVersionPin("Trendyol API: version pin", TRENDYOL_VERSION_PIN);
