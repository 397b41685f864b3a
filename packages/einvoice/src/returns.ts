import type { MessageKey } from "@ep/contracts";
import type { InvoiceProfile } from "./profile.ts";

/**
 * What happens, by GİB's rules, when a sale's goods come back (the decision table with its sources is in
 * this package's README, "Returns"):
 * - an e-Arşiv within its 8 days is cancelled (the integrators' cancel operation, e.g. izibiz
 *   CancelEArchiveInvoice "müşteri tarafından iade edilen belge"; VUK 231/5 as GİB's İptal/İtiraz guide
 *   quotes it: objections and cancellations within 8 days of receipt);
 * - otherwise the return invoice (IADE) is the buyer's document (the buyer returns the goods and invoices
 *   them), as TEMELFATURA for an e-Fatura user (izibiz: "İade faturası TEMELFATURA olarak gönderilmesi
 *   zorunludur"; GİB's current schematron refuses IADE on TICARIFATURA): the seller issues nothing;
 * - a consumer issues no invoice: after the period the seller documents the return with a gider pusulası,
 *   which is not an e-invoice: nothing is issued here either, the panel says so.
 */

export type ReturnRouteKind = "cancel" | "iade" | "none";

export interface ReturnRoute {
  route: ReturnRouteKind;
  /** Who issues the document of the route: the seller cancels; an IADE is issued by the buyer. */
  by?: "seller" | "buyer";
  /** The profile the buyer's IADE carries, when it is an e-Fatura. */
  profile?: InvoiceProfile;
  /** Message key (all seven catalogues) the panel shows as the reason. */
  reasonKey: Extract<MessageKey, `einvoice.doc.return.${string}`>;
}

/** Days after the invoice date within which it can still be cancelled (VUK 231/5: eight days). */
export const CANCELLATION_DAYS = 8;

const DAY_MS = 86_400_000;

/** Calendar days from `issueDate` to `now`, both in Europe/Istanbul (UTC+3 all year since 2016). */
export function daysSinceIssue(issueDate: string, now: Date): number {
  const today = new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${issueDate}T00:00:00Z`)) / DAY_MS);
}

export function returnRoute(
  original: {
    profile: InvoiceProfile;
    /** YYYY-MM-DD (Europe/Istanbul). */
    issueDate: string;
    /** The buyer is a registered e-Fatura user now (the provider's IsEInvoiceUser). */
    buyerIsEInvoiceUser: boolean;
    /** The buyer is a company or a taxpayer who issues invoices (Customer.isCompany), not a consumer. */
    buyerIsCompany?: boolean;
    /**
     * Only some lines or units came back (`returnedPart`): an e-Arşiv is cancelled only whole, so the part
     * goes the way a later return does, and a consumer's part is the merchant's gider pusulası at once.
     */
    partial?: boolean;
  },
  now: Date,
): ReturnRoute {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(original.issueDate))
    throw new RangeError(`Geçersiz fatura tarihi: ${original.issueDate}`);
  const inPeriod = daysSinceIssue(original.issueDate, now) <= CANCELLATION_DAYS;
  if (original.profile === "EARSIVFATURA" && inPeriod && !original.partial)
    return { route: "cancel", by: "seller", reasonKey: "einvoice.doc.return.cancelWithinPeriod" };
  if (original.buyerIsEInvoiceUser || original.profile !== "EARSIVFATURA")
    return {
      route: "iade",
      by: "buyer",
      profile: "TEMELFATURA",
      reasonKey: "einvoice.doc.return.buyerIssuesIade",
    };
  if (original.buyerIsCompany)
    return { route: "iade", by: "buyer", reasonKey: "einvoice.doc.return.companyBuyerIssues" };
  if (inPeriod) return { route: "none", reasonKey: "einvoice.doc.return.partialConsumer" };
  return { route: "none", reasonKey: "einvoice.doc.return.consumerAfterPeriod" };
}

/**
 * The profile an IADE may carry, given the sale's: GİB's current schematron (InvoiceTypeCodeCheck) allows
 * IADE only on TEMELFATURA, EARSIVFATURA (and sector profiles we do not issue), so a TICARIFATURA's
 * return goes as TEMELFATURA.
 */
export function iadeProfile(saleProfile: InvoiceProfile): InvoiceProfile {
  return saleProfile === "TICARIFATURA" ? "TEMELFATURA" : saleProfile;
}
