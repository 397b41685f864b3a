/**
 * Turkish local time of an instant. Turkey keeps UTC+3 all year (no DST since 2016), so the Turkish
 * calendar day and wall clock are a fixed shift of UTC: no time-zone database needed. Turkish ERPs
 * (Mikro, Logo, Netsis, DIA, Nebim, ...) store dates as that wall clock without an offset, and our
 * metering counts calls per Turkish day and month.
 */

export const TURKEY_OFFSET_MS = 3 * 3_600_000;

/** "yyyy-MM-dd HH:mm:ss.SSS", the Turkish wall clock at `ms` (no offset). */
export function turkishDateTime(ms: number): string {
  return new Date(ms + TURKEY_OFFSET_MS).toISOString().replace("T", " ").slice(0, 23);
}

/** "yyyy-MM-dd", the Turkish calendar day of `ms`. */
export function turkishDate(ms: number): string {
  return turkishDateTime(ms).slice(0, 10);
}

/** "yyyy-MM", the Turkish calendar month of `ms`. */
export function turkishMonth(ms: number): string {
  return turkishDateTime(ms).slice(0, 7);
}
