import { type MessageKey, message } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, asc, eq, gte, lte, notInArray } from "drizzle-orm";
import JSZip from "jszip";
import type { Db } from "../../platform/db/database.ts";
import { excel } from "../../platform/excel.ts";
import { safeRow } from "../../platform/export-cells.ts";
import { inTurns } from "../../platform/turns.ts";
import { buildFor, invoicesWithOrders } from "./documents.ts";
import { einvoices } from "./schema.ts";
import { sellerFromCompany } from "./seller.ts";

const { orderLedger } = engineSchema;
const label = (key: string) => message(`einvoices.export_${key}` as MessageKey);
/** At most this many invoices per file (a day of a large shop fits many times over). */
export const EXPORT_LIMIT = 10_000;

export interface ExportRange {
  /** YYYY-MM-DD, inclusive (Turkish calendar day of issue). */
  from: string;
  to: string;
}

/**
 * A company's invoices issued in the range, for a portal without an API (LucaPortal) or for the
 * accountant: every state that has a document (not `prepared`, not `error`), oldest first.
 */
async function invoicesIn(db: Db, companyId: number, range: ExportRange) {
  return invoicesWithOrders(
    db,
    and(
      eq(einvoices.companyId, companyId),
      eq(orderLedger.companyId, companyId),
      gte(einvoices.issueDate, range.from),
      lte(einvoices.issueDate, range.to),
      notInArray(einvoices.state, ["prepared", "error"]),
    ),
  )
    .orderBy(asc(einvoices.issueDate), asc(einvoices.number))
    .limit(EXPORT_LIMIT);
}

/** The range's invoices as UBL-TR files (one `<number>.xml` each) in a zip, for upload to the portal. */
export async function invoicesUblZip(db: Db, companyId: number, range: ExportRange) {
  const rows = await invoicesIn(db, companyId, range);
  const seller = await sellerFromCompany(db, companyId);
  const zip = new JSZip();
  let files = 0;
  await inTurns(rows, (row) => {
    zip.file(`${row.invoice.number}.xml`, buildFor(row, seller).xml);
    files++;
  });
  const bytes = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
  return { bytes, files };
}

/** The range's invoices as an Excel list (one row per invoice, amounts from the same computation as the UBL). */
export async function invoicesWorkbook(db: Db, companyId: number, range: ExportRange) {
  const rows = await invoicesIn(db, companyId, range);
  const seller = await sellerFromCompany(db, companyId);
  const workbook = new (excel().Workbook)();
  const sheet = workbook.addWorksheet(label("sheet"), { views: [{ state: "frozen", ySplit: 1 }] });
  const money = { numFmt: "#,##0.00" };
  sheet.columns = [
    { header: label("number"), key: "number", width: 20 },
    { header: label("ettn"), key: "ettn", width: 38 },
    { header: label("date"), key: "date", width: 12 },
    { header: label("type"), key: "type", width: 8 },
    { header: label("profile"), key: "profile", width: 15 },
    { header: label("returnOf"), key: "returnOf", width: 20 },
    { header: label("orderNo"), key: "orderNo", width: 18 },
    { header: label("buyer"), key: "buyer", width: 30 },
    { header: label("buyerId"), key: "buyerId", width: 14 },
    { header: label("net"), key: "net", width: 14, style: money },
    { header: label("vat"), key: "vat", width: 14, style: money },
    { header: label("total"), key: "total", width: 14, style: money },
    { header: label("currency"), key: "currency", width: 10 },
    { header: label("state"), key: "state", width: 14 },
  ];
  sheet.getRow(1).font = { bold: true };
  await inTurns(rows, (row) => {
    const { document } = buildFor(row, seller);
    const net = document.lines.reduce((s, l) => s + l.netK, 0);
    const vat = document.lines.reduce((s, l) => s + l.taxK, 0);
    sheet.addRow(
      safeRow({
        number: row.invoice.number,
        ettn: row.invoice.ettn,
        date: row.invoice.issueDate,
        type: row.invoice.type,
        profile: row.invoice.profile,
        returnOf: row.returnOf?.number ?? "",
        orderNo: row.invoice.orderNo,
        buyer: row.invoice.buyer,
        buyerId: document.buyer.taxId,
        net: net / 100,
        vat: vat / 100,
        total: (net + vat) / 100,
        currency: row.invoice.currency,
        state: message(`einvoices.st_${row.invoice.state}` as MessageKey),
      }),
    );
  });
  const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
  return { bytes, rows: rows.length };
}
