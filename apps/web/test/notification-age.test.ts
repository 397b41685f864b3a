import { describe, expect, it } from "vitest";
import { ageOf } from "../src/features/notifications/age";

const now = new Date("2026-01-10T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("notification age", () => {
  it("uses the largest whole unit, a month being 30 days and a year 365", () => {
    expect(ageOf(ago(5), now)).toEqual({ count: 5, unit: "second" });
    expect(ageOf(ago(125), now)).toEqual({ count: 2, unit: "minute" });
    expect(ageOf(ago(3 * 3600), now)).toEqual({ count: 3, unit: "hour" });
    expect(ageOf(ago(29 * 86_400), now)).toEqual({ count: 29, unit: "day" });
    expect(ageOf(ago(30 * 86_400), now)).toEqual({ count: 1, unit: "month" });
    expect(ageOf(ago(364 * 86_400), now)).toEqual({ count: 12, unit: "month" });
    expect(ageOf(ago(365 * 86_400), now)).toEqual({ count: 1, unit: "year" });
    expect(ageOf(ago(-10), now)).toEqual({ count: 0, unit: "second" });
  });
});
