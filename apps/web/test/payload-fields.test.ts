import { describe, expect, it } from "vitest";
import { countPayloadFields, flattenPayload, isMoneyField } from "../src/features/integration/payload-fields";
import { formatDecimal, formatMoney } from "../src/lib/format";

describe("flattenPayload", () => {
  it("lists every leaf of a nested payload with its path, depth first", () => {
    const payload = {
      orderNo: "S-1",
      customer: { firstName: "Ali", lastName: null },
      lines: [{ sku: "A", qty: 2 }, { sku: "B" }],
      paid: true,
      empty: {},
    };
    expect(flattenPayload(payload)).toEqual([
      { path: ["orderNo"], value: "S-1" },
      { path: ["customer", "firstName"], value: "Ali" },
      { path: ["customer", "lastName"], value: null },
      { path: ["lines", 0, "sku"], value: "A" },
      { path: ["lines", 0, "qty"], value: 2 },
      { path: ["lines", 1, "sku"], value: "B" },
      { path: ["paid"], value: true },
    ]);
  });

  it("caps the list and still counts what it left out; no payload is no field", () => {
    const big = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i]));
    expect(flattenPayload(big, 60)).toHaveLength(60);
    expect(countPayloadFields(big)).toBe(80);
    expect(flattenPayload(null)).toEqual([]);
    expect(flattenPayload(undefined)).toEqual([]);
    expect(flattenPayload("düz metin")).toEqual([{ path: [], value: "düz metin" }]);
  });
});

describe("money in a payload", () => {
  it("knows a price, a total or a discount by its key, not a quantity or a code", () => {
    const fields = flattenPayload({
      sku: "A-1",
      price: 89.5,
      qty: 2.5,
      lines: [{ unitPrice: 10, totalAmount: 20 }],
    });
    expect(fields.filter(isMoneyField).map((f) => f.path.join("."))).toEqual([
      "price",
      "lines.0.unitPrice",
      "lines.0.totalAmount",
    ]);
    expect(formatMoney(89.5)).toBe("89,50 ₺");
    expect(formatDecimal(2.5)).toBe("2,5");
  });
});
