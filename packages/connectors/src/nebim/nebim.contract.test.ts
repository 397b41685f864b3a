import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext } from "../sdk/connector";
import type { HttpLogEntry } from "../sdk/logging";
import type { Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { generateCatalog } from "../testing/catalog";
import { caught, testContext } from "../testing/contract";
import { describeVersionPin, expectConformance } from "../testing/contract-suite";
import { addToReport, type ConformanceReport } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { sampleOrder } from "../testing/sample-order";
import { createNebimConnector, type NebimConnector } from "./connector";
import { type NebimEmulator, startNebimEmulator } from "./emulator/server";
import { judgeNebimRequest } from "./judge/requests";
import { NEBIM_RULES, NEBIM_VERSION_PIN, type NebimSessionSide } from "./judge/rules";

const COUNT = 60;
const logs: HttpLogEntry[] = [];
const store = new InMemoryRateLimitStore();
const emulators: NebimEmulator[] = [];

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, logs, { budget: { requests: 500, windowMs: 1000 }, ...over });
}

async function emulator(options: Parameters<typeof startNebimEmulator>[0] = {}) {
  const emu = await startNebimEmulator({ seed: 11, productCount: COUNT, ...options });
  emulators.push(emu);
  return emu;
}

const connector = (
  emu: NebimEmulator,
  over: Record<string, string> = {},
  c: Partial<ConnectorContext> = {},
) => createNebimConnector({ ...emu.credentials, ...over }, ctx(c)) as NebimConnector;

const order = (no: string, skus: string[], phone = "05321234567"): Order =>
  sampleOrder(no, skus, {
    address: { phone },
    createdAt: "2026-11-15T22:30:00.000Z",
    customer: { ref: `ikas-${no}`, phone, taxNumber: "10000000146" },
    line: (sku) => ({ name: `Ürün ${sku}`, discount: 20 }),
    shipping: { cost: 0, method: "Aras Kargo" },
  });

afterAll(async () => {
  for (const e of emulators) await e.close();
});

/** Sources disagree on what a bare session-mode Connect gets (judge/rules.ts): the suite plays both sides. */
const SIDES: NebimSessionSide[] = ["direct", "cookieless-redirect"];

describe.each(SIDES)("Nebim V3 connector against the emulator (session URL: %s)", (side) => {
  let session: NebimEmulator;

  beforeAll(async () => {
    session = await emulator({ mode: "session", sessionUrl: side });
  });

  it("connects in session mode, signs in on the session's own URL and names the user GetUserInfo gives", async () => {
    const conn = connector(session);
    const info = await conn.testConnection();
    expect(info.description).toContain("NEBIMV3");
    expect(info.description).toContain("oturum");
    const sent = session.recorder
      .list()
      .map((r) => [r.method, r.path, r.body !== undefined && r.body !== null]);
    // A bodyless GET opens the session (on the redirect side IIS answers it with a 302 first) …
    expect(sent[0]).toEqual(["GET", "/IntegratorService/Connect", false]);
    const id = /\(S\(([a-z0-9]+)\)\)/.exec(String(sent.at(-1)?.[1]))?.[1];
    // … the credentials go to that session's URL, and GetUserInfo reads the same session.
    expect(sent.slice(-2)).toEqual([
      ["POST", `/(S(${id}))/IntegratorService/Connect`, true],
      ["GET", `/(S(${id}))/IntegratorService/GetUserInfo`, false],
    ]);
    expect(sent).toHaveLength(side === "direct" ? 3 : 4);
    expect(session.rules.refused).toBe(0);
  });

  it("connects in token mode (Token header, no session in the URL)", async () => {
    const emu = await emulator({ mode: "token" });
    const conn = connector(emu);
    const info = await conn.testConnection();
    expect(info.description).toContain("token");
    const [, userInfo] = emu.recorder.list();
    expect(userInfo?.path).toBe("/IntegratorService/GetUserInfo");
    expect(userInfo?.headers.token).toMatch(/^[0-9A-F]{32}$/);
    // A form set to session mode against a token service says which mode to pick.
    const wrong = await caught(connector(emu, { connectMode: "session" }).testConnection());
    expect(wrong.reason).toBe("config");
    expect(wrong.merchantMessage).toContain("'token'");
  });

  it("refuses a wrong password through GetUserInfo, although Connect 'succeeds'", async () => {
    const e = await caught(connector(session, { password: "yanlis" }).testConnection());
    expect(e.reason).toBe("auth");
    expect(e.merchantMessage).toContain("doğrulanamadı");
  });

  it("reads products with variants, stock per warehouse and prices through RunProc", async () => {
    const conn = connector(session);
    const products = await conn.listProducts();
    const catalog = generateCatalog({ seed: 11, count: COUNT });
    expect(products.items).toHaveLength(new Set(catalog.map((i) => i.modelCode)).size + 1);
    expect(products.items.flatMap((p) => p.variants)).toHaveLength(COUNT + 2);
    const k001 = products.items.find((p) => p.sku === "K001");
    expect(k001?.variants.map((v) => [v.sku, v.options])).toEqual([
      ["K001/04/40", { Renk: "Lacivert", Beden: "40" }],
      ["K001/04/42", { Renk: "Lacivert", Beden: "42" }],
    ]);
    // Sizes kept as items of their own, grouped by the procedure's ModelCode column.
    const sized = catalog.find((i) => i.optionName);
    const model = products.items.find((p) => p.sku === sized?.modelCode);
    expect(model?.variants.find((v) => v.sku === sized?.sku)?.options).toEqual({
      [sized?.optionName as string]: sized?.optionValue,
    });
    const first = catalog[0];
    const plain = products.items.flatMap((p) => p.variants).find((v) => v.sku === first?.sku);
    expect(plain?.barcodes).toEqual([first?.barcode]);
    expect(products.items[0]?.categoryPath).toHaveLength(2);

    session.setStock("STK-000001", "D01", 17);
    const stock = await conn.listStock({ locations: ["D01"] });
    expect(stock.items).toHaveLength(COUNT + 2);
    expect(stock.items.find((s) => s.sku === "STK-000001")).toEqual({
      sku: "STK-000001",
      location: "D01",
      qty: 17,
    });
    expect((await conn.listStockLocations()).map((l) => l.id)).toEqual(["M01", "D01"]);

    session.setPrice("STK-000002", "PSF", 199.9);
    const prices = await conn.listPrices({ priceGroups: ["PSF"] });
    expect(prices.items.find((p) => p.sku === "STK-000002")).toEqual({
      sku: "STK-000002",
      priceGroup: "PSF",
      amount: 199.9,
      currency: "TRY",
      vatIncluded: true,
    });
    expect((await conn.listPriceGroups()).map((g) => [g.id, g.vatIncluded])).toEqual([
      ["PSF", true],
      ["TOPTAN", false],
    ]);
    expect((await conn.listCategories()).items.length).toBeGreaterThan(2);
  });

  it("names the customer's procedure in the error when it does not exist", async () => {
    const e = await caught(connector(session, { productsProc: "sp_Yok" }).listProducts());
    expect(e.reason).toBe("validation");
    expect(e.systemMessage).toBe("Could not find stored procedure 'sp_Yok'.");
  });

  it("writes a retail customer and order once; the same order again is found, not written", async () => {
    const conn = connector(session);
    const o = order("IKAS-1001", ["STK-000003", "K001/04/42"], "05550000001");
    const cust = await conn.createCustomer(o.customer);
    expect(cust).toEqual({ code: "WEB-IKASIKAS1001", existed: false });
    // Found by phone through the doc's sp_GetRetailCustomer the second time.
    expect(await conn.createCustomer(o.customer)).toEqual({ code: "WEB-IKASIKAS1001", existed: true });
    const created = await conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(created).toMatchObject({ ref: "IKAS-1001", existed: false });
    expect(created.documentId).toMatch(/^1-R-1-\d+$/);
    const again = await conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again).toMatchObject({ documentId: created.documentId, existed: true });
    const stored = session.orders.filter((x) => x.DocumentNumber === "IKAS-1001");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.Lines.map((l) => [l.ItemCode, l.ColorCode, l.ItemDim1Code, l.Qty1, l.PriceVI])).toEqual(
      [
        ["STK-000003", "", "", 2, 110],
        ["K001", "04", "42", 2, 110],
      ],
    );
    expect(stored[0]?.WarehouseCode).toBe("M01");
    // The payment goes with the internet order, as live integrations send it (nebim.internet-order-payment).
    expect(stored[0]?.Payments).toEqual([
      { PaymentType: 2, InstallmentCount: 1, CurrencyCode: "TRY", Amount: o.totals.grandTotal },
    ]);
  });

  it("writes a wholesale customer and order (ModelType 2 and 5) when the form says WS", async () => {
    const conn = connector(session, {
      orderType: "WS",
      creditCardTypeCode: "IYZ",
      salesUrl: "www.ornekmagaza.com.tr",
    });
    const o = order("IKAS-2001", ["STK-000004"], "05550000002");
    o.customer.isCompany = true;
    o.customer.companyName = "Demo Tekstil A.Ş.";
    o.customer.taxNumber = "1234567890";
    const cust = await conn.createCustomer(o.customer);
    expect(session.customers.get(cust.code)).toMatchObject({ ModelType: 2, TaxNumber: "1234567890" });
    // No retail-customer lookup for a wholesale order: the same phone again posts (updates) the same code.
    expect(await conn.createCustomer(o.customer)).toEqual({ code: cust.code, existed: false });
    const created = await conn.createSalesOrder({ order: o, customerCode: cust.code, location: "D01" });
    expect(created.documentId).toMatch(/^1-WS-1-\d+$/);
    const ws = session.orders.find((x) => x.DocumentNumber === "IKAS-2001");
    expect(ws?.WarehouseCode).toBe("D01");
    expect(ws?.Payments?.[0]).toMatchObject({
      PaymentType: "2",
      CreditCardTypeCode: "IYZ",
      Amount: o.totals.grandTotal,
    });
  });

  it("keeps the shop's internet-sale data: means, intermediary, payment and dispatch dates; no payment for one at the door", async () => {
    const conn = connector(session, { salesUrl: "www.ornekmagaza.com.tr", creditCardTypeCode: "IYZ" });
    const card = order("IKAS-3001", ["STK-000003"], "05550000031");
    card.payment = { means: "KREDIKARTI/BANKAKARTI", date: "2026-11-16", agent: "iyzico" };
    card.delivery = { carrier: "Aras Kargo", trackingNumber: "ARAS-1", dispatchDate: "2026-11-17" };
    const cod = order("IKAS-3002", ["STK-000003"], "05550000032");
    cod.payment = { means: "KAPIDAODEME" };
    const transfer = order("IKAS-3003", ["STK-000003"], "05550000033");
    transfer.payment = { means: "EFT/HAVALE", date: "2026-11-18" };
    for (const o of [card, cod, transfer]) {
      const cust = await conn.createCustomer(o.customer);
      await conn.createSalesOrder({ order: o, customerCode: cust.code });
    }
    const stored = (no: string) => session.orders.find((x) => x.DocumentNumber === no);
    expect(stored("IKAS-3001")?.OrdersViaInternetInfo).toEqual({
      PaymentTypeCode: 1,
      PaymentTypeDescription: "KREDIKARTI/BANKAKARTI",
      PaymentAgent: "iyzico",
      SalesURL: "www.ornekmagaza.com.tr",
      PaymentDate: "2026-11-16",
      SendDate: "2026-11-17",
    });
    expect(stored("IKAS-3001")?.Payments).toEqual([
      {
        PaymentType: 2,
        CreditCardTypeCode: "IYZ",
        InstallmentCount: 1,
        CurrencyCode: "TRY",
        Amount: card.totals.grandTotal,
      },
    ]);
    // Paid at the door: the PDF's code 3, no payment or dispatch date yet, nothing collected.
    expect(stored("IKAS-3002")?.OrdersViaInternetInfo).toEqual({
      PaymentTypeCode: 3,
      PaymentTypeDescription: "KAPIDAODEME",
      SalesURL: "www.ornekmagaza.com.tr",
    });
    expect(stored("IKAS-3002")?.Payments).toBeUndefined();
    expect(stored("IKAS-3003")?.OrdersViaInternetInfo).toMatchObject({
      PaymentTypeCode: 2,
      PaymentDate: "2026-11-18",
    });
    expect(stored("IKAS-3003")?.Payments).toEqual([
      { PaymentType: 4, InstallmentCount: 1, CurrencyCode: "TRY", Amount: transfer.totals.grandTotal },
    ]);
  });

  it("says which item Nebim does not know", async () => {
    const conn = connector(session);
    const o = order("IKAS-1002", ["STK-999999"], "05550000003");
    const cust = await conn.createCustomer(o.customer);
    const e = await caught(conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.reason).toBe("unknown_item");
    expect(e.itemKeys).toEqual(["IKAS-1002", "STK-999999"]);
  });

  it("connects again when the session idled out, and the resent call carries the new session", async () => {
    const conn = connector(session);
    await conn.testConnection();
    const connects = session.counters.connects;
    session.expireSessions();
    const page = await conn.listStockLocations();
    expect(page.length).toBe(2);
    // One sign-in again: the bodyless Connect that opens the session and the one carrying the credentials.
    expect(session.counters.connects).toBe(connects + 2);
  });

  it("retries reads through 429, 5xx and a timeout", async () => {
    const conn = connector(session);
    session.faults.set({
      hangMs: 1_000,
      retryAfterSeconds: 0,
      queue: [
        { kind: "429", on: "read" },
        { kind: "5xx", on: "read" },
        { kind: "timeout", on: "read" },
      ],
    });
    expect((await conn.listPriceGroups()).length).toBe(2);
    session.faults.clear();
    expect(
      session.counters.faults["429"] + session.counters.faults["5xx"] + session.counters.faults.timeout,
    ).toBe(3);
  });

  it("a dropped order write is found by its number before it would be written again", async () => {
    const conn = connector(session);
    const o = order("IKAS-1003", ["STK-000005"], "05550000004");
    const cust = await conn.createCustomer(o.customer);
    session.faults.set({ hangMs: 1_000, queue: [{ kind: "dropAfterWrite", operation: "Post:6" }] });
    const e = await caught(conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.maybeApplied).toBe(true);
    const again = await conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again.existed).toBe(true);
    expect(session.documentsByOrder().get("IKAS-1003")?.size).toBe(1);
    session.faults.clear();
  });

  it("a deadlock on Post is transient (lock) and not applied", async () => {
    const conn = connector(session, {}, { retry: { maxRetries: 0 } });
    const o = order("IKAS-1004", ["STK-000006"], "05550000005");
    const cust = await conn.createCustomer(o.customer);
    session.faults.set({ queue: [{ kind: "lock", operation: "Post:6" }] });
    const e = await caught(conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.reason).toBe("lock");
    expect(session.documentsByOrder().has("IKAS-1004")).toBe(false);
    expect((await conn.createSalesOrder({ order: o, customerCode: cust.code })).existed).toBe(false);
  });

  it("keeps the password and session ids out of the logs", () => {
    const text = JSON.stringify(logs);
    expect(text).not.toContain(session.credentials.password);
    expect(text).not.toMatch(/\(S\([a-z0-9]{24}\)\)/);
  });
});

describe("Nebim V3 conformance", () => {
  it("every request the connector sent is accepted by the judge derived from the published samples and the runtime rules", () => {
    const report: ConformanceReport = { requests: 0, operations: {}, failures: [] };
    for (const e of emulators) {
      expect(e.recorder.dropped).toBe(0);
      // Each emulator's requests under the rules of the side it played.
      addToReport(
        report,
        judgeWithRules(e.recorder.list(), judgeNebimRequest, NEBIM_RULES, { side: e.side }),
      );
    }
    const refused = emulators.reduce((n, e) => n + e.rules.refused, 0);
    expectConformance("Nebim", report, {
      note: `${NEBIM_RULES.length} runtime rule(s), ${refused} refused by the emulators' rules`,
    });
    expect(refused).toBe(0);
    expect(Object.keys(report.operations)).toEqual(
      expect.arrayContaining([
        "Connect",
        "GetUserInfo",
        "RunProc:sp_GetProducts",
        "RunProc:usp_SAMPLE_GetItemInventoryBulk",
        "RunProc:sp_GetProductPrices",
        "RunProc:sp_GetRetailCustomer",
        "RunProc:sp_GetOrderByDocumentNumber",
        "Post:2",
        "Post:3",
        "Post:5",
        "Post:6",
      ]),
    );
  });
});

describeVersionPin("API version (issue 32)", NEBIM_VERSION_PIN);
