import type { JobHistoryDto } from "@ep/contracts";

/** One bar group of the recent-runs chart, oldest first. */
export type RunPoint = { id: number; label: string; written: number; failed: number; seconds: number | null };

export type RunSummary = { runs: number; written: number; failed: number; averageSeconds: number | null };

/** How long a run took, in whole seconds; an unfinished one has no duration yet. */
function secondsOf(run: JobHistoryDto): number | null {
  if (!run.started_date || !run.finished_date) return null;
  const ms = Date.parse(run.finished_date) - Date.parse(run.started_date);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : null;
}

/** The history page (newest first) as chart points, oldest first, labelled by the given formatter. */
export function recentRunSeries(runs: JobHistoryDto[], label: (iso: string) => string): RunPoint[] {
  return [...runs].reverse().map((run) => ({
    id: run.id,
    label: label(run.started_date ?? run.queued_date),
    written: run.counts.written,
    failed: run.counts.failed,
    seconds: secondsOf(run),
  }));
}

/** The line under the chart: what the runs did, in numbers a screen reader can read too. */
export function summarizeRuns(points: RunPoint[]): RunSummary {
  const durations = points.map((p) => p.seconds).filter((s): s is number => s !== null);
  return {
    runs: points.length,
    written: points.reduce((sum, p) => sum + p.written, 0),
    failed: points.reduce((sum, p) => sum + p.failed, 0),
    averageSeconds:
      durations.length === 0 ? null : Math.round(durations.reduce((a, b) => a + b, 0) / durations.length),
  };
}
