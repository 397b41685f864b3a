/**
 * A channel's price from the ERP's price (issue 37, item 3): a markup, rounding up to ,90 or ,99, and a
 * minimum, in whole kuruş (integers) so that 19.90 stays 19.90 and never 19.899999.
 */

export type PriceRounding = "none" | "90" | "99";

export interface PriceRule {
  /** Added to the base price, in percent (0 or more; up to 4 decimals count). */
  markupPercent: number;
  /** "90" / "99": the smallest price ending in ,90 / ,99 at or above the marked-up price. */
  rounding: PriceRounding;
  /** The lowest price the channel is sent, applied after markup and rounding. */
  minimum?: number;
}

/** Why a rule cannot be applied (settings validate with this before saving), or undefined. */
export function priceRuleProblem(rule: PriceRule): "markup" | "rounding" | "minimum" | undefined {
  if (!Number.isFinite(rule.markupPercent) || rule.markupPercent < 0) return "markup";
  if (rule.rounding !== "none" && rule.rounding !== "90" && rule.rounding !== "99") return "rounding";
  if (rule.minimum !== undefined && (!Number.isFinite(rule.minimum) || rule.minimum < 0)) return "minimum";
  return undefined;
}

/**
 * The channel's price for a base price (TL, as the ERP gives it, rounded to kuruş first).
 * A base of 0 is no price: rounding does not make one up (0 stays 0), only a minimum lifts it.
 * A negative or non-numeric base, or a rule `priceRuleProblem` refuses, throws a RangeError.
 */
export function applyPriceRule(basePrice: number, rule: PriceRule): number {
  const problem = priceRuleProblem(rule);
  if (problem) throw new RangeError(`applyPriceRule: invalid ${problem} in ${JSON.stringify(rule)}`);
  if (!Number.isFinite(basePrice) || basePrice < 0) {
    throw new RangeError(`applyPriceRule: base price ${basePrice} is not a price`);
  }
  const baseK = toKurus(basePrice);
  // Markup in ten-thousandths of a percent, as integers: base × (100 % + markup), half up to a kuruş.
  const markup = BigInt(Math.round(rule.markupPercent * 10_000));
  const scale = 1_000_000n;
  const marked = (BigInt(baseK) * (scale + markup) * 2n + scale) / (scale * 2n);
  let priceK = Number(marked);
  if (priceK > 0 && rule.rounding !== "none") {
    const ending = rule.rounding === "90" ? 90 : 99;
    const lira = Math.floor(priceK / 100);
    priceK = priceK % 100 <= ending ? lira * 100 + ending : (lira + 1) * 100 + ending;
  }
  if (rule.minimum !== undefined) priceK = Math.max(priceK, toKurus(rule.minimum));
  return priceK / 100;
}

/** TL to whole kuruş, half up, at 15 significant digits so 1.005 is 101 kuruş, not 100. */
function toKurus(amount: number): number {
  return Math.round(Number((amount * 100).toPrecision(15)));
}
