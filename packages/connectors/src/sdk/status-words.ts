/**
 * Shops' own status words ("CANCELLED", "İptal Edildi", "ÖDENDİ", "TESLİM EDİLDİ"), matched the same way
 * everywhere an order's state is inferred from them. A JavaScript `/i` pattern does not fold the Turkish
 * capital "İ" to "i" ("İPTAL" never matched /iptal/i): it is folded first.
 */
export function statusSays(pattern: RegExp, status: string | undefined): boolean {
  return pattern.test((status ?? "").replace(/İ/g, "i"));
}

/** A shop order that was cancelled or refunded, by its status word. */
export const CANCELLED_STATUS = /cancel|iptal|refund|iade/i;

/** Status words of an order whose goods come back (a return, a refund). */
const RETURN_WORDS = /return|iade|refund/i;
/** A cancellation or return the shop or marketplace refused. */
const REJECTED_WORDS = /reject|reddedildi/i;
/** Status words of an order that will not ship: cancelled, or a marketplace's "could not supply". */
const CANCEL_WORDS = /cancel|iptal|unsupplied/i;

/**
 * Whether a shop's or channel's order was cancelled or returned (its status or payment status says so):
 * what order transfer records once per order and the invoice cycle answers with a return.
 */
export function returnKindOf(order: {
  status?: string;
  paymentStatus?: string;
}): "return" | "cancel" | undefined {
  // A refused request ("REFUND_REJECTED", "CANCEL_REJECTED", "İade Reddedildi") leaves the order as it was.
  if (statusSays(REJECTED_WORDS, order.status)) return undefined;
  if (statusSays(RETURN_WORDS, order.status) || statusSays(RETURN_WORDS, order.paymentStatus))
    return "return";
  if (statusSays(CANCEL_WORDS, order.status) || statusSays(CANCEL_WORDS, order.paymentStatus))
    return "cancel";
  return undefined;
}

/** A shop order that was cancelled or returned (by `returnKindOf`). */
export function isReturned(order: { status?: string; paymentStatus?: string }): boolean {
  return returnKindOf(order) !== undefined;
}
