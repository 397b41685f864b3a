/** IKAS emulator: products, variant types and values, categories, brands. */

import type { IkasCategory, IkasProduct, IkasVariant } from "../types";
import {
  type DateFilter,
  type IkasResolverContext,
  matchDate,
  matchString,
  type Pagination,
  type ProductInputShape,
  page,
  type Resolvers,
  type StringFilter,
  sortBy,
  toPrice,
  validationError,
} from "./common";

export function catalogResolvers(ctx: IkasResolverContext): Resolvers {
  const { state, limits, stats } = ctx;
  const validLists = () => new Set(state.priceLists.map((s) => s.id));

  return {
    listVariantType: (a) => {
      const args = a as { id?: StringFilter; name?: StringFilter; updatedAt?: DateFilter };
      return [...state.variantTypes.values()].filter(
        (t) =>
          !t.deleted &&
          matchString(t.id, args.id) &&
          matchString(t.name, args.name) &&
          matchDate(t.updatedAt, args.updatedAt),
      );
    },

    saveVariantType: (a) => {
      const input = (
        a as {
          input: {
            id?: string | null;
            name: string;
            selectionType: "CHOICE" | "COLOR";
            values: Array<{ id?: string | null; name: string }>;
          };
        }
      ).input;
      if (!input.name.trim()) throw validationError("name is required");
      const existing = input.id ? state.variantTypes.get(input.id) : undefined;
      if (input.id && !existing) throw validationError(`Variant type not found: ${input.id}`);
      const names = new Set<string>();
      for (const v of input.values) {
        if (!v.name.trim()) throw validationError("variant value name is required");
        if (names.has(v.name)) throw validationError(`Duplicate variant value: ${v.name}`);
        names.add(v.name);
        if (v.id && !existing?.values.some((x) => x.id === v.id))
          throw validationError(`Variant value not found: ${v.id}`);
      }
      const ts = state.tick();
      // Like saveProduct, the value list is replaced: values left out are gone.
      const type = existing ?? {
        id: state.uuid(),
        name: input.name,
        selectionType: input.selectionType,
        values: [],
        createdAt: ts,
        updatedAt: ts,
        deleted: false,
      };
      type.name = input.name;
      type.selectionType = input.selectionType;
      type.values = input.values.map((v) => ({ id: v.id ?? state.uuid(), name: v.name, deleted: false }));
      type.updatedAt = ts;
      state.variantTypes.set(type.id, type);
      return type;
    },

    listProduct: (a) => {
      const args = a as {
        pagination?: Pagination;
        id?: StringFilter;
        sku?: StringFilter;
        barcodeList?: StringFilter;
        categoryIds?: StringFilter;
        updatedAt?: DateFilter;
        includeDeleted?: boolean;
        sort?: string;
      };
      let items: IkasProduct[];
      if (args.sku?.in || args.sku?.eq) {
        const wanted = args.sku.in ?? [args.sku.eq ?? ""];
        const ids = new Set<string>();
        for (const s of wanted) {
          const hit = state.skuIndex.get(s);
          if (hit) ids.add(hit[0]);
        }
        items = [...ids].map((id) => state.products.get(id)).filter((p): p is IkasProduct => p !== undefined);
      } else if (args.id?.eq || args.id?.in) {
        const ids = args.id.in ?? [args.id.eq ?? ""];
        items = ids.map((id) => state.products.get(id)).filter((p): p is IkasProduct => p !== undefined);
      } else {
        items = [...state.products.values()];
      }
      items = items.filter(
        (p) =>
          (args.includeDeleted || !p.deleted) &&
          matchDate(p.updatedAt, args.updatedAt) &&
          (!args.barcodeList ||
            p.variants.some((v) => v.barcodeList.some((b) => matchString(b, args.barcodeList)))) &&
          (!args.categoryIds || p.categoryIds.some((c) => matchString(c, args.categoryIds))),
      );
      return page(sortBy(items, args.sort), args.pagination, limits.maxPageLimit);
    },

    listCategory: (a) => {
      const args = a as { id?: StringFilter; updatedAt?: DateFilter; search?: string };
      const q = args.search?.toLocaleLowerCase("tr-TR");
      return [...state.categories.values()].filter(
        (c) =>
          matchString(c.id, args.id) &&
          matchDate(c.updatedAt, args.updatedAt) &&
          (!q || c.name.toLocaleLowerCase("tr-TR").includes(q)),
      );
    },

    listProductBrand: (a) => {
      const args = a as { id?: StringFilter; search?: string };
      const q = args.search?.toLocaleLowerCase("tr-TR");
      return [...state.brands.values()].filter(
        (c) => matchString(c.id, args.id) && (!q || c.name.toLocaleLowerCase("tr-TR").includes(q)),
      );
    },

    saveProduct: (a) => {
      stats.productSaves++;
      const input = (a as { input: ProductInputShape }).input;
      if (!input.name.trim()) throw validationError("name is required");
      if (input.variants.length === 0) throw validationError("variants must not be empty");
      const existing = input.id ? state.products.get(input.id) : undefined;
      if (input.id && !existing) throw validationError(`Product not found: ${input.id}`);
      for (const id of input.categoryIds ?? []) {
        if (!state.categories.has(id)) throw validationError(`Category not found: ${id}`);
      }
      if (input.brandId && !state.brands.has(input.brandId))
        throw validationError(`Brand not found: ${input.brandId}`);
      const seen = new Set<string>();
      for (const v of input.variants) {
        if (v.sku) {
          if (seen.has(v.sku)) throw validationError(`Duplicate sku in input: ${v.sku}`);
          seen.add(v.sku);
          const owner = state.skuIndex.get(v.sku);
          if (owner && owner[0] !== existing?.id)
            throw validationError(`SKU already exists: ${v.sku}`, { sku: v.sku });
        }
        if (v.id && !existing?.variants.some((x) => x.id === v.id))
          throw validationError(`Variant not found: ${v.id}`);
        for (const ref of v.variantValueIds ?? []) {
          const type = state.variantTypes.get(ref.variantTypeId);
          if (!type || type.deleted) throw validationError(`Variant type not found: ${ref.variantTypeId}`);
          if (!type.values.some((x) => x.id === ref.variantValueId))
            throw validationError(`Variant value ${ref.variantValueId} is not a value of ${type.name}`);
          const declared = input.productVariantTypes?.find((t) => t.variantTypeId === ref.variantTypeId);
          if (!declared?.variantValueIds.includes(ref.variantValueId))
            throw validationError(
              `Variant value ${ref.variantValueId} is not declared in productVariantTypes of the product`,
            );
        }
        for (const p of v.prices) {
          if (p.priceListId && !validLists().has(p.priceListId))
            throw validationError(`Price list not found: ${p.priceListId}`);
          if (!(p.sellPrice >= 0)) throw validationError("sellPrice must not be negative");
        }
      }
      const ts = state.tick();
      if (existing) state.unindexProduct(existing);
      // saveProduct replaces the whole product: variants and prices not in the input are gone (IKAS gotcha).
      const variants: IkasVariant[] = input.variants.map((v) => {
        const old = v.id ? existing?.variants.find((x) => x.id === v.id) : undefined;
        return {
          id: old?.id ?? state.uuid(),
          sku: v.sku ?? null,
          barcodeList: v.barcodeList ?? [],
          isActive: v.isActive,
          prices: v.prices.map(toPrice),
          stocks: old?.stocks ?? [],
          variantValueIds: v.variantValueIds ?? [],
          deleted: false,
        };
      });
      const product: IkasProduct = {
        id: existing?.id ?? state.uuid(),
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        brandId: input.brandId ?? null,
        categoryIds: input.categoryIds ?? [],
        salesChannelIds: input.salesChannelIds ?? state.salesChannels.map((s) => s.id),
        productVariantTypes: input.productVariantTypes ?? [],
        vatRate: existing?.vatRate ?? null,
        variants,
        createdAt: existing?.createdAt ?? ts,
        updatedAt: ts,
        deleted: false,
      };
      state.products.set(product.id, product);
      state.indexProduct(product);
      return product;
    },

    saveCategory: (a) => {
      const input = (a as { input: { id?: string | null; name: string; parentId?: string | null } }).input;
      if (!input.name.trim()) throw validationError("name is required");
      if (input.parentId && !state.categories.has(input.parentId))
        throw validationError(`Parent category not found: ${input.parentId}`);
      if (input.id) {
        const c = state.categories.get(input.id);
        if (!c) throw validationError(`Category not found: ${input.id}`);
        c.name = input.name;
        c.parentId = input.parentId ?? null;
        c.updatedAt = state.tick();
        return c;
      }
      return state.addCategory(input.name, input.parentId ?? null) satisfies IkasCategory;
    },

    saveProductBrand: (a) => {
      const input = (a as { input: { id?: string | null; name: string } }).input;
      if (!input.name.trim()) throw validationError("name is required");
      const id = state.brandFor(input.name);
      return state.brands.get(id);
    },
  };
}
