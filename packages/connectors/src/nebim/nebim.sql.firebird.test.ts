/**
 * Nebim reads through SQL instead of stored procedures: with queries in `sqlConfig` the connector reads
 * products and stock through the generic SQL connector's queries and mapping over the agent's SQL seam
 * (here the agent's own Firebird executor on the local Firebird 3 server standing in for the V3 SQL Server
 * database), while customers and orders still go to the Integrator through Post.
 */

import { rmSync } from "node:fs";
import Firebird from "node-firebird";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFirebirdExecutor, type FirebirdExecutor } from "../../../../apps/agent/src/sql/firebird";
import type { GenericSqlConfig } from "../generic-sql/config";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { firebirdTestTarget } from "../testing/firebird";
import { createNebimConnector } from "./connector";
import { type NebimEmulator, startNebimEmulator } from "./emulator/server";

const { password, dbFile, target } = firebirdTestTarget("nebim_sql");

const config: GenericSqlConfig = {
  products: {
    sql: "SELECT ITEM_ID, ITEMCODE, DESCR, BARCODE, VAT FROM ITEMS",
    columns: { sku: "ITEMCODE", name: "DESCR", barcode: "BARCODE", vat: "VAT" },
    keyColumn: "ITEM_ID",
  },
  stock: {
    sql: "SELECT ITEMCODE, WAREHOUSE, QTY FROM INVENTORY",
    columns: { sku: "ITEMCODE", warehouse: "WAREHOUSE", quantity: "QTY" },
  },
};

let executor: FirebirdExecutor;
let emu: NebimEmulator;

describe.skipIf(!password)("Nebim reads through SQL, writes through the Integrator", () => {
  beforeAll(async () => {
    rmSync(dbFile, { force: true });
    const db = await Firebird.attachOrCreateAsync({ ...target, encoding: "UTF8" });
    await db.queryAsync(
      "CREATE TABLE ITEMS (ITEM_ID INTEGER NOT NULL PRIMARY KEY, ITEMCODE VARCHAR(30), DESCR VARCHAR(100), BARCODE VARCHAR(30), VAT VARCHAR(5))",
      [],
    );
    await db.queryAsync(
      "CREATE TABLE INVENTORY (ITEMCODE VARCHAR(30), WAREHOUSE VARCHAR(10), QTY NUMERIC(15,3))",
      [],
    );
    await db.detachAsync();
    const db2 = await Firebird.attachAsync({ ...target, encoding: "UTF8" });
    await db2.queryAsync("INSERT INTO ITEMS VALUES (1, 'STK-000001', 'Gömlek', '8690000000011', '10')", []);
    await db2.queryAsync("INSERT INTO INVENTORY VALUES ('STK-000001', 'M01', 7)", []);
    await db2.detachAsync();
    executor = createFirebirdExecutor(target);
    emu = await startNebimEmulator({ seed: 3, productCount: 5 });
  }, 60_000);

  afterAll(async () => {
    await executor?.close();
    await emu?.close();
    rmSync(dbFile, { force: true });
  });

  it("reads products and stock with the SQL mapping, sends no RunProc for them, and still posts the order", async () => {
    const conn = createNebimConnector(
      { ...emu.credentials, sqlConfig: JSON.stringify(config) },
      { companyId: "1", rateLimitStore: new InMemoryRateLimitStore(), sql: executor },
    );
    const products = await conn.listProducts();
    expect(products.items.map((p) => [p.sku, p.name, p.vatRate, p.variants[0]?.barcodes])).toEqual([
      ["STK-000001", "Gömlek", 10, ["8690000000011"]],
    ]);
    expect((await conn.listStock()).items).toEqual([{ sku: "STK-000001", location: "M01", qty: 7 }]);
    expect(emu.recorder.list().filter((r) => r.path.endsWith("/RunProc"))).toEqual([]);

    const address = {
      firstName: "Ali",
      lastName: "Kaya",
      line1: "Atatürk Cd. 1",
      city: "İzmir",
      country: "TR",
    };
    const customer = await conn.createCustomer({
      ref: "C-9",
      firstName: "Ali",
      lastName: "Kaya",
      isCompany: false,
      billingAddress: address,
    });
    const created = await conn.createSalesOrder({
      customerCode: customer.code,
      order: {
        id: "o9",
        orderNo: "IKAS-9",
        createdAt: "2026-11-20T09:30:00Z",
        updatedAt: "2026-11-20T09:30:00Z",
        status: "created",
        currency: "TRY",
        customer: {
          ref: "C-9",
          firstName: "Ali",
          lastName: "Kaya",
          isCompany: false,
          billingAddress: address,
        },
        billingAddress: address,
        shippingAddress: address,
        lines: [
          { sku: "STK-000001", name: "Gömlek", qty: 1, unitPrice: 50, vatRate: 10, discount: 0, total: 50 },
        ],
        shipping: { cost: 0 },
        totals: { subtotal: 50, discount: 0, shipping: 0, tax: 4.55, grandTotal: 50 },
      },
    });
    expect(created.existed).toBe(false);
    expect(emu.documentsByOrder().get("IKAS-9")?.size).toBe(1);
  });
});
