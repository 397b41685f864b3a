import { once } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { type MessageKey, message } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, desc, eq, gte, lt, or } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { EXCEL_DATE_TIME, excel } from "../../platform/excel.ts";
import { safeRow } from "../../platform/export-cells.ts";
import { TURKEY_OFFSET_MS } from "../../platform/time/turkey.ts";
import { inTurns } from "../../platform/turns.ts";

const { orderLedger } = engineSchema;

/** Orders are read in pages of this size; only one page is in memory at a time. */
const BATCH = 2000;

export type ExportRange = { from: Date | null; to: Date | null };

type Customer = { firstName?: string; lastName?: string; companyName?: string };

export function customerName(payload: unknown): string {
  const c = (payload as { customer?: Customer } | null)?.customer;
  return c?.companyName || [c?.firstName, c?.lastName].filter(Boolean).join(" ");
}

const label = (key: string) => message(`salesExport.${key}` as MessageKey);

/**
 * Every order of the range as an .xlsx stream, newest first, with a Toplam row: the workbook is
 * written row by row (exceljs' streaming writer) and the orders read by keyset pages, so memory
 * stays flat at any row count. The Toplam is a SUM formula over the rows, cached with the rows'
 * own sum so a viewer that does not recalculate shows the same figure.
 */
export function salesWorkbookStream(
  db: Db,
  companyId: number,
  range: ExportRange,
  onError: (error: unknown) => void,
): Readable {
  const out = new PassThrough();
  const workbook = new (excel().stream.xlsx.WorkbookWriter)({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(label("sheet"), { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = [
    { header: label("orderNo"), key: "orderNo", width: 18 },
    { header: label("date"), key: "date", width: 18, style: { numFmt: EXCEL_DATE_TIME } },
    { header: label("customer"), key: "customer", width: 32 },
    { header: label("state"), key: "state", width: 20 },
    { header: label("amount"), key: "amount", width: 16, style: { numFmt: "#,##0.00" } },
    { header: label("currency"), key: "currency", width: 12 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const scope = and(
    eq(orderLedger.companyId, companyId),
    range.from ? gte(orderLedger.orderDate, range.from) : undefined,
    range.to ? lt(orderLedger.orderDate, range.to) : undefined,
  );

  const write = async () => {
    let after: { date: Date; id: number } | null = null;
    let written = 0;
    let cents = 0;
    for (;;) {
      const page = await db
        .select({
          id: orderLedger.id,
          orderNo: orderLedger.orderNo,
          orderDate: orderLedger.orderDate,
          state: orderLedger.state,
          grandTotal: orderLedger.grandTotal,
          currency: orderLedger.currency,
          payload: orderLedger.payload,
        })
        .from(orderLedger)
        .where(
          and(
            scope,
            after
              ? or(
                  lt(orderLedger.orderDate, after.date),
                  and(eq(orderLedger.orderDate, after.date), lt(orderLedger.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(orderLedger.orderDate), desc(orderLedger.id))
        .limit(BATCH);
      await inTurns(page, (o) => {
        sheet
          .addRow(
            safeRow({
              orderNo: o.orderNo,
              // Excel has no time zones: dates are written as Turkish wall time.
              date: new Date(o.orderDate.getTime() + TURKEY_OFFSET_MS),
              customer: customerName(o.payload),
              state: label(o.state),
              amount: o.grandTotal,
              currency: o.currency,
            }),
          )
          .commit();
      });
      written += page.length;
      for (const o of page) cents += Math.round(o.grandTotal * 100);
      const last = page.at(-1);
      if (!last || page.length < BATCH) break;
      after = { date: last.orderDate, id: last.id };
      // Let a slow download drain before reading the next page, instead of buffering the file.
      if (out.writableNeedDrain) await once(out, "drain");
    }
    const total = cents / 100;
    const totalRow = sheet.addRow({
      orderNo: label("total"),
      amount: written > 0 ? { formula: `SUM(E2:E${written + 1})`, result: total } : 0,
    });
    totalRow.font = { bold: true };
    totalRow.commit();
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error) => {
    onError(error);
    // A half-written file must not look complete: abort the download.
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
