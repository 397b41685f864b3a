import type { JobScheduleDto } from "@ep/contracts";
import type { TFunction } from "i18next";

/** The interval bounds the server accepts (contracts' jobScheduleSchema): a minute to a week. */
export const MIN_INTERVAL_MINUTES = 1;
export const MAX_INTERVAL_MINUTES = 10_080;

/**
 * The shapes of cron expression a schedule is put in words for (minute hour day-of-month month
 * day-of-week, Europe/Istanbul). Anything else is shown as it is, marked as a custom schedule.
 */
export type CronShape =
  | { kind: "everyMinutes"; count: number }
  | { kind: "everyHours"; count: number; minute: number }
  | { kind: "days"; days: "all" | "weekdays" | "weekend" | number[]; times: string[] }
  | { kind: "monthly"; day: number; times: string[] };

const INT = /^\d+$/;
const inRange = (v: string, max: number) => INT.test(v) && Number(v) <= max;
const pad = (n: number) => String(n).padStart(2, "0");

/** "1-5" or "1,3,5" or "0" as sorted weekday numbers (0 and 7 are Sunday), or null. */
function weekdays(field: string): number[] | null {
  const out = new Set<number>();
  for (const part of field.split(",")) {
    const range = /^(\d)-(\d)$/.exec(part);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (from > to || to > 7) return null;
      for (let d = from; d <= to; d++) out.add(d % 7);
    } else if (inRange(part, 7)) out.add(Number(part) % 7);
    else return null;
  }
  return [...out].sort((a, b) => a - b);
}

export function parseCron(expression: string): CronShape | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  if (month !== "*") return null;
  const step = (f: string) => /^\*\/(\d+)$/.exec(f)?.[1];
  if (step(minute) && hour === "*" && dom === "*" && dow === "*") {
    return { kind: "everyMinutes", count: Number(step(minute)) };
  }
  if (!inRange(minute, 59)) return null;
  if (dom === "*" && dow === "*") {
    if (hour === "*") return { kind: "everyHours", count: 1, minute: Number(minute) };
    const h = step(hour);
    if (h) return { kind: "everyHours", count: Number(h), minute: Number(minute) };
  }
  const hours = hour.split(",");
  if (!hours.every((h) => inRange(h, 23))) return null;
  const times = hours
    .map(Number)
    .sort((a, b) => a - b)
    .map((h) => `${pad(h)}:${pad(Number(minute))}`);
  if (dom !== "*") {
    if (dow !== "*" || !inRange(dom, 31) || Number(dom) < 1) return null;
    return { kind: "monthly", day: Number(dom), times };
  }
  if (dow === "*") return { kind: "days", days: "all", times };
  const days = weekdays(dow);
  if (!days) return null;
  const key = days.join(",");
  if (key === "1,2,3,4,5") return { kind: "days", days: "weekdays", times };
  if (key === "0,6") return { kind: "days", days: "weekend", times };
  if (days.length === 7) return { kind: "days", days: "all", times };
  return { kind: "days", days, times };
}

/** A weekday's name in the interface language (2023-01-01 was a Sunday). */
const dayName = (day: number, language: string) =>
  new Intl.DateTimeFormat(language, { weekday: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(2023, 0, 1 + day)),
  );

/** A list in the interface language: "09:00 ve 18:00", "Pazartesi, Çarşamba ve Cuma". */
const listOf = (items: string[], language: string) =>
  new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(items);

/** A schedule in words: 'Her 15 dakikada bir', 'Hafta içi her gün 09:00'; an unusual cron as itself. */
export function describeSchedule(schedule: JobScheduleDto, t: TFunction, language = "tr"): string {
  if (schedule.kind === "interval") {
    return schedule.minutes % 60 === 0
      ? t("integration.schedule.everyHours", { count: schedule.minutes / 60 })
      : t("integration.schedule.everyMinutes", { count: schedule.minutes });
  }
  const shape = parseCron(schedule.expression);
  if (!shape) return t("integration.schedule.cron", { expression: schedule.expression });
  switch (shape.kind) {
    case "everyMinutes":
      return t("integration.schedule.everyMinutes", { count: shape.count });
    case "everyHours":
      return shape.minute === 0
        ? t("integration.schedule.everyHours", { count: shape.count })
        : t("integration.schedule.words.everyHoursAt", { count: shape.count, minute: pad(shape.minute) });
    case "monthly":
      return t("integration.schedule.words.monthly", { day: shape.day, time: listOf(shape.times, language) });
    case "days": {
      const time = listOf(shape.times, language);
      if (typeof shape.days === "string") return t(`integration.schedule.words.${shape.days}`, { time });
      const days = listOf(
        shape.days.map((d) => dayName(d, language)),
        language,
      );
      return t("integration.schedule.words.onDays", { days, time });
    }
  }
}

/**
 * A typed interval as the server will take it, or null: 0, 99999 or 2,5 are refused with a message,
 * not quietly turned into every minute or a week.
 */
export function intervalMinutes(value: number | string): number | null {
  const n = typeof value === "number" ? value : Number(value.replace(",", "."));
  return Number.isInteger(n) && n >= MIN_INTERVAL_MINUTES && n <= MAX_INTERVAL_MINUTES ? n : null;
}
