import { describe, expect, it } from "vitest";
import { CallCounter } from "../sdk/logging";
import type { Order } from "../sdk/model";
import { caught, readAllPages } from "../testing/contract";
import { contractSuite, describeVersionPin, expectConformance } from "../testing/contract-suite";
import { judgeRequests } from "../testing/recorder";
import { sampleOrder } from "../testing/sample-order";
import { createIsbasiConnector } from "./connector";
import { startIsbasiEmulator } from "./emulator/server";
import { judgeIsbasiRequest } from "./judge/requests";
import { ISBASI_VERSION_PIN } from "./judge/rules";

const COUNT = 250;
const order = (no: string, skus: string[], postalCode = "34710"): Order =>
  sampleOrder(no, skus, {
    address: {
      firstName: "Mehmet",
      lastName: "Demir",
      line1: "Bahçelievler Mahallesi, İnönü Caddesi No: 12 D: 4",
      district: "Çankaya",
      city: "Ankara",
      postalCode,
      phone: "05051234567",
    },
    customer: { ref: `ikas-${no}`, email: undefined },
    line: (sku) => ({ name: `Ürün ${sku}` }),
    shipping: { cost: 39.9, method: "Aras Kargo" },
  });

const suite = contractSuite({
  start: () => startIsbasiEmulator({ seed: 11, productCount: COUNT }),
  connect: (emu, ctx) => createIsbasiConnector(emu.credentials, ctx),
});

describe("Logo İşbaşı connector against its emulator", () => {
  it("logs in with the API key and names the tenant", async () => {
    const info = await suite.conn.testConnection();
    expect(info.firm).toBe(suite.emu.tenantId);
    expect(info.description).toContain("giriş başarılı");
  });

  it("reads the catalogue in full, then only what changed; nothing changed costs one page", async () => {
    const counter = new CallCounter();
    const c = createIsbasiConnector(suite.emu.credentials, suite.ctx({ counter }));
    const full = await readAllPages((t) => c.listProducts({ pageToken: t }));
    expect(full.items).toHaveLength(COUNT);
    expect(full.items[0]?.variants[0]?.barcodes[0]).toMatch(/^86[89]\d{10}$/);
    const fullReads = counter.get("logo-isbasi").read;
    counter.reset();
    const none = await readAllPages((t) => c.listProducts({ since: full.cursor, pageToken: t }));
    expect(none.pages).toBeLessThanOrEqual(2);
    const noneReads = counter.get("logo-isbasi").read;
    expect(noneReads).toBeLessThanOrEqual(2);
    suite.emu.touchProduct("STK-000042", { name: "Yeni Ürün Adı" });
    counter.reset();
    const changed = await readAllPages((t) => c.listProducts({ since: full.cursor, pageToken: t }));
    expect(changed.items.find((p) => p.sku === "STK-000042")?.name).toBe("Yeni Ürün Adı");
    console.log(
      `İşbaşı calls per product run (catalogue ${COUNT}, page 100): full ${fullReads} reads (incl. 1 login), ` +
        `nothing changed ${noneReads} (${none.pages} page), 1 changed ${counter.get("logo-isbasi").read}`,
    );
  });

  it("reads sales prices with VAT from the products and names the categories", async () => {
    const prices = await readAllPages((t) => suite.conn.listPrices({ pageToken: t }));
    expect(prices.items).toHaveLength(COUNT);
    expect(prices.items.every((p) => p.priceGroup === "1" && p.vatIncluded && p.currency === "TRY")).toBe(
      true,
    );
    expect((await suite.conn.listPriceGroups())[0]?.id).toBe("1");
    expect((await suite.conn.listCategories()).items.length).toBeGreaterThan(1);
  });

  it("says in Turkish that stock per warehouse is not in the API", async () => {
    const e = await caught(suite.conn.listStock());
    expect([e.reason, e.kind]).toEqual(["unsupported", "permanent"]);
    expect(e.merchantMessage).toContain("depo bazında");
    expect(await suite.conn.listStockLocations()).toEqual([]);
  });

  it("creates the customer once and writes the order once, as a draft invoice read back with its ETTN", async () => {
    const o = order("IKAS-2001", ["STK-000001", "STK-000002"]);
    const cust = await suite.conn.createCustomer(o.customer);
    expect(cust.existed).toBe(false);
    expect((await suite.conn.createCustomer(o.customer)).existed).toBe(true);
    expect(suite.emu.firms[0]?.phone).toBe("05051234567");
    const created = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    const again = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again).toMatchObject({ existed: true, documentId: created.documentId });
    expect(suite.emu.invoices).toHaveLength(1);
    const [inv] = await suite.conn.listInvoicesForOrder("IKAS-2001");
    expect(inv?.number).toMatch(/^REE2026\d{9}$/);
    expect(inv?.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(inv?.totals.gross).toBeCloseTo(519.9, 1);
    expect(inv?.lines.map((l) => l.sku)).toEqual(["STK-000001", "STK-000002", "KARGO"]);
  });

  it("refuses an order without a postal code before spending quota", async () => {
    const o = order("IKAS-2002", ["STK-000003"], "");
    const before = suite.emu.counters.quotaWrites;
    const e = await caught(suite.conn.createCustomer(o.customer));
    expect(e.reason).toBe("validation");
    expect(e.merchantMessage).toContain("posta kodu");
    expect(suite.emu.counters.quotaWrites).toBe(before);
  });

  it("maps a wrong password to a permanent auth failure", async () => {
    const bad = createIsbasiConnector({ ...suite.emu.credentials, password: "yanlis" }, suite.ctx());
    const e = await caught(bad.testConnection());
    expect([e.reason, e.kind]).toEqual(["auth", "permanent"]);
  });

  it("logs in again when the day-long token runs out", async () => {
    const before = suite.emu.counters.logins;
    suite.emu.expireTokens();
    expect((await suite.conn.listProducts({ pageSize: 5 })).items.length).toBeGreaterThan(0);
    expect(suite.emu.counters.logins).toBe(before + 1);
  });
});

describe("Logo İşbaşı faults and quota", () => {
  it("retries a 5xx and a timeout on a read, honours 429 with Retry-After", async () => {
    suite.emu.faults.enqueue({ kind: "5xx", operation: "listProducts" });
    expect((await suite.conn.listProducts()).items.length).toBe(100);
    suite.emu.faults.set({ hangMs: 1_000, queue: [{ kind: "timeout", operation: "listProducts" }] });
    expect((await suite.conn.listProducts()).items.length).toBe(100);
    suite.emu.faults.set({ retryAfterSeconds: 1, queue: [{ kind: "429", operation: "listProducts" }] });
    const t0 = Date.now();
    expect((await suite.conn.listProducts()).items.length).toBe(100);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });

  it("a dropped invoice write is maybe applied; the retry finds it instead of writing twice", async () => {
    const o = order("IKAS-2003", ["STK-000004"]);
    const cust = await suite.conn.createCustomer(o.customer);
    suite.emu.faults.set({ queue: [{ kind: "dropAfterWrite", operation: "integrationInvoices" }] });
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.maybeApplied).toBe(true);
    expect((await suite.conn.createSalesOrder({ order: o, customerCode: cust.code })).existed).toBe(true);
    expect(suite.emu.invoices.filter((i) => i.description === "E-ticaret sipariş no IKAS-2003")).toHaveLength(
      1,
    );
  });

  it("stops with a Turkish explanation when the monthly quota is used up", async () => {
    const small = await startIsbasiEmulator({ seed: 2, productCount: 5, quota: { read: 1, write: 1 } });
    try {
      const c = createIsbasiConnector(small.credentials, suite.ctx());
      await c.listProducts();
      const e = await caught(c.listProducts());
      expect(e.reason).toBe("rate_limited");
      expect(e.merchantMessage).toContain("kotası doldu");
    } finally {
      suite.judged.push(...small.recorder.list());
      await small.close();
    }
  });

  it("keeps the password, API key and token out of the suite.logs", () => {
    const text = JSON.stringify(suite.logs);
    expect(text).not.toContain(suite.emu.credentials.password);
    expect(text).not.toContain(suite.emu.credentials.apiKey);
  });
});

describe("Logo İşbaşı conformance", () => {
  it("every request the connector sent matches the artifact's endpoints, headers and bodies", () => {
    const report = judgeRequests([...suite.judged, ...suite.emu.recorder.list()], judgeIsbasiRequest);
    expect(suite.emu.recorder.dropped).toBe(0);
    expectConformance("İşbaşı", report, { operations: 7 });
    expect(Object.keys(report.operations)).toHaveLength(7);
  });
});

describeVersionPin("API version (issue 32)", ISBASI_VERSION_PIN);
