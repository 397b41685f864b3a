import type { Order } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { isEligible, isReturned } from "../../src/modules/invoices/eligibility.ts";
import { retryDelayMs } from "../../src/modules/invoices/send.ts";

const order = (status: string, paymentStatus?: string) => ({ status, paymentStatus }) as Order;

describe("which shop orders the invoice job takes", () => {
  it("paid, shipped or all, never a cancelled or refunded order", () => {
    expect(isEligible(order("CREATED", "PAID"), "paid")).toBe(true);
    expect(isEligible(order("CREATED", "WAITING"), "paid")).toBe(false);
    expect(isEligible(order("CREATED"), "paid")).toBe(false);
    expect(isEligible(order("SHIPPED", "WAITING"), "shipped")).toBe(true);
    expect(isEligible(order("DELIVERED"), "shipped")).toBe(true);
    expect(isEligible(order("CREATED", "PAID"), "shipped")).toBe(false);
    expect(isEligible(order("CREATED"), "all")).toBe(true);
    expect(isEligible(order("CANCELLED", "PAID"), "paid")).toBe(false);
    expect(isEligible(order("REFUNDED", "PAID"), "all")).toBe(false);
    for (const paid of ["paid", "Ödendi", "odendi", "SUCCESS", "captured"])
      expect(isEligible(order("CREATED", paid), "paid"), paid).toBe(true);
    for (const shipped of ["Kargoya verildi", "teslim edildi", "FULFILLED", "shipped", "delivered"])
      expect(isEligible(order(shipped), "shipped"), shipped).toBe(true);
    for (const cancelled of ["cancelled", "iptal", "Refunded", "iade"])
      expect(isEligible(order(cancelled, "PAID"), "all"), cancelled).toBe(false);
  });

  // Bug found by mutation testing (issue 41): JavaScript's /i does not fold the Turkish capital "İ",
  // so an "İptal Edildi" order was invoiced and an "ÖDENDİ" or "TESLİM EDİLDİ" one never was.
  it("reads Turkish capitals: İPTAL, İADE, ÖDENDİ, TESLİM EDİLDİ", () => {
    expect(isEligible(order("İptal Edildi", "PAID"), "all")).toBe(false);
    expect(isEligible(order("İADE EDİLDİ", "PAID"), "paid")).toBe(false);
    expect(isEligible(order("YENİ", "ÖDENDİ"), "paid")).toBe(true);
    expect(isEligible(order("TESLİM EDİLDİ"), "shipped")).toBe(true);
    expect(isReturned(order("İPTAL"))).toBe(true);
    expect(isReturned(order("TESLİM EDİLDİ", "İADE EDİLDİ"))).toBe(true);
  });
});

describe("which invoiced orders get a return invoice", () => {
  it("a cancelled, refunded or returned order, by its status or its payment status", () => {
    for (const status of ["CANCELLED", "iptal", "REFUNDED", "iade", "RETURNED"])
      expect(isReturned(order(status)), status).toBe(true);
    expect(isReturned(order("DELIVERED", "REFUNDED"))).toBe(true);
    expect(isReturned(order("DELIVERED", "PAID"))).toBe(false);
    expect(isReturned(order("DELIVERED"))).toBe(false);
  });
});

describe("the wait before a send is retried", () => {
  it("doubles from the base for each further retry, never above the longest wait", () => {
    const policy = { baseMs: 1000, maxMs: 5000, maxAttempts: 8 };
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs(n, policy))).toEqual([1000, 1000, 2000, 4000, 5000]);
  });
});
