import { describe, expect, it } from "vitest";
import {
  ANY_PHONE_MASK,
  applyMask,
  formatPhone,
  isMaskComplete,
  MOBILE_PHONE_MASK,
  maskToDigits,
} from "../src/lib/phone-mask";

describe("phone mask 0 (599) 999-9999", () => {
  it("is the spec's mask", () => {
    expect(MOBILE_PHONE_MASK).toBe("0 (599) 999-9999");
  });

  it.each([
    ["05321234567", "0 (532) 123-4567"],
    ["5321234567", "0 (532) 123-4567"],
    ["321234567", "0 (532) 123-4567"],
    ["0532 123 45 67", "0 (532) 123-4567"],
    ["+90 532 123 45 67", "0 (532) 123-4567"],
    ["0 (532) 123-4567", "0 (532) 123-4567"],
    ["053212345678999", "0 (532) 123-4567"],
  ])("lays %j into the mask", (input, masked) => {
    expect(applyMask(input)).toBe(masked);
  });

  it("shows partial numbers without trailing literals", () => {
    expect(applyMask("")).toBe("");
    expect(applyMask("0")).toBe("0");
    expect(applyMask("05")).toBe("0 (5");
    expect(applyMask("053")).toBe("0 (53");
    expect(applyMask("0532")).toBe("0 (532");
    expect(applyMask("05321")).toBe("0 (532) 1");
    expect(applyMask("053212345")).toBe("0 (532) 123-45");
  });

  it("keeps digits only for the form", () => {
    expect(maskToDigits("0 (532) 123-4567")).toBe("05321234567");
    expect(maskToDigits(applyMask("5321234567"))).toBe("05321234567");
    expect(maskToDigits("0 (53")).toBe("053");
    expect(maskToDigits("")).toBe("");
  });

  it("round-trips stored digits", () => {
    expect(formatPhone("05551234567")).toBe("0 (555) 123-4567");
    expect(maskToDigits(formatPhone("05551234567"))).toBe("05551234567");
    expect(formatPhone(null)).toBe("");
  });

  it("knows when the number is complete", () => {
    expect(isMaskComplete("0 (532) 123-4567")).toBe(true);
    expect(isMaskComplete("0 (532) 123-456")).toBe(false);
  });
});

describe("any-number mask 0 (999) 999-9999", () => {
  it("takes land lines", () => {
    expect(applyMask("02163334455", ANY_PHONE_MASK)).toBe("0 (216) 333-4455");
    expect(applyMask("2163334455", ANY_PHONE_MASK)).toBe("0 (216) 333-4455");
    expect(maskToDigits(applyMask("2163334455", ANY_PHONE_MASK))).toBe("02163334455");
  });
});
