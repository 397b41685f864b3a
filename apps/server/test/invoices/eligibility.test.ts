import type { Order } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { isEligible } from "../../src/modules/invoices/issue.ts";

const order = (status: string, paymentStatus?: string) => ({ status, paymentStatus }) as Order;

describe("which shop orders the invoice job takes", () => {
  it("paid, shipped or all, never a cancelled or refunded order", () => {
    expect(isEligible(order("CREATED", "PAID"), "paid")).toBe(true);
    expect(isEligible(order("CREATED", "WAITING"), "paid")).toBe(false);
    expect(isEligible(order("SHIPPED", "WAITING"), "shipped")).toBe(true);
    expect(isEligible(order("DELIVERED"), "shipped")).toBe(true);
    expect(isEligible(order("CREATED", "PAID"), "shipped")).toBe(false);
    expect(isEligible(order("CREATED"), "all")).toBe(true);
    expect(isEligible(order("CANCELLED", "PAID"), "paid")).toBe(false);
    expect(isEligible(order("REFUNDED", "PAID"), "all")).toBe(false);
  });
});
