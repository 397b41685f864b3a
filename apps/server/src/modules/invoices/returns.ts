import { CANCELLATION_DAYS, daysSinceIssue, type ReturnRoute } from "@ep/einvoice";

/** Why a returned sale went the way it went (rendered as `einvoices.returnWhy.<code>`). */
export const RETURN_REASONS = [
  "cancelWithinPeriod",
  "buyerIssuesIade",
  "companyBuyerIssues",
  "consumerAfterPeriod",
  "partialConsumer",
  "cancelRefused",
  "noApi",
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** The reason code of einvoice's decision (`einvoice.doc.return.<code>`). */
export function reasonOf(route: ReturnRoute): ReturnReason {
  return route.reasonKey.slice(route.reasonKey.lastIndexOf(".") + 1) as ReturnReason;
}

export type CancelRefusal =
  | "einvoices.cancelNotEArchive"
  | "einvoices.cancelTooLate"
  | "einvoices.cancelState";

/**
 * Why an invoice cannot be cancelled now, or null when it can: an e-Arşiv that is out, within the
 * cancellation period einvoice's return rules give (VUK 231/5: 8 days).
 */
export function cancelRefusal(
  row: { profile: string; state: string; issueDate: string },
  nowMs: number,
): CancelRefusal | null {
  if (row.profile !== "EARSIVFATURA") return "einvoices.cancelNotEArchive";
  if (!["queued", "sent", "approved"].includes(row.state)) return "einvoices.cancelState";
  if (daysSinceIssue(row.issueDate, new Date(nowMs)) > CANCELLATION_DAYS) return "einvoices.cancelTooLate";
  return null;
}
