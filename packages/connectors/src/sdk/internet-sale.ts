/**
 * Internet-sale data (issue 35) read from the names shops give their payment methods. Several shops only
 * carry the method as text the merchant or the platform wrote ("Kredi Kartı", "Havale / EFT", "Kapıda
 * Ödeme", "Credit card"), so one mapping to GİB's words serves them all; shops with an enum map it
 * themselves and fall back to this for free text.
 */

import type { InternetSalePaymentMeans } from "./model";
import { turkishDate } from "./turkish-time";

/** Lower-cased, Turkish letters folded to ASCII, so "KAPIDA ÖDEME" and "kapida odeme" compare equal. */
function fold(text: string): string {
  return text
    .toLocaleLowerCase("tr-TR")
    .replace(/ı/g, "i")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/** Wallets and pay-later services the buyer pays through (GİB: ödeme aracısı), by name. */
const INTERMEDIARY =
  /paypal|papara|wallet|cuzdan|hopi|tosla|param\b|ininal|pay later|sonra ode|alisveris kredisi/;

/**
 * GİB's payment means for a payment method named in free text; `undefined` when the text names none
 * (the shop then leaves `payment` out rather than guessing).
 */
export function paymentMeansOfText(text: string | null | undefined): InternetSalePaymentMeans | undefined {
  const t = fold(text ?? "").trim();
  if (!t) return undefined;
  if (/kapida|cash on delivery|\bcod\b|teslimatta/.test(t)) return "KAPIDAODEME";
  if (/havale|\beft\b|money order|bank transfer|banka transfer|bank deposit/.test(t)) return "EFT/HAVALE";
  if (INTERMEDIARY.test(t)) return "ODEMEARACISI";
  if (/kart|card|kredi|credit|debit|3d|sanal pos|virtual pos/.test(t)) return "KREDIKARTI/BANKAKARTI";
  return "DIGER";
}

/** YYYY-MM-DD in Turkey of an instant (ISO text or ms); undefined when absent or not a date. */
export function saleDate(at: string | number | null | undefined): string | undefined {
  if (at === null || at === undefined || at === "") return undefined;
  const ms = typeof at === "number" ? at : Date.parse(at);
  return Number.isFinite(ms) && ms > 0 ? turkishDate(ms) : undefined;
}

/** An object without its undefined members, or undefined when none is left (keeps orders free of `{}`). */
export function compact<T extends object>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== "");
  return entries.length > 0 ? (Object.fromEntries(entries) as T) : undefined;
}
