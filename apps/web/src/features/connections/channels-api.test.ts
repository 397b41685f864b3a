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

  it("shows invoicing on when the channel never set it, and sends only a switch turned off", () => {
    // Absent means on (the server invoices the channel's orders like the shop's).
    expect(settingsForm({}).invoices).toBe(true);
    expect(settingsForm({ invoices: true }).invoices).toBe(true);
    expect(settingsForm({ invoices: false }).invoices).toBe(false);
    expect(settingsOf({ ...settingsForm({}), invoices: false }, {})).toEqual({ invoices: false });
    expect(settingsOf(settingsForm({}), {})).toEqual({});
    // Turned back on: no longer false; an explicit "on" stored before stays as it was.
    expect(settingsOf({ ...settingsForm({ invoices: false }), invoices: true }, { invoices: false })).toEqual(
      {},
    );
    expect(settingsOf(settingsForm({ invoices: true }), { invoices: true })).toEqual({ invoices: true });
    expect(settingsOf(settingsForm({ invoices: false, orderPrefix: "N-" }), { invoices: false })).toEqual({
      orderPrefix: "N-",
      invoices: false,
    });
  });
});
