import { formatInvoiceNumber, isValidSeries } from "@ep/einvoice";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/tx-sql.ts";
import { invoiceNumberCounters } from "./schema.ts";

/**
 * Gap-free GİB invoice numbers (`ABC2026000000001`) per company, series and year.
 *
 * The counter row is bumped with one `INSERT … ON CONFLICT DO UPDATE … RETURNING` inside the caller's
 * transaction, the one that records the invoice: the row lock makes concurrent workers take turns
 * (no repeats), and a rolled-back invoice rolls its number back too (no gaps). A PostgreSQL SEQUENCE
 * would not do: sequences are not transactional, so a rollback would leave a gap.
 */
export async function allocateInvoiceNumber(
  tx: Tx,
  request: { companyId: number; series: string; year: number },
): Promise<{ number: string; sequence: number }> {
  if (!isValidSeries(request.series)) throw new RangeError(`Geçersiz fatura serisi: ${request.series}`);
  const c = invoiceNumberCounters;
  const [row] = await tx
    .insert(c)
    .values({ companyId: request.companyId, series: request.series, year: request.year, lastValue: 1 })
    .onConflictDoUpdate({
      target: [c.companyId, c.series, c.year],
      set: { lastValue: sql`${c.lastValue} + 1`, updatedAt: sql`now()` },
    })
    .returning({ lastValue: c.lastValue });
  if (!row) throw new Error("invoice number counter answered no row");
  return {
    number: formatInvoiceNumber(request.series, request.year, row.lastValue),
    sequence: row.lastValue,
  };
}
