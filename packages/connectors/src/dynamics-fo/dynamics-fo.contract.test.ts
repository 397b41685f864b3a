import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import type { Order } from "../sdk/model";
import { caught, readAllPages } from "../testing/contract";
import { contractSuite, describeVersionPin, expectConformance } from "../testing/contract-suite";
import { describeFailures, judgeRequests } from "../testing/recorder";
import { sampleOrder } from "../testing/sample-order";
import { mountEmulators } from "../testing/server";
import { createD365Connector, type D365Connector } from "./connector";
import { type D365Emulator, startD365Emulator } from "./emulator/server";
import { judgeD365Request } from "./judge/requests";
import { D365_VERSION_PIN } from "./judge/rules";

const COUNT = 90;
const order = (no: string, skus: string[]): Order =>
  sampleOrder(no, skus, {
    createdAt: "2025-01-15T08:30:00.000Z",
    line: (sku) => ({ name: `Ürün ${sku}`, discount: 10 }),
    shipping: { cost: 0, method: "Yurtiçi Kargo" },
  });

const suite = contractSuite({
  start: () => startD365Emulator({ seed: 7, productCount: COUNT, maxPageSize: 50 }),
  connect: (emu, ctx) => createD365Connector(emu.credentials, ctx) as D365Connector,
  judge: judgeD365Request,
  context: { batch: { page: 20 } },
});

describe("D365 F&O connector against the emulator", () => {
  it("connects with a client-credentials token and names the company", async () => {
    const info = await suite.conn.testConnection();
    expect(info.description).toContain("TR01");
    expect(suite.emu.counters.tokensIssued).toBe(1);
    const bad = createD365Connector({ ...suite.emu.credentials, clientSecret: "yanlis" }, suite.ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    // No secret or token in any log line.
    const text = JSON.stringify(suite.logs);
    expect(text).not.toContain(suite.emu.credentials.clientSecret);
    for (const t of suite.emu.issuedTokens()) expect(text).not.toContain(t);
  });

  it("reads warehouses, price groups and the category tree of the configured hierarchy", async () => {
    const locs = await suite.conn.listStockLocations();
    expect(locs.map((l) => l.id)).toEqual(["IST-01", "ANK-01"]);
    const groups = await suite.conn.listPriceGroups();
    expect(groups.map((g) => g.id)).toEqual(["BASE", "PERAKENDE", "BAYI"]);
    const cats = (await suite.conn.listCategories()).items;
    expect(cats.some((c) => c.name === "Tüm Ürünler")).toBe(false);
    const child = cats.find((c) => c.parentId);
    expect(child?.path).toHaveLength(2);
    expect(child?.path[0]).toBe(child?.parentId);
  });

  it("reads every released product over server pages, product masters with their variants", async () => {
    const { items, pages } = await readAllPages((t) => suite.conn.listProducts({ pageToken: t }));
    const masters = suite.emu.state.rows("ReleasedProductsV2");
    expect(pages).toBe(Math.ceil(masters.length / 20));
    expect(items).toHaveLength(masters.length);
    const skus = items.flatMap((p) => p.variants.map((v) => v.sku)).sort();
    // Every catalogue SKU is a product or a variant, once.
    const expected = [
      ...suite.emu.state
        .rows("ReleasedProductsV2")
        .filter((r) => r.ProductSubType === "Product")
        .map((r) => String(r.ItemNumber)),
      ...suite.emu.state.rows("ReleasedProductVariantsV2").map((r) => String(r.ProductVariantNumber)),
    ].sort();
    expect(skus).toEqual(expected);
    const master = items.find((p) => p.variants.length > 1);
    expect(master?.groupKey).toBe(master?.sku);
    expect(Object.keys(master?.variants[0]?.options ?? {})).toEqual(["Beden"]);
    for (const p of items) {
      expect([0, 1, 10, 20]).toContain(p.vatRate);
      expect(p.categoryPath.length).toBe(2);
    }
  });

  it("reports a product whose sales tax group has no VAT rate as that record's failure", async () => {
    const row = suite.emu.state.rows("ReleasedProductsV2")[0] as Record<string, unknown>;
    const old = row.SalesSalesTaxItemGroupCode;
    row.SalesSalesTaxItemGroupCode = "OZEL";
    try {
      const page = await suite.conn.listProducts();
      expect(page.rejected?.map((r) => r.key)).toEqual([row.ItemNumber]);
      expect(page.rejected?.[0]?.error.reason).toBe("config");
      expect(page.rejected?.[0]?.error.merchantMessage).toContain("OZEL");
      expect(page.items.some((p) => p.sku === row.ItemNumber)).toBe(false);
    } finally {
      row.SalesSalesTaxItemGroupCode = old;
    }
  });

  it("reads available stock per warehouse, variants by their variant number", async () => {
    const { items } = await readAllPages((t) => suite.conn.listStock({ pageToken: t }));
    const variantOf = new Map(
      suite.emu.state
        .rows("ReleasedProductVariantsV2")
        .map((v) => [`${v.ItemNumber}|${v.ProductSizeId}`, String(v.ProductVariantNumber)]),
    );
    const want = new Map<string, number>();
    for (const r of suite.emu.state.rows("WarehousesOnHandV2")) {
      const sku = r.ProductSizeId
        ? variantOf.get(`${r.ItemNumber}|${r.ProductSizeId}`)
        : String(r.ItemNumber);
      want.set(`${sku}@${r.InventoryWarehouseId}`, Number(r.AvailableOnHandQuantity));
    }
    expect(new Map(items.map((s) => [`${s.sku}@${s.location}`, s.qty]))).toEqual(want);
    const ank = await readAllPages((t) => suite.conn.listStock({ pageToken: t, locations: ["ANK-01"] }));
    expect(new Set(ank.items.map((s) => s.location))).toEqual(new Set(["ANK-01"]));
  });

  it("reads base prices and today's group agreements, leaving out expired and customer-specific ones", async () => {
    const { items } = await readAllPages((t) => suite.conn.listPrices({ pageToken: t }));
    const base = items.filter((p) => p.priceGroup === "BASE");
    expect(base).toHaveLength(suite.emu.state.rows("ReleasedProductsV2").length);
    const retail = items.filter((p) => p.priceGroup === "PERAKENDE");
    expect(retail).toHaveLength(COUNT);
    expect(items.filter((p) => p.priceGroup === "BAYI")).toHaveLength(COUNT);
    // The current agreement (from 2024) wins over the expired 2023 one (10 % lower).
    const current = suite.emu.state
      .rows("SalesPriceAgreements")
      .filter(
        (a) => a.PriceCustomerGroupCode === "PERAKENDE" && String(a.PriceApplicableToDate).startsWith("1900"),
      );
    const amounts = new Set(current.map((a) => Number(a.Price)));
    for (const p of retail) expect(amounts.has(p.amount)).toBe(true);
    expect(items.every((p) => p.vatIncluded === false && p.currency === "TRY")).toBe(true);
    const only = await readAllPages((t) => suite.conn.listPrices({ pageToken: t, priceGroups: ["BAYI"] }));
    expect(new Set(only.items.map((p) => p.priceGroup))).toEqual(new Set(["BAYI"]));
  });

  it("creates a customer once, and an order with header and lines; a second transfer finds it", async () => {
    const o = order("WEB-1001", [
      String(suite.emu.state.rows("ReleasedProductVariantsV2")[0]?.ProductVariantNumber),
      String(
        suite.emu.state.rows("ReleasedProductsV2").find((r) => r.ProductSubType === "Product")?.ItemNumber,
      ),
    ]);
    const c1 = await suite.conn.createCustomer(o.customer);
    const c2 = await suite.conn.createCustomer(o.customer);
    expect(c1.existed).toBe(false);
    expect(c2).toEqual({ code: c1.code, existed: true });
    const created = await suite.conn.createSalesOrder({ order: o, customerCode: c1.code });
    expect(created.existed).toBe(false);
    expect(created.lineIds).toHaveLength(2);
    const again = await suite.conn.createSalesOrder({ order: o, customerCode: c1.code });
    expect(again).toMatchObject({ documentId: created.documentId, existed: true });
    expect(
      suite.emu.state.rows("SalesOrderHeadersV2").filter((h) => h.CustomersOrderReference === "WEB-1001"),
    ).toHaveLength(1);
    const lines = suite.emu.state
      .rows("SalesOrderLines")
      .filter((l) => l.SalesOrderNumber === created.documentId);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ SalesPrice: 120, LineDiscountAmount: 5, OrderedSalesQuantity: 2 });
    expect(lines[0]?.ProductSizeId).toBeTruthy();
  });

  it("refuses an order naming an unknown item before writing anything", async () => {
    const before = suite.emu.state.rows("SalesOrderHeadersV2").length;
    const c = await suite.conn.createCustomer(order("X", []).customer);
    const e = await caught(
      suite.conn.createSalesOrder({ order: order("WEB-1002", ["YOK-999"]), customerCode: c.code }),
    );
    expect(e.reason).toBe("unknown_item");
    expect(e.itemKeys).toEqual(["YOK-999"]);
    expect(suite.emu.state.rows("SalesOrderHeadersV2").length).toBe(before);
  });

  it("reads back the invoices issued for an order", async () => {
    expect(await suite.conn.listInvoicesForOrder("WEB-1001")).toEqual([]);
    suite.emu.invoiceOpenOrders();
    const inv = await suite.conn.listInvoicesForOrder("WEB-1001");
    expect(inv).toHaveLength(1);
    expect(inv[0]?.lines).toHaveLength(2);
    expect(inv[0]?.totals.gross).toBeCloseTo(460, 2);
    expect(inv[0]?.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await suite.conn.listInvoicesForOrder("YOK")).toEqual([]);
  });
});

describe("D365 F&O faults", () => {
  it("waits out a 429 with Retry-After, and retries reads after 5xx and a timeout", async () => {
    suite.emu.faults.set({
      retryAfterSeconds: 1,
      queue: [{ kind: "429" }, { kind: "5xx" }, { kind: "timeout" }],
    });
    suite.emu.faults.set({ ...suite.emu.faults.current, hangMs: 1_000 });
    const locs = await suite.conn.listStockLocations();
    expect(locs).toHaveLength(2);
    expect(suite.emu.counters.faults["429"]).toBeGreaterThanOrEqual(1);
    expect(suite.emu.counters.faults["5xx"]).toBeGreaterThanOrEqual(1);
    expect(suite.emu.counters.faults.timeout).toBeGreaterThanOrEqual(1);
  });

  it("gets a new token when the server stops accepting the old one", async () => {
    const issued = suite.emu.counters.tokensIssued;
    suite.emu.expireTokens();
    await suite.conn.listStockLocations();
    expect(suite.emu.counters.tokensIssued).toBe(issued + 1);
    suite.emu.faults.enqueue({ kind: "auth" });
    await suite.conn.listStockLocations();
    expect(suite.emu.counters.tokensIssued).toBe(issued + 2);
  });

  it("a header whose answer is lost is found on the next transfer, which adds its lines once", async () => {
    const o = order("WEB-1003", [
      String(suite.emu.state.rows("ReleasedProductVariantsV2")[1]?.ProductVariantNumber),
    ]);
    const c = await suite.conn.createCustomer(o.customer);
    suite.emu.faults.enqueue({ kind: "dropAfterWrite", operation: "POST SalesOrderHeadersV2" });
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: c.code }));
    expect(e.maybeApplied).toBe(true);
    const heads = () =>
      suite.emu.state.rows("SalesOrderHeadersV2").filter((h) => h.CustomersOrderReference === "WEB-1003");
    expect(heads()).toHaveLength(1);
    const r = await suite.conn.createSalesOrder({ order: o, customerCode: c.code });
    expect(r.documentId).toBe(heads()[0]?.SalesOrderNumber);
    expect(heads()).toHaveLength(1);
    expect(
      suite.emu.state.rows("SalesOrderLines").filter((l) => l.SalesOrderNumber === r.documentId),
    ).toHaveLength(1);
  });

  it("a refused line leaves none of the order's lines (one change set)", async () => {
    const variant = suite.emu.state.rows("ReleasedProductVariantsV2")[2] as Record<string, unknown>;
    const o = order("WEB-1004", [String(variant.ProductVariantNumber), String(variant.ProductVariantNumber)]);
    o.lines[1] = { ...(o.lines[1] as Order["lines"][number]), qty: 0 };
    const c = await suite.conn.createCustomer(o.customer);
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: c.code }));
    expect(e.reason).toBe("validation");
    const h = suite.emu.state
      .rows("SalesOrderHeadersV2")
      .find((x) => x.CustomersOrderReference === "WEB-1004");
    expect(
      suite.emu.state.rows("SalesOrderLines").filter((l) => l.SalesOrderNumber === h?.SalesOrderNumber),
    ).toHaveLength(0);
  });

  it("a 5xx on the lines' batch is reported as maybe applied (never re-sent blindly)", async () => {
    const o = order("WEB-1005", [
      String(suite.emu.state.rows("ReleasedProductVariantsV2")[3]?.ProductVariantNumber),
    ]);
    const c = await suite.conn.createCustomer(o.customer);
    const batches = suite.emu.counters.byOperation.$batch ?? 0;
    suite.emu.faults.enqueue({ kind: "5xx", operation: "$batch" });
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: c.code }));
    expect(e.reason).toBe("server_error");
    expect(e.maybeApplied).toBe(true);
    expect(suite.emu.counters.byOperation.$batch).toBe(batches + 1);
  });
});

describe("D365 F&O sandbox", () => {
  it("works when a host serves the emulator under a tenant path (the built-in sandbox)", async () => {
    const host = Fastify();
    let sandbox: D365Emulator | undefined;
    await mountEmulators(host, { prefix: "/sandbox/dynamics-ax-rest", resolve: async () => sandbox?.app });
    const address = await host.listen({ port: 0, host: "127.0.0.1" });
    sandbox = await startD365Emulator({
      listen: false,
      baseUrl: `${address}/sandbox/dynamics-ax-rest/t1`,
      seed: 3,
      productCount: 30,
    });
    try {
      const c = createD365Connector(sandbox.credentials, suite.ctx({ batch: { page: 7 } }));
      const { items, pages } = await readAllPages((t) => c.listProducts({ pageToken: t }));
      expect(items.length).toBe(sandbox.state.rows("ReleasedProductsV2").length);
      expect(pages).toBeGreaterThan(1);
      expect(describeFailures(judgeRequests(sandbox.recorder.list(), judgeD365Request))).toBe("");
    } finally {
      await host.close();
      await sandbox.close();
    }
  });
});

describe("D365 F&O conformance", () => {
  it("the emulator refuses what the service refuses: unknown properties and sets", async () => {
    const token = (await (
      await fetch(suite.emu.credentials.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: suite.emu.credentials.clientId,
          client_secret: suite.emu.credentials.clientSecret,
          scope: `${suite.emu.url}/.default`,
        }),
      })
    ).json()) as { access_token: string };
    const get = (path: string) =>
      fetch(`${suite.emu.url}${path}`, { headers: { authorization: `Bearer ${token.access_token}` } });
    expect((await get("/data/ReleasedProductsV2?cross-company=true&$select=ProductName")).status).toBe(400);
    expect((await get("/data/ReleasedProductsV2?cross-company=true&$filter=Foo%20eq%201")).status).toBe(400);
    expect((await get("/data/InventOnhandEntities")).status).toBe(404);
    // The judge rejects the same requests.
    const judged = judgeRequests(suite.emu.recorder.list(), judgeD365Request);
    expect(judged.failures.filter((f) => f.method === "GET")).toHaveLength(3);
    suite.emu.recorder.clear();
  });

  it("every request the connector sent was judged and none was rejected", () => {
    expectConformance("d365", suite.conformance.report, { requests: 51 });
  });
});

describeVersionPin("API version (issue 32)", D365_VERSION_PIN);
