import { describe, expect, it } from "vitest";
import { CallCounter } from "../sdk/logging";
import { billableCalls } from "../sdk/metering";
import { caught, readAllPages } from "../testing/contract";
import { contractSuite, describeVersionPin, expectConformance } from "../testing/contract-suite";
import { judgeRequests } from "../testing/recorder";
import { sampleOrder } from "../testing/sample-order";
import { createDiaConnector } from "./connector";
import { diaDescriptor } from "./descriptor";
import { startDiaEmulator } from "./emulator/server";
import { judgeDiaRequest } from "./judge/requests";
import { DIA_VERSION_PIN } from "./judge/rules";

const COUNT = 120;
const PAGE = 50;
const suite = contractSuite({
  start: () => startDiaEmulator({ seed: 7, productCount: COUNT }),
  connect: (emu, ctx) => createDiaConnector(emu.credentials, ctx),
  context: { batch: { page: PAGE } },
});

describe("DİA connector against its emulator", () => {
  it("logs in and says which firm and period answered", async () => {
    const info = await suite.conn.testConnection();
    expect(info.description).toContain("firma 1, dönem 1");
  });

  it("lists depots, price groups and categories with their paths", async () => {
    expect(await suite.conn.listStockLocations()).toEqual([
      { id: "MERKEZ", name: "Merkez Depo" },
      { id: "SUBE", name: "Şube Deposu" },
    ]);
    const groups = await suite.conn.listPriceGroups();
    expect(groups.map((g) => [g.id, g.vatIncluded])).toEqual([
      ["PSF", true],
      ["TOPTAN", false],
    ]);
    const cats = (await suite.conn.listCategories()).items;
    expect(cats.some((c) => c.path.length === 2)).toBe(true);
  });

  it("reads the catalogue in full, then only what changed; nothing changed costs one page", async () => {
    const counter = new CallCounter();
    const c = createDiaConnector(suite.emu.credentials, suite.ctx({ counter }));
    const full = await readAllPages((t) => c.listProducts({ pageToken: t }));
    expect(full.items).toHaveLength(COUNT);
    expect(new Set(full.items.map((p) => p.sku)).size).toBe(COUNT);
    const first = full.items[0];
    expect(first?.categoryPath.length).toBe(2);
    expect(first?.variants[0]?.barcodes[0]).toMatch(/^86[89]\d{10}$/);
    const fullCalls = billableCalls(
      diaDescriptor.metering ?? { kind: "credit" },
      "dia",
      counter.get("dia"),
      counter.byOperation(),
    );

    counter.reset();
    const none = await readAllPages((t) => c.listProducts({ since: full.cursor, pageToken: t }));
    expect(none.pages).toBeLessThanOrEqual(2);
    const deltaCalls = counter.get("dia").read;
    expect(deltaCalls).toBeLessThanOrEqual(2);

    suite.emu.touchProduct("STK-000007", { aciklama: "Yeni Ad" });
    suite.emu.touchProduct("STK-000100");
    counter.reset();
    const changed = await readAllPages((t) => c.listProducts({ since: full.cursor, pageToken: t }));
    expect(changed.items.map((p) => p.sku)).toEqual(expect.arrayContaining(["STK-000007", "STK-000100"]));
    expect(changed.items.find((p) => p.sku === "STK-000007")?.name).toBe("Yeni Ad");
    expect(changed.items.length).toBeLessThan(10);
    console.log(
      `DİA calls per product run (catalogue ${COUNT}, page ${PAGE}): full ${fullCalls.read} billable reads, ` +
        `nothing changed ${deltaCalls} (${none.pages} page), 2 changed ${counter.get("dia").read}`,
    );
  });

  it("pages a delta read where many rows share one change date without repeats or gaps", async () => {
    const c = createDiaConnector(
      suite.emu.credentials,
      suite.ctx({ counter: new CallCounter(), batch: { page: 7 } }),
    );
    const full = await readAllPages((t) => c.listProducts({ pageToken: t }));
    for (const sku of [
      "STK-000010",
      "STK-000011",
      "STK-000012",
      "STK-000013",
      "STK-000014",
      "STK-000015",
      "STK-000016",
      "STK-000017",
      "STK-000018",
      "STK-000019",
    ])
      suite.emu.touchProduct(sku);
    const delta = await readAllPages((t) => c.listProducts({ since: full.cursor, pageToken: t }));
    const skus = delta.items.map((p) => p.sku);
    expect(new Set(skus).size).toBe(skus.length);
    for (let i = 10; i <= 19; i++) expect(skus).toContain(`STK-0000${i}`);
  });

  it("reads stock per depot and prices per group, prices by change date", async () => {
    suite.emu.setStock("STK-000003", 102, 42);
    const stock = await readAllPages((t) => suite.conn.listStock({ pageToken: t }));
    expect(stock.items).toHaveLength(COUNT * 2);
    expect(stock.items.find((s) => s.sku === "STK-000003" && s.location === "SUBE")?.qty).toBe(42);
    const one = await readAllPages((t) => suite.conn.listStock({ pageToken: t, locations: ["MERKEZ"] }));
    expect(one.items.every((s) => s.location === "MERKEZ")).toBe(true);

    const prices = await readAllPages((t) => suite.conn.listPrices({ pageToken: t }));
    expect(prices.items).toHaveLength(COUNT * 2);
    const retail = prices.items.find((p) => p.priceGroup === "PSF");
    expect(retail?.vatIncluded).toBe(true);
    expect(retail?.currency).toBe("TRY");
    suite.emu.setPrice("STK-000004", "PSF", 199.9);
    const delta = await readAllPages((t) => suite.conn.listPrices({ since: prices.cursor, pageToken: t }));
    expect(delta.items.find((p) => p.sku === "STK-000004" && p.priceGroup === "PSF")?.amount).toBe(199.9);
    expect(delta.items.length).toBeLessThan(10);
  });

  it("creates a customer once, writes an order once and reads back its invoice", async () => {
    const o = sampleOrder("IKAS-1001", ["STK-000001", "STK-000002"]);
    const cust = await suite.conn.createCustomer(o.customer);
    expect(cust.existed).toBe(false);
    expect((await suite.conn.createCustomer(o.customer)).existed).toBe(true);
    expect(cust.code.length).toBeLessThanOrEqual(25);

    const created = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(created.existed).toBe(false);
    const again = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again).toMatchObject({ existed: true, documentId: created.documentId });
    expect(suite.emu.tables.scf_siparis_listele?.filter((r) => r.belgeno === "IKAS-1001")).toHaveLength(1);

    expect(await suite.conn.listInvoicesForOrder("IKAS-1001")).toEqual([]);
    suite.emu.invoiceOrder("IKAS-1001");
    const [inv] = await suite.conn.listInvoicesForOrder("IKAS-1001");
    expect(inv?.lines.map((l) => l.sku)).toEqual(["STK-000001", "STK-000002"]);
    expect(inv?.totals.gross).toBeCloseTo(480, 1);
    expect(inv?.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("names the unknown stock card of an order as a permanent unknown-item failure", async () => {
    const o = sampleOrder("IKAS-1002", ["STK-000001", "YOK-999"]);
    const cust = await suite.conn.createCustomer(o.customer);
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.reason).toBe("unknown_item");
    expect(e.itemKeys).toEqual(["IKAS-1002", "YOK-999"]);
  });

  it("maps wrong credentials to auth and a firm the user lacks to config, both permanent", async () => {
    const bad = createDiaConnector({ ...suite.emu.credentials, password: "yanlis" }, suite.ctx());
    const e = await caught(bad.testConnection());
    expect([e.reason, e.kind, e.systemCode]).toEqual(["auth", "permanent", "401"]);
    const firm = createDiaConnector({ ...suite.emu.credentials, firmCode: "9" }, suite.ctx());
    const f = await caught(firm.testConnection());
    expect(f.reason).toBe("config");
    expect(f.merchantMessage).toContain("9 kodlu firma");
  });

  it("logs in again when the session idles out and goes on", async () => {
    const before = suite.emu.counters.logins;
    suite.emu.expireSessions();
    const page = await suite.conn.listProducts({ pageSize: 5 });
    expect(page.items).toHaveLength(5);
    expect(suite.emu.counters.logins).toBe(before + 1);
  });

  it("stops on an empty kontör balance with a Turkish explanation", async () => {
    const poor = await startDiaEmulator({ seed: 3, productCount: 5, credits: 0.0125 });
    try {
      const c = createDiaConnector(poor.credentials, suite.ctx());
      await c.listPriceGroups();
      const e = await caught(c.listPriceGroups());
      expect([e.reason, e.systemCode]).toEqual(["config", "406"]);
      expect(e.merchantMessage).toContain("kontör");
    } finally {
      suite.judged.push(...poor.recorder.list());
      await poor.close();
    }
  });
});

describe("DİA faults map to the right failure class", () => {
  it("retries a 5xx and a timeout on a read", async () => {
    suite.emu.faults.enqueue({ kind: "5xx", operation: "scf_fiyatgrup_listele" });
    expect(await suite.conn.listPriceGroups()).toHaveLength(2);
    suite.emu.faults.enqueue({ kind: "timeout", operation: "scf_fiyatgrup_listele" });
    suite.emu.faults.set({ ...suite.emu.faults.current, hangMs: 1_000 });
    expect(await suite.conn.listPriceGroups()).toHaveLength(2);
  });

  it("honours 429 with Retry-After", async () => {
    suite.emu.faults.set({
      retryAfterSeconds: 1,
      queue: [{ kind: "429", operation: "scf_fiyatgrup_listele" }],
    });
    const t0 = Date.now();
    expect(await suite.conn.listPriceGroups()).toHaveLength(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });

  it("a timed-out order write is maybe applied, and the retry finds the order instead of writing twice", async () => {
    const o = sampleOrder("IKAS-1003", ["STK-000005"]);
    const cust = await suite.conn.createCustomer(o.customer);
    suite.emu.faults.set({
      hangMs: 1_000,
      queue: [{ kind: "dropAfterWrite", operation: "scf_siparis_ekle" }],
    });
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.maybeApplied).toBe(true);
    const again = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again.existed).toBe(true);
    expect(suite.emu.tables.scf_siparis_listele?.filter((r) => r.belgeno === "IKAS-1003")).toHaveLength(1);
  });

  it("keeps the password, API key and session ids out of the suite.logs", () => {
    const text = JSON.stringify(suite.logs);
    expect(text).not.toContain(suite.emu.credentials.password);
    expect(text).not.toContain(suite.emu.credentials.apiKey);
    expect(text).not.toMatch(/"session_id":"[0-9a-f]{32}"/);
  });
});

describe("DİA conformance", () => {
  it("every request the connector sent matches the doc's envelope and the service table", () => {
    const requests = [...suite.judged, ...suite.emu.recorder.list()];
    expect(suite.emu.recorder.dropped).toBe(0);
    expectConformance("DİA", judgeRequests(requests, judgeDiaRequest), { operations: 10 });
  });
});

describeVersionPin("API version (issue 32)", DIA_VERSION_PIN);
