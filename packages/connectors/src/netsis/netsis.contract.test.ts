import { describe, expect, it } from "vitest";
import { CallCounter } from "../sdk/logging";
import type { Order } from "../sdk/model";
import { caught, readAllPages } from "../testing/contract";
import { contractSuite, describeVersionPin, expectConformance } from "../testing/contract-suite";
import { judgeWithRules } from "../testing/runtime-rules";
import { sampleOrder } from "../testing/sample-order";
import { createNetsisConnector } from "./connector";
import { startNetsisEmulator } from "./emulator/server";
import { judgeNetsisRequest } from "./judge/requests";
import { NETSIS_RULES, NETSIS_VERSION_PIN } from "./judge/rules";

const COUNT = 120;
const PAGE = 50;
const order = (no: string, skus: string[], ref = "ikas-C000123"): Order =>
  sampleOrder(no, skus, { customer: { ref, taxNumber: "10000000146" } });

const suite = contractSuite({
  start: () => startNetsisEmulator({ seed: 7, productCount: COUNT }),
  connect: (emu, ctx) => createNetsisConnector(emu.credentials, ctx),
  context: { budget: { requests: 500, windowMs: 1000 }, batch: { page: PAGE } },
});

describe("Netsis connector against its emulator", () => {
  it("logs in with branch and company and says what answered", async () => {
    const info = await suite.conn.testConnection();
    expect(info.description).toBe("Netsis: DEMO2026 (şube 0), 2 depo");
    expect(suite.emu.counters.logins).toBe(1);
  });

  it("lists depots, price groups and item groups", async () => {
    expect(await suite.conn.listStockLocations()).toEqual([
      { id: "1", name: "Merkez Depo" },
      { id: "2", name: "Şube Deposu" },
    ]);
    expect((await suite.conn.listPriceGroups()).map((g) => g.id)).toEqual(["1", "2", "3", "4"]);
    const cats = (await suite.conn.listCategories()).items;
    expect(cats.length).toBeGreaterThan(1);
    expect(cats.every((c) => c.path.length === 1 && c.name !== "")).toBe(true);
  });

  it("reads every stock card in pages, with group, barcode and VAT", async () => {
    const full = await readAllPages((t) => suite.conn.listProducts({ pageToken: t }));
    expect(full.items).toHaveLength(COUNT);
    expect(new Set(full.items.map((p) => p.sku)).size).toBe(COUNT);
    expect(full.pages).toBe(Math.ceil(COUNT / PAGE) + (COUNT % PAGE === 0 ? 1 : 0));
    const first = full.items[0];
    expect(first?.categoryPath).toHaveLength(1);
    expect(first?.variants[0]?.barcodes[0]).toMatch(/^86[89]\d{10}$/);
    expect([0, 1, 10, 20]).toContain(first?.vatRate);
    expect(first?.updatedAt).toMatch(/\+03:00$/);
  });

  it("reads stock per depot (in − out) and prices per group", async () => {
    suite.emu.setStock("STK-000003", 2, 42);
    const stock = await readAllPages((t) => suite.conn.listStock({ pageToken: t, pageSize: 70 }));
    expect(stock.items).toHaveLength(COUNT * 2);
    expect(stock.items.find((s) => s.sku === "STK-000003" && s.location === "2")?.qty).toBe(42);
    // The DEPO_KODU 0 row is the all-depot total, never a depot of its own (netsis.stock-total-row).
    expect(stock.items.some((s) => s.location === "0")).toBe(false);
    const depot0 = await readAllPages((t) => suite.conn.listStock({ pageToken: t, locations: ["0"] }));
    expect(depot0.items.some((s) => s.location === "0")).toBe(false);
    const one = await readAllPages((t) => suite.conn.listStock({ pageToken: t, locations: ["1"] }));
    expect(one.items).toHaveLength(COUNT);
    expect(one.items.every((s) => s.location === "1")).toBe(true);

    const prices = await readAllPages((t) => suite.conn.listPrices({ pageToken: t }));
    expect(prices.items).toHaveLength(COUNT * 2);
    const retail = await readAllPages((t) => suite.conn.listPrices({ pageToken: t, priceGroups: ["1"] }));
    expect(retail.items).toHaveLength(COUNT);
    expect(retail.items[0]).toMatchObject({ priceGroup: "1", currency: "TRY", vatIncluded: true });
  });

  it("creates a customer account once, writes an order once and reads back its invoice", async () => {
    const o = order("IKAS-1001", ["STK-000001", "STK-000002"]);
    const cust = await suite.conn.createCustomer(o.customer);
    expect(cust.existed).toBe(false);
    expect(cust.code.length).toBeLessThanOrEqual(15);
    expect((await suite.conn.createCustomer(o.customer)).existed).toBe(true);
    const acc = suite.emu.accounts.find(
      (a) => (a.CariTemelBilgi as { CARI_KOD: string }).CARI_KOD === cust.code,
    );
    expect(acc?.CariEkBilgi).toMatchObject({ TcKimlikNo: "10000000146" });

    const created = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(created).toMatchObject({ existed: false, documentId: "W00000000000001" });
    const again = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again).toMatchObject({ existed: true, documentId: created.documentId });
    expect(suite.emu.documentsByOrder().get("IKAS-1001")?.size).toBe(1);
    const slip = suite.emu.slips.find((x) => x.FatUst.EKACK1 === "IKAS-1001");
    expect(slip?.FatUst).toMatchObject({ Tip: 7, CariKod: cust.code, KDV_DAHILMI: true, FAT_ALTM1: 49.9 });
    expect(slip?.Kalems.map((l) => [l.StokKodu, l.STra_GCMIK, l.STra_BF, l.DEPO_KODU])).toEqual([
      ["STK-000001", 2, 120, 1],
      ["STK-000002", 2, 120, 1],
    ]);

    expect(await suite.conn.listInvoicesForOrder("IKAS-1001")).toEqual([]);
    suite.emu.invoiceOrder("IKAS-1001");
    const [inv] = await suite.conn.listInvoicesForOrder("IKAS-1001");
    expect(inv?.lines.map((l) => [l.sku, l.qty, l.total])).toEqual([
      ["STK-000001", 2, 240],
      ["STK-000002", 2, 240],
    ]);
    expect(inv?.totals.gross).toBeCloseTo(529.9, 1);
  });

  it("names the unknown stock code of an order as a permanent unknown-item failure", async () => {
    const o = order("IKAS-1002", ["STK-000001", "YOK-999"]);
    const cust = await suite.conn.createCustomer(o.customer);
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect([e.reason, e.kind]).toEqual(["unknown_item", "permanent"]);
    expect(e.itemKeys).toEqual(["IKAS-1002", "YOK-999"]);
    expect(suite.emu.documentsByOrder().has("IKAS-1002")).toBe(false);
  });

  it("maps a wrong password, company or branch to a permanent auth failure with Turkish words", async () => {
    for (const over of [{ netsisPassword: "yanlis" }, { dbName: "YOKSIRKET" }, { branchCode: "3" }]) {
      const bad = createNetsisConnector({ ...suite.emu.credentials, ...over }, suite.ctx());
      const e = await caught(bad.testConnection());
      expect([e.reason, e.kind, e.httpStatus]).toEqual(["auth", "permanent", 400]);
      expect(e.merchantMessage).toContain("Netsis oturum açılamadı");
    }
  });

  it("logs in again when the token expires and goes on", async () => {
    const before = suite.emu.counters.logins;
    suite.emu.expireTokens();
    const page = await suite.conn.listProducts({ pageSize: 5 });
    expect(page.items).toHaveLength(5);
    expect(suite.emu.counters.logins).toBe(before + 1);
  });
});

describe("Netsis faults map to the right failure class", () => {
  it("retries a 5xx and a timeout on a read", async () => {
    suite.emu.faults.enqueue({ kind: "5xx", operation: "Queries" });
    const c = createNetsisConnector(suite.emu.credentials, suite.ctx());
    expect(await c.listStockLocations()).toHaveLength(2);
    suite.emu.faults.enqueue({ kind: "timeout", operation: "Items" });
    suite.emu.faults.set({ ...suite.emu.faults.current, hangMs: 1_000 });
    expect((await suite.conn.listProducts({ pageSize: 3 })).items).toHaveLength(3);
  });

  it("honours 429 with Retry-After", async () => {
    const counter = new CallCounter();
    const c = createNetsisConnector(suite.emu.credentials, suite.ctx({ counter }));
    await c.listStockLocations(); // logged in
    const before = suite.emu.counters.faults["429"];
    suite.emu.faults.set({ retryAfterSeconds: 1, queue: [{ kind: "429", operation: "Items" }] });
    expect((await c.listProducts({ pageSize: 2 })).items).toHaveLength(2);
    expect(suite.emu.counters.faults["429"]).toBe(before + 1);
    expect(counter.get("netsis").retried).toBe(1);
  });

  it("a lock answer (IsSuccessful false, nothing written) is retried and the order is written once", async () => {
    const o = order("IKAS-1004", ["STK-000006"]);
    const cust = await suite.conn.createCustomer(o.customer);
    const locksBefore = suite.emu.counters.faults.lock;
    suite.emu.faults.set({ queue: [{ kind: "lock", operation: "ItemSlips:post" }] });
    expect((await suite.conn.createSalesOrder({ order: o, customerCode: cust.code })).existed).toBe(false);
    expect(suite.emu.counters.faults.lock).toBe(locksBefore + 1);
    expect(suite.emu.documentsByOrder().get("IKAS-1004")?.size).toBe(1);
  });

  it("a dropped order write is maybe applied, and the retry finds the order instead of writing twice", async () => {
    const o = order("IKAS-1003", ["STK-000005"]);
    const cust = await suite.conn.createCustomer(o.customer);
    suite.emu.faults.set({ hangMs: 1_000, queue: [{ kind: "dropAfterWrite", operation: "ItemSlips:post" }] });
    const e = await caught(suite.conn.createSalesOrder({ order: o, customerCode: cust.code }));
    expect(e.maybeApplied).toBe(true);
    expect(e.kind).toBe("transient");
    const found = await suite.conn.findOrderByRef("IKAS-1003");
    expect(found?.existed).toBe(true);
    const again = await suite.conn.createSalesOrder({ order: o, customerCode: cust.code });
    expect(again).toMatchObject({ existed: true, documentId: found?.documentId });
    expect(suite.emu.documentsByOrder().get("IKAS-1003")?.size).toBe(1);
  });

  it("a token refused mid-run (auth fault) logs in again once", async () => {
    const before = suite.emu.counters.logins;
    suite.emu.faults.set({ queue: [{ kind: "auth", operation: "Items" }] });
    expect((await suite.conn.listProducts({ pageSize: 2 })).items).toHaveLength(2);
    expect(suite.emu.counters.logins).toBe(before + 1);
  });

  it("keeps passwords and tokens out of the suite.logs", () => {
    const text = JSON.stringify(suite.logs);
    expect(text).not.toContain(suite.emu.credentials.netsisPassword);
    expect(text).not.toMatch(/"access_token":"[A-Za-z0-9_-]{20,}"/);
    expect(text).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/);
  });
});

describe("Netsis token form where sources disagree (dbtype)", () => {
  it("logs in on a server that fails a login carrying dbtype (9.0.67.0), and leaves it out from then on", async () => {
    const e = await startNetsisEmulator({ seed: 8, productCount: 3, tokenSide: "server-9.0.67" });
    try {
      const c = createNetsisConnector(e.credentials, suite.ctx());
      expect((await c.testConnection()).description).toContain("DEMO2026");
      e.expireTokens();
      expect((await c.listProducts({ pageSize: 2 })).items).toHaveLength(2);
      const forms = e.recorder
        .list()
        .filter((r) => r.path === "/api/v2/token")
        .map((r) => "dbtype" in (r.body as object));
      // The vendor client's form first (refused, retried as a 5xx), then without dbtype, and so after expiry.
      expect(forms.at(0)).toBe(true);
      expect(forms.slice(-2)).toEqual([false, false]);
      const report = judgeWithRules(e.recorder.list(), judgeNetsisRequest, NETSIS_RULES, {
        side: "server-9.0.67",
      });
      expect(new Set(report.failures.map((f) => `${f.operation} ${f.problems.join()}`))).toEqual(
        new Set([
          "token [netsis.token-without-dbtype] the token form carries dbtype, which server 9.0.67.0 fails on",
        ]),
      );
      expect(report.failures).toHaveLength(forms.filter(Boolean).length);
    } finally {
      await e.close();
    }
  });

  it("keeps a configured non-default dbtype (Oracle) rather than dropping it", async () => {
    const e = await startNetsisEmulator({ seed: 8, productCount: 3, tokenSide: "server-9.0.67" });
    try {
      const err = await caught(
        createNetsisConnector(
          { ...e.credentials, dbType: "2" },
          suite.ctx({ counter: new CallCounter(), retry: { maxRetries: 0 } }),
        ).testConnection(),
      );
      expect(err.httpStatus).toBe(500);
      expect(e.recorder.list().every((r) => (r.body as Record<string, unknown>).dbtype === "2")).toBe(true);
    } finally {
      await e.close();
    }
  });
});

describe("Netsis conformance", () => {
  it("every request the connector sent matches the DLL's routes and models", () => {
    const requests = [...suite.judged, ...suite.emu.recorder.list()];
    expect(suite.emu.recorder.dropped).toBe(0);
    expectConformance("Netsis", judgeWithRules(requests, judgeNetsisRequest, NETSIS_RULES), {
      operations: 8,
      note: `${NETSIS_RULES.length} runtime rule(s), ${suite.emu.rules.refused} refused by the emulator's rules`,
    });
    expect(suite.emu.rules.refused).toBe(0);
  });
});

describeVersionPin("API version (issue 32)", NETSIS_VERSION_PIN);
