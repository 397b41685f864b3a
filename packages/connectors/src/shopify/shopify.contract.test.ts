import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext } from "../sdk/connector";
import { CallCounter, type HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { createConnectorHttp } from "../sdk/util";
import { caught } from "../testing/contract";
import { expectConformance } from "../testing/contract-suite";
import type { RecordedRequest } from "../testing/recorder";
import {
  applyRuntimeRules,
  judgeWithRules,
  rulesMissingFrom,
  unsourcedRules,
  violationMessages,
} from "../testing/runtime-rules";
import { sampleProduct as product } from "../testing/sample-order";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { exchangeShopifyCode } from "./auth";
import { ShopifyConnector } from "./connector";
import { shopifyDescriptor } from "./descriptor";
import { type ShopifyEmulator, startShopifyEmulator } from "./emulator/server";
import { judgeShopifyRecorded, judgeShopifyRequest } from "./judge/conformance";
import { SHOPIFY_RULES, SHOPIFY_VERSION_PIN } from "./judge/rules";

let emu: ShopifyEmulator;
const logs: HttpLogEntry[] = [];
const counter = new CallCounter();
const store = new InMemoryRateLimitStore();
const recordedElsewhere: RecordedRequest[] = [];
let companySeq = 0;

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return {
    // One company per emulated store: the limiter keeps what the store's bucket said across connectors.
    companyId: `c${companySeq}`,
    rateLimitStore: store,
    // The main emulator restores fast (see beforeAll); the descriptor's budget is the Standard plan's.
    budget: { requests: 40, windowMs: 1000 },
    logger: (e) => logs.push(e),
    counter,
    timeoutMs: 2000,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 5_000 },
    ...over,
  };
}

function connect(e: ShopifyEmulator = emu, over: Partial<ConnectorContext> = {}): ShopifyConnector {
  if (e !== emu) companySeq++;
  return new ShopifyConnector(e.credentials, ctx(over), { bulkPollMs: 5 });
}

async function closeKeepingRequests(e: ShopifyEmulator): Promise<void> {
  expect(e.recorder.dropped).toBe(0);
  recordedElsewhere.push(...e.recorder.list());
  await e.close();
}

beforeAll(async () => {
  emu = await startShopifyEmulator({
    seed: 7,
    productCount: 1200,
    orderCount: 30,
    maxRecorded: 20_000,
    // Shopify's bucket size with a fast refill, so the suite is not paced by the Standard plan's 100/s.
    bucket: { maximumAvailable: 2000, restoreRate: 2000 },
  });
});
afterAll(async () => {
  await emu?.close();
});

describe("Shopify connector against the emulator", () => {
  it("connects with the custom app's token and names the store", async () => {
    const info = await connect().testConnection();
    expect(info).toMatchObject({ ok: true, system: "shopify", storeName: "Deneme Mağaza" });
    expect(info.description).toContain("deneme-magaza.myshopify.com");
  });

  it("finds variants by SKU (exact SKUs only) with product and inventory item ids", async () => {
    const skus = [...emu.state.variants.values()].slice(0, 120).map((v) => v.sku as string);
    const found = await connect().findProductsBySku([...skus, "YOK-BOYLE-BIR-SKU"]);
    expect(found.size).toBe(120);
    const v = emu.state.variantBySku(skus[0] as string);
    expect(found.get(skus[0] as string)).toEqual({ productId: v?.productId, variantId: v?.id });
  });

  it("creates and updates products through productSet, keeping variant ids", async () => {
    const c = connect();
    const cats = await c.listCategories();
    expect(cats.length).toBeGreaterThan(0);
    const made = await c.createProduct({
      product: product("TST-TISORT", ["S", "M", "L"]),
      categoryId: cats[0]?.id,
      prices: [{ sku: "TST-TISORT-M", amount: 199.9, listAmount: 249.9, currency: "TRY" }],
    });
    expect(Object.keys(made.variants).sort()).toEqual(["TST-TISORT-L", "TST-TISORT-M", "TST-TISORT-S"]);
    const m = emu.state.variants.get(made.variants["TST-TISORT-M"] as string);
    expect(m).toMatchObject({
      price: "199.90",
      compareAtPrice: "249.90",
      options: [{ name: "Beden", value: "M" }],
    });
    const updated = await c.updateProduct(made.productId, {
      product: { ...product("TST-TISORT", ["S", "M", "XL"]), name: "Yeni Ad" },
    });
    expect(updated.variants["TST-TISORT-M"]).toBe(made.variants["TST-TISORT-M"]);
    expect(emu.state.products.get(made.productId)?.title).toBe("Yeni Ad");
    // Price of the kept variant untouched; L removed, XL added.
    expect(emu.state.variants.get(made.variants["TST-TISORT-M"] as string)?.price).toBe("199.90");
    expect(emu.state.variantBySku("TST-TISORT-L")).toBeUndefined();
    const single = await c.createProduct({ product: product("TST-TEK") });
    expect(emu.state.variants.get(single.variants["TST-TEK"] as string)?.options).toEqual([
      { name: "Title", value: "Default Title" },
    ]);
    const cat = await c.createCategory({ name: "Yeni Koleksiyon" });
    expect(cat.name).toBe("Yeni Koleksiyon");
  });

  it("refuses an update of a product that is gone as unknown_item", async () => {
    const e = await caught(
      connect().updateProduct("gid://shopify/Product/999999", { product: product("X") }),
    );
    expect(e.reason).toBe("unknown_item");
  });

  it("sets 1,000 stock rows in ceil(1000/250) = 4 writes (plus id look-ups once)", async () => {
    const c = connect();
    const loc = emu.state.locations[0]?.id as string;
    const variants = [...emu.state.variants.values()].filter((v) => v.sku?.startsWith("STK")).slice(0, 1000);
    expect(variants.length).toBe(1000);
    const items = variants.map((v, i) => ({
      sku: v.sku as string,
      locationId: loc,
      qty: i % 37,
      variantId: v.id,
    }));
    const before = emu.batchWriteStats().stock;
    const r = await c.setStock(items);
    const after = emu.batchWriteStats().stock;
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(1000);
    expect(after.calls - before.calls).toBe(4);
    expect(emu.state.available(variants[5]?.inventoryItemId as string, loc)).toBe(5);
    // Second run: ids are known, only the 4 writes.
    const calls0 = emu.counters.requests;
    const r2 = await c.setStock(items.map((i) => ({ ...i, qty: i.qty + 1 })));
    expect(r2.calls).toBe(4);
    expect(emu.counters.requests - calls0).toBe(4);
    console.info(
      `shopify: 1,000 stock rows = ${r.calls} inventorySetQuantities calls (+ ${Math.ceil(1000 / 250)} nodes look-ups on first sight)`,
    );
  });

  it("uses the primary location when none is given, fails unknown SKUs and bad locations by row", async () => {
    const c = connect();
    const [a, b] = [...emu.state.variants.values()].slice(0, 2);
    const r = await c.setStock([
      { sku: a?.sku as string, locationId: "", qty: 11 },
      { sku: "YOK-SKU", locationId: "", qty: 1 },
      { sku: b?.sku as string, locationId: "gid://shopify/Location/424242", qty: 3 },
    ]);
    expect(r.applied).toBe(1);
    expect(emu.state.available(a?.inventoryItemId as string, emu.state.locations[0]?.id as string)).toBe(11);
    const reasons = Object.fromEntries(r.failed.map((f) => [f.key, f.error.reason]));
    expect(reasons).toEqual({ "YOK-SKU": "unknown_item", [b?.sku as string]: "unknown_item" });
  });

  it("writes prices with one productVariantsBulkUpdate per product", async () => {
    const c = connect();
    const multi = [...emu.state.products.values()].filter((p) => p.variantIds.length >= 3).slice(0, 5);
    const items = multi.flatMap((p) =>
      p.variantIds.map((id) => ({
        sku: emu.state.variants.get(id)?.sku as string,
        amount: 123.45,
        currency: "TRY",
        variantId: id,
        productId: p.id,
      })),
    );
    const before = emu.batchWriteStats().prices;
    const r = await c.setPrices([
      ...items,
      { sku: "YOK", amount: 1, currency: "TRY" },
      { sku: items[0]?.sku as string, amount: 1, currency: "EUR", priceListId: "pl-1" },
    ]);
    expect(emu.batchWriteStats().prices.calls - before.calls).toBe(5);
    expect(r.applied).toBe(items.length);
    expect(r.failed.map((f) => f.error.reason).sort()).toEqual(["unknown_item", "unsupported"]);
    expect(emu.state.variants.get(multi[0]?.variantIds[0] as string)?.price).toBe("123.45");
    console.info(`shopify: ${items.length} price rows over ${multi.length} products = ${r.calls} calls`);
  });

  it("reads orders page by page with an updated_at cursor, under the query cost limit", async () => {
    const c = connect();
    const all = [];
    let token: string | undefined;
    let cursor: string | undefined;
    do {
      const p = await c.listOrders({ pageToken: token });
      all.push(...p.items);
      token = p.nextPageToken;
      cursor = p.cursor;
    } while (token);
    expect(all.length).toBe(30);
    const o = all[0];
    expect(o?.lines.length).toBeGreaterThan(0);
    expect(o?.customer.billingAddress.country).toBe("TR");
    expect(o?.totals.grandTotal).toBeGreaterThan(0);
    const fresh = emu.generateOrders(2);
    const again = [];
    token = undefined;
    do {
      const p = await c.listOrders({ since: cursor, pageToken: token });
      again.push(...p.items.map((x) => x.id));
      token = p.nextPageToken;
    } while (token);
    expect(again).toEqual(expect.arrayContaining(fresh.map((f) => f.id)));
  });

  it("reads orders with more than 10 lines completely", async () => {
    const [big] = emu.generateOrders(1);
    if (!big) throw new Error("no order");
    const line = big.lines[0];
    if (!line) throw new Error("no line");
    for (let i = 0; i < 14; i++) big.lines.push({ ...line, id: `${line.id}-${i}` });
    const p = await connect().listOrders({ since: big.updatedAt });
    expect(p.items.find((x) => x.id === big.id)?.lines.length).toBe(big.lines.length);
  });

  it("fulfils with tracking, marks paid, attaches the invoice; repeats change nothing", async () => {
    const c = connect();
    const order = [...emu.state.orders.values()].find((o) => o.financial === "PENDING");
    if (!order) throw new Error("no pending order");
    await c.updateOrderStatus(order.id, {
      status: "FULFILLED",
      trackingNumber: "YK123456",
      cargoCompany: "Yurtiçi Kargo",
    });
    await c.updateOrderStatus(order.id, { status: "FULFILLED", trackingNumber: "YK123456" });
    expect(order.fulfillment).toBe("FULFILLED");
    expect(order.fulfillments).toEqual([
      expect.objectContaining({ number: "YK123456", company: "Yurtiçi Kargo" }),
    ]);
    await c.updateOrderStatus(order.id, { status: "PAID" });
    await c.updateOrderStatus(order.id, { status: "PAID" });
    expect(order.financial).toBe("PAID");
    await c.attachInvoice(order.id, {
      invoice: {
        orderRef: order.name,
        number: "GIB2026000000001",
        uuid: "f47ac10b-58cc-4372-a567-0e02b2c3d479",
        date: "2026-11-23",
        currency: "TRY",
        lines: [],
        totals: { net: 1, tax: 0.2, gross: 1.2 },
      },
    });
    expect(JSON.parse(order.metafields.get("entegrasyon.fatura")?.value ?? "{}")).toMatchObject({
      number: "GIB2026000000001",
    });
    expect((await caught(c.updateOrderStatus(order.id, { status: "CANCELLED" }))).reason).toBe("unsupported");
    expect((await caught(c.updateOrderStatus("gid://shopify/Order/1", { status: "PAID" }))).reason).toBe(
      "unknown_item",
    );
  });

  it("reads the internet-sale data from the sale transaction and the first fulfillment", async () => {
    const c = connect();
    const [card, cod, transfer] = emu.generateOrders(3);
    if (!card || !cod || !transfer) throw new Error("no orders");
    Object.assign(card, { gateway: "iyzico", financial: "PAID", paidAt: "2026-11-20T21:15:00Z" });
    Object.assign(cod, { gateway: "Cash on Delivery (COD)", financial: "PENDING", paidAt: null });
    Object.assign(transfer, { gateway: "Bank Deposit", financial: "PENDING", paidAt: null });
    await c.updateOrderStatus(card.id, {
      status: "FULFILLED",
      trackingNumber: "MNG-77",
      cargoCompany: "MNG Kargo",
    });
    await c.updateOrderStatus(transfer.id, { status: "PAID" });
    const shippedAt = card.fulfillments[0]?.createdAt ?? "";
    const paidAt = transfer.paidAt ?? "";
    const read = new Map(
      (
        await c.listOrders({
          since: card.updatedAt < cod.updatedAt ? card.updatedAt : cod.updatedAt,
          pageSize: 8,
        })
      ).items.map((o) => [o.id, o]),
    );
    const day = (iso: string) => new Date(Date.parse(iso) + 3 * 3_600_000).toISOString().slice(0, 10);
    expect(read.get(card.id)?.payment).toEqual({
      means: "KREDIKARTI/BANKAKARTI",
      date: "2026-11-21",
      agent: "iyzico",
    });
    expect(read.get(card.id)?.delivery).toEqual({
      carrier: "MNG Kargo",
      trackingNumber: "MNG-77",
      dispatchDate: day(shippedAt),
    });
    expect(read.get(cod.id)?.payment).toEqual({ means: "KAPIDAODEME" });
    expect(read.get(cod.id)?.delivery).toBeUndefined();
    expect(read.get(transfer.id)?.payment).toEqual({ means: "EFT/HAVALE", date: day(paidAt) });
  });

  it("lists settings: statuses, locations, price list, payment gateways and channels from orders", async () => {
    const c = connect();
    expect((await c.listStockLocations()).map((l) => l.name)).toEqual(["Ana Depo", "Kadıköy Mağaza"]);
    expect((await c.listPriceLists())[0]).toMatchObject({ id: "default", currency: "TRY" });
    expect((await c.listPaymentTypes()).length).toBeGreaterThan(0);
    expect((await c.listSalesChannels()).length).toBeGreaterThan(0);
    expect((await c.listOrderStatuses()).map((s) => s.id)).toContain("FULFILLED");
  });

  it("reads the catalogue page by page below 10,000 variants and by bulk operation (JSONL) when asked", async () => {
    const c = connect();
    const paged = await c.readCatalog();
    expect(paged.via).toBe("paged");
    expect(paged.products.flatMap((p) => p.variants).length).toBe(emu.state.variants.size);
    const bulk = await c.catalog.readBulk();
    expect(bulk.length).toBe(emu.state.products.size);
    expect(bulk.flatMap((p) => p.variants).length).toBe(emu.state.variants.size);
    expect(emu.counters.bulkOperations).toBeGreaterThan(0);
  });

  it("switches to a bulk operation above 10,000 variants", async () => {
    const big = await startShopifyEmulator({ seed: 3, productCount: 10_050, maxRecorded: 100 });
    try {
      const r = await connect(big).readCatalog();
      expect(r.via).toBe("bulk");
      expect(r.products.flatMap((p) => p.variants).length).toBe(10_050);
    } finally {
      await closeKeepingRequests(big);
    }
  }, 60_000);
});

describe("Shopify failures", () => {
  it("waits out THROTTLED answers by the bucket's numbers and goes on", async () => {
    const small = await startShopifyEmulator({
      seed: 9,
      productCount: 50,
      bucket: { maximumAvailable: 1000, restoreRate: 500 },
    });
    try {
      small.bucket?.drain();
      const c = connect(small);
      const skus = [...small.state.variants.values()].slice(0, 10).map((v) => v.sku as string);
      const found = await c.findProductsBySku(skus);
      expect(found.size).toBe(10);
      expect(small.counters.throttled).toBeGreaterThan(0);
      expect(c.client.lastThrottle?.maximumAvailable).toBe(1000);
    } finally {
      await closeKeepingRequests(small);
    }
  });

  it("retries 429 (Retry-After seconds), 5xx and timeouts of reads", async () => {
    const c = connect(emu, { timeoutMs: 300 });
    emu.setFaults({
      queue: [
        { kind: "429", operation: "shop" },
        { kind: "5xx", operation: "shop" },
        { kind: "timeout", operation: "shop" },
      ],
      retryAfterSeconds: 1,
      hangMs: 1000,
    });
    const before = counter.get("shopify").retried;
    const info = await c.testConnection();
    expect(info.ok).toBe(true);
    expect(counter.get("shopify").retried - before).toBe(3);
    emu.setFaults({});
  }, 20_000);

  it("does not resend a non-idempotent write whose answer was lost", async () => {
    const c = connect(emu, { timeoutMs: 300 });
    const order = [...emu.state.orders.values()].find((o) => o.fulfillment === "UNFULFILLED");
    if (!order) throw new Error("no open order");
    emu.setFaults({ queue: [{ kind: "5xx", operation: "fulfillmentCreate" }] });
    const e = await caught(c.updateOrderStatus(order.id, { status: "FULFILLED" }));
    expect(e.maybeApplied).toBe(true);
    emu.setFaults({});
    // The engine's retry looks up first: nothing open is left to fulfil twice.
    await c.updateOrderStatus(order.id, { status: "FULFILLED" });
  });

  it("reports a revoked token as a permanent auth failure", async () => {
    const other = await startShopifyEmulator({ seed: 2, productCount: 5 });
    try {
      other.revokeToken();
      const e = await caught(connect(other).testConnection());
      expect(e.reason).toBe("auth");
      expect(e.kind).toBe("permanent");
    } finally {
      await closeKeepingRequests(other);
    }
  });

  it("the emulator refuses what the rules refuse: no @idempotent (BAD_REQUEST), no changeFromQuantity", async () => {
    // A store of its own: these hand-made requests are not the connector's and stay out of the verdict.
    const other = await startShopifyEmulator({ seed: 3, productCount: 2 });
    try {
      const v = [...other.state.variants.values()][0];
      const input = (withChangeFrom: boolean) => ({
        name: "available",
        reason: "correction",
        quantities: [
          {
            inventoryItemId: v?.inventoryItemId,
            locationId: other.state.locations[0]?.id,
            quantity: 4,
            ...(withChangeFrom ? { changeFromQuantity: null } : {}),
          },
        ],
      });
      const post = async (query: string, variables: Record<string, unknown>) => {
        const res = await fetch(`${other.url}/admin/api/2026-07/graphql.json`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-shopify-access-token": other.credentials.accessToken,
          },
          body: JSON.stringify({ query, variables }),
        });
        return (await res.json()) as {
          data?: { inventorySetQuantities: { userErrors: Array<{ code: string }> } };
          errors?: Array<{ message: string; extensions: { code: string } }>;
        };
      };
      const bare =
        "mutation SetStock($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { field message code } } }";
      const keyed =
        "mutation SetStock($input: InventorySetQuantitiesInput!, $k: String!) { inventorySetQuantities(input: $input) @idempotent(key: $k) { userErrors { field message code } } }";
      // The schema alone lets both through; the runtime rules do not.
      expect(judgeShopifyRequest({ query: bare, variables: { input: input(true) } }).errors).toEqual([]);
      const judged = (query: string, variables: Record<string, unknown>) =>
        violationMessages(
          applyRuntimeRules(SHOPIFY_RULES, {
            at: 0,
            method: "POST",
            path: "/admin/api/2026-07/graphql.json",
            query: {},
            headers: { "x-shopify-access-token": "t" },
            body: { query, variables },
          }),
        );
      expect(judged(bare, { input: input(true) })).toEqual([
        "[shopify.idempotent-directive] inventorySetQuantities without @idempotent(key:)",
      ]);
      expect(judged(keyed, { input: input(false), k: "k1" }).join()).toMatch(
        /changeFromQuantity must be sent/,
      );
      const refused = await post(bare, { input: input(true) });
      expect(refused.errors?.[0]?.extensions.code).toBe("BAD_REQUEST");
      expect(refused.errors?.[0]?.message).toMatch(/@idempotent directive is required/);
      expect(other.counters.ruleRefusals).toBe(1);
      const noChangeFrom = await post(keyed, { input: input(false), k: "k1" });
      expect(noChangeFrom.data?.inventorySetQuantities.userErrors.map((u) => u.code)).toEqual([
        "COMPARE_QUANTITY_REQUIRED",
      ]);
      // The same key with other variables is Shopify's documented user error.
      await post(keyed, { input: input(true), k: "k2" });
      const reused = await post(keyed, { input: { ...input(true), reason: "restock" }, k: "k2" });
      expect(reused.data?.inventorySetQuantities.userErrors.map((u) => u.code)).toEqual([
        "IDEMPOTENCY_KEY_PARAMETER_MISMATCH",
      ]);
    } finally {
      await other.close();
    }
    // The side a developer observed right after 2026-04: accepted without a key, nothing de-duplicated.
    const observed = await startShopifyEmulator({ seed: 3, productCount: 2, idempotency: "observed" });
    try {
      const v = [...observed.state.variants.values()][0];
      const res = await fetch(`${observed.url}/admin/api/2026-07/graphql.json`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-shopify-access-token": observed.credentials.accessToken,
        },
        body: JSON.stringify({
          query:
            "mutation SetStock($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code } } }",
          variables: {
            input: {
              name: "available",
              reason: "correction",
              quantities: [
                {
                  inventoryItemId: v?.inventoryItemId,
                  locationId: observed.state.locations[0]?.id,
                  quantity: 9,
                  changeFromQuantity: null,
                },
              ],
            },
          },
        }),
      });
      expect(((await res.json()) as { errors?: unknown }).errors).toBeUndefined();
      expect(observed.counters.ruleRefusals).toBe(0);
    } finally {
      await observed.close();
    }
  });

  // Both sides of the disagreement: a lost answer re-sent ends at the same absolute quantity.
  it("on the observed side (no de-duplication) a re-sent absolute quantity still ends right", async () => {
    const observed = await startShopifyEmulator({ seed: 8, productCount: 3, idempotency: "observed" });
    try {
      const c = connect(observed);
      const v = [...observed.state.variants.values()][0];
      const loc = observed.state.locations[0]?.id as string;
      await c.setStock([{ sku: v?.sku as string, locationId: loc, qty: 1 }]);
      const stock0 = observed.counters.stockCalls;
      observed.setFaults({ queue: [{ kind: "dropAfterWrite", operation: "inventorySetQuantities" }] });
      const r = await c.setStock([{ sku: v?.sku as string, locationId: loc, qty: 77 }]);
      expect(r.failed).toEqual([]);
      expect(observed.counters.stockCalls - stock0).toBe(2); // applied twice here
      expect(observed.state.available(v?.inventoryItemId as string, loc)).toBe(77);
    } finally {
      await closeKeepingRequests(observed);
    }
  });

  it("a stock write whose answer was lost is re-sent under its key and applied once", async () => {
    const c = connect();
    const v = [...emu.state.variants.values()].find((x) => x.sku?.startsWith("STK"));
    const loc = emu.state.locations[0]?.id as string;
    const item = { sku: v?.sku as string, locationId: loc, qty: 123 };
    await c.setStock([{ ...item, qty: 1 }]);
    const stock0 = emu.counters.stockCalls;
    const replays0 = emu.counters.idempotentReplays;
    emu.setFaults({ queue: [{ kind: "dropAfterWrite", operation: "inventorySetQuantities" }] });
    const r = await c.setStock([item]);
    emu.setFaults({});
    expect(r.failed).toEqual([]);
    expect(emu.state.available(v?.inventoryItemId as string, loc)).toBe(123);
    // Executed once; the re-sent call was answered from the first result.
    expect(emu.counters.stockCalls - stock0).toBe(1);
    expect(emu.counters.idempotentReplays - replays0).toBe(1);
  });

  it("keys are stable across the run's retries of a change and differ for another change or run", async () => {
    const keysOf = () =>
      emu.recorder
        .list()
        .map((r) => r.body as { query?: string; variables?: { idempotencyKey?: string } } | undefined)
        .filter((b) => b?.query?.includes("inventorySetQuantities"))
        .map((b) => b?.variables?.idempotencyKey);
    const run = connect();
    const v = [...emu.state.variants.values()].filter((x) => x.sku?.startsWith("STK"))[1];
    const loc = emu.state.locations[0]?.id as string;
    const item = { sku: v?.sku as string, locationId: loc, qty: 7 };
    const n0 = keysOf().length;
    await run.setStock([item]);
    await run.setStock([item]); // the engine's retry of the same run (same connectors)
    await run.setStock([{ ...item, qty: 8 }]); // another change
    await connect().setStock([{ ...item, qty: 8 }]); // a later run
    const [a, b, c, d] = keysOf().slice(n0);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b).toBe(a);
    expect(new Set([a, c, d]).size).toBe(3);
    expect(emu.state.available(v?.inventoryItemId as string, loc)).toBe(8);
  });

  it("exchanges an OAuth code once for an expiring offline token and its refresh token", async () => {
    const http = createConnectorHttp(shopifyDescriptor, ctx());
    const input = { shop: emu.credentials.shopDomain, ...emu.appCredentials, baseUrl: emu.url };
    const got = await exchangeShopifyCode(http, { ...input, code: emu.issueAuthCode(), now: () => 1_000 });
    expect(got.accessToken).toMatch(/^shpat_/);
    expect(got.refreshToken).toMatch(/^shprt_/);
    expect(got.expiresAt).toBe(1_000 + 3_600_000);
    expect(got.scopes).toContain("write_inventory");
    const code = emu.issueAuthCode();
    const legacy = await exchangeShopifyCode(http, { ...input, code, expiring: false });
    expect(legacy).toEqual({ accessToken: emu.credentials.accessToken, scopes: got.scopes });
    expect((await caught(exchangeShopifyCode(http, { ...input, code }))).reason).toBe("auth");
  });

  it("never logs the access token", () => {
    const text = JSON.stringify(logs);
    expect(text).not.toContain(emu.credentials.accessToken);
    expect(text).toContain("***");
    expect(counter.get("shopify").write).toBeGreaterThan(0);
  });
});

describe("Shopify credentials: Dev Dashboard client credentials, expiring offline tokens, legacy shpat_", () => {
  function persisting(saved: Array<Record<string, string | undefined>>): Partial<ConnectorContext> {
    return {
      persistCredentials: async (changed) => {
        saved.push(changed);
      },
    };
  }

  it("a Dev Dashboard app gets its token by the client credentials grant, saves it and renews it on a 401", async () => {
    const other = await startShopifyEmulator({ seed: 4, productCount: 3 });
    try {
      const saved: Array<Record<string, string | undefined>> = [];
      const creds = {
        shopDomain: other.credentials.shopDomain,
        apiBaseUrl: other.url,
        ...other.appCredentials,
      };
      companySeq++;
      const c = new ShopifyConnector(creds, ctx(persisting(saved)));
      expect(c.client.tokens.mode).toBe("client_credentials");
      expect((await c.testConnection()).ok).toBe(true);
      expect(other.counters.tokensIssued).toBe(1);
      expect(saved).toHaveLength(1);
      expect(saved[0]?.accessToken).toMatch(/^shpat_/);
      // ~24 h (86,399 s) from now.
      expect(Number(saved[0]?.tokenExpiresAt) - Date.now()).toBeGreaterThan(86_000_000);
      // The next run starts from the saved token: no new grant.
      const next = new ShopifyConnector({ ...creds, ...saved[0] }, ctx(persisting(saved)));
      await next.testConnection();
      expect(other.counters.tokensIssued).toBe(1);
      // Shopify ends the token early: one 401, a new grant, the call goes through.
      other.expireTokens();
      await next.testConnection();
      expect(other.counters.tokensIssued).toBe(2);
      expect(saved).toHaveLength(2);
      // A wrong secret is a permanent auth failure with a Turkish explanation.
      const wrong = new ShopifyConnector({ ...creds, clientSecret: "yanlis" }, ctx());
      const e = await caught(wrong.testConnection());
      expect(e.reason).toBe("auth");
      expect(e.merchantMessage).toMatch(/istemci kimliğini/);
    } finally {
      await closeKeepingRequests(other);
    }
  });

  // Sources disagree on rotation: "strict" (a replaced refresh token dies at once, before 2026-08-28) and
  // "retain" (it lives until its replacement is used, Shopify's changelog of 2026-08-28). Both are run.
  it.each(["strict", "retain"] as const)(
    "an expiring offline token is refreshed before it ends; the rotated refresh token is saved before use (%s rotation)",
    async (rotation) => {
      const other = await startShopifyEmulator({ seed: 5, productCount: 3, refreshRotation: rotation });
      try {
        let clock = Date.now();
        const install = other.installExpiring();
        const saved: Array<Record<string, string | undefined>> = [];
        const creds = {
          shopDomain: other.credentials.shopDomain,
          apiBaseUrl: other.url,
          ...other.appCredentials,
          accessToken: install.accessToken,
          refreshToken: install.refreshToken,
          tokenExpiresAt: String(install.expiresAt),
        };
        companySeq++;
        const c = new ShopifyConnector(creds, ctx({ ...persisting(saved), now: () => clock }));
        expect(c.client.tokens.mode).toBe("expiring");
        await c.testConnection();
        expect(saved).toEqual([]); // still valid: no refresh
        clock += 58 * 60_000; // inside the last 6 minutes of the hour
        await c.testConnection();
        expect(saved).toHaveLength(1);
        expect(saved[0]?.refreshToken).toMatch(/^shprt_/);
        expect(saved[0]?.refreshToken).not.toBe(install.refreshToken);
        // Strict: the old refresh token is dead, only the saved one goes on. Retain: it still works once.
        const stale = new ShopifyConnector({ ...creds, tokenExpiresAt: "1" }, ctx({ now: () => clock }));
        if (rotation === "strict") expect((await caught(stale.testConnection())).reason).toBe("auth");
        else expect((await stale.testConnection()).ok).toBe(true);
        const resumed = new ShopifyConnector(
          { ...creds, ...saved[0], tokenExpiresAt: "1" },
          ctx({ ...persisting(saved), now: () => clock }),
        );
        await resumed.testConnection();
        expect(saved).toHaveLength(2);
      } finally {
        await closeKeepingRequests(other);
      }
    },
  );

  it("keeps the legacy shpat_ token working and says what to enter when nothing usable is given", async () => {
    const c = connect();
    expect(c.client.tokens.mode).toBe("legacy");
    expect((await c.testConnection()).ok).toBe(true);
    const e = (() => {
      try {
        new ShopifyConnector({ shopDomain: "magaza.myshopify.com" }, ctx());
      } catch (x) {
        return x as { reason?: string; merchantMessage?: string };
      }
    })();
    expect(e?.reason).toBe("config");
    expect(e?.merchantMessage).toMatch(/Dev Dashboard/);
  });
});

describe("Shopify conformance with the Admin 2026-07 schema from @shopify/dev-mcp and the runtime rules", () => {
  it("speaks an Admin API version Shopify still supports", () => {
    expectPinnedVersionSupported(SHOPIFY_VERSION_PIN);
  });

  it("VERIFIED.md lists every runtime rule, each with its sources", () => {
    const verified = readFileSync(new URL("./VERIFIED.md", import.meta.url), "utf8");
    expect(rulesMissingFrom(verified, SHOPIFY_RULES)).toEqual([]);
    expect(unsourcedRules(SHOPIFY_RULES)).toEqual([]);
  });

  it("sent only requests the real schema and the runtime rules accept", () => {
    expect(emu.recorder.dropped).toBe(0);
    const report = judgeWithRules(
      [...emu.recorder.list(), ...recordedElsewhere],
      judgeShopifyRecorded,
      SHOPIFY_RULES,
    );
    expectConformance("shopify", report, {
      operations: 20,
      note: `checked against admin_2026-07 and ${SHOPIFY_RULES.length} runtime rules`,
    });
  });
});
