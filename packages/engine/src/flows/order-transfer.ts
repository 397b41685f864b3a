import type { Order } from "@ep/connectors";
import { isConnectorError, isReturned, sleep } from "@ep/connectors";
import { message } from "@ep/contracts";
import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import {
  erpVatRates,
  fillVatRates,
  lacksVatRates,
  skusLackingVat,
  type VatRatesOf,
} from "../pricing/order-vat.ts";
import { failureText, MerchantFacingError, systemNamesOf } from "../runs/failure-text.ts";
import { orderLedger, syncCursors } from "../store/schema.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";
import { type Flow, type FlowContext, failRecord, ordersOfConnection } from "./flow.ts";
import { notReturned, recordReturns, settleReturns } from "./order-returns.ts";

const ORDER_CONCURRENCY = 8;
/**
 * An order the ERP refused on a lock (another writer held the row or took the same document number,
 * often this run's own order next to it) changed nothing there: it goes again after a pause, a few
 * times, before it is left for the next run.
 */
const LOCK_RETRIES = 3;
const LOCK_RETRY_PAUSE_MS = 200;

type LedgerRow = typeof orderLedger.$inferSelect;

/**
 * OrderTransfer: every shop order reaches the ERP exactly once.
 * 1. Ingest: orders changed since the cursor go into the order ledger, keyed by (shop, order no);
 *    the cursor moves only after they are committed.
 * 2. Transfer, each order under its own lock: taking the lock also commits `sent` (the intent),
 *    before any ERP call; an order that was ever sent is looked up in the ERP by our reference
 *    first; the ERP document id is committed right after the create. A crash anywhere leaves either no document
 *    (found missing, created once) or one (found, confirmed), never two.
 */
export const orderTransfer: Flow = async (ctx) => {
  const vatRates = erpVatRates(ctx.erp);
  if (!ctx.onlyKeys) {
    const moved = await ingestOrders(ctx, vatRates);
    await settleReturns(ctx, (key) => erpRefOf(ctx, key));
    // New orders and cancellations change what the other channels may offer: they update those SKUs now.
    if (moved.length > 0) await ctx.ordersMoved?.(moved);
  }
  const pending = await pendingOrders(ctx);
  let transientLeft = 0;
  // Why orders were left for the next run, in the merchant's words (e.g. the on-site agent is offline).
  const transientTexts = new Set<string>();
  const customers = new CustomerAccounts(ctx);
  // A few orders at a time: each under its own lock, all within the ERP's shared rate budget.
  const queue = pending.map((row) => ({ row, lockRetries: 0 }));
  let next = 0;
  const worker = async () => {
    while (next < queue.length && !ctx.signal.aborted) {
      const item = queue[next++]!;
      const outcome = await transferOne(ctx, item.row, customers, vatRates, item.lockRetries > 0);
      if (typeof outcome === "string") continue;
      if (outcome.locked && item.lockRetries < LOCK_RETRIES) {
        item.lockRetries++;
        // Spread, so that two orders refused together do not meet again; a stopped run ends the pause.
        const pause = LOCK_RETRY_PAUSE_MS * item.lockRetries * (0.5 + Math.random());
        await sleep(pause, ctx.signal).catch(() => undefined);
        queue.push(item);
        continue;
      }
      transientLeft++;
      transientTexts.add(outcome.text);
    }
  };
  await Promise.all(Array.from({ length: ORDER_CONCURRENCY }, worker));
  if (transientLeft > 0) ctx.tally.note(message("engine.reportTransientLeft", { count: transientLeft }));
  for (const text of [...transientTexts].slice(0, 3)) ctx.tally.note(text);
};

/** Ingests the orders changed since the cursor; answers the SKUs of new orders and of new cancellations. */
async function ingestOrders(ctx: FlowContext, vatRates: VatRatesOf): Promise<string[]> {
  const moved: string[] = [];
  const stream = `orders:${ctx.shopConnectionId}`;
  const [cursorRow] = await ctx.db
    .select()
    .from(syncCursors)
    .where(and(eq(syncCursors.companyId, ctx.companyId), eq(syncCursors.stream, stream)));
  // The cursor is the connector's own opaque high-water mark; it overlaps the last window itself.
  const since = cursorRow?.cursor;
  let high: string | undefined;
  let pageToken: string | undefined;
  do {
    const page = await ctx.shop.listOrders({ since, pageToken });
    ctx.tally.read(page.items.length);
    // An order listed twice on a page (it changed while the shop paged) is ingested once, as last seen.
    const wanted = await withErpVatRates(
      uniqueByKey(
        page.items.filter((o) => shouldTransfer(ctx, o)),
        (o) => ledgerKeyOf(ctx, o),
      ),
      vatRates,
    );
    if (wanted.length > 0) {
      const rows = await ctx.db
        .insert(orderLedger)
        .values(
          wanted.map((o) => ({
            companyId: ctx.companyId,
            shopConnectionId: ctx.shopConnectionId,
            orderNo: ledgerKeyOf(ctx, o),
            shopOrderId: o.id,
            orderDate: new Date(o.createdAt),
            grandTotal: o.totals.grandTotal,
            currency: o.currency,
            shopUpdatedAt: new Date(o.updatedAt),
            payload: o,
          })),
        )
        // Seen before: refresh what the shop says, but never touch the transfer state.
        .onConflictDoUpdate({
          target: [orderLedger.shopConnectionId, orderLedger.orderNo],
          set: {
            shopUpdatedAt: sql`excluded.shop_updated_at`,
            payload: sql`case when ${orderLedger.state} in ('received', 'failed', 'needs_review') then excluded.payload else ${orderLedger.payload} end`,
          },
        })
        // xmax = 0: the row was inserted now (a new order), not updated.
        .returning({ orderNo: orderLedger.orderNo, isNew: sql<boolean>`(xmax = 0)` });
      const fresh = new Set(rows.filter((r) => r.isNew).map((r) => r.orderNo));
      for (const o of wanted) if (fresh.has(ledgerKeyOf(ctx, o))) for (const l of o.lines) moved.push(l.sku);
    }
    // Cancelled or returned since: recorded once on the order's row (order-returns.ts).
    moved.push(...(await recordReturns(ctx, page.items, (o) => ledgerKeyOf(ctx, o))));
    high = page.cursor ?? high;
    pageToken = page.nextPageToken;
  } while (pageToken);
  if (high && high !== cursorRow?.cursor) {
    await ctx.db
      .insert(syncCursors)
      .values({ companyId: ctx.companyId, stream, cursor: high })
      .onConflictDoUpdate({
        target: [syncCursors.companyId, syncCursors.stream],
        set: { cursor: high, updatedAt: new Date() },
      });
  }
  return moved;
}

/**
 * Orders as the ledger keeps them: lines without their source's VAT rate take the ERP item's now, so the
 * invoice flow reads them too (payloads are refreshed here). Best effort: an ERP that cannot answer now
 * leaves them unknown, and the transfer asks again (refusing the order if the ERP has no rate).
 */
async function withErpVatRates(orders: Order[], vatRates: VatRatesOf): Promise<Order[]> {
  if (!orders.some(lacksVatRates)) return orders;
  const rates = await vatRates(skusLackingVat(orders)).catch(() => undefined);
  return rates ? orders.map((o) => (lacksVatRates(o) ? fillVatRates(o, rates).order : o)) : orders;
}

/**
 * The order's key in the ledger (per shop or channel connection, so two channels may reuse a number):
 * the order number, or for a sales channel whose packages share one order number (Trendyol splits an
 * order into shipment packages, each with its own id and lines) `orderNo/packageId`.
 */
export function ledgerKeyOf(ctx: Pick<FlowContext, "channel">, order: Order): string {
  return ctx.channel && order.id !== order.orderNo ? `${order.orderNo}/${order.id}` : order.orderNo;
}

/** Order reference prefixes of the marketplaces (what a merchant recognises in the ERP's document no). */
const CHANNEL_PREFIXES: Record<string, string> = {
  trendyol: "TY-",
  hepsiburada: "HB-",
  n11: "N11-",
  amazon: "AMZ-",
};

/**
 * The reference an order carries into the ERP (its document no, what the ERP is searched by before a
 * retry): the shop's order number unchanged; a channel's with the channel's prefix, so the same number
 * on two channels makes two ERP documents, never one found for the other.
 */
export function erpRefOf(ctx: Pick<FlowContext, "channel">, ledgerKey: string): string {
  if (!ctx.channel) return ledgerKey;
  const prefix =
    ctx.channel.settings.orderPrefix ??
    CHANNEL_PREFIXES[ctx.channel.system] ??
    `${ctx.channel.system.slice(0, 3).toUpperCase()}-`;
  return `${prefix}${ledgerKey}`;
}

function shouldTransfer(ctx: FlowContext, order: Order): boolean {
  const allowed = ctx.mappings.orderStatusesToTransfer;
  if (allowed.length > 0) return allowed.includes(order.status);
  // Cancelled or returned before it was ever seen: nothing to write (order-returns.ts records the rest).
  return !isReturned(order);
}

async function pendingOrders(ctx: FlowContext): Promise<LedgerRow[]> {
  const base = ordersOfConnection(ctx);
  if (ctx.onlyKeys) {
    return ctx.db
      .select()
      .from(orderLedger)
      .where(
        and(
          base,
          notReturned,
          inArray(orderLedger.orderNo, [...ctx.onlyKeys]),
          sql`${orderLedger.state} <> 'confirmed'`,
        ),
      )
      .orderBy(asc(orderLedger.orderDate));
  }
  return ctx.db
    .select()
    .from(orderLedger)
    .where(and(base, notReturned, inArray(orderLedger.state, ["received", "mapped", "sent"])))
    .orderBy(asc(orderLedger.orderDate));
}

/**
 * Takes an order for this worker and, in the same statement, records the intent to create it in the
 * ERP (`sent`, one more attempt). From here on, any later attempt looks the order up first.
 */
async function claim(
  ctx: FlowContext,
  id: number,
): Promise<{ row: LedgerRow; triedBefore: boolean } | undefined> {
  const now = ctx.now();
  const [before] = await ctx.db
    .select({ state: orderLedger.state, attempts: orderLedger.attempts })
    .from(orderLedger)
    .where(eq(orderLedger.id, id));
  if (!before) return undefined;
  const [row] = await ctx.db
    .update(orderLedger)
    .set({
      lockOwner: ctx.workerId,
      lockUntil: new Date(now.getTime() + ctx.lockMs),
      state: "sent",
      attempts: sql`${orderLedger.attempts} + 1`,
      sentAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(orderLedger.id, id),
        eq(orderLedger.attempts, before.attempts),
        sql`${orderLedger.state} <> 'confirmed'`,
        // Cancelled or returned meanwhile: never written (settleReturns decides).
        notReturned,
        or(
          isNull(orderLedger.lockUntil),
          lt(orderLedger.lockUntil, now),
          eq(orderLedger.lockOwner, ctx.workerId),
        ),
      ),
    )
    .returning();
  return row ? { row, triedBefore: before.state === "sent" || before.attempts > 0 } : undefined;
}

async function update(ctx: FlowContext, id: number, set: Partial<typeof orderLedger.$inferInsert>) {
  await ctx.db
    .update(orderLedger)
    .set({ ...set, updatedAt: ctx.now() })
    .where(and(eq(orderLedger.id, id), eq(orderLedger.lockOwner, ctx.workerId)));
}

/**
 * ERP customer accounts of this run, one creation per customer even when two of their orders are
 * transferred at the same moment (only one run of a job is ever active, so this run is the only writer).
 */
class CustomerAccounts {
  private readonly codes = new Map<string, Promise<string>>();
  constructor(private readonly ctx: FlowContext) {}

  codeFor(order: Order): Promise<string> {
    const rule = this.ctx.mappings.customerRule;
    if (rule.kind === "singleAccount") return Promise.resolve(rule.accountCode);
    const ref = order.customer.ref;
    let code = this.codes.get(ref);
    if (!code) {
      code = this.ctx.erp.createCustomer(order.customer).then((c) => c.code);
      // A failed creation is not remembered: the next order of that customer tries again.
      code.catch(() => this.codes.delete(ref));
      this.codes.set(ref, code);
    }
    return code;
  }
}

/** An order left for later: why (the merchant's words), and whether the ERP refused it on a lock. */
type Transient = { text: string; locked: boolean };

async function transferOne(
  ctx: FlowContext,
  candidate: LedgerRow,
  customers: CustomerAccounts,
  vatRates: VatRatesOf,
  retry: boolean,
): Promise<"done" | "skipped" | "failed" | Transient> {
  const claimed = await claim(ctx, candidate.id);
  if (!claimed) return "skipped";
  const { row } = claimed;
  let order = row.payload as Order;
  const erpRef = erpRefOf(ctx, row.orderNo);
  try {
    // Anything that may have reached the ERP before is looked up first.
    if (claimed.triedBefore) {
      const existing = await ctx.erp.findOrderByRef(erpRef);
      if (existing) {
        await update(ctx, row.id, {
          state: "confirmed",
          erpDocumentId: existing.documentId,
          confirmedAt: ctx.now(),
          lastError: null,
          lockOwner: null,
          lockUntil: null,
        });
        ctx.tally.moved([row.orderNo]);
        return "done";
      }
    }
    // Counted once per run, however often a lock sends the order round again.
    if (!retry) ctx.tally.changed(1);
    // A line without its source's rate (Amazon) takes the ERP item's; none there: refused, never 0 %.
    if (lacksVatRates(order)) {
      const filled = fillVatRates(order, await vatRates(skusLackingVat([order])));
      if (filled.missing.length > 0)
        throw new MerchantFacingError("engine.vatRateMissing", { skus: filled.missing.join(", ") });
      order = filled.order;
    }
    const customerCode = row.erpCustomerCode ?? (await customers.codeFor(order));
    // A channel's order names its channel where the ERP keeps it: the sales channel field (mapped to the
    // ERP's code like the shop's channels), the document series chosen for the channel, and the reference.
    const salesChannel = order.salesChannel ?? ctx.channel?.name;
    const mapped: Order = {
      ...order,
      orderNo: erpRef,
      paymentType: order.paymentType
        ? (ctx.mappings.paymentTypes[order.paymentType] ?? order.paymentType)
        : undefined,
      salesChannel: salesChannel ? (ctx.mappings.salesChannels[salesChannel] ?? salesChannel) : undefined,
    };
    const created = await ctx.erp.createSalesOrder({
      order: mapped,
      customerCode,
      location: ctx.mappings.orderWarehouse ?? undefined,
      series: ctx.channel?.settings.orderSeries ?? ctx.mappings.orderSeries,
      channel: ctx.channel?.name,
    });
    await update(ctx, row.id, {
      state: "confirmed",
      erpDocumentId: created.documentId,
      erpCustomerCode: customerCode,
      // With the rates the ERP document was written with: the invoice issues the same ones.
      ...(order !== row.payload ? { payload: order } : {}),
      confirmedAt: ctx.now(),
      lastError: null,
      lockOwner: null,
      lockUntil: null,
    });
    ctx.tally.written([row.orderNo]);
    if (ctx.mappings.statusAfterTransfer) {
      await ctx.shop
        .updateOrderStatus(row.shopOrderId, { status: ctx.mappings.statusAfterTransfer })
        .catch(() => undefined);
    }
    return "done";
  } catch (error) {
    if (isConnectorError(error) && error.kind === "transient") {
      const text = failureText(error, systemNamesOf(ctx.erp, ctx.shop));
      await update(ctx, row.id, {
        lastError: text,
        lockOwner: null,
        lockUntil: null,
      });
      return { text, locked: error.reason === "lock" };
    }
    const text = failureText(error, systemNamesOf(ctx.erp, ctx.shop));
    await update(ctx, row.id, { state: "failed", lastError: text, lockOwner: null, lockUntil: null });
    failRecord(ctx, row.orderNo, error, order);
    return "failed";
  }
}
