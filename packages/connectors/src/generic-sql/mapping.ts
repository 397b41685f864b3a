/**
 * From a query's rows to our model through the configured column mapping. A row that cannot be read
 * (empty SKU, a VAT rate that is not a number...) is rejected with a Turkish reason; the others go on.
 */

import { message } from "@ep/contracts";
import { ConnectorError } from "../sdk/errors";
import type { Category, Price, Product, StockLevel } from "../sdk/model";
import { round2 } from "../sdk/util";
import type { ReadQueryName } from "./config";

export type Row = Record<string, unknown>;

/** One row's outcome: the record, or the reasons it was rejected. */
export type RowResult<T> = { ok: true; value: T } | { ok: false; key: string; errors: string[] };

/** Reads a row's value by a mapped column, case-insensitively (Firebird answers in upper case). */
export function columnValue(row: Row, column: string | undefined): unknown {
  if (!column) return undefined;
  if (column in row) return row[column];
  const wanted = column.toLowerCase();
  for (const [k, v] of Object.entries(row)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/** Columns named in the mapping but absent from the result (a typo in the mapping). */
export function missingColumns(columns: Record<string, string>, resultColumns: string[]): string[] {
  const have = new Set(resultColumns.map((c) => c.toLowerCase()));
  return Object.entries(columns)
    .filter(([, c]) => c && !have.has(c.toLowerCase()))
    .map(([field, c]) => message("connectors.genericSql.columnAbsent", { column: c, field }));
}

function text(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString("utf8");
  return String(v).trim();
}

class RowReader {
  readonly errors: string[] = [];
  constructor(
    private readonly row: Row,
    private readonly columns: Record<string, string>,
  ) {}

  has(field: string): boolean {
    return Boolean(this.columns[field]);
  }

  str(field: string, required = false): string {
    const v = text(columnValue(this.row, this.columns[field]));
    if (required && !v) this.errors.push(message("connectors.genericSql.rowEmpty", { field }));
    return v;
  }

  num(field: string, required = false): number | undefined {
    const raw = this.str(field, required);
    if (!raw) return undefined;
    // Turkish decimals ("12,50", "1.234,56") as the ERP may format them in a text column.
    const normalised = /,\d+$/.test(raw) ? raw.replace(/\./g, "").replace(",", ".") : raw;
    const n = Number(normalised);
    if (!Number.isFinite(n)) {
      this.errors.push(message("connectors.genericSql.rowNotNumber", { field, value: raw.slice(0, 40) }));
      return undefined;
    }
    return n;
  }

  bool(field: string, fallback: boolean): boolean {
    const raw = this.str(field).toLowerCase();
    if (!raw) return fallback;
    if (["1", "true", "e", "evet", "t", "y", "yes", "aktif"].includes(raw)) return true;
    if (["0", "false", "h", "hayır", "hayir", "f", "n", "no", "pasif"].includes(raw)) return false;
    this.errors.push(message("connectors.genericSql.rowNotBool", { field, value: raw.slice(0, 40) }));
    return fallback;
  }
}

function done<T>(r: RowReader, key: string, value: T): RowResult<T> {
  return r.errors.length ? { ok: false, key, errors: r.errors } : { ok: true, value };
}

export function mapProduct(row: Row, columns: Record<string, string>): RowResult<Product> {
  const r = new RowReader(row, columns);
  const sku = r.str("sku", true);
  const name = r.str("name", true);
  const vat = r.num("vat") ?? 20;
  if (![0, 1, 8, 10, 18, 20].includes(vat) && r.has("vat"))
    r.errors.push(message("connectors.genericSql.rowVat", { value: String(vat) }));
  const barcode = r.str("barcode");
  const category = r.str("category");
  const product: Product = {
    sku,
    name,
    brand: r.str("brand") || undefined,
    categoryPath: category
      ? category
          .split(/\s*(?:>|\/|\\)\s*/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
    vatRate: vat,
    unit: r.str("unit") || "Adet",
    variants: [{ sku, barcodes: barcode ? barcode.split(/[;,\s]+/).filter(Boolean) : [], options: {} }],
    images: [],
    description: r.str("description") || undefined,
    isActive: r.bool("active", true),
    groupKey: r.str("groupKey") || undefined,
  };
  return done(r, sku || "?", product);
}

export function mapStock(row: Row, columns: Record<string, string>): RowResult<StockLevel> {
  const r = new RowReader(row, columns);
  const sku = r.str("sku", true);
  const location = r.str("warehouse", true);
  const qty = r.num("quantity", true) ?? 0;
  return done(r, sku || "?", { sku, location, qty });
}

export function mapPrice(row: Row, columns: Record<string, string>, currency = "TRY"): RowResult<Price> {
  const r = new RowReader(row, columns);
  const sku = r.str("sku", true);
  const amount = r.num("price", true) ?? 0;
  if (amount < 0) r.errors.push(message("connectors.genericSql.rowNegative", { field: "price" }));
  return done(r, sku || "?", {
    sku,
    priceGroup: r.str("priceGroup") || "default",
    amount: round2(amount),
    currency: (r.str("currency") || currency).toUpperCase().replace(/^TL$/, "TRY"),
    vatIncluded: r.bool("vatIncluded", true),
  });
}

export function mapCategory(row: Row, columns: Record<string, string>): RowResult<Omit<Category, "path">> {
  const r = new RowReader(row, columns);
  const id = r.str("id", true);
  const name = r.str("name", true);
  return done(r, id || "?", { id, name, parentId: r.str("parentId") || undefined });
}

export const MAPPERS = {
  products: mapProduct,
  stock: mapStock,
  prices: mapPrice,
  categories: mapCategory,
} satisfies Record<ReadQueryName, (row: Row, columns: Record<string, string>) => RowResult<unknown>>;

export function rejection(key: string, errors: string[], operation: string): ConnectorError {
  const text = errors.join(" ");
  return new ConnectorError(`generic SQL row ${key}: ${text}`, {
    reason: "validation",
    merchantMessage: text,
    systemMessage: text,
    system: "generic-sql",
    operation,
    itemKeys: [key],
  });
}
