import type { DashboardDto, JobDto } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import {
  FRESHNESS_COLOR,
  freshnessBadge,
  freshnessBar,
  freshnessGoalMinutes,
  freshnessView,
  reportCards,
} from "../src/features/dashboard/freshness";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

describe("freshness against its goal", () => {
  it("allows two intervals of an interval job, a day for a cron job", () => {
    expect(freshnessGoalMinutes({ kind: "interval", minutes: 5 })).toBe(10);
    expect(freshnessGoalMinutes({ kind: "cron", expression: "0 3 * * *" })).toBe(1440);
  });

  it("is good within half the goal, near up to the goal, late beyond it or when never succeeded", () => {
    expect(freshnessBar(minutesAgo(4), 10, NOW)).toMatchObject({ percent: 40, level: "good" });
    expect(freshnessBar(minutesAgo(8), 10, NOW)).toMatchObject({ percent: 80, level: "near" });
    expect(freshnessBar(minutesAgo(25), 10, NOW)).toMatchObject({ percent: 100, level: "late" });
    expect(freshnessBar(null, 10, NOW)).toMatchObject({ percent: 100, level: "late", ageMinutes: null });
  });
});

describe("a freshness row's one state", () => {
  const interval = { kind: "interval", minutes: 5 } as const; // goal 10 minutes
  const row = (over: Partial<Parameters<typeof freshnessView>[0]>) => ({
    jobId: 1,
    jobType: "StockIntegration" as const,
    name: "Stok",
    is_enabled: true,
    last_success_date: minutesAgo(2),
    last_run_date: minutesAgo(2),
    waiting: 0,
    ...over,
  });
  const cases = [
    // last success, waiting, enabled → state, colour, badge
    { r: row({}), state: "fresh", color: "green", badge: "upToDate" },
    { r: row({ last_success_date: minutesAgo(8) }), state: "near", color: "yellow", badge: "state.near" },
    { r: row({ waiting: 3 }), state: "waiting", color: "yellow", badge: "waitingCount" },
    { r: row({ last_success_date: minutesAgo(30) }), state: "late", color: "red", badge: "state.late" },
    {
      r: row({ last_success_date: minutesAgo(30), waiting: 3 }),
      state: "late",
      color: "red",
      badge: "lateWaiting",
    },
    { r: row({ last_success_date: null }), state: "never", color: "red", badge: "state.never" },
    { r: row({ last_success_date: null, waiting: 0 }), state: "never", color: "red", badge: "state.never" },
    {
      r: row({ is_enabled: false, last_success_date: null }),
      state: "passive",
      color: "gray",
      badge: "state.passive",
    },
  ];

  it.each(cases)("$state: badge $badge in $color", ({ r, state, color, badge }) => {
    const view = freshnessView(r, interval, NOW);
    expect(view).toMatchObject({ state, color });
    expect(freshnessBadge(view).key).toBe(badge);
  });

  it("never reads 'Güncel' unless the bar is green, for any age and waiting count", () => {
    for (const age of [null, 0, 4, 5, 6, 9, 10, 11, 60, 10_000]) {
      for (const waiting of [0, 1, 250]) {
        const view = freshnessView(
          row({ last_success_date: age === null ? null : minutesAgo(age), waiting }),
          interval,
          NOW,
        );
        const bar = freshnessBar(view.state === "never" ? null : minutesAgo(age ?? 0), 10, NOW);
        const upToDate = freshnessBadge(view).key === "upToDate";
        // The badge says up to date only when the bar is in its good third and nothing waits.
        expect(upToDate).toBe(age !== null && bar.level === "good" && waiting === 0);
        // The bar's colour is the badge's colour.
        expect(view.color).toBe(FRESHNESS_COLOR[view.state]);
        if (bar.level === "late") expect(view.color).toBe("red");
      }
    }
  });

  it("waits for a first run, neutral and without a bar, before the job has run at all", () => {
    for (const waiting of [0, 4]) {
      const view = freshnessView(
        row({ last_success_date: null, last_run_date: null, waiting }),
        interval,
        NOW,
      );
      expect(view).toMatchObject({ state: "first", percent: null });
      expect(view.color).not.toBe("red");
      expect(freshnessBadge(view).key).toBe("state.first");
    }
    // Once it ran and failed, a never-succeeded job is red.
    const failed = freshnessView(
      row({ last_success_date: null, last_run_date: minutesAgo(1) }),
      interval,
      NOW,
    );
    expect(failed).toMatchObject({ state: "never", color: "red", percent: 100 });
  });

  it("uses a day's goal when the job is unknown", () => {
    expect(freshnessView(row({ last_success_date: minutesAgo(600) }), undefined, NOW).state).toBe("fresh");
  });
});

describe("the integration report cards", () => {
  const job = (id: number, type: JobDto["type"], over: Partial<JobDto> = {}): JobDto => ({
    id,
    type,
    name: type,
    area: type === "OrderIntegration" ? "order" : "product",
    is_enabled: true,
    schedule: { kind: "interval", minutes: 5 },
    last_Run_State: null,
    last_run_date: null,
    last_success_date: null,
    next_run_date: null,
    active_run: null,
    ...over,
  });
  const report = (
    jobType: JobDto["type"],
    last_run_date: string | null = null,
    last_Run_State: boolean | null = null,
  ) => ({
    description: `${jobType} rapor`,
    jobType,
    last_run_date,
    last_Run_State,
  });
  const dashboard = (companyJobs: JobDto[]) =>
    ({
      productIntegrationReport: report("ProductIntegration", minutesAgo(3), true),
      stockIntegrationReport: report("StockIntegration"),
      priceIntegrationReport: report("PriceIntegration", minutesAgo(3), false),
      orderIntegrationReport: report("OrderIntegration"),
      companyJobs,
    }) as unknown as DashboardDto;

  it("shows no card for a company without jobs", () => {
    expect(reportCards(dashboard([]))).toEqual([]);
  });

  it("shows a card only for the jobs the company has, a job not run yet waiting for its first run", () => {
    const cards = reportCards(
      dashboard([job(1, "ProductIntegration"), job(2, "StockIntegration"), job(3, "PriceIntegration")]),
    );
    expect(cards.map((c) => [c.report.jobType, c.state])).toEqual([
      ["ProductIntegration", "ok"],
      ["StockIntegration", "never"],
      ["PriceIntegration", "failed"],
    ]);
  });
});
