import type { MarketplaceAttributeDto } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { mappingAttributes, suggestVariantValues } from "../src/features/integration/listing-form";

const attr = (over: Partial<MarketplaceAttributeDto>): MarketplaceAttributeDto => ({
  id: "1",
  name: "X",
  required: false,
  variant: false,
  allowCustom: false,
  values: [],
  ...over,
});
const renk = attr({
  id: "47",
  name: "Renk",
  required: true,
  variant: true,
  values: [{ id: "100", name: "Siyah" }],
});
const beden = attr({
  id: "338",
  name: "Beden",
  variant: true,
  values: ["S", "M", "L"].map((name, i) => ({ id: String(200 + i), name })),
});
const materyal = attr({ id: "14", name: "Materyal", allowCustom: true });

describe("suggestVariantValues", () => {
  it("matches ERP values to listed values by name, case aside, and leaves the rest to the merchant", () => {
    expect(suggestVariantValues(beden, ["s", "M", "XL"])).toEqual({ s: "200", M: "201" });
  });
  it("takes the ERP value as free text where the attribute has no list but allows its own", () => {
    expect(suggestVariantValues(attr({ variant: true, allowCustom: true }), ["Mavi"])).toEqual({
      Mavi: "Mavi",
    });
    expect(suggestVariantValues(attr({ variant: true }), ["Mavi"])).toEqual({});
  });
});

describe("mappingAttributes", () => {
  it("sends fixed values for attributes no ERP option feeds and variant mappings for the rest", () => {
    const out = mappingAttributes(
      [renk, beden, materyal],
      { "47": "100", "338": "201", "14": "Pamuk" },
      { "338": { erpOption: "Seçenek", values: { S: "200", M: "201", XL: "" } } },
    );
    expect(out).toEqual({
      attributes: [
        { attributeId: "47", valueId: "100" },
        { attributeId: "14", value: "Pamuk" },
      ],
      variants: [
        {
          attributeId: "338",
          erpOption: "Seçenek",
          values: [
            { erpValue: "S", valueId: "200" },
            { erpValue: "M", valueId: "201" },
          ],
        },
      ],
    });
  });
  it("an option cleared or a non-variant attribute falls back to the fixed value", () => {
    const out = mappingAttributes(
      [beden, materyal],
      { "338": "202" },
      {
        "338": { erpOption: "", values: {} },
        "14": { erpOption: "Seçenek", values: { S: "x" } },
      },
    );
    expect(out).toEqual({ attributes: [{ attributeId: "338", valueId: "202" }], variants: [] });
  });
});
