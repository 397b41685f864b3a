import type { Order } from "@ep/connectors";
import { isConnectorError, returnKindOf } from "@ep/connectors";
import { message } from "@ep/contracts";
import { and, eq, isNull, sql } from "drizzle-orm";
import { failureText, systemNamesOf } from "../runs/failure-text.ts";
import { orderLedger } from "../store/schema.ts";
import { type FlowContext, ordersOfConnection } from "./flow.ts";

/**
 * Cancellations and returns coming back from the shop or a sales channel (a Trendyol package Cancelled /
 * UnSupplied / Returned, Hepsiburada's cancelled lines and accepted claims, n11's returned packages,
 * Amazon's CANCELLED orders: each connector's `listOrders` reads them as status changes).
 *
 * 1. `recordReturns`, while ingesting: an order already in the ledger whose status now says cancelled or
 *    returned is marked once (`return_kind` is set only while empty), with the status word written into
 *    its payload, so the invoice cycle's return route (`prepareReturns`: e-Arşiv cancel or the buyer's
 *    IADE) and the stock pool (a cancelled order holds no stock) read it the way they read the shop's.
 * 2. `settleReturns`, before any transfer: a recorded order that never reached the ERP is never written
 *    (`not_in_erp`); one in the ERP and cancelled there before it was invoiced is removed by the ERP's own
 *    call where it has one (`erp_cancelled`, idempotent: found by our reference first); any other stays
 *    in the ERP (`kept`) and the run says how many the merchant books as returns there.
 */
export async function recordReturns(ctx: FlowContext, orders: Order[], keyOf: (o: Order) => string) {
  const skus: string[] = [];
  const chosen = ctx.mappings.orderStatusesToTransfer;
  for (const order of orders) {
    const kind = returnKindOf(order);
    // A status the merchant chose to transfer is an order to write, not a return to settle.
    if (!kind || chosen.includes(order.status)) continue;
    const said: Record<string, string> = { status: order.status };
    if (order.paymentStatus) said.paymentStatus = order.paymentStatus;
    const marked = await ctx.db
      .update(orderLedger)
      .set({
        returnKind: kind,
        channelStatus: order.status,
        returnedAt: ctx.now(),
        returnState: "pending",
        payload: sql`${orderLedger.payload} || ${JSON.stringify(said)}::jsonb`,
        updatedAt: ctx.now(),
      })
      .where(
        and(ordersOfConnection(ctx), eq(orderLedger.orderNo, keyOf(order)), isNull(orderLedger.returnKind)),
      )
      .returning({ id: orderLedger.id });
    if (marked.length > 0) for (const line of order.lines) skus.push(line.sku);
  }
  return skus;
}

export async function settleReturns(ctx: FlowContext, erpRefOf: (key: string) => string): Promise<void> {
  const rows = await ctx.db
    .select()
    .from(orderLedger)
    .where(and(ordersOfConnection(ctx), eq(orderLedger.returnState, "pending")));
  let cancelledInErp = 0;
  let kept = 0;
  for (const row of rows) {
    if (ctx.signal.aborted) break;
    const ref = erpRefOf(row.orderNo);
    try {
      let state: "erp_cancelled" | "not_in_erp" | "kept";
      // Only a `sent` order may or may not have reached the ERP: it is looked up.
      const inErp =
        row.state === "confirmed" || (row.state === "sent" && (await ctx.erp.findOrderByRef(ref)) !== null);
      if (!inErp) state = "not_in_erp";
      else if (
        row.returnKind === "cancel" &&
        ctx.erp.cancelSalesOrder &&
        (await ctx.erp.listInvoicesForOrder(ref)).length === 0
      ) {
        await ctx.erp.cancelSalesOrder(ref);
        state = "erp_cancelled";
        cancelledInErp++;
        ctx.tally.written([row.orderNo]);
      } else {
        state = "kept";
        kept++;
      }
      await ctx.db
        .update(orderLedger)
        .set({ returnState: state, updatedAt: ctx.now() })
        .where(and(eq(orderLedger.id, row.id), eq(orderLedger.returnState, "pending")));
    } catch (error) {
      // Left pending: the next run asks again (the ERP's removal is idempotent).
      if (!isConnectorError(error)) throw error;
      ctx.tally.note(failureText(error, systemNamesOf(ctx.erp, ctx.shop)));
    }
  }
  if (cancelledInErp > 0)
    ctx.tally.note(message("engine.reportReturnsCancelledInErp", { count: cancelledInErp }));
  if (kept > 0) ctx.tally.note(message("engine.reportReturnsKeptInErp", { count: kept }));
}

/** Ledger rows never to be transferred: those their shop or channel cancelled or returned. */
export const notReturned = isNull(orderLedger.returnKind);
