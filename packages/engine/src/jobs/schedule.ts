import cronParser from "cron-parser";
import type { JobSchedule } from "../store/schema.ts";

export const SCHEDULE_TIMEZONE = "Europe/Istanbul";
/** The interval presets the panel offers, in minutes. */
export const INTERVAL_PRESETS = [1, 5, 10, 15, 30, 60, 120, 240, 720, 1440] as const;

/** True when a cron expression parses (five fields, Istanbul time). */
export function isValidCron(expression: string): boolean {
  if (expression.trim().split(/\s+/).length !== 5) return false;
  try {
    cronParser.parseExpression(expression, { tz: SCHEDULE_TIMEZONE });
    return true;
  } catch {
    return false;
  }
}

/** When a job with this schedule runs next after `from`. */
export function nextRunAt(schedule: JobSchedule, from: Date): Date {
  if (schedule.kind === "interval") return new Date(from.getTime() + schedule.minutes * 60_000);
  return cronParser
    .parseExpression(schedule.expression, { tz: SCHEDULE_TIMEZONE, currentDate: from })
    .next()
    .toDate();
}
