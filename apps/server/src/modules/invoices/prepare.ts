import { randomUUID } from "node:crypto";
import { ConnectorError, type Order } from "@ep/connectors";
import {
  chooseProfile,
  type EInvoiceUserDirectory,
  internetSaleProblems,
  paidByInvoiceDay,
} from "@ep/einvoice";
import { engineSchema, fillVatRates, lacksVatRates, skusLackingVat } from "@ep/engine";
import { and, asc, eq } from "drizzle-orm";
import { turkishDate, turkishTime } from "../../platform/time/turkey.ts";
import type { InvoiceCycleInput, InvoiceCycleReport } from "./cycle-types.ts";
import { isEligible } from "./eligibility.ts";
import { listRates, rateFor } from "./exchange-rates.ts";
import { notInvoiced } from "./not-invoiced.ts";
import { allocateInvoiceNumber } from "./numbering.ts";
import { einvoices } from "./schema.ts";
import { sellerFromCompany } from "./seller.ts";

const { orderLedger } = engineSchema;

class AlreadyInvoiced extends Error {}

function buyerName(order: Order): string {
  const c = order.customer;
  return c.companyName?.trim() || `${c.firstName} ${c.lastName}`.trim() || c.ref;
}

/** Step 1 of the cycle: every eligible order without an invoice gets an ETTN and a GİB number, stored `prepared`. */
export async function prepareSales(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const now = input.now ?? (() => new Date());
  const orders = await db
    .select({
      orderNo: orderLedger.orderNo,
      shopOrderId: orderLedger.shopOrderId,
      payload: orderLedger.payload,
    })
    .from(orderLedger)
    .where(
      and(
        eq(orderLedger.companyId, companyId),
        eq(orderLedger.shopConnectionId, shopConnectionId),
        // The ledger state is about the ERP transfer, which an e-invoice service does not take: the
        // shop order's own state (payload) decides, see isEligible.
        notInvoiced(db, companyId),
      ),
    )
    .orderBy(asc(orderLedger.orderDate))
    .limit(input.limit ?? 500);
  if (orders.length === 0) return;
  // Without a provider nobody can say who is a registered e-Fatura user: every buyer gets an e-Arşiv
  // (inferred; VERIFIED in the README: the merchant corrects a registered buyer's invoice on the portal).
  const directory: EInvoiceUserDirectory = input.directory ??
    input.provider ?? { isEInvoiceUser: async () => false };
  const merchantRates = await listRates(db, companyId);
  // Before any number is taken: settings that cannot make a seller stop the pass (the merchant fixes them).
  const seller = await sellerFromCompany(db, companyId);
  const waiting = new Set<string>();
  const lacking = new Set<string>();
  const noVat = new Set<string>();
  // Read only when an order needs them, as far as its SKUs (one scan a pass); an ERP that cannot answer
  // leaves those orders waiting.
  const vatRates = (order: Order) =>
    input.vatRates?.(skusLackingVat([order])).catch(() => new Map<string, number>()) ??
    Promise.resolve(new Map<string, number>());
  for (const row of orders) {
    let order = row.payload as Order;
    if (!isEligible(order, input.settings.invoiceWhen, input.marketplace)) continue;
    // A line without its source's VAT rate (Amazon) takes the ERP item's, kept on the ledger's order for
    // the document; none there (or no ERP): the order waits unnumbered, never a 0 % invoice.
    const withRates = lacksVatRates(order) ? fillVatRates(order, await vatRates(order)) : undefined;
    if (withRates && withRates.missing.length > 0) {
      report.waitingVat++;
      for (const sku of withRates.missing) noVat.add(sku);
      continue;
    }
    if (withRates) order = withRates.order;
    const at = now();
    const rate = rateFor(order, turkishDate(at), merchantRates);
    if (rate === undefined) {
      // Never a guessed rate: the order waits until the merchant enters one (the Faturalar screen asks).
      report.waitingRate++;
      waiting.add(order.currency.toUpperCase());
      continue;
    }
    let profile: Awaited<ReturnType<typeof chooseProfile>>;
    try {
      profile = await chooseProfile(order.customer, directory, input.settings.eInvoiceProfile);
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === "transient") {
        report.transient++;
        continue;
      }
      throw error;
    }
    // An e-Arşiv of an internet sale needs the web address and the payment (GİB, the integrators): without
    // them the order waits, unnumbered, and the run says what is missing.
    const problems =
      profile === "EARSIVFATURA"
        ? internetSaleProblems(paidByInvoiceDay(order, turkishDate(at)), seller)
        : [];
    if (problems.length > 0) {
      report.waitingData++;
      for (const p of problems) lacking.add(p);
      continue;
    }
    try {
      await db.transaction(async (tx) => {
        const { number } = await allocateInvoiceNumber(tx, {
          companyId,
          series: input.settings.series,
          year: Number(turkishDate(at).slice(0, 4)),
        });
        const inserted = await tx
          .insert(einvoices)
          .values({
            companyId,
            shopConnectionId,
            orderNo: row.orderNo,
            shopOrderId: row.shopOrderId,
            ettn: randomUUID(),
            number,
            profile,
            buyer: buyerName(order),
            total: order.totals.grandTotal,
            currency: order.currency,
            issueDate: turkishDate(at),
            issueTime: turkishTime(at),
            exchangeRate: rate?.rate ?? null,
            rateSource: rate?.source ?? null,
          })
          .onConflictDoNothing()
          .returning({ id: einvoices.id });
        // Another worker invoiced it meanwhile: give the number back with the rollback.
        if (inserted.length === 0) throw new AlreadyInvoiced();
        if (withRates)
          await tx
            .update(orderLedger)
            .set({ payload: withRates.order })
            .where(
              and(eq(orderLedger.shopConnectionId, shopConnectionId), eq(orderLedger.orderNo, row.orderNo)),
            );
      });
      report.prepared++;
    } catch (error) {
      if (!(error instanceof AlreadyInvoiced)) throw error;
    }
  }
  report.waitingCurrencies = [...waiting].sort();
  report.waitingDataReasons = [...lacking];
  report.waitingVatSkus = [...noVat];
}
