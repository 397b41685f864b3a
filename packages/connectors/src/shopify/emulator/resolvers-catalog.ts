/**
 * Catalogue writes of the Shopify emulator: collectionCreate, productSet, productVariantsBulkUpdate (prices)
 * and metafieldsSet, with Shopify's user errors for what the schema cannot say.
 */

import type { Resolver, ResolverDeps, UserError } from "./resolver-types";
import type { ShopifyProduct, ShopifyVariant } from "./state";

export function catalogMutations(deps: ResolverDeps): Record<string, Resolver> {
  const { state, stats } = deps;
  return {
    collectionCreate: (a) => {
      const input = (a.collection ?? a.input) as { title?: string } | undefined;
      if (!input?.title)
        return {
          collection: null,
          userErrors: [{ field: ["collection", "title"], message: "Title can't be blank" }],
        };
      const id = state.newId("Collection");
      state.collections.set(id, { id, title: input.title });
      return { collection: { __typename: "Collection", id, title: input.title }, userErrors: [] };
    },

    productSet: (a) => {
      const input = a.input as {
        title?: string;
        vendor?: string;
        status?: ShopifyProduct["status"];
        descriptionHtml?: string;
        collections?: string[];
        productOptions?: Array<{ name: string; values?: Array<{ name: string }> }>;
        variants?: Array<{
          id?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string | null;
          compareAtPrice?: string | null;
          optionValues: Array<{ optionName?: string | null; name?: string | null }>;
        }>;
      };
      const identifier = a.identifier as { id?: string } | null | undefined;
      const errors: UserError[] = [];
      const existing = identifier?.id ? state.products.get(identifier.id) : undefined;
      if (identifier?.id && !existing) {
        return {
          product: null,
          userErrors: [
            {
              field: ["identifier", "id"],
              message: "Product does not exist",
              code: "PRODUCT_DOES_NOT_EXIST",
            },
          ],
        };
      }
      if (!existing && !input.title)
        errors.push({ field: ["input", "title"], message: "Title can't be blank", code: "INVALID_PRODUCT" });
      const options =
        input.productOptions ??
        (existing
          ? existing.options.map((o) => ({ name: o.name, values: o.values.map((v) => ({ name: v })) }))
          : []);
      const variants = input.variants ?? [];
      if (variants.length > 0 && options.length === 0) {
        errors.push({
          field: ["input", "productOptions"],
          message: "Product options input is required when updating variants",
          code: "PRODUCT_OPTIONS_INPUT_MISSING",
        });
      }
      if (variants.length > 2048)
        errors.push({
          field: ["input", "variants"],
          message: "Too many variants",
          code: "VARIANTS_OVER_LIMIT",
        });
      const names = new Set(options.map((o) => o.name));
      const combos = new Set<string>();
      variants.forEach((v, i) => {
        const given = v.optionValues.map((o) => o.optionName ?? "");
        if (given.length !== names.size || given.some((n) => !names.has(n))) {
          errors.push({
            field: ["input", "variants", String(i), "optionValues"],
            message: "Option values must name every product option",
            code: "OPTION_VALUES_MISSING",
          });
        }
        const combo = v.optionValues
          .map((o) => `${o.optionName}=${o.name}`)
          .sort()
          .join("|");
        if (combos.has(combo))
          errors.push({
            field: ["input", "variants", String(i)],
            message: "The variant already exists",
            code: "DUPLICATED_OPTION_VALUE",
          });
        combos.add(combo);
        if (v.id && (!state.variants.has(v.id) || state.variants.get(v.id)?.productId !== existing?.id)) {
          errors.push({
            field: ["input", "variants", String(i), "id"],
            message: "Variant does not exist",
            code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
          });
        }
      });
      for (const c of input.collections ?? []) {
        if (!state.collections.has(c))
          errors.push({
            field: ["input", "collections"],
            message: `Collection ${c} does not exist`,
            code: "INVALID_INPUT",
          });
      }
      if (errors.length > 0) return { product: null, userErrors: errors };
      const rows = variants.map((v) => {
        const prev = v.id ? (state.variants.get(v.id) as ShopifyVariant) : undefined;
        return {
          id: v.id,
          sku: v.sku !== undefined ? v.sku : (prev?.sku ?? null),
          barcode: v.barcode !== undefined ? v.barcode : (prev?.barcode ?? null),
          // Omitted fields of an existing variant are kept (inferred); a new one defaults to 0.00.
          price: v.price ?? prev?.price ?? "0.00",
          compareAtPrice: v.compareAtPrice !== undefined ? v.compareAtPrice : (prev?.compareAtPrice ?? null),
          options: v.optionValues.map((o) => ({ name: o.optionName ?? "", value: o.name ?? "" })),
        };
      });
      const productOptions = options.map((o) => ({
        name: o.name,
        values: (o.values ?? []).map((v) => v.name),
      }));
      let product: ShopifyProduct;
      if (existing) {
        Object.assign(existing, {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.vendor !== undefined ? { vendor: input.vendor } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.descriptionHtml !== undefined ? { descriptionHtml: input.descriptionHtml } : {}),
          ...(input.collections !== undefined ? { collectionIds: input.collections } : {}),
          options: productOptions,
        });
        if (input.variants) state.replaceVariants(existing, rows);
        product = existing;
      } else {
        product = state.createProduct({
          title: input.title ?? "",
          vendor: input.vendor ?? "",
          status: input.status ?? "ACTIVE",
          descriptionHtml: input.descriptionHtml ?? "",
          options: productOptions,
          collectionIds: input.collections ?? [],
          variants: rows,
        });
      }
      return { product: state.productView(product), userErrors: [] };
    },

    productVariantsBulkUpdate: (a) => {
      stats.priceCalls++;
      const productId = String(a.productId);
      const product = state.products.get(productId);
      if (!product)
        return {
          product: null,
          productVariants: null,
          userErrors: [
            { field: ["productId"], message: "Product does not exist", code: "PRODUCT_DOES_NOT_EXIST" },
          ],
        };
      const rows = a.variants as Array<{
        id?: string | null;
        price?: string | null;
        compareAtPrice?: string | null;
        barcode?: string | null;
      }>;
      stats.priceItems += rows.length;
      const errors: UserError[] = [];
      const ok: Array<{ v: ShopifyVariant; row: (typeof rows)[number] }> = [];
      rows.forEach((row, i) => {
        const v = row.id ? state.variants.get(row.id) : undefined;
        if (!row.id)
          errors.push({
            field: ["variants", String(i), "id"],
            message: "Product variant is missing ID attribute",
            code: "PRODUCT_VARIANT_ID_MISSING",
          });
        else if (!v)
          errors.push({
            field: ["variants", String(i), "id"],
            message: "Product variant does not exist",
            code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
          });
        else if (v.productId !== productId)
          errors.push({
            field: ["variants", String(i), "id"],
            message: "Product variant does not belong to this product",
            code: "MUST_BE_FOR_THIS_PRODUCT",
          });
        else if (row.price != null && Number(row.price) < 0)
          errors.push({
            field: ["variants", String(i), "price"],
            message: "Price must be greater than or equal to 0",
            code: "NEGATIVE_PRICE_VALUE",
          });
        else ok.push({ v, row });
      });
      if (errors.length > 0 && !a.allowPartialUpdates)
        return { product: null, productVariants: null, userErrors: errors };
      for (const { v, row } of ok) {
        if (row.price != null) v.price = Number(row.price).toFixed(2);
        if (row.compareAtPrice !== undefined)
          v.compareAtPrice = row.compareAtPrice === null ? null : Number(row.compareAtPrice).toFixed(2);
        if (row.barcode !== undefined) v.barcode = row.barcode;
        v.updatedAt = new Date(state.now()).toISOString();
      }
      return {
        product: state.productView(product),
        productVariants: ok.map(({ v }) => state.variantView(v)),
        userErrors: errors,
      };
    },
    metafieldsSet: (a) => {
      const list = a.metafields as Array<{
        ownerId: string;
        namespace?: string | null;
        key: string;
        type?: string | null;
        value: string;
      }>;
      if (list.length > 25)
        return {
          metafields: null,
          userErrors: [
            {
              field: ["metafields"],
              message: "Exceeded the maximum metafields input limit of 25.",
              code: "LESS_THAN_OR_EQUAL_TO",
            },
          ],
        };
      const out: Array<Record<string, unknown>> = [];
      const errors: UserError[] = [];
      for (const [i, m] of list.entries()) {
        const order = state.orders.get(m.ownerId);
        if (!order) {
          errors.push({
            field: ["metafields", String(i), "ownerId"],
            message: "Owner does not exist.",
            code: "INVALID",
          });
          continue;
        }
        if (m.type === "json") {
          try {
            JSON.parse(m.value);
          } catch {
            errors.push({
              field: ["metafields", String(i), "value"],
              message: "Value is invalid JSON.",
              code: "INVALID_VALUE",
            });
            continue;
          }
        }
        const ns = m.namespace ?? "app";
        const prev = order.metafields.get(`${ns}.${m.key}`);
        const row = {
          id: prev?.id ?? state.newId("Metafield"),
          namespace: ns,
          key: m.key,
          type: m.type ?? prev?.type ?? "single_line_text_field",
          value: m.value,
        };
        order.metafields.set(`${ns}.${m.key}`, row);
        out.push({ __typename: "Metafield", ...row });
      }
      if (errors.length > 0) return { metafields: null, userErrors: errors };
      return { metafields: out, userErrors: [] };
    },
  };
}
