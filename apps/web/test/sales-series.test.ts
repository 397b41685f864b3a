import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { buildSalesSeries, periodDays } from "../src/features/dashboard/sales-series";

const wednesday = dayjs("2026-11-18T10:00:00");

describe("sales chart series", () => {
  it("weekly is the 7 days from this ISO week's Monday, monthly every day of the month", () => {
    const week = periodDays("weekly", wednesday);
    expect(week.map((d) => d.format("DD.MM"))).toEqual([
      "16.11",
      "17.11",
      "18.11",
      "19.11",
      "20.11",
      "21.11",
      "22.11",
    ]);
    expect(periodDays("weekly", dayjs("2026-11-22T23:00:00"))[0]?.format("DD.MM")).toBe("16.11");
    const month = periodDays("monthly", wednesday);
    expect(month).toHaveLength(30);
    expect(month[0]?.format("DD.MM.YYYY")).toBe("01.11.2026");
  });

  it("fills missing days with 0, sums the total and makes 6 ticks from 0 to the largest day", () => {
    const { points, total, ticks } = buildSalesSeries(
      [
        { created_date: "2026-11-16", amount: 100.25 },
        { created_date: "2026-11-18", amount: 500 },
      ],
      "weekly",
      wednesday,
    );
    expect(points.map((p) => p.amount)).toEqual([100.25, 0, 500, 0, 0, 0, 0]);
    expect(total).toBe(600.25);
    expect(ticks).toEqual([0, 100, 200, 300, 400, 500]);
  });
});
