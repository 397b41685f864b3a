import { ConnectorError, type EInvoiceProvider, type Order } from "@ep/connectors";
import { message } from "@ep/contracts";
import { returnRoute } from "@ep/einvoice";
import { engineSchema } from "@ep/engine";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import type { InvoiceCycleInput, InvoiceCycleReport } from "./cycle-types.ts";
import { invoicesWithOrders } from "./documents.ts";
import { isReturned } from "./eligibility.ts";
import { type ReturnReason, reasonOf } from "./returns.ts";
import { einvoices } from "./schema.ts";

const { orderLedger, orderReturnLines } = engineSchema;

/** Sales that are out (sent, or generated for upload): a prepared one is not out yet, a refused one never was. */
const OUT_STATES = ["queued", "sent", "approved", "generated"] as const;

type Sale = typeof einvoices.$inferSelect;
type Decision = { route: "cancel" | "iade" | "none"; reason: ReturnReason };

/**
 * A sale whose shop order was cancelled or returned after its invoice went out goes the route einvoice's
 * return rules give (`returnRoute`, sources in packages/einvoice/README.md): an e-Arşiv within its
 * cancellation period is cancelled at the service; otherwise the return invoice is the buyer's to issue (an
 * e-Fatura user's IADE as TEMELFATURA, a company's on its own terms) and a consumer's return after the period
 * is documented by the merchant with a gider pusulası: the seller issues nothing. Each sale is decided once;
 * the route and its reason are kept on the sale for the Faturalar screen.
 *
 * Returns reported line by line (`order_return_lines`, engine `order-returns.ts`) are decided per return:
 * while only part of the sale came back the e-Arşiv is never cancelled (it can only be cancelled whole), and
 * each part keeps its own route, reason and sale; the sale itself is decided only when one pass sees every
 * unit of it come back with none decided before.
 */
export async function routeReturns(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const sold = await invoicesWithOrders(
    db,
    and(
      eq(einvoices.companyId, companyId),
      eq(einvoices.shopConnectionId, shopConnectionId),
      eq(einvoices.type, "SATIS"),
      inArray(einvoices.state, [...OUT_STATES]),
      isNull(einvoices.returnRoute),
      // Returned line by line: decided below, per return.
      sql`not exists (select 1 from order_return_lines x where x.ledger_id = ${orderLedger.id})`,
    ),
  )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const { invoice, payload } of sold) {
    const order = payload as Order;
    if (!isReturned(order)) continue;
    const decided = await decide(input, invoice, order, false, report);
    if (decided) await markSale(db, invoice.id, decided, input);
  }
  await routeReturnedLines(input, report);
}

async function routeReturnedLines(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const rows = await db
    .select({ ledgerId: orderReturnLines.ledgerId, invoice: einvoices, payload: orderLedger.payload })
    .from(orderReturnLines)
    .innerJoin(orderLedger, eq(orderLedger.id, orderReturnLines.ledgerId))
    .innerJoin(
      einvoices,
      and(
        eq(einvoices.shopConnectionId, orderLedger.shopConnectionId),
        eq(einvoices.orderNo, orderLedger.orderNo),
        eq(einvoices.type, "SATIS"),
        inArray(einvoices.state, [...OUT_STATES]),
      ),
    )
    .where(
      and(
        eq(orderReturnLines.companyId, companyId),
        eq(orderLedger.shopConnectionId, shopConnectionId),
        isNull(orderReturnLines.routedAt),
      ),
    )
    .orderBy(asc(orderReturnLines.ledgerId))
    .limit(input.limit ?? 500);
  // One decision per sale, whatever number of its returns are waiting.
  const open = new Map(rows.map((r) => [r.ledgerId, r]));
  for (const { ledgerId, invoice, payload } of open.values()) {
    const order = payload as Order;
    const all = await db.select().from(orderReturnLines).where(eq(orderReturnLines.ledgerId, ledgerId));
    const fresh = all.filter((l) => l.routedAt === null);
    const back = new Map<number, number>();
    for (const l of all) back.set(l.lineNo, (back.get(l.lineNo) ?? 0) + l.qty);
    const whole =
      invoice.returnRoute === null &&
      fresh.length === all.length &&
      order.lines.every((l, i) => (back.get(i) ?? 0) >= l.qty);
    const decided = await decide(input, invoice, order, !whole, report);
    if (!decided) continue;
    if (whole) await markSale(db, invoice.id, decided, input);
    await db
      .update(orderReturnLines)
      .set({
        ...decided,
        einvoiceId: invoice.id,
        part: Math.max(0, ...all.map((l) => l.part ?? 0)) + 1,
        routedAt: now(input),
      })
      .where(
        and(
          inArray(
            orderReturnLines.id,
            fresh.map((l) => l.id),
          ),
          isNull(orderReturnLines.routedAt),
        ),
      );
  }
}

const now = (input: InvoiceCycleInput) => (input.now ?? (() => new Date()))();

/** The route of a returned sale (or part of one), cancelling at the service when it says so; undefined: later. */
async function decide(
  input: InvoiceCycleInput,
  invoice: Sale,
  order: Order,
  partial: boolean,
  report: InvoiceCycleReport,
): Promise<Decision | undefined> {
  const at = now(input);
  const route = returnRoute(
    {
      profile: invoice.profile,
      issueDate: invoice.issueDate,
      // The profile was chosen by the buyer's registration when the sale was issued.
      buyerIsEInvoiceUser: invoice.profile !== "EARSIVFATURA",
      buyerIsCompany: order.customer.isCompany === true,
      partial,
    },
    at,
  );
  let reason = reasonOf(route);
  if (route.route === "cancel") {
    if (input.provider) {
      const outcome = await cancelReturned(input.db, input.provider, invoice, at);
      if (outcome === "cancelled") {
        report.cancelled++;
        report.returns++;
        return { route: "cancel", reason: "cancelWithinPeriod" };
      }
      if (outcome === "later") {
        report.transient++;
        return undefined;
      }
      reason = "cancelRefused";
    } else reason = "noApi";
  }
  report.returns++;
  return { route: route.route, reason };
}

async function markSale(db: Db, id: number, decided: Decision, input: InvoiceCycleInput) {
  await db
    .update(einvoices)
    .set({ returnRoute: decided.route, returnReason: decided.reason, updatedAt: now(input) })
    .where(and(eq(einvoices.id, id), isNull(einvoices.returnRoute)));
}

/**
 * Cancels a returned sale's e-Arşiv at the service. Exactly once like a send: an unanswered or refused
 * cancel is settled by asking the service for the document's state (already cancelled counts as done).
 */
async function cancelReturned(
  db: Db,
  provider: EInvoiceProvider,
  invoice: { id: number; ettn: string },
  at: Date,
): Promise<"cancelled" | "later" | "refused"> {
  const mark = () =>
    db
      .update(einvoices)
      .set({ state: "cancelled", returnRoute: "cancel", returnReason: "cancelWithinPeriod", updatedAt: at })
      .where(eq(einvoices.id, invoice.id));
  try {
    await provider.cancelEArchive(invoice.ettn, message("einvoices.returnCancelNote"));
    await mark();
    return "cancelled";
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    const [known] = await provider.queryStatus([invoice.ettn]).catch(() => [undefined]);
    if (known?.found && known.status === "cancelled") {
      await mark();
      return "cancelled";
    }
    return error.kind === "transient" || error.maybeApplied || known === undefined ? "later" : "refused";
  }
}
