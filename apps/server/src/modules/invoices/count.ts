import { engineSchema } from "@ep/engine";
import { and, eq, gte, lt, notInArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { turkishDate } from "../../platform/time/turkey.ts";
import { einvoices } from "./schema.ts";

const { invoiceLedger } = engineSchema;

/** A half-open range of instants (the reports' `turkishDateRange`); null = open. */
export interface InstantRange {
  from: Date | null;
  to: Date | null;
}

/**
 * What "an invoice" is wherever the panel counts invoices (the Faturalar screen and the Reports page):
 * one invoice document of a shop order that left us —
 * - issued through the e-invoice service: every SATIS or IADE that is out (any state but `prepared`, not
 *   sent yet, and `error`, never accepted), on its Turkish issue day;
 * - or issued by the ERP and delivered to the shop order by the invoice job (invoice ledger `sent`), on the
 *   day it was delivered.
 */
export const SERVICE_INVOICE_OUT = notInArray(einvoices.state, ["prepared", "error"]);
export const ERP_INVOICE_DELIVERED = eq(invoiceLedger.state, "sent");

/** The issue-day filter of service invoices for an instant range (Turkish calendar days). */
export function serviceDays(range: InstantRange): SQL | undefined {
  return and(
    range.from ? gte(einvoices.issueDate, turkishDate(range.from)) : undefined,
    // The range's end is exclusive and falls on a Turkish midnight: the day it begins is outside.
    range.to ? lt(einvoices.issueDate, turkishDate(range.to)) : undefined,
  );
}

export function erpDays(range: InstantRange): SQL | undefined {
  return and(
    range.from ? gte(invoiceLedger.attachedAt, range.from) : undefined,
    range.to ? lt(invoiceLedger.attachedAt, range.to) : undefined,
  );
}

/** The company's invoices in the range by the definition above, by who issued them. */
export async function countInvoices(
  db: Db,
  companyId: number,
  range: InstantRange,
): Promise<{ total: number; service: number; erp: number }> {
  const [service] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(einvoices)
    .where(and(eq(einvoices.companyId, companyId), SERVICE_INVOICE_OUT, serviceDays(range)));
  const [erp] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(invoiceLedger)
    .where(and(eq(invoiceLedger.companyId, companyId), ERP_INVOICE_DELIVERED, erpDays(range)));
  const s = service?.n ?? 0;
  const e = erp?.n ?? 0;
  return { total: s + e, service: s, erp: e };
}
