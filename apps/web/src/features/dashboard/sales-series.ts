import type { DailySalesDto } from "@ep/contracts";
import dayjs, { type Dayjs } from "dayjs";

export type SalesPoint = { key: string; label: string; amount: number };

/** Spec section 9: 6 ticks on the y-axis, from 0 to the largest daily value. */
const TICK_COUNT = 6;

/** The days of the period: weekly = 7 days from this ISO week's Monday, monthly = every day of this month. */
export function periodDays(period: "weekly" | "monthly", now: Dayjs = dayjs()): Dayjs[] {
  const today = now.startOf("day");
  if (period === "weekly") {
    const monday = today.subtract((today.day() + 6) % 7, "day");
    return Array.from({ length: 7 }, (_, i) => monday.add(i, "day"));
  }
  const first = today.startOf("month");
  return Array.from({ length: first.daysInMonth() }, (_, i) => first.add(i, "day"));
}

/** One point per day; entries are matched to days by DD.MM.YYYY and days without one count 0. */
export function buildSalesSeries(
  entries: DailySalesDto[],
  period: "weekly" | "monthly",
  now: Dayjs = dayjs(),
): { points: SalesPoint[]; total: number; ticks: number[] } {
  const byDay = new Map<string, number>();
  for (const e of entries) {
    const key = dayjs(e.created_date).format("DD.MM.YYYY");
    byDay.set(key, (byDay.get(key) ?? 0) + e.amount);
  }
  const points = periodDays(period, now).map((d) => {
    const key = d.format("DD.MM.YYYY");
    return { key, label: d.format("DD.MM"), amount: byDay.get(key) ?? 0 };
  });
  const total = Math.round(points.reduce((sum, p) => sum + p.amount, 0) * 100) / 100;
  const max = Math.max(0, ...points.map((p) => p.amount));
  const ticks = max === 0 ? [0] : Array.from({ length: TICK_COUNT }, (_, i) => (max * i) / (TICK_COUNT - 1));
  return { points, total, ticks };
}
