import type { JobHistoryDto } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { recentRunSeries, summarizeRuns } from "../src/features/integration/run-series";

const run = (id: number, started: string | null, finished: string | null, written: number, failed: number) =>
  ({
    id,
    jobId: 1,
    jobType: "StockIntegration",
    jobName: "Stok Aktarımı",
    trigger: "schedule",
    status: failed > 0 ? "PartiallyFailed" : "Succeeded",
    queued_date: "2026-11-20T08:00:00.000Z",
    started_date: started,
    finished_date: finished,
    counts: { read: 100, changed: written + failed, written, failed },
    calls: { erp: { read: 1, write: 0 }, shop: { read: 1, write: 1 } },
  }) as JobHistoryDto;

describe("recent runs chart series", () => {
  it("puts the newest-first page oldest first, with each run's duration in seconds", () => {
    const page = [
      run(3, "2026-11-20T10:00:00.000Z", "2026-11-20T10:00:42.400Z", 7, 1),
      run(2, "2026-11-20T09:00:00.000Z", null, 0, 0),
      run(1, null, null, 5, 0),
    ];
    const points = recentRunSeries(page, (iso) => iso.slice(11, 16));
    expect(points.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(points.map((p) => p.seconds)).toEqual([null, null, 42]);
    expect(points[0]?.label).toBe("08:00"); // never started: labelled by when it was queued
    expect(summarizeRuns(points)).toEqual({ runs: 3, written: 12, failed: 1, averageSeconds: 42 });
  });

  it("has no average duration when no run has finished", () => {
    expect(summarizeRuns([]).averageSeconds).toBeNull();
  });
});
