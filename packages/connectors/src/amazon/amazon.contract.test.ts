/**
 * Amazon connector against its emulator (built from Amazon's models and the runtime rules): LWA token,
 * product types, stock and prices through JSON_LISTINGS_FEED with the processing reports read back, orders
 * from searchOrders with cancellations coming back, confirmShipment with the tracking number, faults.
 * Every request is judged with the rules after each test; the emulator's own answers are judged too.
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
  refusedInvoiceLink,
  refusedListing,
  withChannelSandbox,
} from "../testing/contract-suite";
import { judgeWithRules } from "../testing/runtime-rules";
import { AmazonConnector, createAmazonConnector } from "./connector";
import { AMAZON_FEEDS_VERSION_PIN, AMAZON_ORDERS_VERSION_PIN } from "./descriptor";
import { type AmazonEmulator, startAmazonEmulator } from "./emulator/server";
import { amazonJudge } from "./judge/openapi";
import { AMAZON_RETURNS_COLUMNS } from "./judge/returns-report";
import { amazonRules } from "./judge/rules";
import { parseAmazonReturns } from "./returns";

// Usage plans × 1000 and a 50 ms listings-feed window keep the suite quick; the rules are judged at that scale.
const SCALE = { rateScale: 1000, feedWindowMs: 50 };
const store = new InMemoryRateLimitStore();
/** The suite's clock: the emulator and the connector share it; order reads step it past Amazon's 2-minute lag. */
let offset = 0;
const clock = () => Date.now() + offset;
let company = 0;
/** Each connector its own company: the listings feed's five per five minutes is per seller. */
const ctx = (over = {}) =>
  testContext(store, undefined, {
    companyId: `amazon-${++company}`,
    now: clock,
    asyncBatch: { intervalMs: 15, maxPolls: 60 },
    ...over,
  });
const judge = amazonJudge();
const tally = new ConformanceTally(judge.requestJudge, amazonRules(SCALE));
let emu: AmazonEmulator;
let shop: ShopConnector;

beforeAll(async () => {
  emu = await startAmazonEmulator({
    seed: 7,
    productCount: 2600,
    orderCount: 250,
    feedDelayMs: 40,
    now: clock,
    ...SCALE,
  });
  shop = createAmazonConnector(emu.credentials, ctx());
});
judgeMarketplaceSuite(
  "amazon",
  tally,
  () => emu,
  10,
  (e) => expect(e.answerProblems).toEqual([]),
);

const lwaCalls = () => emu.recorder.list().filter((r) => r.path === "/auth/o2/token").length;

describe("Amazon catalogue", () => {
  it("exchanges the refresh token for an access token and reads the seller's listings", async () => {
    const info = await shop.testConnection();
    expect(info.description).toContain("2600 ilan");
    expect(lwaCalls()).toBe(1);
    const sp = emu.recorder.list().find((r) => r.path.startsWith("/listings/"));
    expect(String(sp?.headers["x-amz-access-token"])).toMatch(/^Atza\|/);
    expect(sp?.headers.authorization).toBeUndefined(); // no SigV4 since October 2023
  });

  it("reads product types (Amazon's categories) in Turkish and a type's attributes", async () => {
    const types = await shop.listCategories();
    expect(types.find((t) => t.id === "SHOES")?.name).toBe("Ayakkabı");
    const attrs = await shop.listCategoryAttributes?.("SHOES");
    // The type's schema: required attributes and listed values, less what the listing fills itself.
    expect(attrs?.map((a) => a.id)).toEqual(expect.arrayContaining(["department", "bullet_point"]));
    expect(attrs?.map((a) => a.id)).not.toContain("fulfillment_availability");
  });

  it("refuses a single product write (listing goes through the mapping) and the invoice link, without calling Amazon", async () => {
    const before = emu.counters.writes;
    const e = await refusedListing(shop);
    expect(e.reason).toBe("unsupported");
    const cat = await caught(shop.createCategory({ name: "Yeni tip" }));
    expect(cat.merchantMessage).toMatch(/ürün tipi eklenmez.*Ürün Aktarımı/);
    const inv = await refusedInvoiceLink(shop, "403-1");
    expect(inv.reason).toBe("unsupported");
    expect(emu.counters.writes).toBe(before);
  });
});

describe("Amazon stock and prices (JSON_LISTINGS_FEED)", () => {
  it("sends 2,600 quantities in feeds (here 1,000 a feed), each uploaded, created, polled and its report read", async () => {
    const conn = createAmazonConnector(emu.credentials, ctx({ batch: { stock: 1000 } }));
    const items = emu.listings.map((l) => ({ sku: String(l.sku), locationId: "default", qty: 7 }));
    const r = await conn.setStock(items);
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(2600);
    // The calls it reports are the calls Amazon received (the token exchange aside).
    expect(r.calls).toBe(emu.recorder.list().filter((q) => q.path !== "/auth/o2/token").length);
    const uploads = emu.recorder.list().filter((q) => q.path.startsWith("/feed-uploads/"));
    expect(uploads.map((q) => (q.body as { messages: unknown[] }).messages.length)).toEqual([
      1000, 1000, 600,
    ]);
    const first = (uploads[0]?.body as { messages?: Array<Record<string, unknown>> } | undefined)
      ?.messages?.[0];
    expect(first).toMatchObject({
      operationType: "PATCH",
      patches: [{ op: "merge", path: "/attributes/fulfillment_availability" }],
    });
    expect(emu.listings.every((l) => l.quantity === 7)).toBe(true);
    // The product type came from searchListingsItems, 20 SKUs a call.
    expect(emu.recorder.list().filter((q) => q.path.startsWith("/listings/")).length).toBe(130);
    // Results were polled until DONE (feedDelayMs), then the gzip report was read.
    expect(
      emu.recorder.list().filter((q) => /\/feeds\/2021-06-30\/feeds\/\d+$/.test(q.path)).length,
    ).toBeGreaterThanOrEqual(3);
    expect(emu.recorder.list().filter((q) => q.path.startsWith("/feed-downloads/")).length).toBe(3);
  });

  it("sends prices VAT included; the id map's product type skips the lookup", async () => {
    const [a, b] = emu.listings;
    const r = await shop.setPrices([
      { sku: String(a?.sku), variantId: String(a?.productType), amount: 199.9, currency: "TRY" },
      { sku: String(b?.sku), variantId: String(b?.productType), amount: 99.9, currency: "TRY" },
    ]);
    expect(r).toMatchObject({ applied: 2, failed: [] });
    expect(emu.listings[0]?.price).toBe(199.9);
    expect(emu.recorder.list().filter((q) => q.path.startsWith("/listings/"))).toEqual([]);
  });

  it("an unknown SKU fails as unknown_item without a message; a refused message keeps Amazon's words", async () => {
    const l = emu.listings.find((x) => x.productType !== "SHOES");
    const r = await shop.setStock([
      { sku: "YOK-1", locationId: "default", qty: 1 },
      { sku: String(l?.sku), variantId: "SHOES", locationId: "default", qty: 1 },
    ]);
    expect(r.failed.map((f) => [f.key, f.error.reason])).toEqual([
      ["YOK-1", "unknown_item"],
      [String(l?.sku), "validation"],
    ]);
    expect(r.failed[1]?.error.systemMessage).toMatch(/does not match the product type/);
  });

  it("the emulator processes a removed XML inventory feed as FATAL, as Amazon does", async () => {
    const token = await lwa();
    const headers = { "x-amz-access-token": token, "content-type": "application/json" };
    const doc = (await (
      await fetch(`${emu.credentials.apiUrl}/feeds/2021-06-30/documents`, {
        method: "POST",
        headers,
        body: JSON.stringify({ contentType: "text/xml; charset=UTF-8" }),
      })
    ).json()) as { feedDocumentId: string; url: string };
    await fetch(doc.url, {
      method: "PUT",
      headers: { "content-type": "text/xml; charset=UTF-8" },
      body: "<AmazonEnvelope/>",
    });
    const created = await fetch(`${emu.credentials.apiUrl}/feeds/2021-06-30/feeds`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        feedType: "POST_INVENTORY_AVAILABILITY_DATA",
        marketplaceIds: ["A33AVAJ2PDY3EV"],
        inputFeedDocumentId: doc.feedDocumentId,
      }),
    });
    expect(created.status).toBe(202);
    const { feedId } = (await created.json()) as { feedId: string };
    await new Promise((r) => setTimeout(r, 60));
    const feed = (await (
      await fetch(`${emu.credentials.apiUrl}/feeds/2021-06-30/feeds/${feedId}`, { headers })
    ).json()) as {
      processingStatus: string;
    };
    expect(feed.processingStatus).toBe("FATAL");
    const failures = judgeWithRules(emu.recorder.list(), judge.requestJudge, amazonRules(SCALE)).failures;
    expect(failures.map((f) => f.problems.join())).toEqual([
      expect.stringContaining("the feed document is not JSON"),
      expect.stringContaining("amazon.xml-feeds-removed"),
    ]);
    emu.recorder.clear(); // hand-made requests, judged above
  });
});

/** An access token from the emulator's LWA, for hand-made requests. */
async function lwa(): Promise<string> {
  const res = await fetch(emu.credentials.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: emu.credentials.refreshToken,
      client_id: emu.credentials.clientId,
      client_secret: emu.credentials.clientSecret,
    }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("Amazon orders (Orders v2026-01-01)", () => {
  let first: Order[];
  let cursor: string | undefined;

  it("reads every order with its items, buyer and address in one answer (pages of 100, no RDT)", async () => {
    offset += 3 * 60_000; // the orders are older than Amazon's two-minute lag now
    const read = await readAllPages((t) => shop.listOrders({ pageToken: t }));
    first = read.items;
    cursor = read.cursor;
    expect(first).toHaveLength(250);
    // Three pages of orders, then the scan's returns report (none yet).
    expect(read.pages).toBe(4);
    const o = first[0] as Order;
    expect(o.lines[0]?.sku).toMatch(/^STK-/);
    expect(o.lines[0]?.externalProductId).toMatch(/^B0/);
    expect(o).toMatchObject({
      status: "UNSHIPPED",
      salesChannel: "Amazon Türkiye",
      currency: "TRY",
      payment: { means: "ODEMEARACISI" },
    });
    expect(o.customer.email).toContain("@marketplace.amazon.com.tr");
    expect(o.shippingAddress.country).toBe("TR");
    expect(emu.recorder.list().some((r) => r.path.startsWith("/tokens/"))).toBe(false);
  });

  it("cancellations come back as orders whose status turns CANCELLED", async () => {
    const [a] = first;
    emu.cancelOrder(String(a?.id));
    offset += 3 * 60_000;
    const read = await readAllPages((t) => shop.listOrders({ since: cursor, pageToken: t }));
    expect(read.items.find((o) => o.id === a?.id)?.status).toBe("CANCELLED");
  });

  it("returns come from one returns report a scan, line by line: the returned units and nothing else", async () => {
    const reports = () => emu.recorder.list().filter((r) => r.path === "/reports/2021-06-30/reports");
    const before = reports().length;
    const o = first.find((x) => x.lines.length > 1 || (x.lines[0]?.qty ?? 0) > 1) as Order;
    const [line] = o.lines;
    emu.returnOrder(o.id, { [line!.sku]: 1 });
    offset += 3 * 60_000;
    const read = await readAllPages((t) => shop.listOrders({ since: cursor, pageToken: t }));
    expect(reports().length - before, "one createReport a scan").toBe(1);
    const body = reports().at(-1)?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      reportType: "GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE",
      marketplaceIds: ["A33AVAJ2PDY3EV"],
    });
    const back = read.items.find((x) => x.id === o.id && x.status === "Returned");
    expect(back?.returned).toEqual([{ ref: expect.stringMatching(/^rma:D/), sku: line!.sku, qty: 1 }]);
    // The whole order comes with it (what the ledger keys and the invoice reads), not only the line.
    expect(back?.lines.length).toBe(o.lines.length);
    expect(read.cursor).not.toContain("#report=");
    cursor = read.cursor ?? cursor;
  });

  it("a report still being made is polled by the next scan, never requested twice", async () => {
    const slow = await startAmazonEmulator({
      seed: 9,
      productCount: 20,
      orderCount: 3,
      reportDelayMs: 60_000,
      now: clock,
      ...SCALE,
    });
    try {
      const amazon = createAmazonConnector(
        slow.credentials,
        ctx({ asyncBatch: { intervalMs: 1, maxPolls: 5 } }),
      );
      const reports = () => slow.recorder.list().filter((r) => r.path === "/reports/2021-06-30/reports");
      const [o] = slow.orders;
      slow.returnOrder(String(o?.orderId));
      offset += 3 * 60_000; // the return is older than the scan's two-minute lag
      const firstScan = await readAllPages((t) => amazon.listOrders({ pageToken: t }));
      expect(firstScan.cursor).toMatch(/#report=\d+$/);
      expect(firstScan.items.some((x) => x.status === "Returned")).toBe(false);
      offset += 61_000;
      const second = await readAllPages((t) => amazon.listOrders({ since: firstScan.cursor, pageToken: t }));
      expect(reports()).toHaveLength(1);
      expect(second.items.find((x) => x.status === "Returned")?.returned?.length).toBeGreaterThan(0);
      expect(second.cursor).not.toContain("#report=");
      expect(slow.answerProblems).toEqual([]);
      expect(judgeWithRules(slow.recorder.list(), judge.requestJudge, amazonRules(SCALE)).failures).toEqual(
        [],
      );
    } finally {
      await slow.close();
    }
  });

  it("reads the tab-delimited report with its header, quotes as text, rows of pending requests left out", () => {
    const head = AMAZON_RETURNS_COLUMNS.join("\t");
    const row = (over: Record<string, string>) => AMAZON_RETURNS_COLUMNS.map((c) => over[c] ?? "").join("\t");
    const rows = parseAmazonReturns(
      [
        head,
        row({
          "Order ID": "405-1",
          "Merchant SKU": "STK-1",
          "Return quantity": "2",
          "Amazon RMA ID": "DAbc",
          "Item Name": '12" cetvel',
          "Return request status": "Approved",
        }),
        row({
          "Order ID": "405-2",
          "Merchant SKU": "STK-2",
          "Return quantity": "1",
          "Return request status": "Pending Approval",
        }),
        "",
      ].join("\n"),
    );
    expect(rows).toEqual([{ orderId: "405-1", line: { ref: "rma:DAbc:STK-1", sku: "STK-1", qty: 2 } }]);
  });

  it("confirms the shipment with the tracking number (confirmShipment, every item of the order)", async () => {
    const o = first[5] as Order;
    await shop.updateOrderStatus(o.id, {
      status: "SHIPPED",
      trackingNumber: "YK123456789",
      cargoCompany: "Yurtiçi Kargo",
    });
    const row = emu.orders.find((x) => x.orderId === o.id) as Record<string, unknown>;
    expect((row.fulfillment as { fulfillmentStatus: string }).fulfillmentStatus).toBe("SHIPPED");
    expect(row.packages).toMatchObject([{ trackingNumber: "YK123456789", carrier: "Yurtiçi Kargo" }]);
    const sent = emu.recorder.list().find((r) => r.path.endsWith("/shipmentConfirmation"))?.body as {
      packageDetail: { orderItems: unknown[] };
    };
    expect(sent.packageDetail.orderItems).toHaveLength(o.lines.length);
  });

  it("a status without a tracking number is Amazon's to set: refused without a call", async () => {
    const before = emu.counters.writes;
    const e = await caught(shop.updateOrderStatus(String(first[6]?.id), { status: "SHIPPED" }));
    expect(e.reason).toBe("validation");
    expect(emu.counters.writes).toBe(before);
  });
});

describe("Amazon faults and refusals", () => {
  it("retries a 429 (waiting one token of x-amzn-RateLimit-Limit) and a 5xx", async () => {
    emu.faults.set({
      queue: [
        { kind: "429", operation: "searchOrders" },
        { kind: "5xx", operation: "searchOrders" },
      ],
    });
    const page = await createAmazonConnector(emu.credentials, ctx()).listOrders({});
    expect(page.items.length).toBeGreaterThan(0);
  });

  it("an expired access token is refreshed once (403 Unauthorized, then LWA again)", async () => {
    const conn = createAmazonConnector(emu.credentials, ctx());
    await conn.testConnection();
    emu.expireTokens();
    await conn.testConnection();
    expect(lwaCalls()).toBe(2);
  });

  it("a wrong refresh token is an auth failure with LWA's words", async () => {
    const bad = createAmazonConnector({ ...emu.credentials, refreshToken: "Atzr|yanlis" }, ctx());
    const e = await caught(bad.testConnection());
    expect(e).toMatchObject({ reason: "auth", systemCode: "invalid_grant" });
  });

  it("the emulator refuses a call without an access token (403) and over a usage plan's burst (429)", async () => {
    const plain = await startAmazonEmulator({ seed: 2, productCount: 10 });
    try {
      // searchOrders: burst 20, then one every 180 s (its usage plan), so the 21st in a row is over.
      const url = `${plain.credentials.apiUrl}/orders/2026-01-01/orders?marketplaceIds=A33AVAJ2PDY3EV&lastUpdatedAfter=2026-11-01T00:00:00Z`;
      expect((await fetch(url)).status).toBe(403);
      const res = await fetch(plain.credentials.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: plain.credentials.refreshToken,
          client_id: plain.credentials.clientId,
          client_secret: plain.credentials.clientSecret,
        }).toString(),
      });
      const headers = { "x-amz-access-token": ((await res.json()) as { access_token: string }).access_token };
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await fetch(url, { headers })).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const over = await fetch(url, { headers });
      expect(over.status).toBe(429);
      expect(over.headers.get("x-amzn-ratelimit-limit")).toBe("0.0056");
      expect(JSON.stringify(await over.json())).toContain("QuotaExceeded");
      const failures = judgeWithRules(plain.recorder.list(), judge.requestJudge, amazonRules()).failures;
      expect(failures.map((f) => f.problems.join()).join("\n")).toMatch(
        /amazon.access-token[\s\S]*amazon.usage-plan/,
      );
    } finally {
      await plain.close();
    }
  });

  it("is an AmazonConnector registered as a sales channel, not a registration type", () => {
    expect(listSalesChannels().map((d) => d.system)).toContain("amazon");
    expect(listConnectors("shop").map((d) => d.system)).not.toContain("amazon");
    expect(createSalesChannelConnector("amazon", emu.credentials, ctx())).toBeInstanceOf(AmazonConnector);
  });
});

describe("Amazon sandbox", () => {
  it("starts from the registry's channel sandboxes with orders placed and the judge in front", async () => {
    const entry = listSalesChannelSandboxes().find((s) => s.system === "amazon");
    expect(entry?.available?.()).toBe(true);
    await withChannelSandbox(entry, async (app, credentials) => {
      const token = await app.inject({
        method: "POST",
        url: "/auth/o2/token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: credentials.refreshToken ?? "",
          client_id: credentials.clientId ?? "",
          client_secret: credentials.clientSecret ?? "",
        }).toString(),
      });
      const access = (token?.json() as { access_token?: string } | undefined)?.access_token ?? "";
      const res = await app.inject({
        method: "GET",
        url: `/listings/2021-08-01/items/${credentials.sellerId}?marketplaceIds=A33AVAJ2PDY3EV&pageSize=5`,
        headers: { "x-amz-access-token": access },
      });
      expect(res?.statusCode).toBe(200);
      expect(((res?.json() as { items?: unknown[] } | undefined)?.items ?? []).length).toBe(5);
    });
  });
});

describeRulesDocumented(
  "Amazon rules are documented and sourced",
  new URL("./VERIFIED.md", import.meta.url),
  amazonRules(),
);

describeVersionPin("Amazon Orders API: version pin", AMAZON_ORDERS_VERSION_PIN);
describeVersionPin("Amazon Feeds API: version pin", AMAZON_FEEDS_VERSION_PIN);
