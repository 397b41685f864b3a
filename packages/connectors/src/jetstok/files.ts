/**
 * The stock and price file as JetStok imports it (Excel, one row per stock code, columns of
 * `JETSTOK_STOCK_COLUMNS`), written with exceljs, and an in-memory `ShopFileExchange` (tests, benches;
 * the server keeps the same in its database). exceljs is loaded on the first file, not with the package:
 * most processes that import the connectors never write one.
 */

import type ExcelJS from "exceljs";
import type { ShopFileExchange, ShopOrdersFile, ShopStockFileRow } from "../sdk/connector";
import { JETSTOK_STOCK_COLUMNS, JETSTOK_STOCK_SHEET } from "./layout";

let excel: Promise<typeof ExcelJS> | undefined;
/** exceljs, loaded once on first use (a CommonJS package: its API is the default export). */
export function loadExcel(): Promise<typeof ExcelJS> {
  excel ??= import("exceljs").then((m) => (m as unknown as { default: typeof ExcelJS }).default ?? m);
  return excel;
}

const FIELDS = Object.keys(JETSTOK_STOCK_COLUMNS) as (keyof ShopStockFileRow)[];

/** The rows of the stock and price file, in stock-code order, as an .xlsx file. */
export async function writeJetStokStockFile(rows: readonly ShopStockFileRow[]): Promise<Buffer> {
  const { Workbook } = await loadExcel();
  const book = new Workbook();
  const sheet = book.addWorksheet(JETSTOK_STOCK_SHEET);
  sheet.columns = FIELDS.map((f) => ({
    header: JETSTOK_STOCK_COLUMNS[f],
    key: f,
    width: f === "sku" ? 24 : 14,
  }));
  const sorted = [...rows].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
  for (const row of sorted) {
    // Stock codes stay text even when they look like numbers ("00123").
    sheet.addRow({ ...row, sku: row.sku }).getCell("sku").numFmt = "@";
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Merges rows by SKU: a field a row does not name keeps the value it had. */
export function mergeStockRows(
  current: readonly ShopStockFileRow[],
  changes: readonly ShopStockFileRow[],
): ShopStockFileRow[] {
  const bySku = new Map(current.map((r) => [r.sku, { ...r }]));
  for (const change of changes) {
    const merged = { ...bySku.get(change.sku), sku: change.sku };
    for (const f of FIELDS) if (change[f] !== undefined) Object.assign(merged, { [f]: change[f] });
    bySku.set(change.sku, merged);
  }
  return [...bySku.values()];
}

/** A company's file-shop files in memory: the same contract as the server's, for tests and benches. */
export class InMemoryShopFiles implements ShopFileExchange {
  stockRows: ShopStockFileRow[] = [];
  readonly ordersFiles: ShopOrdersFile[] = [];

  async putStockRows(rows: ShopStockFileRow[]): Promise<void> {
    this.stockRows = mergeStockRows(this.stockRows, rows);
  }

  async ordersFilesAfter(afterId: number | undefined, limit: number): Promise<ShopOrdersFile[]> {
    return this.ordersFiles.filter((f) => afterId === undefined || f.id > afterId).slice(0, limit);
  }

  /** An uploaded orders file (ids grow as the server's do). */
  upload(fileName: string, rows: Record<string, unknown>[], uploadedAt = new Date()): ShopOrdersFile {
    const file = {
      id: (this.ordersFiles.at(-1)?.id ?? 0) + 1,
      fileName,
      uploadedAt: uploadedAt.toISOString(),
      rows,
    };
    this.ordersFiles.push(file);
    return file;
  }
}
