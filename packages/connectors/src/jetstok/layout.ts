/**
 * JetStok's files, column by column. No public source names JetStok's Excel columns (VERIFIED.md: the
 * vendor's own site code shows only that its packages have Excel import and export, XML import and an
 * API feature; no help page, template or sample file is public). So the layout is ours, written once
 * here, and every column is INFERRED from the headers Turkish panels use for the same data: a merchant
 * whose JetStok export names a column differently renames that header before uploading, and the row
 * check says which column it misses.
 *
 * - Stock and price file (we write, JetStok imports): one row per stock code.
 * - Orders file (JetStok exports, we read): one row per order line; the order's fields repeat on each
 *   of its lines and are taken from its first line.
 */

import { type MessageKey, message } from "@ep/contracts";
import type { ShopOrdersFile, ShopStockFileRow } from "../sdk/connector";
import type { Customer, Order, OrderLine } from "../sdk/model";

/** The stock and price file's columns, in order (field → header). */
export const JETSTOK_STOCK_COLUMNS = {
  sku: "Stok Kodu",
  qty: "Stok Adedi",
  price: "Satış Fiyatı",
  listPrice: "Liste Fiyatı",
  currency: "Para Birimi",
} as const satisfies Record<keyof ShopStockFileRow, string>;

/** The sheet the stock and price file's rows are on. */
export const JETSTOK_STOCK_SHEET = "Stok ve Fiyat";

/** The orders file's columns (field → header); `required` ones must be there and filled. */
export const JETSTOK_ORDER_COLUMNS = {
  orderNo: "Sipariş No",
  orderDate: "Sipariş Tarihi",
  channel: "Pazaryeri",
  status: "Sipariş Durumu",
  customerName: "Müşteri Adı Soyadı",
  email: "E-posta",
  phone: "Telefon",
  taxNumber: "TC Kimlik / Vergi No",
  taxOffice: "Vergi Dairesi",
  companyName: "Firma Ünvanı",
  address: "Teslimat Adresi",
  district: "İlçe",
  city: "İl",
  sku: "Stok Kodu",
  productName: "Ürün Adı",
  qty: "Adet",
  unitPrice: "Birim Fiyat",
  vatRate: "KDV Oranı",
  discount: "İndirim",
  shippingCost: "Kargo Ücreti",
  currency: "Para Birimi",
  paymentType: "Ödeme Tipi",
} as const;

export type JetStokOrderField = keyof typeof JETSTOK_ORDER_COLUMNS;

export const JETSTOK_REQUIRED_ORDER_FIELDS: readonly JetStokOrderField[] = [
  "orderNo",
  "orderDate",
  "customerName",
  "sku",
  "qty",
  "unitPrice",
];

/** When a line names no VAT rate: the general rate (inferred; the ERP's own rate wins where it keeps one). */
export const JETSTOK_DEFAULT_VAT = 20;

/** Headers compare without case, Turkish dotted/dotless i, surrounding or doubled spaces. */
export function headerKey(header: string): string {
  return header.trim().replace(/\s+/g, " ").toLocaleLowerCase("tr-TR");
}

const rowMessage = (key: string, params: Record<string, string | number>) =>
  message(`connectors.jetstok.rows.${key}` as MessageKey, params);

/** The file's own header of each field, found by `headerKey`; a field the file lacks is absent. */
export function orderColumnsOf(columns: readonly string[]): Partial<Record<JetStokOrderField, string>> {
  const byKey = new Map(columns.map((c) => [headerKey(c), c]));
  const found: Partial<Record<JetStokOrderField, string>> = {};
  for (const [field, header] of Object.entries(JETSTOK_ORDER_COLUMNS) as [JetStokOrderField, string][]) {
    const own = byKey.get(headerKey(header));
    if (own !== undefined) found[field] = own;
  }
  return found;
}

const text = (v: unknown): string => {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString();
  return String(v).trim();
};

/** A number as Excel gives it, or as Turkish text ("1.234,50"), or "1234.50"; NaN when it is none. */
export function numberOf(v: unknown): number {
  if (typeof v === "number") return v;
  const s = text(v).replace(/\s|₺|TL$/gi, "");
  if (s === "") return Number.NaN;
  const normal = s.includes(",") ? s.replace(/\./g, "").replace(",", ".") : s;
  return /^-?\d+(\.\d+)?$/.test(normal) ? Number(normal) : Number.NaN;
}

/**
 * A date as Excel gives it (a date cell, read as ISO text) or as a Turkish panel writes it
 * ("28.11.2026 14:05", "28-11-2026", "28/11/2026"), taken as Istanbul time (UTC+3, no DST since 2016);
 * undefined when it is none.
 */
export function dateOf(v: unknown): Date | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v;
  const s = text(v);
  const tr = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (tr) {
    const [, d, m, y, hh = "0", mm = "0", ss = "0"] = tr.map((p) => p ?? "0");
    const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    // 31.02.2026 rolls over to March in Date.UTC: not a date.
    if (day.getUTCDate() !== Number(d) || day.getUTCMonth() !== Number(m) - 1) return undefined;
    if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return undefined;
    return new Date(day.getTime() + ((Number(hh) - 3) * 3600 + Number(mm) * 60 + Number(ss)) * 1000);
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) {
    const date = new Date(s);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

export type JetStokRowOutcome = { row: number; key: string; accepted: boolean; reasons: string[] };

/**
 * Each row of an orders file checked: accepted, or the Turkish reasons it is not. A file without a
 * required column refuses every row with that reason. `first` is the index of `rows[0]` among the file's
 * records (row 1 is the header).
 */
export function checkJetStokOrderRows(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  first = 0,
): JetStokRowOutcome[] {
  const own = orderColumnsOf(columns);
  const missingColumns = JETSTOK_REQUIRED_ORDER_FIELDS.filter((f) => own[f] === undefined).map((f) =>
    rowMessage("noColumn", { column: JETSTOK_ORDER_COLUMNS[f] }),
  );
  return rows.map((row, i) => {
    const line = first + i + 2;
    const get = (f: JetStokOrderField) => (own[f] === undefined ? undefined : row[own[f]]);
    const key = text(get("orderNo"));
    if (missingColumns.length > 0) return { row: line, key, accepted: false, reasons: missingColumns };
    const reasons: string[] = [];
    for (const f of JETSTOK_REQUIRED_ORDER_FIELDS) {
      if (text(get(f)) === "") reasons.push(rowMessage("missing", { column: JETSTOK_ORDER_COLUMNS[f] }));
    }
    const date = get("orderDate");
    if (text(date) !== "" && !dateOf(date))
      reasons.push(rowMessage("badDate", { column: JETSTOK_ORDER_COLUMNS.orderDate, value: text(date) }));
    for (const f of ["qty", "unitPrice", "vatRate", "discount", "shippingCost"] as const) {
      const v = get(f);
      if (text(v) !== "" && Number.isNaN(numberOf(v)))
        reasons.push(rowMessage("badNumber", { column: JETSTOK_ORDER_COLUMNS[f], value: text(v) }));
    }
    const qty = numberOf(get("qty"));
    if (!Number.isNaN(qty) && qty <= 0)
      reasons.push(rowMessage("notPositive", { column: JETSTOK_ORDER_COLUMNS.qty }));
    return { row: line, key, accepted: reasons.length === 0, reasons };
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.trim().split(/\s+/);
  if (parts.length === 1) return { firstName: parts[0] ?? "", lastName: "" };
  return { firstName: parts.slice(0, -1).join(" "), lastName: parts.at(-1) ?? "" };
}

/**
 * The orders of uploaded orders files, in the order the files came and, within a file, the order its
 * rows first name each order. Rows the check refuses are skipped; an order's lines are every accepted
 * row with its number in that file. An order in two files is listed from each (the later one last):
 * the engine keeps one per order number.
 */
export function ordersFromFiles(files: readonly ShopOrdersFile[]): Order[] {
  const orders: Order[] = [];
  for (const file of files) {
    // Every row's keys: a reader may leave a row's empty cells out.
    const columns = [...new Set(file.rows.flatMap((r) => Object.keys(r)))];
    const own = orderColumnsOf(columns);
    const outcomes = checkJetStokOrderRows(columns, file.rows);
    const groups = new Map<string, Record<string, unknown>[]>();
    file.rows.forEach((row, i) => {
      if (!outcomes[i]?.accepted) return;
      const no = outcomes[i].key;
      const group = groups.get(no);
      if (group) group.push(row);
      else groups.set(no, [row]);
    });
    for (const [orderNo, rows] of groups) orders.push(orderOf(orderNo, rows, own, file.uploadedAt));
  }
  return orders;
}

function orderOf(
  orderNo: string,
  rows: Record<string, unknown>[],
  own: Partial<Record<JetStokOrderField, string>>,
  uploadedAt: string,
): Order {
  const head = rows[0] ?? {};
  const get = (row: Record<string, unknown>, f: JetStokOrderField) =>
    own[f] === undefined ? "" : text(row[own[f]]);
  const num = (row: Record<string, unknown>, f: JetStokOrderField, fallback: number) => {
    const n = numberOf(own[f] === undefined ? undefined : row[own[f]]);
    return Number.isNaN(n) ? fallback : n;
  };
  const lines: OrderLine[] = rows.map((row) => {
    const qty = num(row, "qty", 0);
    const unitPrice = num(row, "unitPrice", 0);
    const discount = num(row, "discount", 0);
    return {
      sku: get(row, "sku"),
      name: get(row, "productName") || get(row, "sku"),
      qty,
      unitPrice,
      vatRate: num(row, "vatRate", JETSTOK_DEFAULT_VAT),
      discount,
      total: round2(qty * unitPrice - discount),
    };
  });
  const { firstName, lastName } = splitName(get(head, "customerName"));
  const taxNumber = get(head, "taxNumber").replace(/\D/g, "") || undefined;
  const companyName = get(head, "companyName") || undefined;
  const address = {
    firstName,
    lastName,
    company: companyName,
    line1: get(head, "address"),
    district: get(head, "district") || undefined,
    city: get(head, "city"),
    country: "Türkiye",
    phone: get(head, "phone") || undefined,
  };
  const email = get(head, "email") || undefined;
  const customer: Customer = {
    // Stable across files: e-mail, else phone, else the tax number, else the name.
    ref: `jetstok:${(email ?? address.phone ?? taxNumber ?? get(head, "customerName")).toLocaleLowerCase("tr-TR")}`,
    firstName,
    lastName,
    companyName,
    email,
    phone: address.phone,
    taxNumber,
    taxOffice: get(head, "taxOffice") || undefined,
    isCompany: taxNumber?.length === 10 || companyName !== undefined,
    billingAddress: address,
    shippingAddress: address,
  };
  const shipping = num(head, "shippingCost", 0);
  const subtotal = round2(lines.reduce((s, l) => s + l.total, 0));
  const tax = round2(lines.reduce((s, l) => s + l.total - l.total / (1 + l.vatRate / 100), 0));
  const createdAt = (
    dateOf(own.orderDate === undefined ? undefined : head[own.orderDate]) ?? new Date(uploadedAt)
  ).toISOString();
  return {
    id: orderNo,
    orderNo,
    createdAt,
    updatedAt: uploadedAt,
    status: get(head, "status") || "Yeni",
    paymentType: get(head, "paymentType") || undefined,
    salesChannel: get(head, "channel") || undefined,
    currency: (get(head, "currency") || "TRY").toUpperCase().replace(/^TL$/, "TRY"),
    customer,
    billingAddress: address,
    shippingAddress: address,
    lines,
    shipping: { cost: shipping },
    totals: {
      subtotal,
      discount: round2(lines.reduce((s, l) => s + l.discount, 0)),
      shipping,
      tax,
      grandTotal: round2(subtotal + shipping),
    },
  };
}
