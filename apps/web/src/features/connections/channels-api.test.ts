import { describe, expect, it } from "vitest";
import { settingsForm, settingsOf } from "./channels-api";

describe("a channel's settings form (Pazaryeri Kanalları › Ayarlar)", () => {
  it("reads stored settings and writes them back unchanged", () => {
    const stored = {
      safety: { percent: 10 },
      weight: 2,
      priceRule: { markupPercent: 12.5, rounding: "90" as const, minimum: 50 },
      orderPrefix: "TY-",
      orderSeries: "TRY",
      orderStatuses: ["Created"],
    };
    const form = settingsForm(stored);
    expect(form).toMatchObject({
      safetyMode: "percent",
      safety: "10",
      markupPercent: "12.5",
      rounding: "90",
    });
    expect(settingsOf(form, stored)).toEqual(stored);
  });

  it("leaves out what is empty, takes a decimal comma, and keeps the order statuses it does not edit", () => {
    const form = { ...settingsForm({}), safetyMode: "units" as const, safety: "3", markupPercent: "7,5" };
    expect(settingsOf(form, { orderStatuses: ["Picking"] })).toEqual({
      orderStatuses: ["Picking"],
      safety: { units: 3 },
      priceRule: { markupPercent: 7.5, rounding: "none" },
    });
    // No safety mode: a typed amount is not sent; rounding alone makes a rule with no markup.
    expect(settingsOf({ ...settingsForm({}), safety: "4", rounding: "99" }, {})).toEqual({
      priceRule: { markupPercent: 0, rounding: "99" },
    });
    expect(settingsOf(settingsForm({}), {})).toEqual({});
  });
});
