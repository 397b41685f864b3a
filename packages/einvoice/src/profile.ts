import type { Customer } from "@ep/connectors";

export type EInvoiceProfile = "TEMELFATURA" | "TICARIFATURA";
export type InvoiceProfile = EInvoiceProfile | "EARSIVFATURA";

/**
 * Whether a tax number is a registered e-Fatura user (GİB's user list, asked through the e-invoice
 * provider, e.g. Uyumsoft `IsEInvoiceUser`). The provider connector implements it.
 */
export interface EInvoiceUserDirectory {
  isEInvoiceUser(taxNumber: string): Promise<boolean>;
}

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/** Remembers each answer for a day (GİB's list changes daily at most); failures are not cached. */
export class CachedEInvoiceUserDirectory implements EInvoiceUserDirectory {
  readonly #inner: EInvoiceUserDirectory;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #answers = new Map<string, { value: boolean; at: number }>();
  readonly #pending = new Map<string, Promise<boolean>>();

  constructor(inner: EInvoiceUserDirectory, options: { ttlMs?: number; now?: () => number } = {}) {
    this.#inner = inner;
    this.#ttlMs = options.ttlMs ?? ONE_DAY_MS;
    this.#now = options.now ?? Date.now;
  }

  async isEInvoiceUser(taxNumber: string): Promise<boolean> {
    const cached = this.#answers.get(taxNumber);
    if (cached && this.#now() - cached.at < this.#ttlMs) return cached.value;
    // Concurrent invoices for the same buyer share one provider call.
    const pending = this.#pending.get(taxNumber);
    if (pending) return pending;
    const call = this.#inner
      .isEInvoiceUser(taxNumber)
      .then((value) => {
        this.#answers.set(taxNumber, { value, at: this.#now() });
        return value;
      })
      .finally(() => this.#pending.delete(taxNumber));
    this.#pending.set(taxNumber, call);
    return call;
  }
}

/** Unknown consumer on e-Arşiv: GİB's placeholder TCKN. */
export const UNKNOWN_CONSUMER_TCKN = "11111111111";

export function buyerTaxNumber(customer: Customer): string | undefined {
  const value = customer.taxNumber?.replace(/\s+/g, "");
  return value && /^(\d{10}|\d{11})$/.test(value) && value !== UNKNOWN_CONSUMER_TCKN ? value : undefined;
}

/**
 * e-Fatura (the company's choice of TEMELFATURA/TICARIFATURA) when the buyer's tax number is a
 * registered e-Fatura user, otherwise e-Arşiv.
 */
export async function chooseProfile(
  customer: Customer,
  directory: EInvoiceUserDirectory,
  companyChoice: EInvoiceProfile,
): Promise<InvoiceProfile> {
  const taxNumber = buyerTaxNumber(customer);
  if (!taxNumber) return "EARSIVFATURA";
  return (await directory.isEInvoiceUser(taxNumber)) ? companyChoice : "EARSIVFATURA";
}
