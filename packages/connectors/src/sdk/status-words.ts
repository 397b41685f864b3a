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
