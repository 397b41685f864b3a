import type { Order } from "@ep/connectors";

/**
 * Invoice amounts from a canonical order, in kuruş (integers) so sums are exact.
 * GİB's way: each line's VAT is rounded to kuruş on the line (`round(matrah × oran)`), subtotals per
 * rate and the document totals are sums of the rounded line amounts.
 */

/** 0 % needs an exemption code on the invoice (the builder asks for it). */
export const VAT_RATES = [0, 1, 10, 20] as const;

export interface AmountOptions {
  /** Whether the order's line prices include VAT. The canonical model says they do (default). */
  pricesIncludeVat?: boolean;
  /** VAT rate of the shipping line. Inferred: cargo services carry the standard 20 %. */
  shippingVatRate?: number;
  /** Name of the shipping line. */
  shippingName?: string;
}

export interface AmountLine {
  sku: string;
  name: string;
  qty: number;
  vatRate: number;
  /** Net (VAT excluded) unit price, before discounts, at most 8 decimals. */
  unitPrice: string;
  /** Net amount before discounts (kuruş). */
  baseK: number;
  /** Net discounts of the line (kuruş): the line's own plus its share of the order discount. */
  discountK: number;
  /** LineExtensionAmount: net after discounts (kuruş). */
  netK: number;
  taxK: number;
  isShipping: boolean;
}

export interface InvoiceAmounts {
  lines: AmountLine[];
  /** Per VAT rate: taxable amount and VAT (kuruş), ascending by rate. */
  subtotals: { vatRate: number; taxableK: number; taxK: number }[];
  lineExtensionK: number;
  taxK: number;
  /** Sum of the net discounts shown on the lines (kuruş). */
  allowanceK: number;
  payableK: number;
  /** Payable minus the order's grand total (kuruş): line-level VAT rounding can move it a kuruş or so. */
  differenceFromOrderK: number;
}

export const toKurus = (amount: number): number => Math.round(amount * 100);
export const fromKurus = (k: number): string => {
  const sign = k < 0 ? "-" : "";
  const abs = Math.abs(k);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};

/** a × num / den rounded half up (amounts here are non-negative). */
function mulDivRound(a: number, num: number, den: number): number {
  return Math.floor((a * num * 2 + den) / (den * 2));
}

function netOf(grossK: number, vatRate: number, includesVat: boolean): number {
  return includesVat ? mulDivRound(grossK, 100, 100 + vatRate) : grossK;
}

/** Spreads `totalK` over `weights` in proportion, largest remainder first, so the parts add up exactly. */
function spread(totalK: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (totalK === 0 || sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (totalK * w) / sum);
  const parts = exact.map(Math.floor);
  let rest = totalK - parts.reduce((a, b) => a + b, 0);
  // Array.prototype.sort is stable: equal remainders keep the lines' order (the earlier line first).
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((x, y) => y.r - x.r);
  for (const { i } of order) {
    if (rest <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    rest -= 1;
  }
  return parts;
}

/**
 * The order's own discount, per goods line (kuruş, one per `order.lines`). Inferred: a discount of the whole
 * order is what the lines and shipping add up to above the grand total (shops report it either inside
 * totals.discount or not at all); it is spread over the goods lines by their amounts, so each VAT base
 * shrinks with it, and a returned part of a line takes its share in proportion (`returnedPart`).
 */
export function orderDiscountShares(order: Order, includesVat = true): number[] {
  const goods = order.lines.map((l) => toKurus(l.total));
  const goodsK = goods.reduce((a, b) => a + b, 0);
  const targetK = toKurus(includesVat ? order.totals.grandTotal : order.totals.grandTotal - order.totals.tax);
  const orderDiscountK = Math.max(0, goodsK + toKurus(order.shipping.cost) - targetK);
  if (orderDiscountK > goodsK) throw new RangeError("Sipariş indirimi ürün tutarlarından büyük");
  return spread(orderDiscountK, goods);
}

export function computeAmounts(order: Order, options: AmountOptions = {}): InvoiceAmounts {
  const includesVat = options.pricesIncludeVat ?? true;
  const shippingRate = options.shippingVatRate ?? 20;
  const source = order.lines.map((l) => ({
    sku: l.sku,
    name: l.name,
    qty: l.qty,
    vatRate: l.vatRate,
    totalK: toKurus(l.total),
    discountK: toKurus(l.discount),
    isShipping: false,
  }));
  const shippingK = toKurus(order.shipping.cost);
  // A negative cost becomes a line too, so the guard below refuses it (it was silently left out).
  if (shippingK !== 0)
    source.push({
      sku: "KARGO",
      name: options.shippingName ?? (order.shipping.method ? `Kargo (${order.shipping.method})` : "Kargo"),
      qty: 1,
      vatRate: shippingRate,
      totalK: shippingK,
      discountK: 0,
      isShipping: true,
    });
  for (const l of source) {
    if (!(VAT_RATES as readonly number[]).includes(l.vatRate))
      throw new RangeError(`KDV oranı %0, %1, %10 veya %20 olmalı (${l.sku}: %${l.vatRate})`);
    if (!(l.qty > 0)) throw new RangeError(`Miktar sıfırdan büyük olmalı (${l.sku})`);
    if (l.totalK < 0 || l.discountK < 0) throw new RangeError(`Tutarlar negatif olamaz (${l.sku})`);
  }
  const shares = orderDiscountShares(order, includesVat);

  const lines: AmountLine[] = source.map((l, i) => {
    const afterK = l.totalK - (shares[i] ?? 0);
    const netK = netOf(afterK, l.vatRate, includesVat);
    const baseK = netOf(l.totalK + l.discountK, l.vatRate, includesVat);
    const unit = baseK / 100 / l.qty;
    return {
      sku: l.sku,
      name: l.name,
      qty: l.qty,
      vatRate: l.vatRate,
      unitPrice: String(Number(unit.toFixed(8))),
      baseK,
      discountK: baseK - netK,
      netK,
      taxK: mulDivRound(netK, l.vatRate, 100),
      isShipping: l.isShipping,
    };
  });
  const rates = [...new Set(lines.map((l) => l.vatRate))].sort((a, b) => a - b);
  const subtotals = rates.map((vatRate) => {
    const ofRate = lines.filter((l) => l.vatRate === vatRate);
    return {
      vatRate,
      taxableK: ofRate.reduce((a, l) => a + l.netK, 0),
      taxK: ofRate.reduce((a, l) => a + l.taxK, 0),
    };
  });
  const lineExtensionK = lines.reduce((a, l) => a + l.netK, 0);
  const taxK = subtotals.reduce((a, s) => a + s.taxK, 0);
  const payableK = lineExtensionK + taxK;
  return {
    lines,
    subtotals,
    lineExtensionK,
    taxK,
    allowanceK: lines.reduce((a, l) => a + l.discountK, 0),
    payableK,
    differenceFromOrderK: payableK - toKurus(order.totals.grandTotal),
  };
}
