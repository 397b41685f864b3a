import type { InvoiceCycleInput, InvoiceCycleReport } from "./cycle-types.ts";
import { sendMarketplaceFeedback } from "./feedback.ts";
import { attach, refresh } from "./follow-up.ts";
import { prepareSales } from "./prepare.ts";
import { routeReturns } from "./route-returns.ts";
import { generate, send } from "./send.ts";

/**
 * One pass of the invoice job for one shop connection:
 * 1. every eligible order without an invoice gets an ETTN and a GİB number, stored (`prepared`) in one
 *    transaction before anything is sent;
 * 2. prepared invoices are sent with `sendOnce`; one whose earlier send went unanswered is looked up by
 *    ETTN first, so a buyer never gets two invoices for one order;
 * 3. pending ones are asked for their GİB status;
 * 4. the number and a PDF link go to the shop order.
 */
export async function runInvoiceCycle(input: InvoiceCycleInput): Promise<InvoiceCycleReport> {
  const report: InvoiceCycleReport = {
    prepared: 0,
    returns: 0,
    cancelled: 0,
    waitingRate: 0,
    waitingCurrencies: [],
    waitingData: 0,
    waitingDataReasons: [],
    waitingVat: 0,
    waitingVatSkus: [],
    generated: 0,
    sent: 0,
    adopted: 0,
    failed: 0,
    transient: 0,
    refreshed: 0,
    attached: 0,
    tracked: 0,
    feedbackRefused: 0,
  };
  await prepareSales(input, report);
  await routeReturns(input, report);
  if (input.provider) {
    await send(input, input.provider, report);
    await refresh(input, input.provider, report);
    if (input.shop && input.marketplace && input.invoiceLink) {
      const fed = await sendMarketplaceFeedback({
        ...input,
        shop: input.shop,
        invoiceLink: input.invoiceLink,
      });
      report.attached += fed.linked;
      report.tracked += fed.tracked;
      report.feedbackRefused += fed.refused;
      report.transient += fed.transient;
    } else if (input.shop) await attach(input, input.shop, report);
  } else await generate(input, report);
  return report;
}
