/** Units of the age label, largest first (spec section 2: year = 365 days, month = 30 days). */
const UNITS = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
] as const;

export type AgeUnit = (typeof UNITS)[number][0];

/** How long ago `date` was, in the largest whole unit: `{ count: 3, unit: "hour" }`. */
export function ageOf(date: string | Date, now: Date = new Date()): { count: number; unit: AgeUnit } {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(date).getTime()) / 1000));
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return { count: Math.floor(seconds / size), unit };
  }
  return { count: 0, unit: "second" };
}
