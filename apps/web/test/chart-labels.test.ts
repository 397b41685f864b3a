import { describe, expect, it } from "vitest";
import { thinLabels } from "../src/lib/chart-labels";

describe("a chart's date labels", () => {
  it("keeps every day of a week on a wide chart", () => {
    expect(thinLabels(7, 1200)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("thins a month on a phone so labels keep their distance", () => {
    const shown = thinLabels(31, 300);
    expect(shown.length).toBeLessThanOrEqual(Math.floor(300 / 56));
    expect(shown[0]).toBe(0);
    for (let i = 1; i < shown.length; i++) expect(shown[i]! - shown[i - 1]!).toBeGreaterThanOrEqual(6);
  });

  it("shows at least one label and none for no points", () => {
    expect(thinLabels(30, 10)).toEqual([0]);
    expect(thinLabels(0, 500)).toEqual([]);
  });
});
