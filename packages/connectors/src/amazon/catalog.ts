/**
 * Amazon's catalogue side: product types are Amazon's categories (Product Type Definitions API, in Turkish
 * for Amazon.com.tr), a product type's property groups its attributes; the seller's listings are read by
 * SKU (searchListingsItems, 20 identifiers a call) for their ASIN and product type — a listings feed
 * message needs the product type beside the SKU. The id map keeps it as the variant id, so later runs
 * need no lookup.
 */

import type { CategoryAttribute, ShopCategory } from "../sdk/connector";
import { chunk } from "../sdk/util";
import type { AmazonClient, Row } from "./client";
import { AMAZON_LISTINGS_PAGE } from "./descriptor";

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

export interface AmazonListingRef {
  /** The ASIN. */
  productId: string;
  /** The listing's Amazon product type (what a feed message needs beside the SKU). */
  variantId: string;
}

export class AmazonCatalog {
  private readonly known = new Map<string, AmazonListingRef>();
  /** searchListingsItems calls made by lookups so far (a write reports the calls it caused). */
  lookups = 0;

  constructor(private readonly client: AmazonClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const body = await this.client.get(
      "searchDefinitionsProductTypes",
      "/definitions/2020-09-01/productTypes",
      {
        marketplaceIds: [this.client.marketplaceId],
        locale: "tr_TR",
      },
    );
    return rows(body.productTypes).map((t) => ({
      id: String(t.name),
      name: String(t.displayName ?? t.name),
    }));
  }

  /** A product type's attributes by its property groups (names only: requiredness lives in its JSON schema). */
  async listCategoryAttributes(productType: string): Promise<CategoryAttribute[]> {
    const body = await this.client.get(
      "getDefinitionsProductType",
      `/definitions/2020-09-01/productTypes/${encodeURIComponent(productType)}`,
      {
        marketplaceIds: [this.client.marketplaceId],
        sellerId: this.client.sellerId,
        requirements: "LISTING",
        locale: "tr_TR",
      },
    );
    const out: CategoryAttribute[] = [];
    for (const [group, g] of Object.entries((body.propertyGroups ?? {}) as Record<string, Row>)) {
      for (const name of (g.propertyNames as string[] | undefined) ?? [])
        out.push({
          id: name,
          name: `${String(g.title ?? group)}: ${name}`,
          required: false,
          variant: false,
          allowCustom: true,
          values: [],
        });
    }
    return out;
  }

  /** ASIN and product type per SKU, 20 SKUs a call; what was seen is kept for the connector's life. */
  async findProductsBySku(skus: string[]): Promise<Map<string, AmazonListingRef>> {
    const missing = [...new Set(skus.filter((s) => !this.known.has(s)))];
    for (const part of chunk(missing, AMAZON_LISTINGS_PAGE)) {
      this.lookups++;
      const body = await this.client.get(
        "searchListingsItems",
        `/listings/2021-08-01/items/${encodeURIComponent(this.client.sellerId)}`,
        {
          marketplaceIds: [this.client.marketplaceId],
          identifiers: part,
          identifiersType: "SKU",
          includedData: ["summaries"],
          pageSize: String(AMAZON_LISTINGS_PAGE),
        },
      );
      for (const item of rows(body.items)) {
        const summary = rows(item.summaries).find((s) => s.marketplaceId === this.client.marketplaceId);
        if (!summary) continue;
        this.known.set(String(item.sku), {
          productId: String(summary.asin ?? ""),
          variantId: String(summary.productType ?? ""),
        });
      }
    }
    const out = new Map<string, AmazonListingRef>();
    for (const s of skus) {
      const ref = this.known.get(s);
      if (ref) out.set(s, ref);
    }
    return out;
  }
}
