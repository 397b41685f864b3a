import type { DashboardDto, JobDto } from "@ep/contracts";

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

/**
 * What a freshness row says, as one state: the badge, the bar and the text beside them are all
 * drawn from it, so a red bar can never sit beside a green 'Güncel' (nor 'Henüz başarılı
 * çalışmadı' beside it).
 * - passive: the flow is switched off; no bar, a grey badge.
 * - first: it has not run yet (a new connection); no bar, a neutral badge: nothing is late yet.
 * - never: it ran but never succeeded; a red full bar and a red badge.
 * - late: the last success is older than the goal; red, whatever is waiting.
 * - waiting: within the goal but records are waiting; yellow.
 * - near: within the goal, past half of it, nothing waiting; yellow.
 * - fresh: within half the goal, nothing waiting; green, the only state that reads 'Güncel'.
 */
export type FreshnessState = "passive" | "first" | "never" | "late" | "waiting" | "near" | "fresh";

export const FRESHNESS_COLOR: Record<FreshnessState, string> = {
  passive: "gray",
  first: "blue",
  never: "red",
  late: "red",
  waiting: "yellow",
  near: "yellow",
  fresh: "green",
};

export type FreshnessView = {
  state: FreshnessState;
  color: string;
  /** The bar's fill, or null when no bar shows (passive, first). */
  percent: number | null;
  ageMinutes: number | null;
  goalMinutes: number;
  waiting: number;
};

export function freshnessView(
  row: DashboardDto["freshness"][number],
  schedule: JobDto["schedule"] | undefined,
  now: number,
): FreshnessView {
  const goalMinutes = schedule ? freshnessGoalMinutes(schedule) : CRON_GOAL_MINUTES;
  const bar = freshnessBar(row.last_success_date, goalMinutes, now);
  const state: FreshnessState = !row.is_enabled
    ? "passive"
    : !row.last_success_date
      ? row.last_run_date
        ? "never"
        : "first"
      : bar.level === "late"
        ? "late"
        : row.waiting > 0
          ? "waiting"
          : bar.level === "near"
            ? "near"
            : "fresh";
  return {
    state,
    color: FRESHNESS_COLOR[state],
    percent: state === "passive" || state === "first" ? null : bar.percent,
    ageMinutes: bar.ageMinutes,
    goalMinutes,
    waiting: row.waiting,
  };
}

/** The badge's message key (under `dashboard.freshness`) and count, from the row's one state. */
export function freshnessBadge(view: FreshnessView): { key: string; count?: number } {
  switch (view.state) {
    case "late":
      return view.waiting > 0 ? { key: "lateWaiting", count: view.waiting } : { key: "state.late" };
    case "waiting":
      return { key: "waitingCount", count: view.waiting };
    case "fresh":
      return { key: "upToDate" };
    default:
      return { key: `state.${view.state}` };
  }
}

export type ReportCardState = "never" | "failed" | "ok";

/**
 * The integration report cards to show: one per report whose job the company has (a company
 * without a stock job gets no stock card), each with its state. A job that has not run yet
 * waits for its first run ("never", a neutral clock), unless it is switched off.
 */
export function reportCards(data: DashboardDto) {
  const reports = [
    data.productIntegrationReport,
    data.stockIntegrationReport,
    data.priceIntegrationReport,
    data.orderIntegrationReport,
  ];
  return reports.flatMap((report) => {
    const job = data.companyJobs.find((j) => j.type === report.jobType);
    if (!job) return [];
    const neverRan = report.last_run_date === null && job.is_enabled;
    const state: ReportCardState = neverRan ? "never" : report.last_Run_State === false ? "failed" : "ok";
    return [{ report, state }];
  });
}
