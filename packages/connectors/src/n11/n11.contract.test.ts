/**
 * n11 connector against its emulator (built from the judge and the runtime rules): category tree and
 * attributes, stock and prices in product tasks of 1,000 SKUs with their results read from task-details,
 * REJECTed tasks and FAILed SKUs in n11's words, orders in 15-day windows of 100-package pages with
 * cancellations and returns coming back, the approval (Picking), faults. Every request is judged with the
 * rules at the end of each test.
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
import { createN11Connector, N11Connector } from "./connector";
import { N11_ORDER_WINDOW_MS } from "./descriptor";
import { type N11Emulator, startN11Emulator } from "./emulator/server";
import { judgeN11Request } from "./judge/requests";
import { N11_VERSION_PIN, n11Rules } from "./judge/rules";

const store = new InMemoryRateLimitStore();
const ctx = (over = {}) =>
  testContext(store, undefined, { asyncBatch: { intervalMs: 15, maxPolls: 40 }, ...over });
const tally = new ConformanceTally(judgeN11Request, n11Rules());
let emu: N11Emulator;
let shop: ShopConnector;

beforeAll(async () => {
  emu = await startN11Emulator({ seed: 7, productCount: 2600, orderCount: 250, taskDelayMs: 40 });
  shop = createN11Connector(emu.credentials, ctx());
});
judgeMarketplaceSuite("n11", tally, () => emu, 7);

describe("n11 catalogue", () => {
  it("connects with the appkey/appsecret headers", async () => {
    const info = await shop.testConnection();
    expect(info.description).toContain("2600 ürün");
  });

  it("reads the category tree and a leaf's attributes (n11's own lists; Marka is the mapping's brand)", async () => {
    const cats = await shop.listCategories();
    const leaf = cats.find((c) => c.parentId);
    expect(leaf).toBeDefined();
    const attrs = await shop.listCategoryAttributes?.(String(leaf?.id));
    expect(attrs?.find((a) => a.name === "Renk")).toMatchObject({ required: true, variant: true });
    expect(attrs?.some((a) => a.name === "Marka")).toBe(false);
    expect(attrs?.find((a) => a.name === "Beden")?.values.map((v) => v.name)).toEqual(["S", "M", "L", "XL"]);
  });

  it("finds products by stock code through product-query (pages of 250)", async () => {
    const codes = [String(emu.products[0]?.stockCode), String(emu.products[2599]?.stockCode), "YOK-1"];
    const found = await shop.findProductsBySku(codes);
    expect([...found.keys()]).toEqual(codes.slice(0, 2));
    const pages = emu.recorder.list().filter((r) => r.path === "/ms/product-query");
    expect(pages.map((r) => r.query.size)).toEqual(Array(11).fill("250"));
  });

  it("refuses a shop-style single product write in Turkish without calling n11 (listing: listing.contract.test.ts)", async () => {
    const before = emu.counters.requests;
    const e = await refusedListing(shop);
    expect(e.reason).toBe("unsupported");
    expect(emu.counters.requests).toBe(before);
  });
});

describe("n11 stock and prices", () => {
  it("sends 2,600 stock changes in tasks of at most 1,000 and reads each task's SKU results", async () => {
    const items = emu.products.map((p) => ({ sku: String(p.stockCode), locationId: "default", qty: 7 }));
    const r = await shop.setStock(items);
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(2600);
    const posts = emu.recorder.list().filter((q) => q.path.endsWith("/price-stock-update"));
    expect(posts.map((q) => (q.body as { payload: { skus: unknown[] } }).payload.skus.length)).toEqual([
      1000, 1000, 600,
    ]);
    expect(emu.products[5]?.quantity).toBe(7);
    // Each task's results were read from task-details (the IN_QUEUE answer carries none; the pending
    // test below shows an unfinished task is not counted applied).
    const reads = emu.recorder.list().filter((q) => q.path.endsWith("/task-details/page-query"));
    expect(reads.length).toBeGreaterThanOrEqual(3);
  });

  it("sends both prices, two decimals, a list price never below the sale price", async () => {
    const [a, b] = emu.products;
    const r = await shop.setPrices([
      { sku: String(a?.stockCode), amount: 199.899, listAmount: 249.9, currency: "TRY" },
      { sku: String(b?.stockCode), amount: 99.9, listAmount: 50, currency: "TRY" },
    ]);
    expect(r).toMatchObject({ applied: 2, failed: [] });
    expect(emu.products[0]).toMatchObject({ salePrice: 199.9, listPrice: 249.9 });
    expect(emu.products[1]).toMatchObject({ salePrice: 99.9, listPrice: 99.9 });
  });

  it("an unknown stock code comes back FAILed with n11's words, the rest applied", async () => {
    const r = await shop.setStock([
      { sku: "YOK-1", locationId: "default", qty: 1 },
      { sku: String(emu.products[9]?.stockCode), locationId: "default", qty: 4 },
    ]);
    expect(r.applied).toBe(1);
    expect(r.failed.map((f) => [f.key, f.error.reason, f.error.systemMessage])).toEqual([
      ["YOK-1", "validation", "Stok kodu bulunamadı."],
    ]);
  });

  it("a task n11 does not finish in time is reported pending (transient), not applied", async () => {
    const slow = await startN11Emulator({ seed: 3, productCount: 5, taskDelayMs: 60_000 });
    try {
      const conn = createN11Connector(slow.credentials, ctx({ asyncBatch: { intervalMs: 5, maxPolls: 3 } }));
      const r = await conn.setStock([
        { sku: String(slow.products[0]?.stockCode), locationId: "default", qty: 2 },
      ]);
      expect(r.applied).toBe(0);
      expect(r.failed[0]?.error.kind).toBe("transient");
      expect(r.calls).toBe(4);
    } finally {
      await slow.close();
    }
  });

  it("the emulator REJECTs a task that breaks a price rule, inside HTTP 200, as n11 does", async () => {
    const res = await fetch(`${emu.credentials.apiUrl}/ms/product/tasks/price-stock-update`, {
      method: "POST",
      headers: {
        appkey: emu.credentials.appKey,
        appsecret: emu.credentials.appSecret,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        payload: {
          integrator: "EntegrasyonPaneli",
          skus: [{ stockCode: String(emu.products[3]?.stockCode), salePrice: 10 }],
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "REJECT",
      reasons: [expect.stringContaining("together")],
    });
    const failures = judgeWithRules(emu.recorder.list(), judgeN11Request, n11Rules()).failures;
    expect(failures.map((f) => f.problems.join())).toEqual([expect.stringContaining("n11.price-pair")]);
    emu.recorder.clear(); // hand-made request, judged above
  });
});

describe("n11 orders", () => {
  let first: Order[];
  let cursor: string | undefined;

  it("reads every package in 15-day windows and pages of 100", async () => {
    const read = await readAllPages((t) => shop.listOrders({ pageToken: t }));
    first = read.items;
    cursor = read.cursor;
    expect(first).toHaveLength(250);
    expect(read.pages).toBe(3);
    const o = first[0] as Order;
    expect(o.lines[0]?.sku).toMatch(/^STK-/);
    expect(o).toMatchObject({
      status: "Created",
      salesChannel: "N11",
      currency: "TRY",
      payment: { means: "ODEMEARACISI" },
    });
    expect(o.customer.email).toContain("@n11.com");
    expect(o.delivery?.trackingNumber).toMatch(/^\d+$/);
    expect(o.customer.firstName.length).toBeGreaterThan(0);
    for (const r of emu.recorder.list().filter((q) => q.path.endsWith("/shipmentPackages")))
      expect(Number(r.query.endDate) - Number(r.query.startDate)).toBeLessThanOrEqual(N11_ORDER_WINDOW_MS);
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

  it("a first read from long ago walks 15-day windows from November 2024, never earlier", async () => {
    const conn = createN11Connector(emu.credentials, ctx({ now: () => Date.parse("2024-12-20T00:00:00Z") }));
    const read = await readAllPages((t) => conn.listOrders({ since: "0", pageToken: t }));
    expect(read.pages).toBe(4);
    const starts = emu.recorder
      .list()
      .filter((q) => q.path.endsWith("/shipmentPackages"))
      .map((q) => Number(q.query.startDate));
    expect(Math.min(...starts)).toBe(Date.parse("2024-11-01T00:00:00+03:00"));
  });

  it("the emulator answers a 40-day window with its last 15 days, silently, and the judge reports it", async () => {
    const to = Date.now();
    const res = await fetch(
      `${emu.credentials.apiUrl}/rest/delivery/v1/shipmentPackages?startDate=${to - 40 * 86_400_000}&endDate=${to}&size=100`,
      { headers: { appkey: emu.credentials.appKey, appsecret: emu.credentials.appSecret } },
    );
    expect(res.status).toBe(200);
    const failures = judgeWithRules(emu.recorder.list(), judgeN11Request, n11Rules()).failures;
    expect(failures.map((f) => f.problems.join())).toEqual([
      expect.stringContaining("n11.order-window-15-days"),
    ]);
    emu.recorder.clear();
  });

  it("approves a package: its lines Created → Picking; a second approval sends nothing", async () => {
    const pkg = first[5] as Order;
    await shop.updateOrderStatus(pkg.id, { status: "Picking" });
    const puts = emu.recorder.list().filter((r) => r.method === "PUT");
    expect(puts).toHaveLength(1);
    expect(puts[0]?.body).toEqual({
      lines: pkg.lines.map((l) => ({ lineId: Number(l.externalProductId) })),
      status: "Picking",
    });
    expect(emu.packages.find((x) => String(x.id) === pkg.id)?.shipmentPackageStatus).toBe("Picking");
    await shop.updateOrderStatus(pkg.id, { status: "Invoiced" });
    expect(emu.recorder.list().filter((r) => r.method === "PUT")).toHaveLength(1);
  });

  it("a cancelled package's lines are refused by n11 in its words; a tracking number is n11's, not sent", async () => {
    const pkg = first[0] as Order; // cancelled above
    const raw = emu.packages.find((x) => String(x.id) === pkg.id);
    if (raw) raw.shipmentPackageStatus = "Created"; // n11 still lists it as new, its lines are cancelled
    const e = await caught(shop.updateOrderStatus(pkg.id, { status: "Picking" }));
    expect(e.reason).toBe("validation");
    expect(e.systemMessage).toContain("Cancelled statüsünde");
    const t = await caught(shop.updateOrderStatus(pkg.id, { status: "Shipped", trackingNumber: "YK1" }));
    expect(t.reason).toBe("unsupported");
    expect(t.merchantMessage).toMatch(/kampanya kodu/);
    const s = await caught(shop.updateOrderStatus(pkg.id, { status: "Shipped" }));
    expect(s.reason).toBe("validation");
  });
});

describe("n11 faults and refusals", () => {
  it("retries 429 and 5xx", async () => {
    emu.faults.set({
      queue: [
        { kind: "429", operation: "getShipmentPackages" },
        { kind: "5xx", operation: "getShipmentPackages" },
      ],
    });
    const page = await createN11Connector(emu.credentials, ctx()).listOrders({});
    expect(page.items.length).toBeGreaterThan(0);
  });

  it("a wrong secret is an auth failure on /ms (401) and on /rest (400 SELLER_API.authenticationFailed)", async () => {
    const bad = createN11Connector({ ...emu.credentials, appSecret: "yanlis" }, ctx());
    expect(await caught(bad.testConnection())).toMatchObject({ reason: "auth", httpStatus: 401 });
    const e = await caught(bad.listOrders({}));
    expect(e).toMatchObject({ reason: "auth", httpStatus: 400 });
  });

  it("the emulator refuses a request without appsecret and a retired SOAP product write (410)", async () => {
    const noSecret = await fetch(`${emu.credentials.apiUrl}/ms/product-query?page=0&size=1`, {
      headers: { appkey: emu.credentials.appKey },
    });
    expect(noSecret.status).toBe(500);
    const soap = await fetch(`${emu.credentials.apiUrl}/ws/ProductStockService`, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: "<soapenv:Envelope/>",
    });
    expect(soap.status).toBe(410);
    const failures = judgeWithRules(emu.recorder.list(), judgeN11Request, n11Rules()).failures;
    expect(failures.map((f) => f.problems.join()).join("\n")).toMatch(
      /n11.auth-headers[\s\S]*n11.soap-product-writes-retired/,
    );
    emu.recorder.clear();
  });

  it("plays both sides of the category-header disagreement: appkey alone answers (live), not on the changelog's side", async () => {
    const cats = () =>
      fetch(`${emu.credentials.apiUrl}/cdn/categories`, { headers: { appkey: emu.credentials.appKey } });
    expect((await cats()).status).toBe(200);
    emu.rules.playSide("changelog");
    try {
      const refused = await cats();
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe("Authentication failed");
    } finally {
      emu.rules.playSide(undefined);
    }
    const judged = (side?: string) =>
      judgeWithRules(emu.recorder.list(), judgeN11Request, n11Rules(), { side }).failures.map((f) =>
        f.problems.join(),
      );
    expect(judged()).toEqual([]);
    expect(judged("changelog")).toEqual([
      expect.stringContaining("n11.category-secret"),
      expect.stringContaining("n11.category-secret"),
    ]);
    emu.recorder.clear();
  });

  it("is an N11Connector registered as a sales channel, not a registration type", () => {
    expect(listSalesChannels().map((d) => d.system)).toContain("n11");
    expect(listConnectors("shop").map((d) => d.system)).not.toContain("n11");
    expect(createSalesChannelConnector("n11", emu.credentials, ctx())).toBeInstanceOf(N11Connector);
  });
});

describe("n11 sandbox", () => {
  it("starts from the registry's channel sandboxes with orders placed and the judge in front", async () => {
    const entry = listSalesChannelSandboxes().find((s) => s.system === "n11");
    await withChannelSandbox(entry, async (app, credentials) => {
      const res = await app.inject({
        method: "GET",
        url: "/rest/delivery/v1/shipmentPackages?size=50",
        headers: { appkey: String(credentials.appKey), appsecret: String(credentials.appSecret) },
      });
      expect(res?.statusCode).toBe(200);
      expect(((res?.json() as { content?: unknown[] } | undefined)?.content ?? []).length).toBeGreaterThan(0);
    });
  });
});

describeRulesDocumented(
  "n11 rules are documented and sourced",
  new URL("./VERIFIED.md", import.meta.url),
  n11Rules(),
);

describeVersionPin("n11 API: version pin", N11_VERSION_PIN);
