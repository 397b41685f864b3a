import { isConnectorError } from "@ep/connectors";
import { message } from "@ep/contracts";
import { and, asc, eq, inArray, notExists, sql } from "drizzle-orm";
import { invoiceLedger, orderLedger } from "../store/schema.ts";
import { type Flow, failRecord, ordersOfConnection } from "./flow.ts";
import { erpRefOf } from "./order-transfer.ts";

const ORDERS_PER_RUN = 500;

/**
 * InvoiceTransfer: invoices the ERP issued for transferred orders are attached to the shop order
 * once, keyed by their ETTN. The ledger row is written (`sending`) before the shop call and
 * confirmed (`sent`) after it.
 */
export const invoiceTransfer: Flow = async (ctx) => {
  const orders = await ctx.db
    .select()
    .from(orderLedger)
    .where(
      and(
        ordersOfConnection(ctx),
        eq(orderLedger.state, "confirmed"),
        ctx.onlyKeys ? inArray(orderLedger.orderNo, [...ctx.onlyKeys]) : undefined,
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(invoiceLedger)
            .where(
              and(
                eq(invoiceLedger.shopConnectionId, orderLedger.shopConnectionId),
                eq(invoiceLedger.orderNo, orderLedger.orderNo),
                eq(invoiceLedger.state, "sent"),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(orderLedger.confirmedAt))
    .limit(ORDERS_PER_RUN);
  let transientLeft = 0;
  for (const order of orders) {
    try {
      // The ERP knows a channel's order by its prefixed reference (order-transfer's erpRefOf).
      const invoices = await ctx.erp.listInvoicesForOrder(erpRefOf(ctx, order.orderNo));
      ctx.tally.read(invoices.length);
      for (const invoice of invoices) {
        if (!invoice.uuid) continue;
        await ctx.db
          .insert(invoiceLedger)
          .values({
            companyId: ctx.companyId,
            shopConnectionId: ctx.shopConnectionId,
            ettn: invoice.uuid,
            orderNo: order.orderNo,
            invoiceNo: invoice.number,
            shopOrderId: order.shopOrderId,
          })
          .onConflictDoNothing();
        const [row] = await ctx.db
          .select()
          .from(invoiceLedger)
          .where(
            and(
              eq(invoiceLedger.shopConnectionId, ctx.shopConnectionId),
              eq(invoiceLedger.ettn, invoice.uuid),
            ),
          );
        if (!row || row.state === "sent") continue;
        ctx.tally.changed(1);
        await ctx.db.update(invoiceLedger).set({ state: "sending" }).where(eq(invoiceLedger.id, row.id));
        await ctx.shop.attachInvoice(order.shopOrderId, { invoice });
        await ctx.db
          .update(invoiceLedger)
          .set({ state: "sent", attachedAt: ctx.now() })
          .where(eq(invoiceLedger.id, row.id));
        ctx.tally.written([order.orderNo]);
      }
    } catch (error) {
      if (isConnectorError(error) && error.kind === "transient") {
        transientLeft++;
        continue;
      }
      failRecord(ctx, order.orderNo, error, { orderNo: order.orderNo });
    }
  }
  if (transientLeft > 0) ctx.tally.note(message("engine.reportTransientLeft", { count: transientLeft }));
};
