import { getSalesChannelDescriptor } from "@ep/connectors";
import { type InvoiceSource, type MessageKey, message } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { turkishDate, turkishDateRange } from "../../platform/time/turkey.ts";
import { listChannels } from "../connections/repository.ts";
import { ERP_INVOICE_DELIVERED, erpDays, serviceDays } from "./count.ts";
import { customerLink } from "./links.ts";
import { returnedPartsOf } from "./returned-parts.ts";
import { cancelRefusal } from "./returns.ts";
import { type EInvoiceState, einvoices } from "./schema.ts";

const { invoiceLedger, orderLedger } = engineSchema;

export interface InvoiceListQuery {
  from?: string | undefined;
  to?: string | undefined;
  state?: EInvoiceState | undefined;
  limit: number;
}

/**
 * The Faturalar screen's rows, newest first: the invoices issued through the e-invoice service and, for a
 * company whose ERP issues them, the ERP's invoices the job delivered to the shop orders (the same
 * invoices the Reports page counts, count.ts). A GİB state filter lists the service's invoices only.
 */
export async function listInvoices(ctx: AppContext, companyId: number, q: InvoiceListQuery) {
  const db = ctx.database.db;
  const range = turkishDateRange({ startDate: q.from, endDate: q.to });
  // Everything but the stored document (large, and the list never shows it).
  const { ubl: _document, ...columns } = getTableColumns(einvoices);
  const rows = await db
    .select(columns)
    .from(einvoices)
    .where(
      and(
        eq(einvoices.companyId, companyId),
        serviceDays(range),
        q.state ? eq(einvoices.state, q.state) : undefined,
      ),
    )
    .orderBy(desc(einvoices.issueDate), desc(einvoices.id))
    .limit(q.limit);
  const now = ctx.clock.now().getTime();
  const originalIds = [...new Set(rows.flatMap((r) => (r.returnOfId ? [r.returnOfId] : [])))];
  const originals = originalIds.length
    ? await db
        .select({ id: einvoices.id, number: einvoices.number })
        .from(einvoices)
        .where(and(eq(einvoices.companyId, companyId), inArray(einvoices.id, originalIds)))
    : [];
  const numberOf = new Map(originals.map((o) => [o.id, o.number]));
  // Partial returns (issue 37): each part that came back, under its sale.
  const partsOf = await returnedPartsOf(
    db,
    rows.flatMap((r) => (r.type === "SATIS" ? [r.id] : [])),
  );
  // The order's source: a marketplace channel by its name, the shop as null (issue 37).
  const channelOf = new Map(
    (await listChannels(db, companyId)).map((c) => [
      c.id,
      getSalesChannelDescriptor(c.systemKey ?? "")?.name ?? c.systemKey ?? "",
    ]),
  );
  const service = rows.map((r) => ({
    source: "service" as InvoiceSource,
    id: r.id,
    number: r.number,
    ettn: r.ettn,
    orderNo: r.orderNo,
    channel: channelOf.get(r.shopConnectionId) ?? null,
    buyer: r.buyer,
    total: r.total,
    currency: r.currency,
    type: r.profile === "EARSIVFATURA" ? ("eArchive" as const) : ("eInvoice" as const),
    profile: r.profile,
    kind: r.type,
    returnOf: r.returnOfId ? (numberOf.get(r.returnOfId) ?? null) : null,
    state: r.state as EInvoiceState | "delivered",
    message: r.message,
    issueDate: r.issueDate,
    issueTime: r.issueTime,
    exchangeRate: r.exchangeRate,
    rateSource: r.rateSource,
    returnRoute: r.returnRoute,
    returnWhy: r.returnReason ? message(`einvoices.returnWhy.${r.returnReason}` as MessageKey) : null,
    returnedParts: partsOf.get(r.id) ?? [],
    attached: r.attachedAt !== null,
    // What the marketplace refused or has not taken yet (its words), for the link or the tracking number.
    marketplaceMessage: r.trackingMessage ?? r.attachMessage,
    trackingNumber: r.trackingNumber,
    trackingSent: r.trackingSentAt !== null,
    cancellable: cancelRefusal(r, now) === null,
    // The document exists once it is out (a prepared one has not been accepted anywhere yet).
    link: r.state === "prepared" || r.state === "error" ? null : customerLink(ctx, r),
  }));
  if (q.state) return service;
  const buyer = sql<string>`coalesce(nullif(${orderLedger.payload}->'customer'->>'companyName', ''), trim(concat_ws(' ', ${orderLedger.payload}->'customer'->>'firstName', ${orderLedger.payload}->'customer'->>'lastName')))`;
  const fromErp = await db
    .select({
      id: invoiceLedger.id,
      number: invoiceLedger.invoiceNo,
      ettn: invoiceLedger.ettn,
      orderNo: invoiceLedger.orderNo,
      attachedAt: invoiceLedger.attachedAt,
      shopConnectionId: invoiceLedger.shopConnectionId,
      buyer,
      total: orderLedger.grandTotal,
      currency: orderLedger.currency,
    })
    .from(invoiceLedger)
    .leftJoin(
      orderLedger,
      and(
        eq(orderLedger.shopConnectionId, invoiceLedger.shopConnectionId),
        eq(orderLedger.orderNo, invoiceLedger.orderNo),
      ),
    )
    .where(and(eq(invoiceLedger.companyId, companyId), ERP_INVOICE_DELIVERED, erpDays(range)))
    .orderBy(desc(invoiceLedger.attachedAt), desc(invoiceLedger.id))
    .limit(q.limit);
  const erp = fromErp.map((r) => ({
    source: "erp" as InvoiceSource,
    id: r.id,
    number: r.number,
    ettn: r.ettn,
    orderNo: r.orderNo,
    channel: channelOf.get(r.shopConnectionId) ?? null,
    buyer: r.buyer ?? "",
    total: r.total ?? 0,
    currency: r.currency ?? "TRY",
    type: null,
    profile: null,
    kind: "SATIS" as const,
    returnOf: null,
    state: "delivered" as const,
    message: null,
    issueDate: r.attachedAt ? turkishDate(r.attachedAt) : "",
    issueTime: null,
    exchangeRate: null,
    rateSource: null,
    returnRoute: null,
    returnWhy: null,
    returnedParts: [],
    attached: true,
    marketplaceMessage: null,
    trackingNumber: null,
    trackingSent: false,
    cancellable: false,
    link: null,
  }));
  return [...service, ...erp]
    .sort((a, b) => b.issueDate.localeCompare(a.issueDate) || b.id - a.id)
    .slice(0, q.limit);
}
