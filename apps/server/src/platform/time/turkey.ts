/**
 * The server's Turkish calendar, on the connectors' one Turkish-time helper (UTC+3 all year, so a
 * Turkish calendar day is a fixed UTC window).
 */
import { TURKEY_OFFSET_MS, turkishDate as turkishDateOfMs } from "@ep/connectors";

export { TURKEY_OFFSET_MS };

const DAY_MS = 86_400_000;

/** The Turkish calendar day of an instant, as YYYY-MM-DD. */
export function turkishDate(at: Date): string {
  return turkishDateOfMs(at.getTime());
}

/** The Turkish clock time of an instant, HH:MM:SS (an e-Arşiv's issue time). */
export function turkishTime(at: Date): string {
  return new Date(at.getTime() + TURKEY_OFFSET_MS).toISOString().slice(11, 19);
}

/** The instant the Turkish calendar day of `at` began (00:00 in Turkey). */
export function turkishDayStart(at: Date): Date {
  return new Date(Math.floor((at.getTime() + TURKEY_OFFSET_MS) / DAY_MS) * DAY_MS - TURKEY_OFFSET_MS);
}

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A list filter's startDate/endDate as a half-open range [from, to). A bare date (YYYY-MM-DD) is a
 * Turkish calendar day, as the merchant picked it: a start date from that day's 00:00 in Turkey, an
 * end date through that day's end. A full timestamp is taken as the instant it names.
 */
export function turkishDateRange(q: { startDate?: string; endDate?: string }): {
  from: Date | null;
  to: Date | null;
} {
  // A bare date's bound: the Turkish day's start, shifted by `days` (1 for an end date's whole day).
  const bound = (value: string | undefined, days: number) => {
    if (!value) return null;
    if (!BARE_DATE.test(value)) return new Date(value);
    return new Date(Date.parse(`${value}T00:00:00Z`) - TURKEY_OFFSET_MS + days * DAY_MS);
  };
  return { from: bound(q.startDate, 0), to: bound(q.endDate, 1) };
}

/**
 * The panel's date and time, `DD-MM-YYYY HH:mm` in Turkish time (spec section 9), e.g. `05-03-2026 14:07`:
 * the server's one date formatter (messages, mails, exports).
 */
export function formatDateTime(at: Date): string {
  const [date, time] = new Date(at.getTime() + TURKEY_OFFSET_MS).toISOString().split("T") as [string, string];
  return `${date.split("-").reverse().join("-")} ${time.slice(0, 5)}`;
}

/** The date part of `formatDateTime`, `DD-MM-YYYY` in Turkish time, e.g. `05-03-2026`. */
export function formatDate(at: Date): string {
  return formatDateTime(at).slice(0, 10);
}
