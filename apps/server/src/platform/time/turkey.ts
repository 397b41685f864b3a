/** Turkey keeps UTC+3 all year (no DST since 2016): a Turkish calendar day is a fixed UTC window. */
export const TURKEY_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;

/** The Turkish calendar day of an instant, as YYYY-MM-DD. */
export function turkishDate(at: Date): string {
  return new Date(at.getTime() + TURKEY_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant the Turkish calendar day of `at` began (00:00 in Turkey). */
export function turkishDayStart(at: Date): Date {
  return new Date(Math.floor((at.getTime() + TURKEY_OFFSET_MS) / DAY_MS) * DAY_MS - TURKEY_OFFSET_MS);
}
