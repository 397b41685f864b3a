import type { CategoryMappingInput, MarketplaceAttributeDto } from "@ep/contracts";

/**
 * The category mapping form's data (issue 37), kept apart from the screen: fixed attribute values by
 * attribute id, and per variant attribute the ERP option feeding it with each ERP value's choice.
 */
export type VariantDraft = { erpOption: string; values: Record<string, string> };

const same = (a: string, b: string) =>
  a.trim().toLocaleLowerCase("tr-TR") === b.trim().toLocaleLowerCase("tr-TR");

/**
 * Each ERP value's marketplace value where the names are the same (S → S): the merchant checks and
 * completes the rest. A free-text attribute takes the ERP value as it is.
 */
export function suggestVariantValues(
  attribute: MarketplaceAttributeDto,
  erpValues: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const erp of erpValues) {
    if (attribute.values.length === 0) {
      if (attribute.allowCustom) out[erp] = erp;
      continue;
    }
    const hit = attribute.values.find((v) => same(v.name, erp));
    if (hit) out[erp] = hit.id;
  }
  return out;
}

/**
 * What is saved: fixed values for the attributes no ERP option feeds, and the variant mappings with the
 * ERP values that have a choice (a value left without one is refused at listing time, named).
 */
export function mappingAttributes(
  attributes: MarketplaceAttributeDto[],
  fixed: Record<string, string>,
  variants: Record<string, VariantDraft>,
): Pick<CategoryMappingInput, "attributes" | "variants"> {
  const out: Pick<CategoryMappingInput, "attributes" | "variants"> = { attributes: [], variants: [] };
  for (const a of attributes) {
    const draft = a.variant ? variants[a.id] : undefined;
    if (draft?.erpOption) {
      const values = Object.entries(draft.values)
        .filter(([, v]) => v)
        .map(([erpValue, v]) => (a.values.length > 0 ? { erpValue, valueId: v } : { erpValue, value: v }));
      if (values.length > 0) out.variants.push({ attributeId: a.id, erpOption: draft.erpOption, values });
      continue;
    }
    const v = fixed[a.id];
    if (!v) continue;
    out.attributes.push(
      a.values.length > 0 ? { attributeId: a.id, valueId: v } : { attributeId: a.id, value: v },
    );
  }
  return out;
}
