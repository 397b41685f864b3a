import { createHash } from "node:crypto";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import {
  checkRows,
  READ_LIMITS,
  ROWS_PER_MESSAGE,
  readTable,
  streamTable,
} from "../src/modules/file-exchange/import.ts";
import { bombWorkbook, farCellWorkbook, stockWorkbook, workbook } from "./xlsx-probes.ts";

/** The reason a file is refused for, or "read" (a copy is read: the reader takes its buffer over). */
const outcome = (buffer: Buffer, name: string, limits = READ_LIMITS) =>
  readTable(Buffer.from(buffer), name, limits).then(
    () => "read",
    (e: { reason?: string }) => e.reason,
  );

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

  it("reads dates, formula results, rich text and booleans of an Excel file as exceljs gives them", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Fiyatlar");
    ws.addRow(["sku", "price", "updated", "active", "note"]);
    const updated = new Date(Date.UTC(2026, 2, 14, 9, 30));
    ws.addRow([
      "KLM-001",
      { formula: "10+2.5", result: 12.5 },
      updated,
      true,
      { richText: [{ text: "Kalın " }, { text: "yazı" }] },
    ]);
    ws.addRow([]);
    ws.addRow(["KLM-002", 7, null, false, "düz"]);
    const table = await readTable(Buffer.from(await wb.xlsx.writeBuffer()), "fiyat.xlsx");
    expect(table.columns).toEqual(["sku", "price", "updated", "active", "note"]);
    expect(table.rows).toEqual([
      { sku: "KLM-001", price: 12.5, updated, active: true, note: "Kalın yazı" },
      { sku: "KLM-002", price: 7, updated: null, active: false, note: "düz" },
    ]);
  });

  it("hands the rows to the event loop in bounded batches, each in a turn of its own, hashed in the worker", async () => {
    const records = 2 * ROWS_PER_MESSAGE + 500;
    const csv = ["sku;quantity", ...Array.from({ length: records }, (_, i) => `S-${i};${i}`)].join("\n");
    const buffer = Buffer.from(csv);
    const hash = createHash("sha256").update(buffer).digest("hex");
    const batches: { size: number; first: number; afterATurn: boolean }[] = [];
    let turned = true;
    const table = await streamTable(buffer, "stok.csv", (batch) => {
      batches.push({ size: batch.rows.length, first: batch.first, afterATurn: turned });
      // Set again only if the event loop goes round before the next batch.
      turned = false;
      setImmediate(() => {
        turned = true;
      });
    });
    expect(batches).toEqual([
      { size: ROWS_PER_MESSAGE, first: 0, afterATurn: true },
      { size: ROWS_PER_MESSAGE, first: ROWS_PER_MESSAGE, afterATurn: true },
      { size: 500, first: 2 * ROWS_PER_MESSAGE, afterATurn: true },
    ]);
    expect(table.contentHash).toBe(hash);
    // The bytes were handed to the worker, not copied.
    expect(buffer.length).toBe(0);
    const stored = JSON.parse(table.rowsJson) as unknown[];
    expect(stored).toHaveLength(records);
    expect(stored.at(-1)).toEqual({ sku: `S-${records - 1}`, quantity: `${records - 1}` });
  });

  it("refuses the probe's one cell at row 1,048,576 by its row number", async () => {
    expect(await outcome(await farCellWorkbook(), "uzak.xlsx")).toBe("tooManyRows");
  });

  it("refuses the probe's one-million-row workbook (under 20 MB)", { timeout: 60_000 }, async () => {
    const million = await stockWorkbook(1_000_000);
    expect(million.length).toBeLessThan(20 * 1024 * 1024);
    expect(await outcome(million, "milyon.xlsx")).toBe("unpackedTooLarge");
    // The row cap on its own, where the unpacked size stays within its cap.
    expect(await outcome(million, "milyon.xlsx", { ...READ_LIMITS, maxUnpackedBytes: 1024 ** 3 })).toBe(
      "tooManyRows",
    );
  });

  it("refuses zip bombs by the size they declare and by the size they really inflate to", async () => {
    const bomb = await bombWorkbook(3 * 1024 ** 3);
    expect(bomb.length).toBeLessThan(20 * 1024 * 1024);
    expect(await outcome(bomb, "bomba.xlsx")).toBe("unpackedTooLarge");
    // Declares 1 kB for 300 MB: refused once the inflated bytes pass what was declared.
    expect(await outcome(await bombWorkbook(300 * 1024 ** 2, true), "bomba.xlsx")).toBe("unpackedTooLarge");
  });

  it("keeps to the row, column and cell caps and reads a file within them", async () => {
    const limits = { ...READ_LIMITS, maxRows: 10 };
    expect(await outcome(await stockWorkbook(10), "stok.xlsx", limits)).toBe("read");
    expect(await outcome(await stockWorkbook(11), "stok.xlsx", limits)).toBe("tooManyRows");
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const wide = await workbook([`<row r="1">${cell("A1", "sku")}${cell("CW1", "fazla")}</row>`]);
    expect(await outcome(wide, "genis.xlsx")).toBe("tooManyColumns");
    const long = await workbook([
      `<row r="1">${cell("A1", "sku")}</row><row r="2">${cell("A2", "x".repeat(40_000))}</row>`,
    ]);
    expect(await outcome(long, "uzun.xlsx")).toBe("cellTooLong");

    const csv = (rows: number) =>
      Buffer.from(["sku;quantity", ...Array.from({ length: rows }, (_, i) => `S-${i};${i}`)].join("\n"));
    expect(await outcome(csv(10), "stok.csv", limits)).toBe("read");
    expect(await outcome(csv(11), "stok.csv", limits)).toBe("tooManyRows");
    expect(await outcome(Buffer.from(`sku;name\nS-1;${"y".repeat(40_000)}\n`), "uzun.csv")).toBe(
      "cellTooLong",
    );
    const header = Array.from({ length: 101 }, (_, i) => `c${i}`).join(";");
    expect(await outcome(Buffer.from(`${header}\n`), "genis.csv")).toBe("tooManyColumns");
    expect(await outcome(Buffer.from("PK\u0003\u0004bozuk"), "bozuk.xlsx")).toBe("unreadable");
  });
});
