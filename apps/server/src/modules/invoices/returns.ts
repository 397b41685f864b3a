import type { InvoiceProfile } from "@ep/einvoice";

const DAY_MS = 86_400_000;
/** Inferred from GİB's e-Arşiv guide: a cancellation is accepted within 7 days of issue. */
export const EARCHIVE_CANCEL_DAYS = 7;

/** Why a returned sale went the way it went (rendered as `einvoices.returnWhy.<code>`). */
export const RETURN_REASONS = [
  "cancelWithinPeriod",
  "cancelTooLate",
  "notEArchive",
  "cancelRefused",
  "noApi",
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export type CancelRefusal =
  | "einvoices.cancelNotEArchive"
  | "einvoices.cancelTooLate"
  | "einvoices.cancelState";

/** Why an invoice cannot be cancelled now, or null when it can (an e-Arşiv, out, within its period). */
export function cancelRefusal(
  row: { profile: string; state: string; issueDate: string },
  nowMs: number,
): CancelRefusal | null {
  if (row.profile !== "EARSIVFATURA") return "einvoices.cancelNotEArchive";
  if (!["queued", "sent", "approved"].includes(row.state)) return "einvoices.cancelState";
  if (pastCancelPeriod(row.issueDate, nowMs)) return "einvoices.cancelTooLate";
  return null;
}

export type ReturnDecision =
  | { route: "cancel"; reason: ReturnReason }
  | { route: "iade"; reason: ReturnReason; profile: InvoiceProfile };

/**
 * The route of a sale whose shop order was returned or cancelled after its invoice went out: an e-Arşiv
 * still within its cancellation period is cancelled (the integrators' route for a consumer's return);
 * anything else is answered by an IADE invoice. The IADE keeps the sale's profile except TICARIFATURA,
 * whose return GİB's current schematron refuses: it goes as TEMELFATURA.
 */
export function decideReturn(
  sale: { profile: InvoiceProfile; issueDate: string },
  nowMs: number,
  canCancel: boolean,
): ReturnDecision {
  const reason: ReturnReason =
    sale.profile !== "EARSIVFATURA"
      ? "notEArchive"
      : pastCancelPeriod(sale.issueDate, nowMs)
        ? "cancelTooLate"
        : canCancel
          ? "cancelWithinPeriod"
          : "noApi";
  if (reason === "cancelWithinPeriod") return { route: "cancel", reason };
  return { route: "iade", reason, profile: sale.profile === "TICARIFATURA" ? "TEMELFATURA" : sale.profile };
}

function pastCancelPeriod(issueDate: string, nowMs: number): boolean {
  return nowMs - Date.parse(`${issueDate}T00:00:00+03:00`) > (EARCHIVE_CANCEL_DAYS + 1) * DAY_MS;
}
