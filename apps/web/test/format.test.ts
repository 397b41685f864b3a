import { describe, expect, it } from "vitest";
import {
  formatCounts,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatMoney,
  formatNumber,
} from "../src/lib/format";

describe("formatMoney", () => {
  it("uses Turkish grouping, two decimals and a trailing lira sign", () => {
    expect(formatMoney(1234.56)).toBe("1.234,56 ₺");
    expect(formatMoney(0)).toBe("0,00 ₺");
    expect(formatMoney(5)).toBe("5,00 ₺");
    expect(formatMoney(1234567.891)).toBe("1.234.567,89 ₺");
    expect(formatMoney(0.005)).toBe("0,01 ₺");
    expect(formatMoney(-1500)).toBe("-1.500,00 ₺");
  });

  it("accepts numeric strings and treats missing values as zero", () => {
    expect(formatMoney("99.9")).toBe("99,90 ₺");
    expect(formatMoney(null)).toBe("0,00 ₺");
    expect(formatMoney(undefined)).toBe("0,00 ₺");
    expect(formatMoney(Number.NaN)).toBe("0,00 ₺");
  });
});

describe("date formats", () => {
  const date = new Date(2025, 2, 5, 14, 7, 9);

  it("formats DD-MM-YYYY HH:mm", () => {
    expect(formatDateTime(date)).toBe("05-03-2025 14:07");
    expect(formatDateTime(date.getTime())).toBe("05-03-2025 14:07");
  });

  it("formats DD-MM-YYYY and DD-MM", () => {
    expect(formatDate(date)).toBe("05-03-2025");
    expect(formatDayMonth(date)).toBe("05-03");
  });

  it("reads ISO strings", () => {
    const iso = new Date(2024, 11, 31, 23, 59).toISOString();
    expect(formatDateTime(iso)).toBe("31-12-2024 23:59");
    expect(formatDate("2024-02-29")).toBe("29-02-2024");
  });

  it("shows a dash for empty or invalid input", () => {
    expect(formatDateTime(null)).toBe("-");
    expect(formatDate(undefined)).toBe("-");
    expect(formatDayMonth("")).toBe("-");
    expect(formatDate("not a date")).toBe("-");
  });
});

describe("formatNumber / formatCounts", () => {
  it("groups thousands the Turkish way, also for four digits", () => {
    expect(formatNumber(3133)).toBe("3.133");
    expect(formatNumber(1234567)).toBe("1.234.567");
    expect(formatNumber(0)).toBe("0");
    expect(formatCounts({ read: 100000, written: 3133, failed: 7 })).toEqual({
      read: "100.000",
      written: "3.133",
      failed: "7",
    });
  });
});
