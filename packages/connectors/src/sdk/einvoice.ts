/**
 * E-invoice service providers (özel entegratör: Uyumsoft, …): they take a finished UBL-TR document and
 * carry it to GİB. They are not product sources; the engine talks to them through this interface only.
 */

import { EINVOICE_PROVIDER_STATES } from "@ep/contracts";
import type { ConnectionInfo, ConnectorContext, ConnectorDescriptor, Credentials } from "./connector";
import { ConnectorError } from "./errors";
import type { OrderDelivery, OrderPayment } from "./model";

/** GİB processing state of one document, reduced from each provider's own status list. */
export type EInvoiceStatus =
  /** Kept at the provider, not sent (draft waiting for the company's approval). */
  | "draft"
  /** Accepted by the provider, on its way to GİB / the receiver. */
  | "queued"
  /** GİB took it; for a commercial invoice the receiver has not answered yet. */
  | "sent"
  /** Delivered (basic scenario / e-Arşiv) or accepted by the receiver. */
  | "approved"
  /** Declined or returned by the receiver. */
  | "rejected"
  | "cancelled"
  /** The provider or GİB refused it (schema, schematron, signature…). */
  | "error";

export const EINVOICE_STATUSES: readonly EInvoiceStatus[] = EINVOICE_PROVIDER_STATES;

/** One registered e-Fatura user (GİB's user list as the provider serves it). */
export interface EInvoiceUser {
  /** VKN (10 digits) or TCKN (11 digits). */
  vkn: string;
  title?: string;
  /** Receiving alias (posta kutusu etiketi), e.g. "urn:mail:defaultpk@…". */
  alias?: string;
  /** When the user was registered (provider's text, ISO when it says so). */
  since?: string;
  enabled: boolean;
}

export interface SendInvoiceInput {
  /** ETTN: the document's UUID (cbc:UUID); the key every later call uses. */
  ettn: string;
  /** The whole UBL-TR Invoice document. */
  xml: string;
  /** Keep it as a draft at the provider; the company approves it in the provider's portal. */
  draft?: boolean;
  /** e-Fatura (receiver is a registered user) or e-Arşiv; "auto" lets the provider decide by the receiver. */
  scenario?: "eInvoice" | "eArchive" | "auto";
  /** Our own reference kept with the document at the provider (order no). */
  localId?: string;
  /**
   * The same document as data, for providers that take their own JSON instead of UBL (Trendyol e-Faturam).
   * Built from the same computation as the UBL (amounts in kuruş), so both forms always agree.
   */
  document?: EInvoiceDocument;
}

/** A finished invoice as data (the UBL's content): header, buyer, and lines with amounts in kuruş. */
export interface EInvoiceDocument {
  profile: "EARSIVFATURA" | "TEMELFATURA" | "TICARIFATURA";
  type: "SATIS" | "IADE";
  /** GİB number, e.g. ABC2026000000001. */
  number: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  /** HH:MM:SS (Europe/Istanbul); always on an e-Arşiv. */
  issueTime?: string;
  currency: string;
  /** TRY per one unit of `currency` (non-TRY only). */
  exchangeRate?: number;
  /**
   * An e-Arşiv for an internet sale: what the UBL carries (web address, payment, delivery, sending type),
   * for the providers' own fields (Uyumsoft's InternetSalesInfo, Trendyol e-Faturam's paymentInfo and
   * deliveryInfo).
   */
  internetSale?: EInvoiceInternetSale;
  buyer: {
    /** VKN, TCKN, or 11111111111 for an unknown consumer. */
    taxId: string;
    name: string;
    surname?: string;
    city: string;
    district?: string;
    address?: string;
    postalCode?: string;
    email?: string;
    phone?: string;
    taxOffice?: string;
  };
  lines: Array<{
    name: string;
    qty: number;
    vatRate: number;
    /** Net unit price before discounts (kuruş, may carry decimals). */
    unitPriceK: number;
    /** Net discount of the line (kuruş). */
    discountK: number;
    /** Net after discounts (kuruş): the taxable amount. */
    netK: number;
    taxK: number;
  }>;
  /** The invoice a return (IADE) refers to. */
  returnOf?: { number: string; issueDate: string; ettn?: string };
}

export interface EInvoiceInternetSale {
  /** The seller's web address (where the sale was made). */
  website: string;
  /** GİB's "gönderim şekli": ELEKTRONIK or KAGIT. */
  sendingType: "ELEKTRONIK" | "KAGIT";
  payment: OrderPayment & { date: string };
  delivery?: OrderDelivery;
}

export interface SentInvoice {
  ettn: string;
  /** Invoice number the provider gave (GİB format, e.g. "ABC2026000000001"). */
  number?: string;
  status: EInvoiceStatus;
  /** True when the provider already had this ETTN (sendOnce found it after an unanswered send). */
  existed: boolean;
}

export interface EInvoiceStatusInfo {
  ettn: string;
  /** False when the provider does not know the ETTN. */
  found: boolean;
  status?: EInvoiceStatus;
  /** The provider's own status word, verbatim. */
  providerStatus?: string;
  number?: string;
  message?: string;
}

export interface EInvoiceProvider {
  readonly descriptor: ConnectorDescriptor;
  testConnection(): Promise<ConnectionInfo>;
  isEInvoiceUser(vkn: string): Promise<boolean>;
  /** Registered users; with `since`, only those registered at or after it (filtered on our side if needed). */
  listEInvoiceUsers(since?: Date): Promise<EInvoiceUser[]>;
  /** One send. Its outcome may be unknown (`maybeApplied`): use `sendOnce` unless you look it up yourself. */
  sendInvoice(input: SendInvoiceInput): Promise<SentInvoice>;
  queryStatus(ettns: string[]): Promise<EInvoiceStatusInfo[]>;
  /** The provider's rendering of the sent document (PDF bytes). */
  getPdf(ettn: string): Promise<Uint8Array>;
  cancelEArchive(ettn: string, reason: string): Promise<void>;
}

export type EInvoiceProviderFactory = (credentials: Credentials, ctx: ConnectorContext) => EInvoiceProvider;

/**
 * A send's answer that does not name the ETTN we sent: the document may be stored under another id, so
 * the outcome is unknown (`maybeApplied`) and `sendOnce` looks ours up before sending again.
 */
export function ettnNotNamed(system: string, operation: string, ettn: string): ConnectorError {
  return new ConnectorError(`${system} ${operation}: the answer does not name ETTN ${ettn}`, {
    reason: "bad_response",
    system,
    operation,
    maybeApplied: true,
  });
}

/**
 * Send a document exactly once. A send whose answer never came (timeout, connection cut, 5xx) may have
 * been stored: the ETTN is looked up before anything is sent again, and only a provider that does not
 * know it gets the document again (`attempts` sends at most).
 */
export async function sendOnce(
  provider: EInvoiceProvider,
  input: SendInvoiceInput,
  opts: { attempts?: number } = {},
): Promise<SentInvoice> {
  const attempts = Math.max(1, opts.attempts ?? 3);
  let last: ConnectorError | undefined;
  for (let i = 0; i < attempts; i++) {
    try {
      return await provider.sendInvoice(input);
    } catch (e) {
      // Refusals (validation, auth, 429 before it was taken) go up; only an unknown outcome is looked up.
      if (!(e instanceof ConnectorError) || !e.maybeApplied) throw e;
      last = e;
    }
    const [known] = await provider.queryStatus([input.ettn]);
    if (known?.found) {
      return { ettn: input.ettn, number: known.number, status: known.status ?? "queued", existed: true };
    }
  }
  throw last ?? new ConnectorError("sendOnce: no attempt made", { reason: "config" });
}
