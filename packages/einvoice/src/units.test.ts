import { describe, expect, it } from "vitest";
import { computeAmounts, fromKurus } from "./amounts.ts";
import { formatInvoiceNumber, parseInvoiceNumber } from "./number.ts";
import { CachedEInvoiceUserDirectory, chooseProfile, type EInvoiceUserDirectory } from "./profile.ts";
import { sampleOrder, seller } from "./testing/fixtures.ts";
import { buildUblInvoice } from "./ubl.ts";

describe("GİB invoice numbers", () => {
  it("series, year, nine digits", () => {
    expect(formatInvoiceNumber("ABC", 2026, 1)).toBe("ABC2026000000001");
    expect(formatInvoiceNumber("W2B", 2026, 123456789)).toBe("W2B2026123456789");
    expect(parseInvoiceNumber("ABC2026000000042")).toEqual({ series: "ABC", year: 2026, sequence: 42 });
    expect(() => formatInvoiceNumber("ab", 2026, 1)).toThrow();
    expect(() => formatInvoiceNumber("ABC", 2026, 0)).toThrow();
    expect(() => formatInvoiceNumber("ABC", 2026, 1_000_000_000)).toThrow();
  });
});

describe("amounts", () => {
  it("VAT-included lines: net by rate, VAT rounded per line, totals are sums", () => {
    const a = computeAmounts(sampleOrder());
    // Kazak: 1100 incl. 20 % -> 916.67 net, VAT 183.33; discount 100 incl. -> 83.33 net.
    expect(a.lines[0]).toMatchObject({ netK: 91667, taxK: 18333, discountK: 8333, baseK: 100000 });
    // Kitap 99.90 incl. 10 % -> 90.82 net, 9.08 VAT.
    expect(a.lines[1]).toMatchObject({ netK: 9082, taxK: 908 });
    // Shipping becomes a 20 % line.
    expect(a.lines[3]).toMatchObject({ sku: "KARGO", netK: 4158, taxK: 832, isShipping: true });
    expect(a.subtotals.map((s) => s.vatRate)).toEqual([1, 10, 20]);
    expect(a.taxK).toBe(a.lines.reduce((x, l) => x + l.taxK, 0));
    expect(fromKurus(a.payableK)).toBe("1287.30");
    expect(a.differenceFromOrderK).toBe(0);
  });

  it("an order discount is spread over the goods lines, shipping untouched", () => {
    const order = sampleOrder();
    order.totals.grandTotal = 1187.3; // 100 TL off the whole order
    const a = computeAmounts(order);
    const shares = a.lines.map((l) => l.baseK - l.netK);
    expect(a.lines[3]?.discountK).toBe(0);
    expect(shares.slice(0, 3).every((s) => s > 0)).toBe(true);
    expect(Math.abs(a.payableK - 118730)).toBeLessThanOrEqual(a.lines.length);
  });

  it("VAT-excluded prices are taken as net", () => {
    const order = sampleOrder({ shipping: { cost: 0 } });
    order.lines = [{ sku: "A", name: "A", qty: 3, unitPrice: 10, vatRate: 20, discount: 0, total: 30 }];
    order.totals = { subtotal: 30, discount: 0, shipping: 0, tax: 6, grandTotal: 36 };
    const a = computeAmounts(order, { pricesIncludeVat: false });
    expect(a.lines[0]).toMatchObject({ netK: 3000, taxK: 600, unitPrice: "10" });
    expect(a.payableK).toBe(3600);
  });

  it("refuses rates GİB's KDV does not have here", () => {
    const order = sampleOrder();
    order.lines[0] = { ...order.lines[0]!, vatRate: 18 };
    expect(() => computeAmounts(order)).toThrow(/%1, %10 veya %20/);
  });
});

describe("profile", () => {
  const company = { ...sampleOrder().customer, taxNumber: "9876543210", isCompany: true };
  it("e-Fatura for a registered buyer (the company's choice), e-Arşiv otherwise", async () => {
    const directory: EInvoiceUserDirectory = { isEInvoiceUser: async (n) => n === "9876543210" };
    expect(await chooseProfile(company, directory, "TICARIFATURA")).toBe("TICARIFATURA");
    expect(await chooseProfile(company, directory, "TEMELFATURA")).toBe("TEMELFATURA");
    expect(await chooseProfile({ ...company, taxNumber: "1111111112" }, directory, "TEMELFATURA")).toBe(
      "EARSIVFATURA",
    );
    expect(await chooseProfile(sampleOrder().customer, directory, "TEMELFATURA")).toBe("EARSIVFATURA");
  });

  it("asks the provider once a day per tax number; errors are not cached", async () => {
    let now = 0;
    const calls: string[] = [];
    let fail = true;
    const cached = new CachedEInvoiceUserDirectory(
      {
        isEInvoiceUser: async (n) => {
          calls.push(n);
          if (fail) throw new Error("provider down");
          return true;
        },
      },
      { now: () => now },
    );
    await expect(cached.isEInvoiceUser("9876543210")).rejects.toThrow("provider down");
    fail = false;
    expect(
      await Promise.all([cached.isEInvoiceUser("9876543210"), cached.isEInvoiceUser("9876543210")]),
    ).toEqual([true, true]);
    now += 23 * 3600_000;
    await cached.isEInvoiceUser("9876543210");
    expect(calls).toHaveLength(2);
    now += 2 * 3600_000;
    await cached.isEInvoiceUser("9876543210");
    expect(calls).toHaveLength(3);
  });
});

describe("document header", () => {
  const header = {
    profile: "EARSIVFATURA" as const,
    type: "SATIS" as const,
    number: "ABC2026000000001",
    uuid: "3f1c2a3e-1111-4a2b-9c3d-0123456789ab",
    issueDate: "2026-11-23",
    issueTime: "14:05:00",
  };
  it("unknown consumer on e-Arşiv gets TCKN 11111111111 and a Person", () => {
    const { xml } = buildUblInvoice(sampleOrder(), seller, header);
    expect(xml).toContain('<cbc:ID schemeID="TCKN">11111111111</cbc:ID>');
    expect(xml).toContain("<cbc:FirstName>Ayşe</cbc:FirstName>");
    expect(xml).toContain("<cbc:Name>Kadıköy</cbc:Name>");
  });
  it("foreign currency needs the rate and writes PricingCurrencyCode/PricingExchangeRate", () => {
    expect(() => buildUblInvoice(sampleOrder({ currency: "EUR" }), seller, header)).toThrow(/kur/);
    const { xml } = buildUblInvoice(sampleOrder({ currency: "EUR" }), seller, {
      ...header,
      exchangeRate: 41.25,
    });
    expect(xml).toContain("<cbc:PricingCurrencyCode>EUR</cbc:PricingCurrencyCode>");
    expect(xml).toContain("<cbc:CalculationRate>41.25</cbc:CalculationRate>");
  });
  it("e-Fatura needs a buyer tax number; IADE needs the returned invoice", () => {
    expect(() => buildUblInvoice(sampleOrder(), seller, { ...header, profile: "TEMELFATURA" })).toThrow(
      /VKN/,
    );
    expect(() => buildUblInvoice(sampleOrder(), seller, { ...header, type: "IADE" })).toThrow(/İade/);
  });
});
