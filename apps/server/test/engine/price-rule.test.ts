/** A channel's price rule (issue 37, item 3): markup, ,90 / ,99 rounding and a minimum, in whole kuruş. */
import { Prng } from "@ep/connectors";
import { applyPriceRule, type PriceRule, priceRuleProblem } from "@ep/engine";
import { describe, expect, it } from "vitest";

const rule = (over: Partial<PriceRule> = {}): PriceRule => ({ markupPercent: 0, rounding: "none", ...over });

describe("applyPriceRule", () => {
  it("marks up to the kuruş, half up, without binary-fraction drift", () => {
    expect(applyPriceRule(100, rule({ markupPercent: 15 }))).toBe(115);
    expect(applyPriceRule(19.99, rule({ markupPercent: 10 }))).toBe(21.99); // 21.989 → 21.99
    expect(applyPriceRule(0.1, rule({ markupPercent: 5 }))).toBe(0.11); // 10.5 kuruş → 11
    expect(applyPriceRule(1.005, rule())).toBe(1.01); // 1.005 is 100.4999… × 100 in binary
    expect(applyPriceRule(33.33, rule({ markupPercent: 12.5 }))).toBe(37.5); // 37.49625 → 37.50
    expect(applyPriceRule(0.01, rule({ markupPercent: 10 }))).toBe(0.01); // 1.1 kuruş → 1
    expect(applyPriceRule(9_999_999.99, rule({ markupPercent: 900 }))).toBe(99_999_999.9);
  });

  it("rounds up to the next ,90 or ,99 at or above the marked-up price", () => {
    expect(applyPriceRule(100, rule({ markupPercent: 15, rounding: "90" }))).toBe(115.9);
    expect(applyPriceRule(100, rule({ markupPercent: 15, rounding: "99" }))).toBe(115.99);
    expect(applyPriceRule(10.9, rule({ rounding: "90" }))).toBe(10.9); // already ,90
    expect(applyPriceRule(10.91, rule({ rounding: "90" }))).toBe(11.9); // just past: the next lira
    expect(applyPriceRule(10.99, rule({ rounding: "99" }))).toBe(10.99);
    expect(applyPriceRule(10.99, rule({ rounding: "90" }))).toBe(11.9);
    expect(applyPriceRule(11, rule({ rounding: "99" }))).toBe(11.99);
    expect(applyPriceRule(0.01, rule({ rounding: "90" }))).toBe(0.9); // very small: up to its ,90
  });

  it("leaves a zero price at zero (rounding makes no price up), then applies the minimum last", () => {
    expect(applyPriceRule(0, rule({ markupPercent: 20, rounding: "99" }))).toBe(0);
    expect(applyPriceRule(0, rule({ rounding: "90", minimum: 5 }))).toBe(5);
    // The minimum wins over the rounded price, and is taken as it is (not rounded again).
    expect(applyPriceRule(40, rule({ markupPercent: 10, rounding: "90", minimum: 49.5 }))).toBe(49.5);
    expect(applyPriceRule(60, rule({ markupPercent: 10, rounding: "90", minimum: 49.5 }))).toBe(66.9);
  });

  it("refuses a negative markup, a negative or non-numeric price and an unknown rounding", () => {
    expect(priceRuleProblem(rule({ markupPercent: -5 }))).toBe("markup");
    expect(() => applyPriceRule(100, rule({ markupPercent: -5 }))).toThrow(RangeError);
    expect(() => applyPriceRule(100, rule({ markupPercent: Number.NaN }))).toThrow(RangeError);
    expect(() => applyPriceRule(-1, rule())).toThrow(RangeError);
    expect(() => applyPriceRule(Number.NaN, rule())).toThrow(RangeError);
    expect(priceRuleProblem({ markupPercent: 0, rounding: "95" as never })).toBe("rounding");
    expect(priceRuleProblem(rule({ minimum: -1 }))).toBe("minimum");
    expect(priceRuleProblem(rule({ markupPercent: 0, minimum: 0 }))).toBeUndefined();
  });

  it("never goes below the marked-up price, ends as the rounding says, stays within a lira of it", () => {
    const rng = new Prng(3710);
    for (let c = 0; c < 5000; c++) {
      const baseK = rng.int(1, 5_000_000);
      const markup = rng.pick([0, 5, 10, 12.5, 33.3333, 100, 250]);
      const rounding = rng.pick(["none", "90", "99"] as const);
      const price = applyPriceRule(baseK / 100, { markupPercent: markup, rounding });
      const priceK = Math.round(price * 100);
      // The exact marked-up amount in kuruş × 1,000,000, compared in integers.
      const exact = BigInt(baseK) * BigInt(1_000_000 + Math.round(markup * 10_000));
      const where = `${baseK} kuruş, ${markup} %, ${rounding} → ${price}`;
      expect(priceK / 100, where).toBe(price); // a whole number of kuruş
      expect(BigInt(priceK) * 1_000_000n * 2n >= exact * 2n - 1_000_000n, where).toBe(true); // ≥ marked, half up
      if (rounding === "none")
        expect(BigInt(priceK) * 1_000_000n * 2n <= exact * 2n + 1_000_000n, where).toBe(true);
      else {
        expect(priceK % 100, where).toBe(rounding === "90" ? 90 : 99);
        expect(BigInt(priceK - 100) * 1_000_000n < exact, where).toBe(true); // the first such ending
      }
    }
  });
});
