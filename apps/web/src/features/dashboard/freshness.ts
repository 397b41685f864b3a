import type { JobDto } from "@ep/contracts";

/** A cron job's goal when its rhythm is not a fixed interval: a day. */
const CRON_GOAL_MINUTES = 24 * 60;

/**
 * How old a flow's last success may be before it counts as late: two of its intervals, so one
 * slow or skipped run is tolerated and two are not.
 */
export function freshnessGoalMinutes(schedule: JobDto["schedule"]): number {
  return schedule.kind === "interval" ? schedule.minutes * 2 : CRON_GOAL_MINUTES;
}

export type FreshnessLevel = "good" | "near" | "late";

/** The bar's fill (0..100, capped) and colour level for a last success against its goal. */
export function freshnessBar(lastSuccess: string | null, goalMinutes: number, now: number) {
  if (!lastSuccess) return { percent: 100, level: "late" as FreshnessLevel, ageMinutes: null };
  const ageMinutes = Math.max(0, (now - Date.parse(lastSuccess)) / 60_000);
  const ratio = ageMinutes / goalMinutes;
  const level: FreshnessLevel = ratio <= 0.5 ? "good" : ratio <= 1 ? "near" : "late";
  return { percent: Math.min(100, Math.round(ratio * 100)), level, ageMinutes };
}
