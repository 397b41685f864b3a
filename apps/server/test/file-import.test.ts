import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { checkRows, readTable } from "../src/modules/file-exchange/import.ts";

describe("files in for the systems with no API", () => {
  it("reads an Excel file of products and answers per row", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Ürünler");
    ws.addRow(["Stok Kodu", "Ürün Adı", "KDV"]);
    ws.addRow(["KLM-001", "Kalem", 20]);
    ws.addRow(["", "Kodsuz", 20]);
    ws.addRow(["SLG-001", "Silgi", "on"]);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    const table = await readTable(buffer, "urunler.xlsx");
    expect(table.columns).toEqual(["Stok Kodu", "Ürün Adı", "KDV"]);
    expect(checkRows("products", table, { sku: "Stok Kodu", name: "Ürün Adı", vat: "KDV" })).toEqual([
      { row: 2, key: "KLM-001", accepted: true, reasons: [] },
      { row: 3, key: "?", accepted: false, reasons: ["sku boş."] },
      { row: 4, key: "SLG-001", accepted: false, reasons: ['vat sayı değil: "on".'] },
    ]);
  });

  it("reads a Turkish CSV (';' and decimal commas) of stock", async () => {
    const csv = "\uFEFFsku;warehouse;quantity\nKLM-001;MERKEZ;12,5\nKLM-002;;3\nKLM-003;SUBE;çok\n";
    const table = await readTable(Buffer.from(csv), "stok.csv");
    expect(checkRows("stock", table)).toEqual([
      { row: 2, key: "KLM-001", accepted: true, reasons: [] },
      { row: 3, key: "KLM-002", accepted: false, reasons: ["warehouse boş."] },
      { row: 4, key: "KLM-003", accepted: false, reasons: ['quantity sayı değil: "çok".'] },
    ]);
  });

  it("reads an XML list of prices", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><Fiyatlar><Fiyat><Kod>KLM-001</Kod><Tutar>12.50</Tutar></Fiyat><Fiyat><Kod>KLM-002</Kod><Tutar>-1</Tutar></Fiyat></Fiyatlar>`;
    const table = await readTable(Buffer.from(xml), "fiyat.xml");
    expect(table.columns).toEqual(["Kod", "Tutar"]);
    expect(checkRows("prices", table, { sku: "Kod", price: "Tutar" })).toEqual([
      { row: 2, key: "KLM-001", accepted: true, reasons: [] },
      { row: 3, key: "KLM-002", accepted: false, reasons: ["price negatif olamaz."] },
    ]);
  });
});
