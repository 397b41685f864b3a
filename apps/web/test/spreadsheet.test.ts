import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { readSpreadsheetRows, spreadsheetToCsv } from "../src/lib/spreadsheet";

/** A workbook as Excel saves one: shared strings, rich text, a number, a gap and a skipped row. */
async function workbook(): Promise<ArrayBuffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet("Eşleştirme");
  sheet.getCell("A1").value = "ERP Kodu";
  sheet.getCell("B1").value = 'Mağaza "Kodu"';
  sheet.getCell("A3").value = { richText: [{ text: "ÇAY-" }, { text: "01", font: { bold: true } }] };
  sheet.getCell("B3").value = 8690000000012;
  sheet.getCell("C3").value = "fazla sütun";
  sheet.getCell("B4").value = "SHOP-9";
  const buffer = await wb.xlsx.writeBuffer({ useSharedStrings: true } as ExcelJS.XlsxWriteOptions);
  return new Uint8Array(buffer as ArrayBuffer).slice().buffer;
}

describe("spreadsheet import (exceljs)", () => {
  it("reads the first sheet's rows with their Excel row numbers", async () => {
    expect(await readSpreadsheetRows(await workbook())).toEqual([
      { row: 1, cells: ["ERP Kodu", 'Mağaza "Kodu"'] },
      { row: 3, cells: ["ÇAY-01", "8690000000012", "fazla sütun"] },
      { row: 4, cells: ["", "SHOP-9"] },
    ]);
  });

  it("becomes the import's CSV: two quoted columns, blank lines where Excel has none", async () => {
    expect(await spreadsheetToCsv(await workbook())).toBe(
      ['"ERP Kodu";"Mağaza ""Kodu"""', "", '"ÇAY-01";"8690000000012"', '"";"SHOP-9"'].join("\n"),
    );
  });

  it("refuses a file that is no workbook", async () => {
    const csv = new TextEncoder().encode("ERP;SHOP\nA;B");
    await expect(readSpreadsheetRows(csv.slice().buffer)).rejects.toThrow();
  });
});
