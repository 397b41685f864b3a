/**
 * The generic SQL connector against a real Firebird 3 server (Debian firebird3.0-server; `.ci/run` starts
 * it): products / stock / prices read through the column mapping, keyset paging, the row cap, an order
 * written exactly once when the answer of a write is lost, and bad queries answered in Turkish.
 */

import { rmSync } from "node:fs";
import Firebird from "node-firebird";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFirebirdExecutor, type FirebirdExecutor } from "../../../../apps/agent/src/sql/firebird";
import { ConnectorError } from "../sdk/errors";
import type { Order } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import type { SqlTransport } from "../sdk/sql";
import { firebirdTestTarget } from "../testing/firebird";
import { sampleOrder } from "../testing/sample-order";
import type { GenericSqlConfig } from "./config";
import { GenericSqlConnector } from "./connector";
import { genericSqlDescriptor } from "./descriptor";

const { password, dbFile, target } = firebirdTestTarget("genericsql");

const DDL = [
  "CREATE TABLE STOK (STK_ID INTEGER NOT NULL PRIMARY KEY, STK_KOD VARCHAR(30), STK_AD VARCHAR(100), BARKOD VARCHAR(30), KDV VARCHAR(10), BIRIM VARCHAR(10), GRUP VARCHAR(60), PASIF SMALLINT)",
  "CREATE TABLE STOK_DEPO (STK_KOD VARCHAR(30), DEPO VARCHAR(10), MIKTAR NUMERIC(15,3))",
  "CREATE TABLE FIYAT (STK_KOD VARCHAR(30), LISTE VARCHAR(10), FIYAT NUMERIC(15,2), DOVIZ VARCHAR(5))",
  // No unique key on purpose: a doubled write would show as doubled rows.
  "CREATE TABLE WEB_SIPARIS (REF VARCHAR(30), SATIR INTEGER, CARI VARCHAR(60), SKU VARCHAR(30), MIKTAR NUMERIC(15,3), FIYAT NUMERIC(15,2), TARIH TIMESTAMP)",
];

const ROWS: Array<[string, unknown[]]> = [
  [
    "INSERT INTO STOK VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [1, "KLM-001", "Kalem Mavi", "8690000000011", "20", "Adet", "Kırtasiye > Kalem", 0],
  ],
  [
    "INSERT INTO STOK VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [2, "KLM-002", "Kalem Kırmızı", "8690000000028", "20", "Adet", "Kırtasiye > Kalem", 0],
  ],
  [
    "INSERT INTO STOK VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [3, "DFT-001", "Defter Çizgili", "8690000000035", "10", "Adet", "Kırtasiye", 1],
  ],
  ["INSERT INTO STOK VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [4, "", "Kodsuz Ürün", null, "20", "Adet", null, 0]],
  [
    "INSERT INTO STOK VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [5, "SLG-001", "Silgi", null, "yirmi", "Adet", null, 0],
  ],
  ["INSERT INTO STOK_DEPO VALUES (?, ?, ?)", ["KLM-001", "MERKEZ", 12]],
  ["INSERT INTO STOK_DEPO VALUES (?, ?, ?)", ["KLM-001", "SUBE1", 3.5]],
  ["INSERT INTO STOK_DEPO VALUES (?, ?, ?)", ["KLM-002", "MERKEZ", 0]],
  ["INSERT INTO FIYAT VALUES (?, ?, ?, ?)", ["KLM-001", "1", 12.5, "TL"]],
  ["INSERT INTO FIYAT VALUES (?, ?, ?, ?)", ["KLM-002", "1", 13.75, null]],
];

const config: GenericSqlConfig = {
  products: {
    sql: "SELECT s.STK_ID, s.STK_KOD, s.STK_AD, s.BARKOD, s.KDV, s.BIRIM, s.GRUP, CASE WHEN s.PASIF = 1 THEN 0 ELSE 1 END AS AKTIF FROM STOK s",
    columns: {
      sku: "STK_KOD",
      name: "STK_AD",
      barcode: "BARKOD",
      vat: "KDV",
      unit: "BIRIM",
      category: "GRUP",
      active: "AKTIF",
    },
    keyColumn: "STK_ID",
  },
  stock: {
    sql: "SELECT STK_KOD, DEPO, MIKTAR FROM STOK_DEPO",
    columns: { sku: "stk_kod", warehouse: "depo", quantity: "miktar" },
  },
  prices: {
    sql: "SELECT STK_KOD, LISTE, FIYAT, DOVIZ FROM FIYAT",
    columns: { sku: "STK_KOD", price: "FIYAT", currency: "DOVIZ", priceGroup: "LISTE" },
  },
  orderLookup: {
    sql: "SELECT REF, SATIR FROM WEB_SIPARIS WHERE REF = @ref",
    columns: { documentId: "REF", lineNo: "SATIR" },
  },
  orderWrite: {
    sql: "INSERT INTO WEB_SIPARIS (REF, SATIR, CARI, SKU, MIKTAR, FIYAT, TARIH) VALUES (@ref, @lineNo, @customerName, @sku, @qty, @unitPrice, @orderDate)",
  },
  pageSize: 2,
};

const descriptor = genericSqlDescriptor("gizsoft");
let executor: FirebirdExecutor;

function connector(sql: SqlTransport, cfg: GenericSqlConfig = config): GenericSqlConnector {
  return new GenericSqlConnector(
    descriptor,
    { sqlConfig: JSON.stringify(cfg) },
    { companyId: "1", rateLimitStore: new InMemoryRateLimitStore(), sql },
  );
}

/** Three lines of different quantities and prices; no shipping. */
const order = (orderNo: string): Order =>
  sampleOrder(orderNo, ["KLM-001", "KLM-002", "DFT-001"], {
    address: {
      line1: "Atatürk Cd. 1",
      district: undefined,
      country: "TR",
      postalCode: undefined,
      phone: undefined,
    },
    createdAt: "2026-11-20T09:30:00Z",
    status: "created",
    customer: { ref: "C-1", email: undefined },
    line: (_sku, i) =>
      [
        { qty: 2, unitPrice: 12.5 },
        { qty: 1, unitPrice: 13.75 },
        { qty: 3, unitPrice: 20 },
      ][i] ?? {},
    shipping: { cost: 0 },
  });

async function countRows(ref: string): Promise<number> {
  const res = await executor.query({
    text: "SELECT COUNT(*) AS N FROM WEB_SIPARIS WHERE REF = @ref",
    params: { ref },
  });
  return Number(res.rows[0]?.N);
}

describe.skipIf(!password)("generic SQL connector on a real Firebird database", () => {
  beforeAll(async () => {
    rmSync(dbFile, { force: true });
    const db = await Firebird.attachOrCreateAsync({ ...target, encoding: "UTF8" });
    for (const ddl of DDL) await db.queryAsync(ddl, []);
    await db.detachAsync();
    executor = createFirebirdExecutor(target);
    for (const [sql, values] of ROWS) {
      const db2 = await Firebird.attachAsync({ ...target, encoding: "UTF8" });
      await db2.queryAsync(sql, values as never[]);
      await db2.detachAsync();
    }
  }, 60_000);

  afterAll(async () => {
    await executor?.close();
    rmSync(dbFile, { force: true });
  });

  it("reads products through the mapping, page by page on the key column, and rejects bad rows in Turkish", async () => {
    const c = connector(executor);
    const skus: string[] = [];
    const rejected: Array<{ key: string; message: string }> = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await c.listProducts({ pageToken: token });
      pages++;
      skus.push(...page.items.map((p) => p.sku));
      for (const r of page.rejected ?? [])
        rejected.push({ key: r.key, message: r.error.merchantMessage ?? "" });
      token = page.nextPageToken;
    } while (token);
    expect(pages).toBe(3);
    expect(skus).toEqual(["KLM-001", "KLM-002", "DFT-001"]);
    expect(rejected).toEqual([
      { key: "?", message: "sku boş." },
      { key: "SLG-001", message: 'vat sayı değil: "yirmi".' },
    ]);
    const first = (await c.listProducts()).items[0];
    expect(first).toMatchObject({
      sku: "KLM-001",
      name: "Kalem Mavi",
      vatRate: 20,
      categoryPath: ["Kırtasiye", "Kalem"],
      isActive: true,
      variants: [{ sku: "KLM-001", barcodes: ["8690000000011"] }],
    });
    const page2 = await c.listProducts({ pageToken: (await c.listProducts()).nextPageToken });
    expect(page2.items.find((p) => p.sku === "DFT-001")).toMatchObject({ isActive: false, vatRate: 10 });
  });

  it("reads stock per warehouse and prices, with the lists the settings screens show", async () => {
    const c = connector(executor);
    const stock = await c.listStock();
    expect(stock.items).toEqual([
      { sku: "KLM-001", location: "MERKEZ", qty: 12 },
      { sku: "KLM-001", location: "SUBE1", qty: 3.5 },
      { sku: "KLM-002", location: "MERKEZ", qty: 0 },
    ]);
    expect((await c.listStock({ locations: ["SUBE1"] })).items).toHaveLength(1);
    expect(await c.listStockLocations()).toEqual([
      { id: "MERKEZ", name: "MERKEZ" },
      { id: "SUBE1", name: "SUBE1" },
    ]);
    const prices = await c.listPrices();
    expect(prices.items).toEqual([
      { sku: "KLM-001", priceGroup: "1", amount: 12.5, currency: "TRY", vatIncluded: true },
      { sku: "KLM-002", priceGroup: "1", amount: 13.75, currency: "TRY", vatIncluded: true },
    ]);
    const preview = await c.preview("stock", 2);
    expect(preview.columns).toEqual(["STK_KOD", "DEPO", "MIKTAR"]);
    expect(preview.rows).toHaveLength(2);
    expect(preview.mapped[0]).toEqual({ ok: true, value: { sku: "KLM-001", location: "MERKEZ", qty: 12 } });
    expect((await c.testConnection()).description).toContain("yapılandırılmış eşleme ile");
  });

  it("refuses a result past the row cap without a key column", async () => {
    const c = connector(executor, {
      ...config,
      stock: { ...config.stock!, sql: config.stock!.sql },
      rowCap: 2,
    });
    await expect(c.listStock()).rejects.toMatchObject({
      reason: "validation",
      merchantMessage:
        "Stok sorgusu 2 satırdan fazla döndürdü; anahtar sütun tanımlayarak sayfa sayfa okuyun.",
    });
  });

  it("writes an order exactly once when the answer to a write is lost and the write is retried", async () => {
    let writes = 0;
    // The agent's socket drops after the second line's INSERT ran: the statement is applied, the answer lost.
    const dropping: SqlTransport = {
      dialect: "firebird",
      async query(q, o) {
        const res = await executor.query(q, o);
        if (q.text.startsWith("INSERT") && ++writes === 2)
          throw Object.assign(new Error("socket closed"), { code: "ECONNRESET" });
        return res;
      },
    };
    const c = connector(dropping);
    const input = { order: order("WEB-1001"), customerCode: "C-1" };
    const first = await c.createSalesOrder(input).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ConnectorError);
    expect(first).toMatchObject({ kind: "transient", maybeApplied: true, itemKeys: ["WEB-1001"] });
    expect(await countRows("WEB-1001")).toBe(2);

    const retried = await c.createSalesOrder(input);
    expect(retried).toMatchObject({ documentId: "WEB-1001", existed: false, lineIds: ["1", "2", "3"] });
    expect(await countRows("WEB-1001")).toBe(3);

    const again = await c.createSalesOrder(input);
    expect(again.existed).toBe(true);
    expect(await countRows("WEB-1001")).toBe(3);
    expect(await c.findOrderByRef("WEB-1001")).toMatchObject({ documentId: "WEB-1001" });
    expect(await c.findOrderByRef("WEB-404")).toBeNull();
  });

  it("answers a query the database refuses in Turkish", async () => {
    const c = connector(executor, {
      ...config,
      stock: { ...config.stock!, sql: "SELECT STK_KOD, DEPO, MIKTAR FROM STOK_DEPOLAR" },
    });
    const e = (await c.listStock().catch((x: unknown) => x)) as ConnectorError;
    expect(e).toBeInstanceOf(ConnectorError);
    expect(e.reason).toBe("validation");
    expect(e.merchantMessage).toMatch(/^Stok sorgusu veritabanında hata verdi: .*STOK_DEPOLAR/s);

    const typo = connector(executor, {
      ...config,
      stock: { ...config.stock!, columns: { ...config.stock!.columns, quantity: "ADET" } },
    });
    await expect(typo.listStock()).rejects.toMatchObject({
      merchantMessage: "Sorgu sonucunda ADET sütunu yok (quantity alanına eşlenmiş).",
    });
  });
});
