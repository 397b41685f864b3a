import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ShopConnector } from "../sdk/connector";
import { CallCounter, type HttpLogEntry } from "../sdk/logging";
import type { Product } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught } from "../testing/contract";
import { describeVersionPin, expectConformance } from "../testing/contract-suite";
import { isValidEan13 } from "../testing/prng";
import { judgeRequests, type RecordedRequest } from "../testing/recorder";
import { sampleProduct } from "../testing/sample-order";
import { createIkasConnector, IKAS_ORDER_ONLY_STATUSES, IKAS_PACKAGE_STATUSES } from "./connector";
import { IKAS_DEFAULT_PRICE_LIST } from "./descriptor";
import { type IkasEmulator, startIkasEmulator } from "./emulator/server";
import { judgeIkasRecorded } from "./judge/conformance";
import { IKAS_VERSION_PIN } from "./judge/rules";
import { ikasJudgeSchema } from "./judge/schema";

const BUDGET = { requests: 30, windowMs: 1000, safetyMarginMs: 60 };

let emu: IkasEmulator;
const logs: HttpLogEntry[] = [];
const counter = new CallCounter();
/** One limiter state per (company, system), as the engine keeps it. */
const store = new InMemoryRateLimitStore();
/**
 * Requests the suite's short-lived emulators received (the main one keeps its own): every request is
 * judged at the end against the schema derived from IKAS's package.
 */
const recordedElsewhere: RecordedRequest[] = [];

/** Close an extra emulator, keeping what it recorded for the conformance verdict. */
async function closeKeepingRequests(e: IkasEmulator): Promise<void> {
  expect(e.recorder.dropped).toBe(0);
  recordedElsewhere.push(...e.recorder.list());
  await e.close();
}

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return {
    companyId: "c1",
    rateLimitStore: store,
    budget: BUDGET,
    logger: (e) => logs.push(e),
    counter,
    timeoutMs: 400,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 5_000 },
    ...over,
  };
}

let conn: ShopConnector;

const product = (sku: string, sizes: string[] = []) => sampleProduct(sku, sizes, ["Giyim", "Tişört"]);

function renk(sku: string, colours: string[]): Product {
  return {
    ...product(sku),
    variants: colours.map((c) => ({ sku: `${sku}-${c}`, barcodes: [], options: { Renk: c } })),
  };
}

beforeAll(async () => {
  emu = await startIkasEmulator({
    seed: 42,
    productCount: 80,
    orderCount: 25,
    rateLimit: { requests: BUDGET.requests, windowMs: BUDGET.windowMs },
    tokenTtlMs: 60_000,
    errorBlock: false,
    maxRecorded: 100_000,
  });
  conn = createIkasConnector(emu.credentials, ctx());
});

afterAll(async () => {
  await emu.close();
});

afterEach(() => {
  emu.faults.clear();
});

describe("IKAS connector against its emulator", () => {
  it("tests the connection and says which store answered", async () => {
    const info = await conn.testConnection();
    expect(info.ok).toBe(true);
    expect(info.storeName).toBe("demo-magaza");
    expect(info.description).toContain("demo-magaza");
  });

  it("lists the settings lists", async () => {
    const statuses = await conn.listOrderStatuses();
    expect(statuses.find((s) => s.id === "FULFILLED")?.name).toBe("Kargoya Verildi");
    expect(await conn.listPaymentTypes()).toHaveLength(3);
    const lists = await conn.listPriceLists();
    expect(lists.map((l) => l.id)).toContain(IKAS_DEFAULT_PRICE_LIST);
    expect(lists).toHaveLength(2);
    expect(await conn.listSalesChannels()).toHaveLength(2);
    expect((await conn.listStockLocations()).map((l) => l.name)).toEqual(["Merkez Depo", "İstanbul Mağaza"]);
  });

  it("takes order statuses from the package's enums, without introspection", async () => {
    const values = (name: string) => {
      const e = ikasJudgeSchema().getType(name);
      return e && "getValues" in e ? e.getValues().map((v) => v.name) : [];
    };
    const settable = values("OrderPackageFulfillStatusEnum");
    const orderLevel = values("OrderPackageStatusEnum");
    expect(settable.length).toBeGreaterThan(10);
    expect(IKAS_PACKAGE_STATUSES.map(([id]) => id).sort()).toEqual([...settable].sort());
    expect(IKAS_ORDER_ONLY_STATUSES.map(([id]) => id).sort()).toEqual(
      orderLevel.filter((v) => !settable.includes(v)).sort(),
    );
    const before = emu.counters.requests;
    const statuses = await conn.listOrderStatuses();
    expect(statuses.map((s) => s.id).sort()).toEqual([...new Set([...settable, ...orderLevel])].sort());
    expect(statuses[0]).toEqual({ id: "UNFULFILLED", name: "Hazırlanmadı" });
    expect(statuses.every((s) => s.name && s.name !== s.id)).toBe(true);
    expect(emu.counters.requests).toBe(before);
    // UNFULFILLED filters orders but is no package status: refused before anything is sent.
    const err = await caught(
      conn.updateOrderStatus(emu.state.orders[1]?.id ?? "", { status: "UNFULFILLED" }),
    );
    expect(err.reason).toBe("config");
    expect(emu.counters.requests).toBe(before);
  });

  it("finds or creates variant types and values, and links variants by id", async () => {
    const typesBefore = emu.state.variantTypes.size;
    const a = await conn.createProduct({ product: renk("RENK-1", ["Kırmızı", "Mavi"]) });
    const b = await conn.createProduct({ product: renk("RENK-2", ["Mavi", "Yeşil"]) });
    // One new type "Renk" for both products, its values kept and extended.
    expect(emu.state.variantTypes.size).toBe(typesBefore + 1);
    const type = [...emu.state.variantTypes.values()].find((t) => t.name === "Renk");
    expect(type?.values.map((v) => v.name)).toEqual(["Kırmızı", "Mavi", "Yeşil"]);
    const pa = emu.state.products.get(a.productId);
    const pb = emu.state.products.get(b.productId);
    const mavi = type?.values.find((v) => v.name === "Mavi")?.id;
    expect(pa?.variants.find((v) => v.sku === "RENK-1-Mavi")?.variantValueIds).toEqual([
      { variantTypeId: type?.id, variantValueId: mavi },
    ]);
    expect(pb?.productVariantTypes).toEqual([
      { order: 0, variantTypeId: type?.id, variantValueIds: expect.arrayContaining([mavi]) },
    ]);
    expect(pb?.productVariantTypes[0]?.variantValueIds).toHaveLength(2);
  });

  it("lists and creates categories", async () => {
    const before = await conn.listCategories();
    const giyim = before.find((c) => c.name === "Giyim" && !c.parentId);
    expect(giyim).toBeDefined();
    const created = await conn.createCategory({ name: "Yeni Kategori", parentId: giyim?.id });
    expect(created.parentId).toBe(giyim?.id);
    const after = await conn.listCategories();
    expect(after.length).toBe(before.length + 1);
  });

  it("seeds EAN-13 barcodes with valid check digits", () => {
    const barcodes = [...emu.state.products.values()].flatMap((p) =>
      p.variants.flatMap((v) => v.barcodeList),
    );
    expect(barcodes.length).toBeGreaterThan(50);
    expect(barcodes.every(isValidEan13)).toBe(true);
  });

  it("creates a product with variants, idempotently, and updates it keeping other price lists", async () => {
    const cats = await conn.listCategories();
    const tshirt = cats.find((c) => c.name === "Tişört");
    const ref = await conn.createProduct({
      product: product("NEW-1", ["S", "M", "L"]),
      categoryId: tshirt?.id,
      prices: [{ sku: "NEW-1-S", amount: 199.9, currency: "TRY" }],
    });
    expect(Object.keys(ref.variants).sort()).toEqual(["NEW-1-L", "NEW-1-M", "NEW-1-S"]);
    // A second create (e.g. after a lost answer) finds the product instead of duplicating it.
    const again = await conn.createProduct({
      product: product("NEW-1", ["S", "M", "L"]),
      categoryId: tshirt?.id,
    });
    expect(again.productId).toBe(ref.productId);
    expect([...emu.state.products.values()].filter((p) => p.name === "Test Ürün NEW-1")).toHaveLength(1);

    // A dealer list price and stock, then an update of the name: both survive.
    const dealer = (await conn.listPriceLists()).find((l) => !l.isDefault);
    const pr = await conn.setPrices([
      { sku: "NEW-1-M", amount: 150, currency: "TRY", priceListId: dealer?.id },
    ]);
    expect(pr.failed).toEqual([]);
    const loc = (await conn.listStockLocations())[0]?.id ?? "";
    await conn.setStock([{ sku: "NEW-1-M", locationId: loc, qty: 7 }]);
    const renamed = { ...product("NEW-1", ["S", "M", "L"]), name: "Yeni İsim" };
    await conn.updateProduct(ref.productId, { product: renamed });
    const p = emu.state.products.get(ref.productId);
    expect(p?.name).toBe("Yeni İsim");
    const m = p?.variants.find((v) => v.sku === "NEW-1-M");
    expect(m?.prices.find((x) => x.priceListId === dealer?.id)?.sellPrice).toBe(150);
    expect(m?.stocks.find((s) => s.stockLocationId === loc)?.stockCount).toBe(7);
    expect(
      p?.variants.find((v) => v.sku === "NEW-1-S")?.prices.find((x) => x.priceListId === null)?.sellPrice,
    ).toBe(199.9);
  });

  it("adds a variant on update and keeps the existing ones", async () => {
    const ref = await conn.createProduct({ product: product("NEW-2", ["S", "M"]) });
    const upd = await conn.updateProduct(ref.productId, { product: product("NEW-2", ["S", "M", "XL"]) });
    expect(upd.productId).toBe(ref.productId);
    expect(upd.variants["NEW-2-S"]).toBe(ref.variants["NEW-2-S"]);
    expect(Object.keys(upd.variants).sort()).toEqual(["NEW-2-M", "NEW-2-S", "NEW-2-XL"]);
    const e = await caught(conn.updateProduct("no-such-product", { product: product("NEW-3") }));
    expect(e.reason).toBe("unknown_item");
  });

  it("generates new orders over time for the demo", async () => {
    const before = emu.state.orders.length;
    const stop = emu.startOrderGenerator(20, 2);
    await new Promise((r) => setTimeout(r, 120));
    stop();
    expect(emu.state.orders.length).toBeGreaterThan(before);
  });

  it("sets stock in batches of the batch size (absolute values)", async () => {
    const small = createIkasConnector(emu.credentials, ctx({ batch: { stock: 10 } }));
    const skus = [...emu.state.skuIndex.keys()].slice(0, 25);
    const ids = await small.findProductsBySku(skus);
    expect(ids.size).toBe(25);
    const loc = emu.state.stockLocations[1]?.id ?? "";
    const before = emu.counters.stockCalls;
    const res = await small.setStock(
      skus.map((sku, i) => ({ sku, locationId: loc, qty: 100 + i, ...ids.get(sku) })),
    );
    expect(res.failed).toEqual([]);
    expect(res.applied).toBe(25);
    expect(emu.counters.stockCalls - before).toBe(Math.ceil(25 / 10));
    expect(emu.batchWriteStats().stock.items).toBeGreaterThanOrEqual(25);
    const [pid, vid] = emu.state.skuIndex.get(skus[3] ?? "") ?? ["", ""];
    expect(emu.state.findVariant(pid, vid)?.stocks.find((s) => s.stockLocationId === loc)?.stockCount).toBe(
      103,
    );
  });

  it("reports unknown items without retrying the validation error blindly", async () => {
    const skus = [...emu.state.skuIndex.keys()].slice(30, 35);
    const ids = await conn.findProductsBySku(skus);
    const errorsBefore = emu.counters.errors;
    const callsBefore = emu.counters.priceCalls;
    const items = skus.map((sku) => ({ sku, amount: 99.5, currency: "TRY", ...ids.get(sku) }));
    const bad = items[2];
    if (bad) bad.variantId = "no-such-variant";
    const res = await conn.setPrices([...items, { sku: "NOPE-404", amount: 1, currency: "TRY" }]);
    expect(res.applied).toBe(4);
    expect(res.failed.map((f) => f.key).sort()).toEqual(["NOPE-404", skus[2]].sort());
    expect(res.failed.every((f) => f.error.kind === "permanent")).toBe(true);
    expect(res.failed.every((f) => f.error.reason === "unknown_item")).toBe(true);
    // one refused call, one corrected call: no blind repeat
    expect(emu.counters.priceCalls - callsBefore).toBe(2);
    expect(emu.counters.errors - errorsBefore).toBe(1);
    // A refused value (negative price) is a validation failure of that row only.
    const neg = await conn.setPrices([
      { sku: skus[0] ?? "", amount: -5, currency: "TRY", ...ids.get(skus[0] ?? "") },
    ]);
    expect(neg.failed.map((f) => [f.key, f.error.reason])).toEqual([[skus[0], "validation"]]);
    expect(neg.calls).toBe(1);
  });

  it("stops price batches on a systemic failure: sent rows keep their outcome, unsent rows fail with it", async () => {
    const dealer = (await conn.listPriceLists()).find((l) => !l.isDefault);
    const skus = [...emu.state.skuIndex.keys()].slice(40, 44);
    const ids = await conn.findProductsBySku(skus);
    let priceCalls = 0;
    const c = createIkasConnector(
      emu.credentials,
      ctx({
        batch: { prices: 1 },
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          // After the first batch is applied, the shop throttles every further price write.
          if (typeof init?.body === "string" && init.body.includes("saveVariantPrices") && ++priceCalls === 1)
            emu.setFaults({
              retryAfterSeconds: 0,
              queue: [{ kind: "429", operation: "saveVariantPrices", times: 10 }],
            });
          return res;
        },
      }),
    );
    const res = await c.setPrices(
      skus.map((sku, i) => ({
        sku,
        amount: 50 + i,
        currency: "TRY",
        priceListId: i < 2 ? undefined : dealer?.id,
        ...ids.get(sku),
      })),
    );
    expect(res.applied).toBe(1);
    expect(res.failed.map((f) => f.key).sort()).toEqual(skus.slice(1).sort());
    expect(res.failed.every((f) => f.error.reason === "rate_limited")).toBe(true);
    const [pid, vid] = emu.state.skuIndex.get(skus[0] ?? "") ?? ["", ""];
    expect(emu.state.findVariant(pid, vid)?.prices.find((x) => x.priceListId === null)?.sellPrice).toBe(50);
    // The dealer list's rows were never sent: one applied call, then the throttled one with its retries.
    expect(res.calls).toBe(2);
  });

  it("pages through orders changed since a cursor, with overlap and no gaps", async () => {
    const seen = new Map<string, string>();
    let token: string | undefined;
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await conn.listOrders({ pageSize: 7, pageToken: token });
      for (const o of page.items) seen.set(o.id, o.orderNo);
      token = page.nextPageToken;
      cursor = page.cursor;
      pages++;
    } while (token);
    expect(seen.size).toBe(emu.state.orders.length);
    // Keyset paging re-reads the last order of each page (overlap), so at most one extra page per 6 orders.
    expect(pages).toBeLessThanOrEqual(Math.ceil(emu.state.orders.length / 6));
    const order = (await conn.listOrders({ pageSize: 1 })).items[0];
    expect(order?.lines.length).toBeGreaterThan(0);
    expect(order?.customer.billingAddress.city).toBeTruthy();

    emu.generateOrders(3);
    const next = await conn.listOrders({ since: cursor, pageSize: 50 });
    const fresh = next.items.filter((o) => !seen.has(o.id));
    expect(fresh).toHaveLength(3);
    expect(Number(next.cursor)).toBeGreaterThan(Number(cursor));
  });

  it("a partial refund gives back only its refunded line items, each once by its id", async () => {
    const [o] = emu.generateOrders(1);
    const line = o!.orderLineItems[0]!;
    line.status = "REFUNDED";
    o!.orderPackageStatus = "PARTIALLY_REFUNDED";
    emu.state.touchOrder(o!);
    const read = await conn.listOrders({ since: String(Date.now() - 60_000), pageSize: 50 });
    const back = read.items.find((x) => x.id === o!.id);
    expect(back?.status).toBe("PARTIALLY_REFUNDED");
    expect(back?.returned).toEqual([
      { ref: `lineItem:${line.id}`, sku: line.variant.sku, qty: line.quantity },
    ]);
  });

  it("does not skip orders that share one updatedAt across a page edge", async () => {
    // Past every updatedAt the emulator has handed out (its clock runs ahead of Date.now() while
    // seeding) by more than the connector's 5-minute re-read window.
    const overlapMs = 5 * 60_000;
    const ts = emu.state.tick() + 2 * overlapMs;
    const same = emu.generateOrders(5);
    for (const o of same) o.updatedAt = ts;
    const got = new Set<string>();
    let token: string | undefined;
    do {
      const page = await conn.listOrders({ since: String(ts), pageSize: 2, pageToken: token });
      for (const o of page.items) got.add(o.id);
      token = page.nextPageToken;
    } while (token);
    expect([...got].sort()).toEqual(same.map((o) => o.id).sort());
    const empty = await conn.listOrders({ since: String(ts + overlapMs + 1) });
    expect(empty.items).toEqual([]);
    expect(empty.nextPageToken).toBeUndefined();
  });

  it("updates an order's status and attaches an invoice once", async () => {
    const o = emu.state.orders[0];
    if (!o) throw new Error("no order");
    await conn.updateOrderStatus(o.id, {
      status: "FULFILLED",
      trackingNumber: "YK123",
      cargoCompany: "Yurtiçi Kargo",
    });
    expect(o.orderPackageStatus).toBe("FULFILLED");
    expect(o.orderPackages[0]?.trackingInfo?.trackingNumber).toBe("YK123");
    const invoice = {
      orderRef: o.orderNumber,
      number: "WEB2025000000123",
      uuid: "7c1e2b7e-1111-4a1b-9a55-0d2b2f9e0001",
      date: "2025-01-15T10:00:00.000Z",
      currency: "TRY",
      lines: [],
      totals: { net: 100, tax: 20, gross: 120 },
      pdfBase64: Buffer.from("%PDF-1.4 deneme").toString("base64"),
    };
    await conn.attachInvoice(o.id, { invoice });
    await conn.attachInvoice(o.id, { invoice });
    expect(o.invoices).toHaveLength(1);
    const e = await caught(conn.updateOrderStatus("missing-order", { status: "FULFILLED" }));
    expect(e.kind).toBe("permanent");
  });

  it("reads the internet-sale data: payment means, intermediary and date, carrier, tracking and dispatch date", async () => {
    const [card, transfer, cod] = emu.generateOrders(3);
    if (!card || !transfer || !cod) throw new Error("no orders");
    card.paymentMethods = [
      { type: "CREDIT_CARD", paymentGatewayName: "iyzico", price: card.totalFinalPrice },
    ];
    card.orderPaymentStatus = "PAID";
    card.orderedAt = Date.parse("2026-11-20T22:30:00Z"); // 01:30 on the 21st in Turkey
    transfer.paymentMethods = [{ type: "MONEY_ORDER", paymentGatewayName: "Havale / EFT", price: 1 }];
    cod.paymentMethods = [{ type: "CASH_ON_DELIVERY", paymentGatewayName: "Kapıda Ödeme", price: 1 }];
    cod.orderPaymentStatus = "WAITING";
    await conn.updateOrderStatus(card.id, {
      status: "FULFILLED",
      trackingNumber: "ARAS-555",
      cargoCompany: "Aras Kargo",
    });
    const shippedAt = card.orderPackages[0]?.updatedAt ?? 0;
    const read = new Map<string, import("../sdk/model").Order>();
    let token: string | undefined;
    do {
      const page = await conn.listOrders({ pageSize: 50, pageToken: token });
      for (const o of page.items) read.set(o.id, o);
      token = page.nextPageToken;
    } while (token);
    expect(read.get(card.id)?.payment).toEqual({
      means: "KREDIKARTI/BANKAKARTI",
      date: "2026-11-21",
      agent: "iyzico",
    });
    expect(read.get(card.id)?.delivery).toEqual({
      carrier: "Aras Kargo",
      trackingNumber: "ARAS-555",
      dispatchDate: new Date(shippedAt + 3 * 3_600_000).toISOString().slice(0, 10),
    });
    // The shop records no date for a transfer or a payment at the door: none is made up.
    expect(read.get(transfer.id)?.payment).toEqual({ means: "EFT/HAVALE" });
    expect(read.get(cod.id)?.payment).toEqual({ means: "KAPIDAODEME" });
    expect(read.get(cod.id)?.delivery).toBeUndefined();
  });

  it("fetches a new token when the old one expires mid-run", async () => {
    const issued = emu.counters.tokensIssued;
    emu.expireTokens();
    const cats = await conn.listCategories();
    expect(cats.length).toBeGreaterThan(0);
    expect(emu.counters.tokensIssued).toBe(issued + 1);
  });

  it("fetches a new token when the API answers UNAUTHENTICATED inside HTTP 200", async () => {
    const c = createIkasConnector(emu.credentials, ctx());
    const issued = emu.counters.tokensIssued;
    const refused = emu.counters.faults.auth;
    emu.faults.enqueue({ kind: "auth", operation: "listStockLocation" });
    expect((await c.listStockLocations()).length).toBe(2);
    expect(emu.counters.faults.auth - refused).toBe(1);
    // One token for the first call, a new one after UNAUTHENTICATED.
    expect(emu.counters.tokensIssued).toBe(issued + 2);
  });

  it("refreshes a short-lived token before it expires", async () => {
    const short = await startIkasEmulator({ seed: 1, productCount: 3, tokenTtlMs: 1000, rateLimit: false });
    try {
      let t = 0;
      const c = createIkasConnector(short.credentials, ctx({ now: () => Date.now() + t }));
      await c.testConnection();
      t = 950; // within the last tenth of the lifetime: refreshed before use
      await c.testConnection();
      expect(short.counters.tokensIssued).toBe(2);
      expect(short.counters.authFailures).toBe(0);
    } finally {
      await closeKeepingRequests(short);
    }
  });

  it("maps wrong credentials to a permanent auth failure", async () => {
    const bad = createIkasConnector({ ...emu.credentials, clientSecret: "wrong-secret-value" }, ctx());
    const e = await caught(bad.testConnection());
    expect(e.kind).toBe("permanent");
    expect(e.reason).toBe("auth");
    expect(e.systemMessage).toContain("Client authentication failed");
  });
});

describe("IKAS faults map to the right failure class", () => {
  it("retries a 5xx on a read and succeeds", async () => {
    emu.faults.enqueue({ kind: "5xx", operation: "listCategory" });
    const n = emu.counters.faults["5xx"];
    await conn.listCategories();
    expect(emu.counters.faults["5xx"]).toBe(n + 1);
  });

  it("gives up after bounded retries with a transient server failure", async () => {
    emu.faults.enqueue({ kind: "5xx", operation: "listSalesChannel", times: 10 });
    const e = await caught(conn.listSalesChannels());
    expect(e.kind).toBe("transient");
    expect(e.reason).toBe("unavailable");
    expect(e.httpStatus).toBe(503);
  });

  it("honours a 429 burst with Retry-After", async () => {
    emu.setFaults({
      retryAfterSeconds: 0,
      queue: [{ kind: "429", operation: "listStockLocation", times: 2 }],
    });
    expect(await conn.listStockLocations()).toHaveLength(2);
    emu.setFaults({
      retryAfterSeconds: 0,
      queue: [{ kind: "429", operation: "listStockLocation", times: 9 }],
    });
    const e = await caught(conn.listStockLocations());
    expect(e.kind).toBe("transient");
    expect(e.reason).toBe("rate_limited");
    expect(e.retryAfterMs).toBe(0);
  });

  it("retries a timed-out read, and reports a timed-out write as maybe applied", async () => {
    emu.setFaults({ hangMs: 1500, queue: [{ kind: "timeout", operation: "listCategory" }] });
    expect((await conn.listCategories()).length).toBeGreaterThan(0);
    emu.setFaults({ hangMs: 1500, queue: [{ kind: "timeout", operation: "saveCategory" }] });
    const e = await caught(conn.createCategory({ name: "Zaman Aşımı" }));
    expect(e.kind).toBe("transient");
    expect(e.reason).toBe("timeout");
    expect(e.maybeApplied).toBe(true);
  });

  it("reports a write accepted then dropped as transient, maybe applied (and it was applied)", async () => {
    emu.faults.enqueue({ kind: "dropAfterWrite", operation: "saveCategory" });
    const e = await caught(conn.createCategory({ name: "Düşen Bağlantı" }));
    expect(e.kind).toBe("transient");
    expect(e.reason).toBe("network");
    expect(e.maybeApplied).toBe(true);
    expect([...emu.state.categories.values()].some((c) => c.name === "Düşen Bağlantı")).toBe(true);
  });

  it("re-sends an absolute stock write after a dropped connection (idempotent)", async () => {
    const sku = [...emu.state.skuIndex.keys()][40] ?? "";
    const loc = emu.state.stockLocations[0]?.id ?? "";
    emu.faults.enqueue({ kind: "dropAfterWrite", operation: "saveProductStockLocations" });
    const res = await conn.setStock([{ sku, locationId: loc, qty: 55 }]);
    expect(res.failed).toEqual([]);
    const [pid, vid] = emu.state.skuIndex.get(sku) ?? ["", ""];
    expect(emu.state.findVariant(pid, vid)?.stocks.find((s) => s.stockLocationId === loc)?.stockCount).toBe(
      55,
    );
  });

  it("maps a lock error inside HTTP 200 to transient lock and retries it", async () => {
    emu.faults.enqueue({ kind: "lock", operation: "listPriceList" });
    expect(await conn.listPriceLists()).toHaveLength(2);
    emu.faults.enqueue({ kind: "lock", operation: "listPriceList", times: 9 });
    const e = await caught(conn.listPriceLists());
    expect(e.kind).toBe("transient");
    expect(e.reason).toBe("lock");
    expect(e.systemMessage).toContain("locked");
  });

  it("maps a validation error inside HTTP 200 to permanent, sent once", async () => {
    const before = emu.counters.byOperation.saveCategory ?? 0;
    const e = await caught(conn.createCategory({ name: "X", parentId: "no-such-parent" }));
    expect(e.kind).toBe("permanent");
    expect(e.reason).toBe("validation");
    expect(e.systemMessage).toContain("Parent category not found");
    expect((emu.counters.byOperation.saveCategory ?? 0) - before).toBe(1);
  });

  it("turns the error-rate block into a transient 'blocked' failure with its Retry-After", async () => {
    const strict = await startIkasEmulator({
      seed: 3,
      productCount: 2,
      rateLimit: false,
      errorBlock: { windowMs: 60_000, minRequests: 4, errorRatio: 0.25, blockMs: 3_600_000 },
    });
    try {
      const c = createIkasConnector(strict.credentials, ctx());
      for (let i = 0; i < 4; i++) await caught(c.createCategory({ name: "X", parentId: "bad" }));
      const e = await caught(c.listCategories());
      expect(e.kind).toBe("transient");
      expect(e.reason).toBe("blocked");
      expect(e.retryAfterMs).toBeGreaterThan(3_000_000);
    } finally {
      await closeKeepingRequests(strict);
    }
  });

  it("rides through random latency, 5xx, 429 and lock faults on reads", async () => {
    emu.setFaults({
      latencyMs: 5,
      latencyJitterMs: 10,
      rate5xx: 0.15,
      rate429: 0.1,
      lockRate: 0.1,
      retryAfterSeconds: 0,
    });
    const before = { ...emu.counters.faults };
    for (let i = 0; i < 12; i++) expect(await conn.listStockLocations()).toHaveLength(2);
    const injected =
      emu.counters.faults["5xx"] -
      before["5xx"] +
      emu.counters.faults["429"] -
      before["429"] +
      emu.counters.faults.lock -
      before.lock;
    expect(injected).toBeGreaterThan(0);
  });

  it("never exceeds the rate limit (the emulator counts)", async () => {
    const before = emu.counters.rateLimitViolations;
    const c = createIkasConnector(emu.credentials, ctx());
    await Promise.all(Array.from({ length: 70 }, () => c.listStockLocations()));
    expect(emu.counters.rateLimitViolations - before).toBe(0);
  });

  it("keeps secrets and tokens out of the logs", () => {
    expect(logs.length).toBeGreaterThan(20);
    const text = JSON.stringify(logs);
    expect(text).not.toContain(emu.credentials.clientSecret);
    for (const t of emu.issuedTokens()) expect(text).not.toContain(t);
    expect(text).toContain("***");
    expect(counter.get("ikas").read).toBeGreaterThan(0);
    expect(counter.get("ikas").write).toBeGreaterThan(0);
  });
});

// Runs last (vitest keeps file order): the conformance verdict over every request sent above.
describe("IKAS conformance with the schema derived from @ikas/api-client", () => {
  it("sent only requests the real schema accepts (document and variables)", () => {
    expect(emu.recorder.dropped).toBe(0);
    const report = judgeRequests([...emu.recorder.list(), ...recordedElsewhere], judgeIkasRecorded);
    expectConformance("ikas", report, { operations: 15 });
  });
});

describeVersionPin("ikas Admin GraphQL API: version pin", IKAS_VERSION_PIN);
