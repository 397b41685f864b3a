import { ConnectorError, type EInvoiceProvider, type Order } from "@ep/connectors";
import { message } from "@ep/contracts";
import { returnRoute } from "@ep/einvoice";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import type { InvoiceCycleInput, InvoiceCycleReport } from "./cycle-types.ts";
import { invoicesWithOrders } from "./documents.ts";
import { isReturned } from "./eligibility.ts";
import { reasonOf } from "./returns.ts";
import { einvoices } from "./schema.ts";

/**
 * A sale whose shop order was cancelled or returned after its invoice went out goes the route einvoice's
 * return rules give (`returnRoute`, sources in packages/einvoice/README.md): an e-Arşiv within its
 * cancellation period is cancelled at the service; otherwise the return invoice is the buyer's to issue (an
 * e-Fatura user's IADE as TEMELFATURA, a company's on its own terms) and a consumer's return after the period
 * is documented by the merchant with a gider pusulası: the seller issues nothing. Each sale is decided once;
 * the route and its reason are kept on the sale for the Faturalar screen.
 */
export async function routeReturns(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const now = input.now ?? (() => new Date());
  const sold = await invoicesWithOrders(
    db,
    and(
      eq(einvoices.companyId, companyId),
      eq(einvoices.shopConnectionId, shopConnectionId),
      eq(einvoices.type, "SATIS"),
      // Out (sent, or generated for upload): a prepared one is not out yet, a refused one never was.
      inArray(einvoices.state, ["queued", "sent", "approved", "generated"]),
      isNull(einvoices.returnRoute),
    ),
  )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const { invoice, payload } of sold) {
    const order = payload as Order;
    if (!isReturned(order)) continue;
    const at = now();
    const route = returnRoute(
      {
        profile: invoice.profile,
        issueDate: invoice.issueDate,
        // The profile was chosen by the buyer's registration when the sale was issued.
        buyerIsEInvoiceUser: invoice.profile !== "EARSIVFATURA",
        buyerIsCompany: order.customer.isCompany === true,
      },
      at,
    );
    let reason = reasonOf(route);
    if (route.route === "cancel") {
      if (input.provider) {
        const outcome = await cancelReturned(db, input.provider, invoice, at);
        if (outcome === "cancelled") {
          report.cancelled++;
          report.returns++;
          continue;
        }
        if (outcome === "later") {
          report.transient++;
          continue;
        }
        reason = "cancelRefused";
      } else reason = "noApi";
    }
    await db
      .update(einvoices)
      .set({ returnRoute: route.route, returnReason: reason, updatedAt: at })
      .where(and(eq(einvoices.id, invoice.id), isNull(einvoices.returnRoute)));
    report.returns++;
  }
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
