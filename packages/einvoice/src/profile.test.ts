import { describe, expect, it } from "vitest";
import {
  buyerTaxNumber,
  CachedEInvoiceUserDirectory,
  chooseProfile,
  type EInvoiceUserDirectory,
} from "./profile.ts";
import { sampleOrder } from "./testing/fixtures.ts";

const customer = (taxNumber?: string) => ({ ...sampleOrder().customer, taxNumber });

describe("buyer tax number", () => {
  it("10 or 11 digits, spaces removed; GİB's unknown-consumer placeholder is no number", () => {
    expect(buyerTaxNumber(customer("987 654 3210"))).toBe("9876543210");
    expect(buyerTaxNumber(customer(" 12345678901\t"))).toBe("12345678901");
    for (const bad of [
      undefined,
      "",
      "   ",
      "123456789",
      "123456789012",
      "x9876543210",
      "9876543210x",
      "11111111111",
    ])
      expect(buyerTaxNumber(customer(bad)), String(bad)).toBeUndefined();
  });

  it("the directory is asked only for a buyer with a tax number", async () => {
    const asked: string[] = [];
    const directory: EInvoiceUserDirectory = {
      isEInvoiceUser: async (n) => {
        asked.push(n);
        return true;
      },
    };
    expect(await chooseProfile(customer(undefined), directory, "TEMELFATURA")).toBe("EARSIVFATURA");
    expect(await chooseProfile(customer("11111111111"), directory, "TEMELFATURA")).toBe("EARSIVFATURA");
    expect(asked).toEqual([]);
    expect(await chooseProfile(customer("9876543210"), directory, "TICARIFATURA")).toBe("TICARIFATURA");
    expect(asked).toEqual(["9876543210"]);
  });
});

describe("cached directory", () => {
  it("an answer is kept for less than the TTL, not at it", async () => {
    let now = 5_000_000;
    let calls = 0;
    const cached = new CachedEInvoiceUserDirectory(
      {
        isEInvoiceUser: async () => {
          calls++;
          return calls === 1;
        },
      },
      { now: () => now, ttlMs: 1000 },
    );
    expect(await cached.isEInvoiceUser("9876543210")).toBe(true);
    now += 999;
    expect(await cached.isEInvoiceUser("9876543210")).toBe(true);
    expect(calls).toBe(1);
    now += 1;
    expect(await cached.isEInvoiceUser("9876543210")).toBe(false);
    expect(calls).toBe(2);
    // Per tax number.
    await cached.isEInvoiceUser("1234567890");
    expect(calls).toBe(3);
  });
});
