import { z } from "zod";
import type { MessageKey } from "../messages/tr.ts";
import { dayParam } from "./common.ts";

const err = (key: MessageKey) => ({ error: key });

/** A foreign currency's ISO code (USD, EUR…): TRY needs no rate. */
export const currencyCode = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, err("einvoices.rateCurrencyInvalid"))
    .refine((c) => c !== "TRY", err("einvoices.rateCurrencyInvalid"));

/** The merchant's exchange rate (Faturalar › Döviz kurları): TRY per one unit, for a day. */
export const exchangeRateSchema = z.object({
  currency: currencyCode(),
  date: dayParam(),
  rate: z.coerce
    .number(err("einvoices.rateInvalid"))
    .positive(err("einvoices.rateInvalid"))
    .max(1_000_000, err("einvoices.rateInvalid")),
});
export type ExchangeRateInput = z.input<typeof exchangeRateSchema>;
export type ExchangeRate = z.output<typeof exchangeRateSchema>;

/** The rates, and the foreign-currency orders waiting for one (per currency). */
export type ExchangeRatesView = {
  rates: ExchangeRate[];
  waiting: Array<{ currency: string; orders: number }>;
};

/** The GİB processing states an e-invoice service reports for a document (each provider's list reduced to these). */
export const EINVOICE_PROVIDER_STATES = [
  "draft",
  "queued",
  "sent",
  "approved",
  "rejected",
  "cancelled",
  "error",
] as const;

/**
 * An e-invoice's state in our books (server, Faturalar screen): `prepared` (ETTN and number taken, nothing sent
 * yet, or a send whose answer never came: look up first), `generated` (for a portal without an API, exported as
 * a file, never sent by us), then what the service reports.
 */
export const EINVOICE_STATES = ["prepared", "generated", ...EINVOICE_PROVIDER_STATES] as const;
export type EInvoiceState = (typeof EINVOICE_STATES)[number];

/** Who issued an invoice the Faturalar screen lists: the e-invoice service through us, or the ERP. */
export type InvoiceSource = "service" | "erp";
