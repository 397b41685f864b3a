import { message } from "@ep/contracts";
import { erpVatRates, FLOWS, type Flow } from "@ep/engine";
import type { AppContext } from "../../platform/context.ts";
import { runInvoiceCycle } from "./issue.ts";
import { customerLink } from "./links.ts";
import { invoiceRouteOf } from "./route.ts";
import { invoiceProviderOf, loadInvoiceSettings } from "./routes.ts";

/**
 * The InvoiceIntegration job: a company with an e-invoice service (its third connection, or its "ERP" when
 * that is Uyumsoft 8/18, Trendyol e-Faturam 24, or LucaPortal 19 through files) issues the invoices itself
 * (runInvoiceCycle); any other company keeps the engine's flow that moves the ERP's invoices to the shop.
 */
export function invoiceFlow(ctx: Omit<AppContext, "engine">): Flow {
  const erpFlow = FLOWS.InvoiceIntegration;
  return async (flow) => {
    // A marketplace channel's orders are invoiced like the shop's unless the merchant turned it off there.
    if (flow.channel?.settings.invoices === false) return;
    // The ERP's own invoices go to the shop unless a service issues them (then the ERP's are not moved:
    // one invoice per order).
    const { route } = await invoiceRouteOf(ctx.database.db, flow.companyId);
    if (route === "erp") return erpFlow(flow);
    const report = await runInvoiceCycle({
      db: flow.db,
      companyId: flow.companyId,
      shopConnectionId: flow.shopConnectionId,
      // LucaPortal (no API): undefined, the invoices are generated for the file export.
      provider: await invoiceProviderOf(ctx, flow.companyId),
      shop: flow.shop,
      // A channel's connector takes the link and the tracking number back (feedback.ts).
      marketplace: Boolean(flow.channel),
      vatRates: erpVatRates(flow.erp),
      settings: await loadInvoiceSettings(ctx, flow.companyId),
      invoiceLink: (invoice) => customerLink(ctx, invoice),
      now: () => ctx.clock.now(),
    });
    flow.tally.read(report.prepared + report.refreshed);
    flow.tally.changed(report.sent + report.adopted + report.generated + report.tracked);
    // Refused documents stay listed with their reason and next step on the Faturalar screen.
    if (report.waitingRate > 0)
      flow.tally.note(
        message("einvoices.waitingRate", {
          count: report.waitingRate,
          currencies: report.waitingCurrencies.join(", "),
        }),
      );
    if (report.waitingData > 0)
      flow.tally.note(
        message("einvoices.waitingData", {
          count: report.waitingData,
          reasons: report.waitingDataReasons.join("; "),
        }),
      );
    if (report.waitingVat > 0)
      flow.tally.note(
        message("einvoices.waitingVat", { count: report.waitingVat, skus: report.waitingVatSkus.join(", ") }),
      );
    if (report.transient > 0)
      flow.tally.note(message("engine.reportTransientLeft", { count: report.transient }));
  };
}

/** The engine's flows with the invoice job above. */
export function serverFlows(ctx: Omit<AppContext, "engine">) {
  return { ...FLOWS, InvoiceIntegration: invoiceFlow(ctx) };
}
