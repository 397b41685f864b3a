import { z } from "zod";
import type { MessageKey } from "../messages/tr.ts";

const err = (key: MessageKey) => ({ error: key });

/**
 * Product listing on a sales channel (issue 37): the marketplace's own category, brand and attribute
 * lists, and the company's mapping of ERP categories onto them.
 */

export const marketplaceCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  /** Products are opened in leaf categories only. */
  leaf: z.boolean(),
});
export type MarketplaceCategoryDto = z.infer<typeof marketplaceCategorySchema>;

export const marketplaceAttributeSchema = z.object({
  id: z.string(),
  name: z.string(),
  required: z.boolean(),
  variant: z.boolean(),
  allowCustom: z.boolean(),
  values: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type MarketplaceAttributeDto = z.infer<typeof marketplaceAttributeSchema>;

export const marketplaceBrandSchema = z.object({ id: z.string(), name: z.string() });

/** How a channel takes a listing's fields: `freeTextBrand`, the brand is typed (no brand list). */
export const listingProfileSchema = z.object({ freeTextBrand: z.boolean() });
export type ListingProfileDto = z.infer<typeof listingProfileSchema>;

const text = z.string().trim().min(1, err("validation.fieldInvalid")).max(500);

export const mappedAttributeSchema = z
  .object({
    attributeId: text,
    valueId: text.optional(),
    value: text.optional(),
  })
  .strict();

/** One ERP option value onto a marketplace value: a listed value's id, or free text where allowed. */
export const mappedVariantValueSchema = z
  .object({
    erpValue: text,
    valueId: text.optional(),
    value: text.optional(),
  })
  .strict();

/**
 * Which ERP variant option (e.g. "Beden") feeds which variant attribute of the marketplace (Trendyol
 * varianter/slicer), and each of the option's ERP values onto the marketplace's value.
 */
export const mappedVariantSchema = z
  .object({
    attributeId: text,
    erpOption: text,
    values: z.array(mappedVariantValueSchema).min(1).max(500),
  })
  .strict();

/** What the merchant saves: an ERP category onto a marketplace category, brand and attribute values. */
export const categoryMappingInputSchema = z
  .object({
    erpCategory: text,
    categoryId: text,
    brandId: text,
    attributes: z.array(mappedAttributeSchema).max(200).default([]),
    variants: z.array(mappedVariantSchema).max(20).default([]),
  })
  .strict();
export type CategoryMappingInput = z.infer<typeof categoryMappingInputSchema>;

export const categoryMappingSchema = z.object({
  id: z.number().int(),
  erpCategory: z.string(),
  categoryId: z.string(),
  categoryName: z.string(),
  brandId: z.string(),
  brandName: z.string(),
  attributes: z.array(
    z.object({
      attributeId: z.string(),
      name: z.string(),
      valueId: z.string().optional(),
      value: z.string().optional(),
    }),
  ),
  variants: z.array(
    z.object({
      attributeId: z.string(),
      name: z.string(),
      erpOption: z.string(),
      values: z.array(z.object({ erpValue: z.string(), valueId: z.string().optional(), value: z.string() })),
    }),
  ),
  updatedAt: z.string(),
});
export type CategoryMappingDto = z.infer<typeof categoryMappingSchema>;

/** An ERP variant option of a category's products and the values its variants carry. */
export const erpVariantOptionSchema = z.object({ name: z.string(), values: z.array(z.string()) });
export type ErpVariantOptionDto = z.infer<typeof erpVariantOptionSchema>;
