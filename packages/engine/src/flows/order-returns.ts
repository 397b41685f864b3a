import type { Order, OrderLine, ReturnedLine } from "@ep/connectors";
import { isConnectorError, returnKindOf } from "@ep/connectors";
import { message } from "@ep/contracts";
import { and, eq, isNull, sql } from "drizzle-orm";
import { failureText, systemNamesOf } from "../runs/failure-text.ts";
import { orderLedger, orderReturnLines } from "../store/schema.ts";
import { type FlowContext, ordersOfConnection } from "./flow.ts";

/**
 * Cancellations and returns coming back from the shop or a sales channel (a Trendyol package Cancelled /
 * UnSupplied / Returned, Hepsiburada's cancelled lines and accepted claims, n11's returned packages,
 * Amazon's CANCELLED orders: each connector's `listOrders` reads them as status changes).
 *
 * 1. `recordReturns`, while ingesting: an order already in the ledger whose status now says cancelled or
 *    returned is marked once (`return_kind` is set only while empty), with the status word written into
 *    its payload, so the invoice cycle's return route (`routeReturns`: e-Arşiv cancel or the buyer's
 *    IADE) and the stock pool (a cancelled order holds no stock) read it the way they read the shop's.
 *    A return the marketplace reports line by line (`Order.returned`) is recorded per line instead
 *    (`recordReturnedLines`); only when every unit has come back is the whole order marked.
 * 2. `settleReturns`, before any transfer: a recorded order that never reached the ERP is never written
 *    (`not_in_erp`); one in the ERP and cancelled there before it was invoiced is removed by the ERP's own
 *    call where it has one (`erp_cancelled`, idempotent: found by our reference first); any other stays
 *    in the ERP (`kept`) and the run says how many the merchant books as returns there.
 */
export async function recordReturns(ctx: FlowContext, orders: Order[], keyOf: (o: Order) => string) {
  const skus: string[] = [];
  const chosen = ctx.mappings.orderStatusesToTransfer;
  let partOrders = 0;
  let partUnits = 0;
  for (const order of orders) {
    const kind = returnKindOf(order);
    // A status the merchant chose to transfer is an order to write, not a return to settle.
    if (!kind || chosen.includes(order.status)) continue;
    if (kind === "return" && order.returned && order.returned.length > 0) {
      const taken = await recordReturnedLines(ctx, keyOf(order), order.returned);
      if (taken.length === 0) continue;
      skus.push(...taken.map((t) => t.sku));
      if (!taken.some((t) => t.whole)) {
        partOrders++;
        partUnits += taken.reduce((sum, t) => sum + t.qty, 0);
      }
      continue;
    }
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
  if (partOrders > 0)
    ctx.tally.note(message("engine.reportReturnsPartial", { count: partOrders, units: partUnits }));
  return skus;
}

/** The line of the order a return names: by the marketplace's line id, else by SKU, one with units left first. */
function lineOf(lines: OrderLine[], r: ReturnedLine, left: number[]): number {
  const byId = r.lineId ? lines.findIndex((l) => l.externalProductId === r.lineId) : -1;
  if (byId >= 0) return byId;
  const named = lines.flatMap((l, i) => (l.sku === r.sku || l.externalVariantId === r.sku ? [i] : []));
  return named.find((i) => (left[i] ?? 0) > 0) ?? named[0] ?? -1;
}

/**
 * Records each reported return once (by its `ref`) against the ledger's order, under the row's lock so two
 * runs reading the same claim take it once; a line never gives back more units than were ordered (a second
 * return of the same unit is dropped). When every unit of every line has come back, the order is marked
 * returned as a whole (`return_kind`), like one whose status said so. Answers the units taken now.
 */
async function recordReturnedLines(
  ctx: FlowContext,
  key: string,
  returned: ReturnedLine[],
): Promise<{ sku: string; qty: number; whole: boolean }[]> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: orderLedger.id, payload: orderLedger.payload, returnKind: orderLedger.returnKind })
      .from(orderLedger)
      .where(and(ordersOfConnection(ctx), eq(orderLedger.orderNo, key)))
      .for("update");
    // Never ingested (returned before it was seen), or already returned or cancelled as a whole.
    if (!row || row.returnKind) return [];
    const lines = (row.payload as Partial<Order>).lines ?? [];
    const before = await tx
      .select({ ref: orderReturnLines.ref, lineNo: orderReturnLines.lineNo, qty: orderReturnLines.qty })
      .from(orderReturnLines)
      .where(eq(orderReturnLines.ledgerId, row.id));
    const known = new Set(before.map((b) => b.ref));
    const left = lines.map((l) => l.qty);
    for (const b of before) left[b.lineNo] = (left[b.lineNo] ?? 0) - b.qty;
    const fresh: (typeof orderReturnLines.$inferInsert)[] = [];
    for (const r of returned) {
      if (known.has(r.ref)) continue;
      const lineNo = lineOf(lines, r, left);
      const qty = Math.min(r.qty, left[lineNo] ?? 0);
      if (!(qty > 0)) continue;
      left[lineNo] = (left[lineNo] ?? 0) - qty;
      known.add(r.ref);
      fresh.push({
        companyId: ctx.companyId,
        ledgerId: row.id,
        ref: r.ref,
        lineNo,
        sku: lines[lineNo]?.sku ?? r.sku,
        qty,
        returnedAt: ctx.now(),
      });
    }
    if (fresh.length === 0) return [];
    await tx.insert(orderReturnLines).values(fresh).onConflictDoNothing();
    const whole = left.every((q) => q <= 0);
    if (whole)
      await tx
        .update(orderLedger)
        .set({
          returnKind: "return",
          channelStatus: "Returned",
          returnedAt: ctx.now(),
          returnState: "pending",
          payload: sql`${orderLedger.payload} || ${JSON.stringify({ status: "Returned" })}::jsonb`,
          updatedAt: ctx.now(),
        })
        .where(and(eq(orderLedger.id, row.id), isNull(orderLedger.returnKind)));
    return fresh.map((f) => ({ sku: f.sku, qty: f.qty, whole }));
  });
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
