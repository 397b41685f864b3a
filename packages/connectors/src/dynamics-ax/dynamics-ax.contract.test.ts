import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createErpConnector, getDescriptor } from "../registry";
import type { ConnectorContext } from "../sdk/connector";
import type { Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, testContext } from "../testing/contract";
import { describeFailures } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { sampleOrder } from "../testing/sample-order";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { AxConnector, countryRegion, vatFromTaxItemGroup } from "./connector";
import { startAxEmulator } from "./emulator/server";
import { AX_WAREHOUSES } from "./emulator/state";
import { judgeAxRecorded } from "./judge/conformance";
import { AX_RULES, AX_VERSION_PIN } from "./judge/rules";

type Emu = Awaited<ReturnType<typeof startAxEmulator>>;

const store = new InMemoryRateLimitStore();
function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, undefined, {
    companyId: "c-ax",
    budget: { requests: 500, windowMs: 1000 },
    timeoutMs: 1500,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 2_000 },
    ...over,
  });
}

const order = (no: string, skus: string[]): Order =>
  sampleOrder(no, skus, {
    createdAt: "2025-01-15T08:30:00.000Z",
    line: (sku) => ({ name: `Ürün ${sku} & <özel>`, discount: 10 }),
    shipping: { cost: 0, method: "Yurtiçi Kargo" },
  });

const COUNT = 130;
let emu: Emu;
const emulators: Emu[] = [];

async function emulator(opts: Parameters<typeof startAxEmulator>[0] = {}): Promise<Emu> {
  const e = await startAxEmulator({
    seed: 7,
    itemCount: COUNT,
    validateResponses: true,
    faults: { hangMs: 3_000 },
    ...opts,
  });
  emulators.push(e);
  return e;
}

beforeAll(async () => {
  emu = await emulator();
});

afterAll(async () => {
  for (const e of emulators) await e.close();
});

describe("Dynamics AX 2012 connector against the AIF emulator", () => {
  it("is registered as ERP type 7, on-site (through the agent)", () => {
    const d = getDescriptor("erp", 7);
    expect(d).toMatchObject({ system: "dynamics-ax", implemented: true, onPremOnly: true });
    expect(createErpConnector(7, emu.credentials, ctx())).toBeInstanceOf(AxConnector);
  });

  it("tests the connection with the company in the CallContext, and fails on an unknown company", async () => {
    const conn = new AxConnector(emu.credentials, ctx());
    const info = await conn.testConnection();
    expect(info).toMatchObject({ ok: true, system: "dynamics-ax", firm: "dat" });
    const wrong = new AxConnector({ ...emu.credentials, company: "xyz" }, ctx());
    const e = await caught(wrong.testConnection());
    expect(e.reason).toBe("validation");
    expect(e.message).toContain("Company 'xyz'");
  });

  it("reads every item in pages (findKeys once, read by keys), with unit, VAT and sales price", async () => {
    const conn = new AxConnector(emu.credentials, ctx());
    const before = emu.server.counters.byOperation["ItemService.findKeys"] ?? 0;
    const skus: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await conn.listProducts({ pageToken: token, pageSize: 50 });
      skus.push(...page.items.map((p) => p.sku));
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(skus).toHaveLength(COUNT);
    expect(new Set(skus).size).toBe(COUNT);
    expect(emu.server.counters.byOperation["ItemService.findKeys"] ?? 0).toBe(before + 1);
    const first = emu.state.items[0];
    const p = (await conn.listProducts({ pageSize: 5 })).items.find((x) => x.sku === first?.sku);
    expect(p).toMatchObject({ name: first?.name, unit: first?.unit, vatRate: first?.vatRate });
    const prices = await conn.listPrices({ pageSize: 5 });
    const price = prices.items.find((x) => x.sku === first?.sku);
    expect(price?.amount).toBeCloseTo((first?.retailPrice ?? 0) / (1 + (first?.vatRate ?? 0) / 100), 2);
    expect(price).toMatchObject({ priceGroup: "Sales", vatIncluded: false });
  });

  it("reads on-hand per warehouse by item keys, and lists the warehouses", async () => {
    const conn = new AxConnector(emu.credentials, ctx());
    const levels = [];
    let token: string | undefined;
    do {
      const page = await conn.listStock({ pageToken: token, pageSize: 64 });
      levels.push(...page.items);
      token = page.nextPageToken;
    } while (token);
    const expected = emu.state.items.flatMap((i) =>
      emu.state.onHand(i).map((s) => `${i.sku}@${s.warehouse}=${s.qty}`),
    );
    expect(levels.map((l) => `${l.sku}@${l.location}=${l.qty}`).sort()).toEqual(expected.sort());
    const only = await conn.listStock({ pageSize: 500, locations: [AX_WAREHOUSES[1]] });
    expect(only.items.every((l) => l.location === AX_WAREHOUSES[1])).toBe(true);
    expect((await conn.listStockLocations()).map((l) => l.id)).toEqual([...AX_WAREHOUSES]);
  });

  it("creates a sales order with our number in PurchOrderFormNum, and never twice", async () => {
    const conn = new AxConnector({ ...emu.credentials, warehouse: "11" }, ctx());
    const skus = emu.state.items.slice(0, 2).map((i) => i.sku);
    const customer = await conn.createCustomer(order("X", skus).customer);
    expect(customer.code).toBe(emu.credentials.customerAccount);
    const ref = await conn.createSalesOrder({ order: order("IK-1001", skus), customerCode: customer.code });
    expect(ref).toMatchObject({ ref: "IK-1001", existed: false });
    const stored = emu.state.orders.get(ref.documentId);
    expect(stored).toMatchObject({ custAccount: "WEB-001", purchOrderFormNum: "IK-1001", warehouse: "11" });
    expect(stored?.lines.map((l) => [l.itemId, l.qty, l.price, l.lineAmount, l.warehouse])).toEqual(
      skus.map((s) => [s, 2, 120, 230, "11"]),
    );
    expect(await conn.findOrderByRef("IK-1001")).toMatchObject({ documentId: ref.documentId, existed: true });
    const again = await conn.createSalesOrder({ order: order("IK-1001", skus), customerCode: customer.code });
    expect(again).toMatchObject({ documentId: ref.documentId, existed: true });
    expect(emu.state.documentsByRef().get("IK-1001")?.size).toBe(1);
    expect(await conn.findOrderByRef("IK-404")).toBeNull();
  });

  it("keeps an order number longer than CustPurchaseOrder (20) within it, and still writes the order once", async () => {
    const conn = new AxConnector(emu.credentials, ctx());
    const skus = emu.state.items.slice(0, 1).map((i) => i.sku);
    const no = "HB-2026-11-28-000123456789"; // 26 characters
    const ref = await conn.createSalesOrder({ order: order(no, skus), customerCode: "WEB-001" });
    expect(ref).toMatchObject({ ref: no, existed: false });
    const held = emu.state.orders.get(ref.documentId)?.purchOrderFormNum ?? "";
    expect(held).toHaveLength(20);
    expect(held.endsWith("-000123456789".slice(-11))).toBe(true);
    expect(await conn.createSalesOrder({ order: order(no, skus), customerCode: "WEB-001" })).toMatchObject({
      documentId: ref.documentId,
      existed: true,
    });
    expect(emu.state.documentsByRef().get(held)?.size).toBe(1);
    expect(emu.rules.refused).toBe(0);
  });

  it("parses AifFault messages: unknown item and unknown customer account are permanent refusals", async () => {
    const conn = new AxConnector(emu.credentials, ctx());
    const item = await caught(
      conn.createSalesOrder({ order: order("IK-2001", ["YOK-1"]), customerCode: "WEB-001" }),
    );
    expect(item.reason).toBe("unknown_item");
    expect(item.message).toContain("'YOK-1' in field 'Item number'");
    const cust = await caught(
      conn.createSalesOrder({
        order: order("IK-2002", [emu.state.items[0]?.sku ?? ""]),
        customerCode: "NOPE",
      }),
    );
    expect(cust.reason).toBe("validation");
    expect(cust.systemMessage).toContain("'NOPE' in field 'Customer account'");
    expect(emu.state.documentsByRef().has("IK-2001")).toBe(false);
    expect(emu.state.documentsByRef().has("IK-2002")).toBe(false);
  });

  it("a dropped create is found by our number before any retry: exactly one order", async () => {
    const e = await emulator();
    const conn = new AxConnector(e.credentials, ctx());
    const skus = [e.state.items[3]?.sku ?? ""];
    e.server.faults.enqueue({ kind: "dropAfterWrite", operation: "SalesOrderService.create" });
    const lost = await caught(
      conn.createSalesOrder({ order: order("IK-3001", skus), customerCode: "WEB-001" }),
    );
    expect(lost.kind).toBe("transient");
    expect(lost.maybeApplied).toBe(true);
    expect(e.state.documentsByRef().get("IK-3001")?.size).toBe(1);
    const retried = await conn.createSalesOrder({ order: order("IK-3001", skus), customerCode: "WEB-001" });
    expect(retried.existed).toBe(true);
    expect(e.state.documentsByRef().get("IK-3001")?.size).toBe(1);
    expect(e.server.counters.byOperation["SalesOrderService.create"]).toBe(1);
  });

  it("retries reads through 5xx, 429 and a timeout; a 5xx on create is not re-sent blindly", async () => {
    const e = await emulator();
    const conn = new AxConnector(e.credentials, ctx());
    e.server.faults.enqueue(
      { kind: "5xx", operation: "ItemService.findKeys" },
      { kind: "429", operation: "ItemService.read" },
      { kind: "timeout", operation: "InventoryOnHandService.read" },
    );
    expect((await conn.listProducts({ pageSize: 10 })).items).toHaveLength(10);
    expect((await conn.listStock({ pageSize: 10 })).items.length).toBeGreaterThan(0);
    expect(e.server.counters.faults).toMatchObject({ "5xx": 1, "429": 1, timeout: 1 });
    e.server.faults.enqueue({ kind: "5xx", operation: "SalesOrderService.create" });
    const err = await caught(
      conn.createSalesOrder({
        order: order("IK-4001", [e.state.items[0]?.sku ?? ""]),
        customerCode: "WEB-001",
      }),
    );
    expect(err.kind).toBe("transient");
    expect(e.server.counters.byOperation["SalesOrderService.create"]).toBe(1);
    const ok = await conn.createSalesOrder({
      order: order("IK-4001", [e.state.items[0]?.sku ?? ""]),
      customerCode: "WEB-001",
    });
    expect(ok.existed).toBe(false);
    expect(e.state.documentsByRef().get("IK-4001")?.size).toBe(1);
  });

  it("a refused Windows login (401 from IIS) is an auth failure", async () => {
    const e = await emulator();
    const conn = new AxConnector(e.credentials, ctx());
    e.server.faults.enqueue({ kind: "auth" });
    const err = await caught(conn.testConnection());
    expect(err.reason).toBe("auth");
  });

  it("maps VAT groups and countries as documented in the code", () => {
    expect([
      vatFromTaxItemGroup("KDV20"),
      vatFromTaxItemGroup("KDV%10"),
      vatFromTaxItemGroup("FULL"),
    ]).toEqual([20, 10, 20]);
    expect([countryRegion("Türkiye"), countryRegion("DE"), countryRegion("Almanya")]).toEqual([
      "TUR",
      "DE",
      undefined,
    ]);
  });
});

describe("conformance", () => {
  it("the emulator refused no envelope and answered only in valid shapes", () => {
    for (const e of emulators) {
      expect(e.schemaRejections).toEqual([]);
      expect(e.responseProblems).toEqual([]);
    }
  });

  it("every request the connector sent is judged by the WSDL and XSDs", async () => {
    const judge = await judgeAxRecorded();
    const all = emulators.flatMap((e) => e.server.recorder.list());
    const report = judgeWithRules(all, judge, AX_RULES);
    expect(report.failures, describeFailures(report)).toEqual([]);
    expect(Object.keys(report.operations).sort()).toEqual([
      "InventoryOnHandService.read",
      "ItemService.findKeys",
      "ItemService.read",
      "SalesOrderService.create",
      "SalesOrderService.findKeys",
    ]);
    const refused = emulators.reduce((n, e) => n + e.rules.refused, 0);
    console.info(
      `dynamics-ax conformance: ${report.requests} requests, ${report.failures.length} rejected, ${AX_RULES.length} runtime rule(s), ${refused} refused by the emulators' rules, ${JSON.stringify(report.operations)}`,
    );
  });
});

describe("API version (issue 32)", () => {
  // AX 2012 R3 has no supported version left to move to (the successor is D365 F&O, type 17): the test
  // proves the pin states it, in Turkish and English, instead of failing every run from now on.
  it("knows AX 2012 R3 is past Microsoft's extended support and says so in both languages", () => {
    expect(() => expectPinnedVersionSupported(AX_VERSION_PIN)).toThrow(
      /desteği 2023-01-10 tarihinde bitti[\s\S]*end of support on 2023-01-10/,
    );
    expect(() =>
      expectPinnedVersionSupported(AX_VERSION_PIN, new Date("2022-12-31T12:00:00Z")),
    ).not.toThrow();
  });
});
