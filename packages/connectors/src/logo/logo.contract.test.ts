import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext } from "../sdk/connector";
import type { Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, readAllPages, testContext } from "../testing/contract";
import { describeVersionPin } from "../testing/contract-suite";
import { describeFailures, judgeRequests, type RecordedRequest } from "../testing/recorder";
import { sampleOrder } from "../testing/sample-order";
import { LogoConnector } from "./connector";
import { logoRestDescriptor, logoTigerDescriptor } from "./descriptor";
import { type LogoRestEmulator, startLogoRestEmulator } from "./emulator/rest";
import { LogoSqlEmulator } from "./emulator/sql";
import { judgeLogoRestRequest } from "./judge/rest";
import { LOGO_VERSION_PIN } from "./judge/rules";
import { judgeLogoSql, type RecordedSql } from "./judge/sql";
import { REST_NOT_CONFIGURED, REST_NOT_LICENSED } from "./rest";

const COUNT = 60;
let clock = Date.parse("2026-11-20T09:00:00Z");
const now = () => clock;
let sql: LogoSqlEmulator;
let rest: LogoRestEmulator;
const store = new InMemoryRateLimitStore();
const restJudged: RecordedRequest[] = [];
const sqlJudged: RecordedSql[] = [];

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return testContext(store, undefined, {
    budget: { requests: 500, windowMs: 1000 },
    timeoutMs: 500,
    now,
    // The SQL emulator at the connector's SQL seam (the agent's relay carries the same handler).
    sql: sql.transport(),
    ...over,
  });
}

const creds = (over: Record<string, string> = {}) => ({ ...rest.credentials, sqlAlias: "logo", ...over });
const conn = (over: Record<string, string> = {}, c: Partial<ConnectorContext> = {}, d = logoRestDescriptor) =>
  new LogoConnector(d, creds(over), ctx(c));

const order = (no: string, skus: string[]): Order =>
  sampleOrder(no, skus, {
    address: { line1: "Atatürk Mahallesi, Cumhuriyet Caddesi No: 5" },
    createdAt: "2026-11-15T21:30:00.000Z",
    customer: { ref: `ikas-${no}`, email: undefined },
    line: () => ({ qty: 3, unitPrice: 100 }),
    shipping: { cost: 29.9, method: "Yurtiçi Kargo" },
  });

beforeAll(async () => {
  sql = await LogoSqlEmulator.start({ seed: 21, productCount: COUNT, now });
  rest = await startLogoRestEmulator({
    seed: 21,
    itemCodes: sql.items.map((i) => i.code),
    faults: { hangMs: 800 },
  });
}, 60_000); // PGlite's first start (wasm + initdb) takes seconds on a busy machine

afterAll(async () => {
  restJudged.push(...rest.recorder.list());
  sqlJudged.push(...sql.recorded);
  const restReport = judgeRequests(restJudged, judgeLogoRestRequest);
  const sqlReport = judgeRequests(
    sqlJudged.map((q) => ({ at: 0, method: "SQL", path: q.text, query: {}, headers: {}, body: q.params })),
    (r) => {
      const v = judgeLogoSql({ text: r.path, params: r.body as Record<string, unknown> }, { firm: 1 });
      // Period tables of a period the emulated firm does not have are a failure too.
      const period = /LV_\d{3}_(\d{2})_/.exec(r.path)?.[1];
      if (period && !sql.periods.some((p) => p.nr === Number(period))) v.problems.push(`no period ${period}`);
      return v;
    },
  );
  console.info(
    `logo conformance: REST ${restReport.requests} requests / ${Object.keys(restReport.operations).length} operations, ${restReport.failures.length} rejected; SQL ${sqlReport.requests} statements / ${Object.keys(sqlReport.operations).length} shapes, ${sqlReport.failures.length} rejected`,
  );
  await rest.close();
  await sql.close();
  expect(describeFailures(restReport)).toBe("");
  expect(describeFailures(sqlReport)).toBe("");
  expect(restReport.requests).toBeGreaterThan(20);
  expect(sqlReport.requests).toBeGreaterThan(20);
});

describe("Logo connector: reads over SQL (the emulator at the SQL seam)", () => {
  it("tests the connection: firm name, detected period, REST grant (and gives the token back)", async () => {
    const revokes = rest.counters.revokes;
    const info = await conn().testConnection();
    expect(info.firm).toBe("1");
    expect(info.period).toBe("1");
    expect(info.description).toContain("ÖRNEK TİCARET A.Ş.");
    expect(info.description).toContain("REST servisi: giriş başarılı");
    expect(rest.counters.revokes).toBe(revokes + 1);
  });

  it("reads every item with barcodes, brand, unit and group, in pages; the other firm's item never", async () => {
    const c = conn({}, { batch: { page: 25 } });
    const full = await readAllPages((t) => c.listProducts({ pageToken: t }));
    expect(full.pages).toBe(3);
    expect(full.items).toHaveLength(COUNT);
    expect(full.items.some((p) => p.sku === "BASKA-FIRMA-1")).toBe(false);
    const first = sql.items[0];
    const p0 = full.items.find((p) => p.sku === first?.code);
    expect(p0?.variants[0]?.barcodes[0]).toBe(first?.barcode);
    expect(p0?.variants[0]?.barcodes).toHaveLength(2); // item 1 has a second barcode line
    expect(p0?.brand).toBeTruthy();
    expect(p0?.categoryPath).toHaveLength(1);
    expect(full.items.filter((p) => !p.isActive).length).toBeGreaterThan(0);
    expect(full.cursor).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("reads only what changed since the cursor (day granularity: that day is read again)", async () => {
    const c = conn();
    clock = Date.parse("2026-11-21T09:00:00Z");
    const since = "2026-11-21";
    const before = await readAllPages((t) => c.listProducts({ since, pageToken: t }));
    const target = sql.items[10]?.code as string;
    await sql.touchItem(target, { NAME: "Yeni adı" });
    const delta = await readAllPages((t) => c.listProducts({ since, pageToken: t }));
    expect(delta.items.map((p) => p.sku)).toContain(target);
    expect(delta.items.find((p) => p.sku === target)?.name).toBe("Yeni adı");
    expect(delta.items.length).toBe(before.items.length + 1);
    expect(delta.items.length).toBeLessThan(COUNT);
    expect(delta.cursor).toBe("2026-11-21");
  });

  it("reads stock per warehouse from the active period's view, summing its rows", async () => {
    const c = conn({}, { batch: { page: 25 } });
    const stock = await readAllPages((t) => c.listStock({ pageToken: t }));
    expect(stock.items).toHaveLength(COUNT * 3);
    for (const item of sql.items.slice(0, 12)) {
      for (const wh of [0, 1, 2]) {
        const row = stock.items.find((s) => s.sku === item.code && s.location === String(wh));
        expect(row?.qty, `${item.code}@${wh}`).toBe((item.ref * 7 + wh * 3) % 23);
      }
    }
    const only = await readAllPages((t) => c.listStock({ locations: ["1"], pageToken: t }));
    expect(new Set(only.items.map((s) => s.location))).toEqual(new Set(["1"]));
    const locations = await c.listStockLocations();
    expect(locations.map((l) => l.id)).toEqual(["0", "1", "2"]);
  });

  it("reads sales price cards by priority (purchase prices never), with their VAT flag", async () => {
    const c = conn();
    const groups = await c.listPriceGroups();
    expect(groups.map((g) => g.id)).toEqual(["1", "2"]);
    const prices = await readAllPages((t) => c.listPrices({ pageToken: t }));
    expect(prices.items).toHaveLength(COUNT * 2);
    const item = sql.items[3];
    const retail = prices.items.find((p) => p.sku === item?.code && p.priceGroup === "1");
    expect(retail).toMatchObject({ amount: item?.retail, currency: "TRY", vatIncluded: true });
    const wholesale = await readAllPages((t) => c.listPrices({ priceGroups: ["2"], pageToken: t }));
    expect(wholesale.items.every((p) => p.priceGroup === "2" && !p.vatIncluded)).toBe(true);
    await sql.setPrice(item?.code as string, 1, 999.9);
    const changed = await readAllPages((t) => c.listPrices({ since: "2026-11-21", pageToken: t }));
    expect(changed.items.find((p) => p.sku === item?.code && p.priceGroup === "1")?.amount).toBe(999.9);
    expect(changed.items.length).toBeLessThan(prices.items.length);
    const categories = await c.listCategories();
    expect(categories.items.length).toBeGreaterThan(1);
  });

  it("follows a year-end rollover: stock from the new period, the item cursor kept", async () => {
    const c = conn();
    const full = await readAllPages((t) => c.listProducts({ pageToken: t }));
    const cursor = full.cursor as string;
    clock = Date.parse("2027-01-02T08:00:00Z");
    const nr = await sql.rollover("2027-01-01", "2027-12-31");
    expect(nr).toBe(2);
    const target = sql.items[5]?.code as string;
    await sql.setStock(target, 0, 77);
    await sql.touchItem(sql.items[6]?.code as string);
    const after = conn();
    expect((await after.activePeriod()).nr).toBe(2);
    const stock = await readAllPages((t) => after.listStock({ locations: ["0"], pageToken: t }));
    expect(stock.items.find((s) => s.sku === target)?.qty).toBe(77);
    expect(sql.recorded.at(-1)?.text).toContain("LV_001_02_STINVTOT");
    const delta = await readAllPages((t) => after.listProducts({ since: cursor, pageToken: t }));
    expect(delta.items.map((p) => p.sku)).toContain(sql.items[6]?.code);
    expect(delta.cursor).toBe("2027-01-02");
    // A configured period wins over detection (reading last year's stock on purpose).
    const pinned = conn({ periodNo: "1" });
    expect((await pinned.activePeriod()).nr).toBe(1);
    const old = await readAllPages((t) => pinned.listStock({ locations: ["0"], pageToken: t }));
    expect(old.items.find((s) => s.sku === target)?.qty).not.toBe(77);
    const missing = await caught(conn({ periodNo: "9" }).activePeriod());
    expect(missing.reason).toBe("config");
    expect(missing.merchantMessage).toContain("9 numaralı dönemi yok");
  });

  it("turns database failures into classified errors", async () => {
    const c = conn();
    sql.faults.push("timeout");
    expect((await caught(c.listStockLocations())).reason).toBe("timeout");
    sql.faults.push("deadlock");
    const lock = await caught(c.listStockLocations());
    expect([lock.reason, lock.kind]).toEqual(["lock", "transient"]);
    sql.faults.push("lost");
    expect((await caught(c.listStockLocations())).kind).toBe("transient");
    const noFirm = await caught(conn({ firmNo: "5" }).testConnection());
    expect(noFirm.merchantMessage).toContain("5 numaralı firma yok");
    const firebird = await caught(conn({ sqlDialect: "firebird" }).listProducts());
    expect(firebird.merchantMessage).toContain("SQL Server");
    // The agent runs statements with its alias's own driver: a transport labelled otherwise still reads.
    const relabelled = { ...sql.transport(), dialect: "firebird" as const };
    expect((await conn({}, { sql: relabelled }).listStockLocations()).length).toBe(3);
    const noSql = await caught(conn({}, { sql: undefined }).listProducts());
    expect(noSql.merchantMessage).toContain("Veritabanı takma adı");
  });
});

describe("Logo connector: writes through the REST service", () => {
  it("finds or creates the customer card, then writes the order once", async () => {
    const c = conn();
    const o = order("IK-1001", [sql.items[0]?.code as string, sql.items[1]?.code as string]);
    const customer = await c.createCustomer(o.customer);
    expect(customer.existed).toBe(false);
    expect(customer.code.length).toBeLessThanOrEqual(17);
    expect((await c.createCustomer(o.customer)).existed).toBe(true);
    expect(rest.arps.filter((a) => a.CODE === customer.code)).toHaveLength(1);
    const created = await c.createSalesOrder({ order: o, customerCode: customer.code });
    expect(created).toMatchObject({ ref: "IK-1001", existed: false });
    expect(created.documentId).toMatch(/^SS\d{6}$/);
    const again = await c.createSalesOrder({ order: o, customerCode: customer.code });
    expect(again).toMatchObject({ documentId: created.documentId, existed: true });
    const stored = rest.orders.filter((r) => r.DOC_TRACK_NR === "IK-1001");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.DATE).toBe("2026-11-16T00:00:00"); // Istanbul day of 21:30 UTC
    expect((stored[0]?.TRANSACTIONS as { items: unknown[] } | undefined)?.items).toHaveLength(2);
    expect(stored[0]?.NOTES2).toBe("Kargo: 29.90 TRY");
    // With a shipping service card configured, the cost is a service line (TYPE 4) instead of a note.
    const withShipping = conn({ shippingCode: "KARGO" });
    const o2 = order("IK-1001-K", [sql.items[0]?.code as string]);
    await withShipping.createSalesOrder({ order: o2, customerCode: customer.code });
    const k = rest.orders.find((r) => r.DOC_TRACK_NR === "IK-1001-K");
    expect((k?.TRANSACTIONS as { items: Record<string, unknown>[] } | undefined)?.items.at(-1)).toMatchObject(
      {
        TYPE: 4,
        MASTER_CODE: "KARGO",
        QUANTITY: 1,
        PRICE: 29.9,
      },
    );
    expect(k?.NOTES2).toBeUndefined();
  });

  it("a write whose answer is lost is found by our order number, never written twice", async () => {
    const c = conn();
    const o = order("IK-1002", [sql.items[2]?.code as string]);
    const { code } = await c.createCustomer(o.customer);
    rest.faults.enqueue({ kind: "dropAfterWrite", operation: "POST salesOrders" });
    const lost = await caught(c.createSalesOrder({ order: o, customerCode: code }));
    expect(lost.maybeApplied).toBe(true);
    const retried = await c.createSalesOrder({ order: o, customerCode: code });
    expect(retried.existed).toBe(true);
    // A write that hangs before the service takes it: unknown to us, so looked up first, then written once.
    rest.faults.enqueue({ kind: "timeout", operation: "POST salesOrders" });
    const o3 = order("IK-1003", [sql.items[2]?.code as string]);
    expect((await caught(c.createSalesOrder({ order: o3, customerCode: code }))).maybeApplied).toBe(true);
    expect((await c.createSalesOrder({ order: o3, customerCode: code })).existed).toBe(false);
    for (const no of ["IK-1002", "IK-1003"])
      expect(rest.orders.filter((r) => r.DOC_TRACK_NR === no)).toHaveLength(1);
  });

  it("rides out 429 with Retry-After, 5xx and a hanging read; an expired token gets one new grant", async () => {
    const c = conn();
    rest.faults.enqueue({ kind: "429", operation: "GET salesOrders" });
    rest.faults.enqueue({ kind: "5xx", operation: "GET salesOrders" });
    rest.faults.enqueue({ kind: "timeout", operation: "GET salesOrders" });
    expect(await c.findOrderByRef("IK-1001")).toMatchObject({ existed: true });
    const grants = rest.counters.grants;
    rest.expireTokens();
    expect(await c.findOrderByRef("IK-1001")).toMatchObject({ existed: true });
    expect(rest.counters.grants).toBe(grants + 1);
    expect(rest.counters.authFailures).toBeGreaterThan(0);
  });

  it("refuses an order naming an item Logo does not have, as an unknown item", async () => {
    const c = conn();
    const o = order("IK-1004", ["YOK-BOYLE-BIR-KOD"]);
    const { code } = await c.createCustomer(o.customer);
    const e = await caught(c.createSalesOrder({ order: o, customerCode: code }));
    expect([e.reason, e.kind]).toEqual(["unknown_item", "permanent"]);
    expect(e.itemKeys).toEqual(["IK-1004", "YOK-BOYLE-BIR-KOD"]);
  });

  it("says so when the REST service is not licensed, offering the generic SQL / file route", async () => {
    for (const status of [401, 403, 404] as const) {
      rest.setNotLicensed(status);
      const e = await caught(conn().testConnection());
      expect([e.reason, e.merchantMessage]).toEqual(["config", REST_NOT_LICENSED]);
    }
    rest.setNotLicensed(403);
    // Type 11 reads over SQL: the test passes and names the route for orders.
    const tiger = await conn({}, {}, logoTigerDescriptor).testConnection();
    expect(tiger.details?.restLicensed).toBe(false);
    expect(tiger.description).toContain("genel SQL / dosya yolunu");
    const refused = await caught(
      conn().createSalesOrder({ order: order("IK-1005", [sql.items[0]?.code as string]), customerCode: "X" }),
    );
    expect(refused.merchantMessage).toBe(REST_NOT_LICENSED);
    rest.setNotLicensed(false);
    const noRest = new LogoConnector(logoTigerDescriptor, { firmNo: "1", sqlAlias: "logo" }, ctx());
    expect((await noRest.testConnection()).description).toContain("REST servisi tanımlı değil");
    const e = await caught(noRest.createCustomer(order("IK-1006", []).customer));
    expect([e.reason, e.merchantMessage]).toEqual(["config", REST_NOT_CONFIGURED]);
    const wrong = await caught(conn({ password: "yanlis" }).findOrderByRef("X"));
    expect(wrong.reason).toBe("auth");
  });
});

describeVersionPin("API version (issue 32)", LOGO_VERSION_PIN);
