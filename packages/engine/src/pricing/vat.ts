/** Turkish KDV rates in force; 0 for exempt goods. */
export const TURKISH_VAT_RATES = [0, 1, 10, 20] as const;

/** Rounds to kuruş, half away from zero, without binary-fraction surprises (1.005 → 1.01). */
export function roundKurus(amount: number): number {
  const sign = amount < 0 ? -1 : 1;
  return (sign * Math.round(Number(`${Math.abs(amount)}e2`))) / 100;
}

/**
 * Converts a price between "VAT included" and "VAT excluded" as the two sides expect, then rounds
 * to kuruş. The rate is the product's own (percent).
 */
export function convertVat(
  amount: number,
  vatRate: number,
  fromIncluded: boolean,
  toIncluded: boolean,
): number {
  if (fromIncluded === toIncluded) return roundKurus(amount);
  const factor = 1 + vatRate / 100;
  return roundKurus(toIncluded ? amount * factor : amount / factor);
}
