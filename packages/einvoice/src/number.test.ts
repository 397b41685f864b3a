import { describe, expect, it } from "vitest";
import { formatInvoiceNumber, INVOICE_NUMBER, isValidSeries, parseInvoiceNumber } from "./number.ts";

describe("GİB invoice numbers: guards", () => {
  it("a series is exactly three capital letters or digits", () => {
    for (const ok of ["ABC", "A1B", "123"]) expect(isValidSeries(ok)).toBe(true);
    for (const bad of ["AB", "ABCD", "abc", "AB-", "xABC", "ABCx", " ABC", ""])
      expect(isValidSeries(bad)).toBe(false);
    expect(() => formatInvoiceNumber("ABCD", 2026, 1)).toThrow(
      /Fatura serisi üç büyük harf\/rakam olmalı: "ABCD"/,
    );
  });

  it("years 2000–2099 only, whole numbers", () => {
    expect(formatInvoiceNumber("ABC", 2000, 1)).toBe("ABC2000000000001");
    expect(formatInvoiceNumber("ABC", 2099, 1)).toBe("ABC2099000000001");
    for (const year of [1999, 2100, 2026.5, Number.NaN])
      expect(() => formatInvoiceNumber("ABC", year, 1)).toThrow(`Geçersiz yıl: ${year}`);
  });

  it("sequence 1–999,999,999, whole numbers", () => {
    expect(formatInvoiceNumber("ABC", 2026, 999_999_999)).toBe("ABC2026999999999");
    for (const sequence of [0, -1, 1.5, 1_000_000_000, Number.NaN])
      expect(() => formatInvoiceNumber("ABC", 2026, sequence)).toThrow(
        `Fatura sıra numarası 1..999999999 olmalı: ${sequence}`,
      );
  });

  it("a malformed number is refused whole, not in part", () => {
    expect(parseInvoiceNumber("A1B2099123456789")).toEqual({
      series: "A1B",
      year: 2099,
      sequence: 123456789,
    });
    for (const bad of [
      "ABC202600000001", // eight digits
      "ABC20260000000001", // ten digits
      "xABC2026000000001", // something before
      "ABC2026000000001x", // something after
      "abc2026000000001", // small letters
      "ABC1926000000001", // not 20xx
      "AB-2026000000001",
      "ABC20A6000000001",
      "ABC2026A00000001",
    ]) {
      expect(INVOICE_NUMBER.test(bad)).toBe(false);
      expect(() => parseInvoiceNumber(bad)).toThrow(`Geçersiz fatura numarası: "${bad}"`);
    }
  });
});
