/**
 * Files in for the systems with no API (generic SQL / file connector): an Excel, CSV or XML file of
 * products, stock or prices read with maintained parsers (exceljs, csv-parse, fast-xml-parser) and
 * each row mapped to our model with the same column mapping as the SQL queries: accepted, or the
 * Turkish reason it is not. Orders go out through the existing sales export (reports/export.ts).
 */

import { MAPPERS, type Row } from "@ep/connectors";
import { parse as parseCsv } from "csv-parse/sync";
import type ExcelJS from "exceljs";
import { XMLParser } from "fast-xml-parser";
import { excel } from "../../platform/excel.ts";

export type FileKind = "products" | "stock" | "prices";
export type FileTable = { columns: string[]; rows: Row[] };
export type RowOutcome = { row: number; key: string; accepted: boolean; reasons: string[] };

function cellValue(v: ExcelJS.CellValue): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "object" && !(v instanceof Date)) {
    if ("result" in v) return v.result ?? null;
    if ("richText" in v) return v.richText.map((r) => r.text).join("");
    if ("text" in v) return v.text;
  }
  return v;
}

async function readXlsx(buffer: Buffer): Promise<FileTable> {
  const wb = new (excel().Workbook)();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  if (!sheet) return { columns: [], rows: [] };
  const header = sheet.getRow(1);
  const columns: string[] = [];
  header.eachCell({ includeEmpty: false }, (cell, col) => {
    columns[col - 1] = String(cellValue(cell.value) ?? "").trim();
  });
  const rows: Row[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (!row.hasValues) continue;
    rows.push(Object.fromEntries(columns.map((c, i) => [c, cellValue(row.getCell(i + 1).value)])));
  }
  return { columns: columns.filter(Boolean), rows };
}

function readCsv(buffer: Buffer): FileTable {
  const text = buffer.toString("utf8").replace(/^\uFEFF/, "");
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  // Turkish Excel writes ';' (the decimal separator is ','); others write ','.
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  const rows = parseCsv(text, { columns: true, delimiter, skip_empty_lines: true, trim: true }) as Row[];
  return { columns: rows[0] ? Object.keys(rows[0]) : [], rows };
}

/** The first list of records in the document (<Urunler><Urun>…</Urun>…</Urunler>). */
function readXml(buffer: Buffer): FileTable {
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  }).parse(buffer.toString("utf8")) as unknown;
  const find = (node: unknown): Row[] | undefined => {
    if (Array.isArray(node))
      return node.every((x) => x && typeof x === "object") ? (node as Row[]) : undefined;
    if (node && typeof node === "object") {
      const values = Object.values(node as Record<string, unknown>);
      for (const v of values) {
        const found = find(v);
        if (found) return found;
      }
      // One record only: an object of scalar fields under a list element.
      if (values.length && values.every((v) => v === null || typeof v !== "object")) return [node as Row];
    }
    return undefined;
  };
  const rows = find(doc) ?? [];
  return { columns: rows[0] ? Object.keys(rows[0]) : [], rows };
}

export async function readTable(buffer: Buffer, filename: string): Promise<FileTable> {
  const ext = filename.toLowerCase().split(".").pop();
  if (ext === "xlsx") return readXlsx(buffer);
  if (ext === "csv" || ext === "txt") return readCsv(buffer);
  if (ext === "xml") return readXml(buffer);
  throw new Error(`unsupported file type: ${ext}`);
}

/**
 * Each row's outcome through the mapping (file column per model field); without a mapping the file's
 * headers are the field names themselves (sku, name, warehouse, quantity, price…).
 */
export function checkRows(kind: FileKind, table: FileTable, mapping?: Record<string, string>): RowOutcome[] {
  const columns = mapping ?? Object.fromEntries(table.columns.map((c) => [c, c]));
  const map = MAPPERS[kind] as (
    row: Row,
    columns: Record<string, string>,
  ) => ReturnType<(typeof MAPPERS)["stock"]>;
  return table.rows.map((row, i) => {
    const r = map(row, columns);
    // Row 1 is the header: the first record is the file's row 2.
    return r.ok
      ? { row: i + 2, key: (r.value as { sku: string }).sku, accepted: true, reasons: [] }
      : { row: i + 2, key: r.key, accepted: false, reasons: r.errors };
  });
}
