import dayjs from "dayjs";
import "dayjs/locale/tr";

/** The one place dates and money get their Turkish shape (spec section 9). */

type DateInput = string | number | Date | null | undefined;

const EMPTY = "-";

function parse(value: DateInput): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === "") return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.locale("tr") : null;
}

/** `DD-MM-YYYY HH:mm`, for example `05-03-2025 14:07`. */
export function formatDateTime(value: DateInput): string {
  return parse(value)?.format("DD-MM-YYYY HH:mm") ?? EMPTY;
}

/** `DD-MM-YYYY`, for example `05-03-2025`. */
export function formatDate(value: DateInput): string {
  return parse(value)?.format("DD-MM-YYYY") ?? EMPTY;
}

/** `DD-MM HH:mm`, for example `05-03 14:07` (a chart's run labels, where the year is plain). */
export function formatDayMonthTime(value: DateInput): string {
  return parse(value)?.format("DD-MM HH:mm") ?? EMPTY;
}

/** `DD-MM`, for example `05-03` (announcements). */
export function formatDayMonth(value: DateInput): string {
  return parse(value)?.format("DD-MM") ?? EMPTY;
}

const moneyFormat = new Intl.NumberFormat("tr-TR", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: true,
});

/** Turkish money with two decimals and a trailing lira sign: `1.234,56 ₺`. */
export function formatMoney(amount: number | string | null | undefined): string {
  const value = typeof amount === "string" ? Number(amount) : amount;
  const safe = value === null || value === undefined || !Number.isFinite(value) ? 0 : value;
  // Intl puts a minus sign that some fonts draw wide; keep the plain hyphen-minus.
  return `${moneyFormat.format(safe).replace("\u2212", "-")} ₺`;
}

const countFormat = new Intl.NumberFormat("tr-TR", { maximumFractionDigits: 0 });

/** A count with Turkish thousands separators: `3.133`. */
export function formatNumber(value: number | null | undefined): string {
  return countFormat.format(value ?? 0);
}

const decimalFormat = new Intl.NumberFormat("tr-TR", { maximumFractionDigits: 4 });

/** A number that may have decimals, the Turkish way: `1.234,5678`, `0,25` (never `0.25`). */
export function formatDecimal(value: number | null | undefined, maxDigits = 4): string {
  if (maxDigits === 4) return decimalFormat.format(value ?? 0);
  return new Intl.NumberFormat("tr-TR", { maximumFractionDigits: maxDigits }).format(value ?? 0);
}

/** Every count of a run's tally with thousands separators, for interpolation into a sentence. */
export function formatCounts<T extends Record<string, number>>(counts: T): Record<keyof T, string> {
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, formatNumber(v)])) as Record<
    keyof T,
    string
  >;
}
