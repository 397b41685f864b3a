import type { Order } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { computeAmounts, fromKurus, toKurus } from "./amounts.ts";
import { sampleOrder } from "./testing/fixtures.ts";

type Line = Order["lines"][number];
const line = (sku: string, total: number, vatRate = 20, extra: Partial<Line> = {}): Line => ({
  sku,
  name: sku,
  qty: 1,
  unitPrice: total,
  vatRate,
  discount: 0,
  total,
  ...extra,
});
/** An order of `lines`, no shipping unless given, whose grand total is `grandTotal` (tax as given). */
function order(lines: Line[], grandTotal: number, tax = 0, shipping = 0): Order {
  return sampleOrder({
    lines,
    shipping: { method: "Aras", cost: shipping },
    totals: { subtotal: grandTotal, discount: 0, shipping, tax, grandTotal },
  });
}
const excl = { pricesIncludeVat: false };

describe("kuruş", () => {
  it("formats signs, leading zeros and whole liras", () => {
    expect(fromKurus(0)).toBe("0.00");
    expect(fromKurus(5)).toBe("0.05");
    expect(fromKurus(100)).toBe("1.00");
    expect(fromKurus(123456)).toBe("1234.56");
    expect(fromKurus(-105)).toBe("-1.05");
    expect(toKurus(12.345)).toBe(1235);
    expect(toKurus(0.1 + 0.2)).toBe(30);
  });
});

describe("order discount: shares add up to the discount", () => {
  it("the remainder goes to the largest fractions first", () => {
    // 0.07 TL over 1.00 / 2.00 / 7.00: exact shares 0.7 / 1.4 / 4.9 kuruş → 1 / 1 / 5.
    const a = computeAmounts(order([line("A", 1), line("B", 2), line("C", 7)], 9.93), excl);
    expect(a.lines.map((l) => l.discountK)).toEqual([1, 1, 5]);
    expect(a.allowanceK).toBe(7);
    expect(a.lineExtensionK).toBe(993);
  });

  it("equal fractions: the earlier line first", () => {
    const a = computeAmounts(order([line("A", 10), line("B", 10), line("C", 10)], 29.9), excl);
    expect(a.lines.map((l) => l.discountK)).toEqual([4, 3, 3]);
    expect(a.lines.map((l) => l.netK)).toEqual([996, 997, 997]);
  });

  it("shipping takes no share; a discount equal to the goods is allowed, a larger one refused", () => {
    const a = computeAmounts(order([line("A", 10), line("B", 30)], 20 + 4.9, 0, 4.9), excl);
    expect(a.lines.map((l) => [l.sku, l.discountK])).toEqual([
      ["A", 500],
      ["B", 1500],
      ["KARGO", 0],
    ]);
    const all = computeAmounts(order([line("A", 10), line("B", 30)], 4.9, 0, 4.9), excl);
    expect(all.lines.map((l) => l.netK)).toEqual([0, 0, 490]);
    expect(() => computeAmounts(order([line("A", 10), line("B", 30)], 4.89, 0, 4.9), excl)).toThrow(
      "Sipariş indirimi ürün tutarlarından büyük",
    );
  });

  it("goods that are all free, with shipping: nothing to spread, no NaN", () => {
    const a = computeAmounts(order([line("A", 0), line("B", 0)], 12, 0, 12));
    expect(a.lines.map((l) => [l.netK, l.discountK])).toEqual([
      [0, 0],
      [0, 0],
      [1000, 0],
    ]);
    expect(a.payableK).toBe(1200);
  });

  it("no discount when the grand total covers the lines (a higher total is no negative discount)", () => {
    const a = computeAmounts(order([line("A", 10)], 12), excl);
    expect(a.lines[0]).toMatchObject({ discountK: 0, netK: 1000, taxK: 200 });
    expect(a.differenceFromOrderK).toBe(1200 - 1200);
  });
});

describe("VAT-excluded shop prices", () => {
  it("the order discount is what the net lines exceed grand total minus VAT by", () => {
    // Net 100 + 50 at 20 %; the shop took 25 TL off: grand total 150 - 25 + VAT 25 = 150.
    const a = computeAmounts(order([line("A", 100), line("B", 50)], 150, 25), excl);
    expect(a.allowanceK).toBe(2500);
    expect(a.lines.map((l) => l.netK)).toEqual([8333, 4167]);
    expect(a.lines.map((l) => l.baseK)).toEqual([10000, 5000]);
    expect(a.taxK).toBe(1667 + 833);
    expect(a.payableK).toBe(15000);
    expect(a.differenceFromOrderK).toBe(0);
  });

  it("unit prices are net, to eight decimals", () => {
    const a = computeAmounts(order([line("A", 10, 20, { qty: 3 })], 12), excl);
    expect(a.lines[0]?.unitPrice).toBe("3.33333333");
    const b = computeAmounts(order([line("A", 10, 20, { qty: 4 })], 12), excl);
    expect(b.lines[0]?.unitPrice).toBe("2.5");
  });
});

describe("VAT-included prices (the default)", () => {
  it("net and VAT are rounded half up per line; subtotals by rate, ascending", () => {
    // 0.01 incl. 1 %: net 0.99… → 1 kuruş, VAT 0.01 → 0; 1.05 incl. 10 %: net 95.45… → 95, VAT 9.5 → 10.
    const a = computeAmounts(
      order([line("A", 1.2), line("B", 1.05, 10), line("C", 2.4), line("D", 1.01, 1)], 5.66),
    );
    expect(a.lines.map((l) => [l.netK, l.taxK])).toEqual([
      [100, 20],
      [95, 10],
      [200, 40],
      [100, 1],
    ]);
    expect(a.subtotals).toEqual([
      { vatRate: 1, taxableK: 100, taxK: 1 },
      { vatRate: 10, taxableK: 95, taxK: 10 },
      { vatRate: 20, taxableK: 300, taxK: 60 },
    ]);
    expect(a).toMatchObject({ lineExtensionK: 495, taxK: 71, payableK: 566, differenceFromOrderK: 0 });
  });

  it("a line discount is shown on the line: base before it, net after it", () => {
    const a = computeAmounts(order([line("A", 96, 20, { qty: 2, discount: 24 })], 96));
    expect(a.lines[0]).toMatchObject({
      baseK: 10000,
      netK: 8000,
      discountK: 2000,
      taxK: 1600,
      unitPrice: "50",
    });
  });

  it("shipping is a line of its own: 20 % unless told, named after the method", () => {
    const o = order([line("A", 12)], 24, 0, 12);
    expect(computeAmounts(o).lines[1]).toMatchObject({
      sku: "KARGO",
      name: "Kargo (Aras)",
      qty: 1,
      vatRate: 20,
      netK: 1000,
      isShipping: true,
    });
    expect(computeAmounts(o, { shippingVatRate: 10, shippingName: "Nakliye" }).lines[1]).toMatchObject({
      name: "Nakliye",
      vatRate: 10,
      netK: 1091,
    });
    const noMethod = { ...o, shipping: { cost: 12 } };
    expect(computeAmounts(noMethod).lines[1]?.name).toBe("Kargo");
    expect(computeAmounts(order([line("A", 12)], 12)).lines.map((l) => l.sku)).toEqual(["A"]);
  });
});

describe("guards", () => {
  it("a zero, negative or missing quantity", () => {
    for (const qty of [0, -1, Number.NaN])
      expect(() => computeAmounts(order([line("A", 10, 20, { qty })], 10))).toThrow(
        "Miktar sıfırdan büyük olmalı (A)",
      );
    expect(computeAmounts(order([line("A", 10, 20, { qty: 0.5 })], 10)).lines[0]?.qty).toBe(0.5);
  });

  it("a negative amount or line discount", () => {
    expect(() => computeAmounts(order([line("A", -10)], -10))).toThrow("Tutarlar negatif olamaz (A)");
    expect(() => computeAmounts(order([line("A", 10, 20, { discount: -1 })], 10))).toThrow(
      "Tutarlar negatif olamaz (A)",
    );
    // Zero is an amount (a free line), not a negative one.
    expect(computeAmounts(order([line("A", 10), line("B", 0)], 10)).lines[1]).toMatchObject({
      netK: 0,
      taxK: 0,
    });
  });

  it("a negative shipping cost (it was left out of the invoice, its amount spread as a discount)", () => {
    expect(() => computeAmounts(order([line("A", 10)], 5, 0, -5))).toThrow("Tutarlar negatif olamaz (KARGO)");
  });

  it("a VAT rate other than 0, 1, 10, 20 %", () => {
    for (const vatRate of [8, 18, -1])
      expect(() => computeAmounts(order([line("A", 10, vatRate)], 10))).toThrow(
        `KDV oranı %0, %1, %10 veya %20 olmalı (A: %${vatRate})`,
      );
    // 0 % is a rate (the builder then asks for an exemption code).
    expect(computeAmounts(order([line("A", 10, 0)], 10)).subtotals).toEqual([
      { vatRate: 0, taxableK: 1000, taxK: 0 },
    ]);
    expect(() => computeAmounts(order([line("A", 10)], 22, 0, 12), { shippingVatRate: 18 })).toThrow(
      "(KARGO: %18)",
    );
  });
});
