import { describe, expect, it } from "vitest";
import { freshnessBar, freshnessGoalMinutes } from "../src/features/dashboard/freshness";

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
