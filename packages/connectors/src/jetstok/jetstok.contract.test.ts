import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createShopConnector } from "../registry";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { JETSTOK_FILES_PER_PAGE, type JetStokConnector, jetstokDescriptor } from "./connector";
import { type JetStokPanel, startJetStokPanel } from "./emulator/panel";
import { InMemoryShopFiles, loadExcel, writeJetStokStockFile } from "./files";
import {
  checkJetStokOrderRows,
  dateOf,
  JETSTOK_ORDER_COLUMNS,
  JETSTOK_STOCK_COLUMNS,
  numberOf,
  ordersFromFiles,
} from "./layout";

/** An .xlsx file's first sheet as header-keyed rows (what an upload's reader hands over). */
async function rowsOf(xlsx: Buffer): Promise<Record<string, unknown>[]> {
  const { Workbook } = await loadExcel();
  const book = new Workbook();
  await book.xlsx.load(xlsx as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const v = (row.values as unknown[]).slice(1);
    rows.push(
      Object.fromEntries(
        header.map((h, i) => [h, v[i] instanceof Date ? (v[i] as Date).toISOString() : v[i]]),
      ),
    );
  });
  return rows;
}

const connectorWith = (files: InMemoryShopFiles) =>
  createShopConnector(
    7,
    {},
    {
      companyId: "c1",
      rateLimitStore: new InMemoryRateLimitStore(),
      shopFiles: files,
    },
  ) as JetStokConnector;

describe("JetStok through its files", () => {
  let panel: JetStokPanel;
  beforeAll(async () => {
    panel = await startJetStokPanel({ seed: 7, productCount: 40, orderCount: 6, listen: false });
  });
  afterAll(() => panel.close());

  it("is a file shop: no settings needed, nothing called, the unsupported writes say why in Turkish", async () => {
    expect(jetstokDescriptor).toMatchObject({ type: 7, implemented: true, fileShop: true });
    expect(jetstokDescriptor.credentials.every((f) => !f.required)).toBe(true);
    const shop = connectorWith(new InMemoryShopFiles());
    expect(await shop.testConnection()).toMatchObject({ ok: true, system: "jetstok" });
    await expect(shop.updateOrderStatus()).rejects.toMatchObject({
      reason: "unsupported",
      merchantMessage: expect.stringContaining("JetStok"),
    });
  });

  it("writes stock and prices into one file per SKU that the panel imports with its columns", async () => {
    const files = new InMemoryShopFiles();
    const shop = connectorWith(files);
    const [a, b] = [...panel.stock.keys()];
    await shop.setStock([
      { sku: a!, locationId: "jetstok", qty: 7 },
      { sku: b!, locationId: "jetstok", qty: 0 },
    ]);
    await shop.setPrices([{ sku: a!, amount: 149.9, listAmount: 199.9, currency: "TRY" }]);
    // A later stock write keeps the price the file holds.
    await shop.setStock([{ sku: a!, locationId: "jetstok", qty: 5 }]);
    expect(files.stockRows).toEqual([
      { sku: a, qty: 5, price: 149.9, listPrice: 199.9, currency: "TRY" },
      { sku: b, qty: 0 },
    ]);
    const xlsx = await writeJetStokStockFile([...files.stockRows, { sku: "YOK-1", qty: 1 }]);
    const rows = await rowsOf(xlsx);
    expect(Object.keys(rows[0]!)).toEqual(Object.values(JETSTOK_STOCK_COLUMNS));
    const imported = await panel.app.inject({ method: "POST", url: "/urunler/ice-aktar", payload: xlsx });
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toEqual({ applied: 2, unknown: ["YOK-1"] });
    expect(panel.stock.get(a!)).toEqual({ qty: 5, price: 149.9 });
    expect(panel.stock.get(b!)?.qty).toBe(0);
  });

  it("the panel refuses a stock file whose columns are not the documented ones", async () => {
    const { Workbook } = await loadExcel();
    const book = new Workbook();
    book.addWorksheet("Stok ve Fiyat").addRow(["Ürün Kodu", "Miktar"]);
    const refused = await panel.app.inject({
      method: "POST",
      url: "/urunler/ice-aktar",
      payload: Buffer.from(await book.xlsx.writeBuffer()),
    });
    expect(refused.statusCode).toBe(400);
  });

  it("reads the panel's orders export as orders, file by file, the cursor being the last file read", async () => {
    const exported = await panel.app.inject({ method: "GET", url: "/siparisler/disa-aktar" });
    expect(exported.statusCode).toBe(200);
    const rows = await rowsOf(exported.rawPayload);
    expect(checkJetStokOrderRows(Object.keys(rows[0]!), rows).every((r) => r.accepted)).toBe(true);
    const files = new InMemoryShopFiles();
    files.upload("jetstok-siparisler.xlsx", rows, new Date("2026-11-28T10:00:00Z"));
    const shop = connectorWith(files);
    const page = await shop.listOrders();
    expect(page.items.map((o) => o.orderNo)).toEqual(panel.orders.map((o) => o.orderNo));
    expect(page.cursor).toBe("1");
    expect(page.nextPageToken).toBeUndefined();
    for (const [i, order] of page.items.entries()) {
      const want = panel.orders[i]!;
      expect(order.lines.map((l) => [l.sku, l.qty, l.unitPrice, l.vatRate])).toEqual(
        want.lines.map((l) => [l.sku, l.qty, l.unitPrice, l.vatRate]),
      );
      const gross = want.lines.reduce((s, l) => s + l.qty * l.unitPrice, 0) + want.shippingCost;
      expect(order.totals.grandTotal).toBeCloseTo(gross, 2);
      expect(order.customer.email).toBe(want.customer.email);
      expect(order.salesChannel).toBe(want.channel);
      expect(Date.parse(order.createdAt)).toBe(want.orderedAt);
    }
    // Nothing new after the cursor: an empty page that keeps it.
    expect(await shop.listOrders({ since: page.cursor })).toEqual({ items: [], cursor: "1" });
    // The next upload is the next page.
    panel.generateOrders(2);
    files.upload(
      "ikinci.xlsx",
      await rowsOf((await panel.app.inject({ url: "/siparisler/disa-aktar" })).rawPayload),
    );
    const next = await shop.listOrders({ since: page.cursor });
    expect(next.cursor).toBe("2");
    expect(next.items.map((o) => o.orderNo)).toEqual(panel.orders.map((o) => o.orderNo));
  });

  it("pages through many files without skipping one", async () => {
    const files = new InMemoryShopFiles();
    const header = Object.values(JETSTOK_ORDER_COLUMNS);
    const row = (no: string) => {
      const filled: Record<string, unknown> = {
        "Sipariş No": no,
        "Sipariş Tarihi": "28.11.2026 14:05",
        "Müşteri Adı Soyadı": "Ali Veli",
        "Stok Kodu": "STK-1",
        Adet: 1,
        "Birim Fiyat": "1.234,50",
      };
      return Object.fromEntries(header.map((h) => [h, filled[h] ?? ""]));
    };
    for (let i = 1; i <= JETSTOK_FILES_PER_PAGE + 3; i++) files.upload(`f${i}.csv`, [row(`N-${i}`)]);
    const shop = connectorWith(files);
    const first = await shop.listOrders();
    expect(first.items).toHaveLength(JETSTOK_FILES_PER_PAGE);
    expect(first.items[0]).toMatchObject({ orderNo: "N-1", createdAt: "2026-11-28T11:05:00.000Z" });
    expect(first.items[0]!.lines[0]).toMatchObject({ unitPrice: 1234.5, vatRate: 20 });
    const second = await shop.listOrders({ pageToken: first.nextPageToken });
    expect(second.items.map((o) => o.orderNo)).toEqual(["N-21", "N-22", "N-23"]);
    expect(second.cursor).toBe(String(JETSTOK_FILES_PER_PAGE + 3));
  });
});

describe("the orders file's columns (explicit, inferred: VERIFIED.md)", () => {
  const columns = Object.values(JETSTOK_ORDER_COLUMNS);
  const base = {
    "Sipariş No": "JS-1",
    "Sipariş Tarihi": "2026-11-28T09:00:00.000Z",
    "Müşteri Adı Soyadı": "Ayşe Nur Yılmaz",
    "Stok Kodu": "STK-000001",
    Adet: 2,
    "Birim Fiyat": 120,
  };

  it("says in Turkish which required value is missing or wrong, row by row", () => {
    const out = checkJetStokOrderRows(columns, [
      base,
      { ...base, Adet: 0 },
      { ...base, "Sipariş Tarihi": "31.02.2026", "Birim Fiyat": "on iki" },
      { ...base, "Stok Kodu": "" },
    ]);
    expect(out[0]).toEqual({ row: 2, key: "JS-1", accepted: true, reasons: [] });
    expect(out[1]!.reasons).toEqual(["Adet sıfırdan büyük olmalı"]);
    expect(out[2]!.reasons).toEqual([
      "Sipariş Tarihi tarih değil: 31.02.2026",
      "Birim Fiyat sayı değil: on iki",
    ]);
    expect(out[3]!.reasons).toEqual(["Stok Kodu boş"]);
  });

  it("refuses every row of a file without a required column, naming it", () => {
    const out = checkJetStokOrderRows(["Sipariş No", "Stok Kodu", "Adet"], [{ "Sipariş No": "1" }]);
    expect(out[0]!.accepted).toBe(false);
    expect(out[0]!.reasons).toContain("Dosyada Birim Fiyat sütunu yok");
  });

  it("matches headers without case or extra spaces, Turkish i included", () => {
    const loose = { ...base, "  SİPARİŞ   NO ": "JS-9" } as Record<string, unknown>;
    delete loose["Sipariş No"];
    const [order] = ordersFromFiles([
      { id: 1, fileName: "x.csv", uploadedAt: "2026-11-28T10:00:00Z", rows: [loose] },
    ]);
    expect(order?.orderNo).toBe("JS-9");
    expect(order?.customer).toMatchObject({ firstName: "Ayşe Nur", lastName: "Yılmaz", isCompany: false });
  });

  it("groups an order's lines and skips refused rows", () => {
    const [order, ...rest] = ordersFromFiles([
      {
        id: 1,
        fileName: "x.csv",
        uploadedAt: "2026-11-28T10:00:00Z",
        rows: [base, { ...base, "Stok Kodu": "STK-000002", Adet: 1, "KDV Oranı": 10 }, { ...base, Adet: -1 }],
      },
    ]);
    expect(rest).toEqual([]);
    expect(order!.lines.map((l) => [l.sku, l.qty, l.vatRate])).toEqual([
      ["STK-000001", 2, 20],
      ["STK-000002", 1, 10],
    ]);
    expect(order!.totals).toEqual({ subtotal: 360, discount: 0, shipping: 0, tax: 50.91, grandTotal: 360 });
  });

  it("reads Turkish numbers and dates as panels write them", () => {
    expect(numberOf("1.234,50")).toBe(1234.5);
    expect(numberOf("12.5")).toBe(12.5);
    expect(numberOf("₺ 99,90")).toBe(99.9);
    expect(Number.isNaN(numberOf("abc"))).toBe(true);
    expect(dateOf("01.03.2026 00:30")?.toISOString()).toBe("2026-02-28T21:30:00.000Z");
    expect(dateOf("29/02/2026")).toBeUndefined();
  });

  it("VERIFIED.md names every column of both files as inferred", () => {
    const verified = readFileSync(new URL("./VERIFIED.md", import.meta.url), "utf8");
    for (const header of [...Object.values(JETSTOK_ORDER_COLUMNS), ...Object.values(JETSTOK_STOCK_COLUMNS)])
      expect(verified).toContain(`\`${header}\``);
  });
});

/**
 * Conformance: JetStok has no API (VERIFIED.md), so what stands for its judge is twofold. Nothing any
 * operation does leaves the process, and every file the connector writes is one the panel's import
 * (the columns of `layout.ts`) takes without a refused row.
 */
describe("JetStok conformance: nothing sent, every written file imported", () => {
  let panel: JetStokPanel;
  beforeAll(async () => {
    panel = await startJetStokPanel({ seed: 11, productCount: 30, orderCount: 4, listen: false });
  });
  afterAll(() => panel.close());
  afterEach(() => vi.restoreAllMocks());

  it("reads and writes through files only, and the panel imports what it writes", async () => {
    const exported = await panel.app.inject({ method: "GET", url: "/siparisler/disa-aktar" });
    const files = new InMemoryShopFiles();
    files.upload(
      "jetstok-siparisler.xlsx",
      await rowsOf(exported.rawPayload),
      new Date("2026-11-28T10:00:00Z"),
    );
    const sent = [vi.spyOn(globalThis, "fetch"), vi.spyOn(http, "request"), vi.spyOn(https, "request")];
    const shop = connectorWith(files);
    await shop.testConnection();
    await shop.listStockLocations();
    await shop.findProductsBySku([...panel.stock.keys()].slice(0, 3));
    expect((await shop.listOrders({})).items.length).toBeGreaterThan(0);
    const skus = [...panel.stock.keys()];
    await shop.setStock(skus.map((sku, i) => ({ sku, locationId: "jetstok", qty: i })));
    await shop.setPrices(skus.map((sku, i) => ({ sku, amount: 10 + i, currency: "TRY" })));
    for (const spy of sent) expect(spy).not.toHaveBeenCalled();

    const imported = await panel.app.inject({
      method: "POST",
      url: "/urunler/ice-aktar",
      payload: await writeJetStokStockFile(files.stockRows),
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toEqual({ applied: skus.length, unknown: [] });
  });
});
