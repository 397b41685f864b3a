/**
 * Amazon's catalogue side: product types are Amazon's categories (product-types.ts); the seller's listings are read by
 * SKU (searchListingsItems, 20 identifiers a call) for their ASIN and product type — a listings feed
 * message needs the product type beside the SKU. The id map keeps it as the variant id, so later runs
 * need no lookup.
 */

import type { ShopCategory } from "../sdk/connector";
import { chunk } from "../sdk/util";
import type { AmazonClient, Row } from "./client";
import { AMAZON_LISTINGS_PAGE } from "./descriptor";
import type { AmazonProductTypes } from "./product-types";

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

  constructor(
    private readonly client: AmazonClient,
    private readonly types: AmazonProductTypes,
  ) {}

  /** Amazon's categories are its product types (product-types.ts). */
  listCategories(): Promise<ShopCategory[]> {
    return this.types.list();
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
