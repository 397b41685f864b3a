import type { EInvoiceProvider, ShopConnector } from "@ep/connectors";
import type { EInvoiceProfile, EInvoiceUserDirectory } from "@ep/einvoice";
import type { VatRatesOf } from "@ep/engine";
import type { Db } from "../../platform/db/database.ts";

/** The invoice job's settings (Sipariş Entegrasyonu › Fatura). */
export interface InvoiceJobSettings {
  /** GİB series, three letters/digits. */
  series: string;
  /** Keep documents as drafts at the provider (the company approves them there: SaveAsDraft). */
  draft: boolean;
  /** Which shop orders get an invoice. */
  invoiceWhen: "paid" | "shipped" | "all";
  /** e-Fatura profile for registered buyers. */
  eInvoiceProfile: EInvoiceProfile;
}

/** Automatic retry of sends that failed transiently (5xx, timeouts, dropped answers). */
export interface InvoiceRetryPolicy {
  /** Wait before the first retry; doubled for each further one (default: `leaseMs`). */
  baseMs?: number;
  /** Longest wait between two tries (default 1 hour). */
  maxMs?: number;
  /** Sends tried at most; then the ETTN is looked up once more and the row marked `error` if unknown (default 8). */
  maxAttempts?: number;
}

export interface InvoiceCycleInput {
  db: Db;
  companyId: number;
  shopConnectionId: number;
  /**
   * The e-invoice service. Absent for a portal without an API (LucaPortal): invoices are generated
   * (number, ETTN, UBL checked) and marked `generated` for the file export; nothing is sent.
   */
  provider?: EInvoiceProvider;
  directory?: EInvoiceUserDirectory;
  shop?: ShopConnector;
  /**
   * `shop` is a marketplace channel's connector: the link and the tracking number go back to it once each,
   * claimed and recorded (feedback.ts), instead of the shop's attachment.
   */
  marketplace?: boolean;
  /**
   * The ERP items' VAT rates, for lines whose source gave none (Amazon). Absent (no ERP): such an order
   * waits, never a 0 % invoice.
   */
  vatRates?: VatRatesOf;
  settings: InvoiceJobSettings;
  /** The signed link the shop order carries: the invoice as a page and PDF (routes.ts customerLink). */
  invoiceLink?: (invoice: { id: number; companyId: number; ettn: string }) => string;
  now?: () => Date;
  limit?: number;
  /** A send left unanswered is only looked up again after this long (another worker may still be on it). */
  leaseMs?: number;
  retry?: InvoiceRetryPolicy;
}

export interface InvoiceCycleReport {
  prepared: number;
  /** Sales whose shop order was cancelled or returned after the invoice went out, routed (returns.ts). */
  returns: number;
  /** Returned sales answered by cancelling their e-Arşiv within its period (no IADE needed). */
  cancelled: number;
  /** Foreign-currency orders left uninvoiced: no rate of their own and none of the merchant's. */
  waitingRate: number;
  /** Their currencies (the merchant enters these rates). */
  waitingCurrencies: string[];
  /** e-Arşiv orders left unnumbered for lack of internet-sale data (web address, payment means and date). */
  waitingData: number;
  /** What they lack, in Turkish (einvoice's internetSaleProblems). */
  waitingDataReasons: string[];
  /** Orders left unnumbered: a line without its source's VAT rate and none on its ERP item. */
  waitingVat: number;
  /** Those SKUs. */
  waitingVatSkus: string[];
  /** Generated for the file export (no provider). */
  generated: number;
  sent: number;
  adopted: number;
  failed: number;
  transient: number;
  refreshed: number;
  attached: number;
  /** Marketplace channels: tracking numbers sent, and links or numbers the marketplace refused for good. */
  tracked: number;
  feedbackRefused: number;
}

/** Two passes' reports as one (the manual run: the shop's and each channel's). */
export function sumReports(a: InvoiceCycleReport, b: InvoiceCycleReport): InvoiceCycleReport {
  const out = { ...a };
  for (const key of Object.keys(a) as Array<keyof InvoiceCycleReport>) {
    const [x, y] = [a[key], b[key]];
    if (typeof x === "number" && typeof y === "number") Object.assign(out, { [key]: x + y });
    else if (Array.isArray(x) && Array.isArray(y)) Object.assign(out, { [key]: [...new Set([...x, ...y])] });
  }
  return out;
}
