import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SellerSettingsIncomplete, sellerFromCompany, splitAddress } from "../src/modules/invoices/seller.ts";
import { type Database, openDatabase } from "../src/platform/db/database.ts";
import { companies } from "../src/platform/db/schema.ts";

let database: Database;
let complete: number;
let incomplete: number;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory", memoryTemplate: inject("pgliteTemplate") });
  const rows = await database.db
    .insert(companies)
    .values([
      {
        name: "Anadolu Ticaret A.Ş.",
        taxNumber: "1234567890",
        taxOffice: "Kadıköy",
        address: "Moda Cad. No:12, Kadıköy/İstanbul",
        phone: "+90 216 555 00 00",
        erpType: 1,
        ecommerceType: 1,
      },
      { name: "Eksik Ltd.", erpType: 1, ecommerceType: 1 },
    ])
    .returning({ id: companies.id });
  complete = rows[0]!.id;
  incomplete = rows[1]!.id;
});
afterAll(async () => database?.close());

describe("seller from company settings", () => {
  it("maps tax number, tax office and the address", async () => {
    expect(await sellerFromCompany(database.db, complete)).toEqual({
      taxNumber: "1234567890",
      name: "Anadolu Ticaret A.Ş.",
      taxOffice: "Kadıköy",
      address: { street: "Moda Cad. No:12", district: "Kadıköy", city: "İstanbul", country: "Türkiye" },
      phone: "+90 216 555 00 00",
    });
  });
  it("says what is missing, and knows no other id", async () => {
    await expect(sellerFromCompany(database.db, incomplete)).rejects.toThrow(
      /vergi numarası.*vergi dairesi.*adres/,
    );
    await expect(sellerFromCompany(database.db, 987654)).rejects.toBeInstanceOf(SellerSettingsIncomplete);
  });
  it("splits addresses without İlçe/İl at the last comma", () => {
    expect(splitAddress("Atatürk Bulvarı 5, Çankaya, Ankara")).toMatchObject({
      street: "Atatürk Bulvarı 5, Çankaya",
      city: "Ankara",
    });
  });
});
