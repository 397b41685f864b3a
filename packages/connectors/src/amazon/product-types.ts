/**
 * Amazon product types as the panel's categories (Product Type Definitions API 2020-09-01): the list in
 * Turkish for Amazon.com.tr, and a type's definition, whose attribute requirements are a JSON Schema
 * (Amazon's meta-schema v1, JSON Schema 2019-09) fetched from the definition's `schema.link`. The
 * attributes the merchant maps are the schema's required ones and those with a closed value list, less
 * those the listing fills from the product itself (name, brand, barcode, price, stock, images).
 */

import type { CategoryAttribute, ShopCategory } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { AmazonClient, Row } from "./client";

/** The language of the Turkish texts (item name, description, mapped values) and of Amazon's issues. */
export const AMAZON_TR_LOCALE = "tr_TR";

/** Attributes the listing writes from the ERP product (listing.ts), so they are not mapped per category. */
export const FILLED_FROM_PRODUCT = new Set([
  "item_name",
  "brand",
  "externally_assigned_product_identifier",
  "merchant_suggested_asin",
  "supplier_declared_has_product_identifier_exemption",
  "product_description",
  "condition_type",
  "purchasable_offer",
  "list_price",
  "fulfillment_availability",
  "main_product_image_locator",
  ...Array.from({ length: 8 }, (_, i) => `other_product_image_locator_${i + 1}`),
]);

/** A product type's schema, as far as the connector reads it. */
export interface ProductTypeSchema {
  required?: string[];
  properties?: Record<string, AttributeSchema>;
}
export interface AttributeSchema {
  title?: string;
  items?: { properties?: Record<string, Row>; required?: string[] };
}

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

/** The value list of an attribute's `value`: a closed `enum`, or suggestions in an `anyOf` beside free text. */
function valueList(value: Row | undefined): { values: Array<{ id: string; name: string }>; open: boolean } {
  if (!value) return { values: [], open: true };
  const list = (s: Row) => {
    const ids = Array.isArray(s.enum) ? (s.enum as unknown[]).map(String) : [];
    const names = Array.isArray(s.enumNames) ? (s.enumNames as unknown[]).map(String) : [];
    return ids.map((id, i) => ({ id, name: names[i] ?? id }));
  };
  if (Array.isArray(value.enum)) return { values: list(value), open: false };
  const anyOf = rows(value.anyOf);
  const listed = anyOf.flatMap(list);
  return { values: listed, open: anyOf.length === 0 || anyOf.some((s) => !Array.isArray(s.enum)) };
}

/** The schema's attributes the merchant maps: required ones and those with listed values. */
export function mappableAttributes(schema: ProductTypeSchema): CategoryAttribute[] {
  const required = new Set(schema.required ?? []);
  const out: CategoryAttribute[] = [];
  for (const [id, a] of Object.entries(schema.properties ?? {})) {
    if (FILLED_FROM_PRODUCT.has(id)) continue;
    const value = a.items?.properties?.value;
    // Nested attributes (dimensions, weights) have no single value to map; Amazon names them if missing.
    if (!value) continue;
    const { values, open } = valueList(value);
    if (!required.has(id) && values.length === 0) continue;
    out.push({
      id,
      name: a.title ?? id,
      required: required.has(id),
      variant: false,
      allowCustom: open,
      values,
    });
  }
  return out;
}

export class AmazonProductTypes {
  private readonly schemas = new Map<string, Promise<ProductTypeSchema>>();
  /** Calls made reading definitions and their schemas so far (a write reports the calls it caused). */
  calls = 0;

  constructor(private readonly client: AmazonClient) {}

  async list(): Promise<ShopCategory[]> {
    const body = await this.client.get(
      "searchDefinitionsProductTypes",
      "/definitions/2020-09-01/productTypes",
      { marketplaceIds: [this.client.marketplaceId], locale: AMAZON_TR_LOCALE },
    );
    return rows(body.productTypes).map((t) => ({
      id: String(t.name),
      name: String(t.displayName ?? t.name),
    }));
  }

  /** The product type's schema for a full listing (requirements LISTING, enforced), once per connector. */
  schema(productType: string): Promise<ProductTypeSchema> {
    let hit = this.schemas.get(productType);
    if (!hit) {
      hit = this.load(productType);
      // A failed read is not kept: the next call asks again.
      hit.catch(() => this.schemas.delete(productType));
      this.schemas.set(productType, hit);
    }
    return hit;
  }

  private async load(productType: string): Promise<ProductTypeSchema> {
    this.calls += 2;
    const def = await this.client.get(
      "getDefinitionsProductType",
      `/definitions/2020-09-01/productTypes/${encodeURIComponent(productType)}`,
      {
        marketplaceIds: [this.client.marketplaceId],
        sellerId: this.client.sellerId,
        requirements: "LISTING",
        requirementsEnforced: "ENFORCED",
        locale: AMAZON_TR_LOCALE,
      },
    );
    const link = ((def.schema as Row | undefined)?.link as Row | undefined)?.resource;
    if (typeof link !== "string")
      throw new ConnectorError(`amazon: product type ${productType} without a schema link`, {
        reason: "bad_response",
        system: "amazon",
        operation: "getDefinitionsProductType",
      });
    const text = await this.client.download(link, undefined, "getProductTypeSchema");
    return JSON.parse(text) as ProductTypeSchema;
  }

  async attributes(productType: string): Promise<CategoryAttribute[]> {
    return mappableAttributes(await this.schema(productType));
  }
}
