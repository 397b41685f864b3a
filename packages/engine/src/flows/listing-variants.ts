import type { ListingAttribute, Product } from "@ep/connectors";
import type { MappedVariant } from "../store/schema.ts";
import { categoryKey } from "./category-sync.ts";
import { toModels } from "./product-sync.ts";

/**
 * ERP variants as the marketplace's variant attributes (issue 37): an ERP item's variants carry options
 * ({ Beden: "M" }); a category mapping says which option feeds which of the marketplace's variant
 * attributes (Trendyol varianter/slicer) and what each ERP value is there. Cards of one ERP model are
 * grouped first (`toModels`, as the shop's product sync does), so a model kept as one card per size
 * (Mikro) shows its size as the option "Seçenek".
 */

/** One sellable ERP variant of a model: the model (its key is the marketplace's product group). */
export type ModelVariant = { model: Product; sku: string; barcode?: string; options: Record<string, string> };

/** The active variants of the active cards' models; a model with no variants sells under its own key. */
export function modelVariants(cards: Product[]): ModelVariant[] {
  const out: ModelVariant[] = [];
  for (const { product: model } of toModels(cards.filter((c) => c.isActive))) {
    const variants =
      model.variants.length > 0 ? model.variants : [{ sku: model.sku, barcodes: [], options: {} }];
    for (const v of variants)
      if (v.isActive !== false) out.push({ model, sku: v.sku, barcode: v.barcodes[0], options: v.options });
  }
  return out;
}

/** The ERP options of a category's products with every value its variants carry (the mapping screen's lists). */
export function erpVariantOptions(
  cards: Product[],
  erpCategory: string,
): Array<{ name: string; values: string[] }> {
  const byName = new Map<string, Set<string>>();
  const inCategory = cards.filter((c) => categoryKey(c.categoryPath) === erpCategory);
  for (const v of modelVariants(inCategory))
    for (const [name, value] of Object.entries(v.options)) {
      const set = byName.get(name) ?? new Set<string>();
      set.add(value);
      byName.set(name, set);
    }
  const collator = new Intl.Collator("tr-TR", { numeric: true });
  return [...byName]
    .map(([name, values]) => ({ name, values: [...values].sort(collator.compare) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** ERP values are matched as the merchant sees them: trimmed, without regard to (Turkish) case. */
const sameValue = (a: string, b: string) =>
  a.trim().toLocaleLowerCase("tr-TR") === b.trim().toLocaleLowerCase("tr-TR");

export type VariantValues =
  | { attributes: ListingAttribute[] }
  | { unmapped: { option: string; value: string; attribute: string } };

/**
 * A variant's values of the mapping's variant attributes. A variant without the option sends none for
 * that attribute (a lone product); a value the mapping does not name is refused, named.
 */
export function variantValues(mapped: MappedVariant[], options: Record<string, string>): VariantValues {
  const attributes: ListingAttribute[] = [];
  for (const m of mapped) {
    const value = options[m.erpOption];
    if (value === undefined) continue;
    const hit = m.values.find((v) => sameValue(v.erpValue, value));
    if (!hit) return { unmapped: { option: m.erpOption, value, attribute: m.name } };
    attributes.push(
      hit.valueId !== undefined
        ? { attributeId: m.attributeId, valueId: hit.valueId }
        : { attributeId: m.attributeId, value: hit.value },
    );
  }
  return { attributes };
}
