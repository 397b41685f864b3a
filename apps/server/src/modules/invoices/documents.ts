import type { Order } from "@ep/connectors";
import { message } from "@ep/contracts";
import { buildUblInvoice, invoiceDocument, paidByInvoiceDay, VAT_EXEMPTION_351 } from "@ep/einvoice";
import { engineSchema, lacksVatRates } from "@ep/engine";
import { and, asc, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../platform/db/database.ts";
import { turkishTime } from "../../platform/time/turkey.ts";
import type { InvoiceCycleInput } from "./cycle-types.ts";
import { einvoices } from "./schema.ts";
import type { sellerFromCompany } from "./seller.ts";

const { orderLedger } = engineSchema;

const original = alias(einvoices, "original");

/** Invoices with their order's payload and, for an IADE, the invoice it returns (the flow and the export). */
export function invoicesWithOrders(db: Db, where: SQL | undefined) {
  return db
    .select({
      invoice: einvoices,
      payload: orderLedger.payload,
      returnOf: { number: original.number, issueDate: original.issueDate, ettn: original.ettn },
    })
    .from(einvoices)
    .innerJoin(
      orderLedger,
      and(
        eq(orderLedger.shopConnectionId, einvoices.shopConnectionId),
        eq(orderLedger.orderNo, einvoices.orderNo),
      ),
    )
    .leftJoin(original, eq(original.id, einvoices.returnOfId))
    .where(where);
}

/** Prepared rows with their order and, for an IADE, the invoice it returns. */
export function preparedRows(input: InvoiceCycleInput, extra?: ReturnType<typeof and>) {
  const { db, companyId, shopConnectionId } = input;
  return invoicesWithOrders(
    db,
    and(
      eq(einvoices.companyId, companyId),
      eq(einvoices.shopConnectionId, shopConnectionId),
      eq(einvoices.state, "prepared"),
      extra,
    ),
  )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
}

export type PreparedRow = Awaited<ReturnType<typeof preparedRows>>[number];

export function buildFor(row: PreparedRow, seller: Awaited<ReturnType<typeof sellerFromCompany>>) {
  const { invoice, payload, returnOf } = row;
  const order =
    invoice.profile === "EARSIVFATURA"
      ? paidByInvoiceDay(payload as Order, invoice.issueDate)
      : (payload as Order);
  // prepareSales numbers only orders whose rates are known; never a 0 % document for an unknown rate.
  if (lacksVatRates(order)) {
    const skus = order.lines.filter((l) => l.vatRateUnknown).map((l) => l.sku);
    throw new RangeError(message("einvoices.waitingVat", { count: 1, skus: skus.join(", ") }));
  }
  const header = {
    profile: invoice.profile,
    type: invoice.type,
    number: invoice.number,
    uuid: invoice.ettn,
    issueDate: invoice.issueDate,
    // Rows from before migration 0048 kept no time: they were numbered when created.
    issueTime: invoice.issueTime ?? turkishTime(invoice.createdAt),
    // 0 % VAT lines (books, …) are issued with 351, as einvoice's README decides; written only on a 0,00
    // VAT subtotal (a rate the source did not give was filled from the ERP item above).
    vatExemption: VAT_EXEMPTION_351,
    ...(invoice.exchangeRate ? { exchangeRate: invoice.exchangeRate } : {}),
    ...(invoice.type === "IADE" && returnOf
      ? { returnOf: { number: returnOf.number, issueDate: returnOf.issueDate } }
      : {}),
  };
  const built = buildUblInvoice(order, seller, header);
  const document = invoiceDocument(order, header, built.amounts, seller);
  if (document.returnOf && returnOf) document.returnOf.ettn = returnOf.ettn;
  return { xml: built.xml, document };
}
