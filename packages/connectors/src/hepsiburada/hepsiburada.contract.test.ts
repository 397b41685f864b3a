/**
 * Hepsiburada connector against its emulator (built from the portal's OpenAPI/Swagger models and the
 * runtime rules): catalogue lists, stock and price uploads with their results read back (only refused
 * rows listed), orders as whole orders from paid lines with cancellations, packaging, tracking number and
 * invoice link, the date-format and cancelled-list rules on both sides of the disagreement, faults.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { listSalesChannelSandboxes } from "../registry";
import type { ShopConnector } from "../sdk/connector";
import type { Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, readAllPages, testContext } from "../testing/contract";
import {
  ConformanceTally,
  describeVersionPin,
  expectRulesDocumented,
  judgeMarketplaceSuite,
  withChannelSandbox,
} from "../testing/contract-suite";
import { judgeWithRules } from "../testing/runtime-rules";
import { createHepsiburadaConnector } from "./connector";
import { type HepsiburadaEmulator, startHepsiburadaEmulator } from "./emulator/server";
import { judgeHepsiburadaRequest } from "./judge/requests";
import { HEPSIBURADA_VERSION_PIN, hepsiburadaRules } from "./judge/rules";
import { hbDate } from "./orders";

const store = new InMemoryRateLimitStore();
const ctx = (over = {}) =>
  testContext(store, undefined, { asyncBatch: { intervalMs: 15, maxPolls: 40 }, ...over });
const tally = new ConformanceTally(judgeHepsiburadaRequest, hepsiburadaRules());
let emu: HepsiburadaEmulator;
let shop: ShopConnector;

beforeAll(async () => {
  emu = await startHepsiburadaEmulator({ seed: 5, productCount: 1200, orderCount: 130, uploadDelayMs: 40 });
  shop = createHepsiburadaConnector(emu.credentials, ctx());
});
judgeMarketplaceSuite("hepsiburada", tally, () => emu, 14);

describe("Hepsiburada catalogue", () => {
  it("connects with Basic Auth (merchant id + service key) and User-Agent", async () => {
    expect((await shop.testConnection()).description).toContain("1200 listing");
  });

  it("reads categories and a category's attributes (base, ordinary, variant)", async () => {
    const cats = await shop.listCategories();
    const leaf = cats.find((c) => c.parentId);
    const attrs = await shop.listCategoryAttributes?.(String(leaf?.id));
    expect(attrs?.find((a) => a.name === "Renk")).toMatchObject({
      variant: true,
      required: true,
      allowCustom: false,
    });
    // Base attributes the import fills from the product (barcode, SKU…) are not offered for mapping.
    expect(attrs?.find((a) => a.name === "Barkod")).toBeUndefined();
    expect(attrs?.find((a) => a.name === "Garanti Süresi (Ay)")?.allowCustom).toBe(true);
  });

  it("finds listings by merchant SKU, 50 a request", async () => {
    const skus = emu.listings.slice(0, 120).map((l) => String(l.merchantSku));
    const ids = await shop.findProductsBySku([...skus, "YOK-1"]);
    expect(ids.size).toBe(120);
    expect(ids.get(skus[0] as string)?.variantId).toMatch(/^HBV/);
    expect(
      emu.recorder.list().filter((r) => r.path.endsWith(emu.credentials.merchantId as string)).length,
    ).toBe(3);
  });
});

describe("Hepsiburada stock and prices", () => {
  it("uploads 1,200 stock rows in uploads of 1,000 and reads each result until Done", async () => {
    const r = await shop.setStock(
      emu.listings.map((l) => ({ sku: String(l.merchantSku), locationId: "default", qty: 9 })),
    );
    expect(r).toMatchObject({ applied: 1200, failed: [] });
    const posts = emu.recorder.list().filter((q) => q.path.endsWith("/stock-uploads"));
    expect(posts.map((q) => (q.body as unknown[]).length)).toEqual([1000, 200]);
    expect(emu.listings[3]?.availableStock).toBe(9);
  });

  it("a refused row keeps Hepsiburada's words; a price out of band names the band", async () => {
    const [a, b] = emu.listings;
    const stock = await shop.setStock([
      { sku: String(a?.merchantSku), locationId: "default", qty: 4 },
      { sku: "YOK-9", locationId: "default", qty: 1 },
    ]);
    expect(stock.failed.map((f) => [f.key, f.error.message])).toEqual([["YOK-9", expect.any(String)]]);
    expect(stock.applied).toBe(1);
    expect(stock.failed[0]).toMatchObject({
      key: "YOK-9",
      error: { reason: "validation", systemMessage: "Listing bulunamadı" },
    });
    const newPrice = Math.round(Number(a?.price) * 90) / 100;
    const price = await shop.setPrices([
      { sku: String(a?.merchantSku), amount: newPrice, currency: "TRY" },
      { sku: String(b?.merchantSku), amount: 0.01, currency: "TRY" },
    ]);
    expect(price.applied).toBe(1);
    expect(price.failed[0]?.error.systemMessage).toMatch(/Fiyat bant dışında \(\d/);
    expect(emu.listings[0]?.price).toBe(newPrice);
  });
});

describe("Hepsiburada orders", () => {
  let all: Order[];
  let cursor: string | undefined;

  it("reads paid lines as whole orders (each order read by number), then the cancelled list", async () => {
    const read = await readAllPages((t) => shop.listOrders({ pageToken: t }));
    all = read.items;
    cursor = read.cursor;
    expect(new Set(all.map((o) => o.orderNo)).size).toBe(130);
    const o = all[0] as Order;
    expect(o.lines.length).toBe(((emu.orders.get(o.orderNo)?.items ?? []) as unknown[]).length);
    expect(o).toMatchObject({
      salesChannel: "Hepsiburada",
      status: "Open",
      payment: { means: "ODEMEARACISI" },
    });
    expect(o.lines[0]?.sku).toMatch(/^STK-/);
  });

  it("filters by Turkish wall-clock minutes on the next run; cancellations and returns come back", async () => {
    const [first, second] = all;
    emu.cancelOrder(String(first?.orderNo));
    emu.returnOrder(String(second?.orderNo), "Refunded");
    emu.generateOrders(2);
    const read = await readAllPages((t) => shop.listOrders({ since: cursor, pageToken: t }));
    const begin = emu.recorder
      .list()
      .find((r) => r.path.endsWith(emu.credentials.merchantId as string) && r.query.begindate);
    expect(String(begin?.query.begindate)).toBe(hbDate(Number(cursor) - 5 * 60_000));
    // Later pages carry later news of the same order (the paid list still shows the returned one open).
    const last = new Map(read.items.map((o) => [o.orderNo, o]));
    expect(last.get(String(first?.orderNo))?.status).toBe("Cancelled");
    expect(last.get(String(second?.orderNo))).toMatchObject({
      status: "Returned",
      paymentStatus: "Refunded",
    });
    expect(read.items.length).toBeGreaterThanOrEqual(2);
  });

  it("packages the open lines, sends the tracking number and the invoice link to the package", async () => {
    const o = all[3] as Order;
    await shop.updateOrderStatus(o.id, { status: "Packaged", trackingNumber: "MYCARGO-55" });
    await shop.updateOrderStatus(o.id, { status: "Packaged" }); // nothing open left: no second package
    const lines = emu.orders.get(o.orderNo)?.items as Array<{ packageNumber: string }>;
    const pn = lines[0]?.packageNumber as string;
    expect(pn).toBeTruthy();
    expect(emu.packages.size).toBe(1);
    expect(emu.packages.get(pn)).toMatchObject({ status: "InTransit", trackingNumber: "MYCARGO-55" });
    const invoice = {
      orderRef: o.orderNo,
      number: "EPA2026000000124",
      uuid: "u-2",
      date: "2026-11-28T10:00:00Z",
      currency: "TRY",
      lines: [],
      totals: { net: 0, tax: 0, gross: 0 },
      url: "https://fatura.example/EPA2026000000124.pdf",
    };
    await shop.attachInvoice(o.id, { invoice });
    expect(emu.packages.get(pn)?.invoiceLink).toBe(invoice.url);
    const unpackaged = await caught(shop.attachInvoice((all[4] as Order).id, { invoice }));
    expect(unpackaged.reason).toBe("conflict");
  });
});

describe("Hepsiburada rules, both sides", () => {
  const auth = () => ({
    authorization: `Basic ${Buffer.from(`${emu.credentials.merchantId}:${emu.credentials.secretKey}`).toString("base64")}`,
    "user-agent": String(emu.credentials.userAgent),
  });

  it("an ISO begindate is accepted and matches nothing; the judge flags it", async () => {
    const url = `${emu.credentials.orderUrl}/orders/merchantid/${emu.credentials.merchantId}?offset=0&limit=100&begindate=2020-01-01T00:00:00Z`;
    const res = await fetch(url, { headers: auth() });
    // The rule gate refuses in the emulator; the live service would answer 200 with nothing.
    expect([200, 400]).toContain(res.status);
    const failures = judgeWithRules(
      emu.recorder.list(),
      judgeHepsiburadaRequest,
      hepsiburadaRules(),
    ).failures;
    expect(failures.map((f) => f.problems.join())).toEqual([
      expect.stringContaining("hepsiburada.order-date-format"),
    ]);
    emu.recorder.clear();
  });

  it("a date on the cancelled list: WrongDateFormat on the live side, accepted on the file's side", async () => {
    const url = `${emu.credentials.orderUrl}/orders/merchantid/${emu.credentials.merchantId}/cancelled?offset=0&limit=50&begindate=2026-01-01%2000:00`;
    expect(await (await fetch(url, { headers: auth() })).text()).toBe("WrongDateFormat");
    emu.rules.playSide("openapi");
    expect((await fetch(url, { headers: auth() })).status).toBe(200);
    emu.rules.playSide("live");
    emu.recorder.clear();
  });

  it("no User-Agent is refused; wrong credentials are an auth failure", async () => {
    const res = await fetch(
      `${emu.credentials.listingUrl}/listings/merchantid/${emu.credentials.merchantId}?offset=0&limit=1`,
      {
        headers: { authorization: auth().authorization, "user-agent": "" },
      },
    );
    expect(res.status).toBe(400);
    emu.recorder.clear();
    const bad = createHepsiburadaConnector({ ...emu.credentials, secretKey: "yanlis" }, ctx());
    expect(await caught(bad.testConnection())).toMatchObject({ reason: "auth", httpStatus: 401 });
  });

  it("retries 429 and 5xx on reads", async () => {
    emu.faults.set({
      queue: [
        { kind: "429", operation: "getListings" },
        { kind: "5xx", operation: "getListings" },
      ],
    });
    expect((await createHepsiburadaConnector(emu.credentials, ctx()).testConnection()).ok).toBe(true);
  });

  it("VERIFIED.md names every rule and every rule has a source", () =>
    expectRulesDocumented(new URL("./VERIFIED.md", import.meta.url), hepsiburadaRules()));
});

describe("Hepsiburada sandbox", () => {
  it("starts from the registry's channel sandboxes with paid orders waiting", async () => {
    const entry = listSalesChannelSandboxes().find((s) => s.system === "hepsiburada");
    await withChannelSandbox(entry, async (app, credentials) => {
      const res = await app.inject({
        method: "GET",
        url: `/oms/orders/merchantid/${credentials.merchantId}?offset=0&limit=100`,
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.merchantId}:${credentials.secretKey}`).toString("base64")}`,
          "user-agent": String(credentials.userAgent),
        },
      });
      expect(res?.statusCode).toBe(200);
      expect(((res?.json() as { items?: unknown[] } | undefined)?.items ?? []).length).toBeGreaterThan(0);
    });
  });
});

describeVersionPin("Hepsiburada API: version pin", HEPSIBURADA_VERSION_PIN);
