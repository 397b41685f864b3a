/**
 * Product listing on a marketplace (issue 37): creating the ERP's products where the marketplace's API
 * allows it, in the marketplace's own category with the attribute values it lists. Kept apart from the
 * shop interface: only marketplaces that open products by API have it (see `hasListing`).
 */

import type { ShopConnector } from "./connector";
import type { BatchResult } from "./errors";
import type { Option } from "./model";

/** One attribute value of a listing: a listed value's id, or free text where the category allows it. */
export interface ListingAttribute {
  attributeId: string;
  valueId?: string;
  value?: string;
}

/** One sellable item (a variant) to open on the marketplace. */
export interface ListingItem {
  /** The ERP stock code: the key results and failed tasks are reported by. */
  sku: string;
  barcode: string;
  /** Groups variants into one product (Trendyol productMainId): the ERP model code or the SKU. */
  modelKey: string;
  title: string;
  description: string;
  brandId: string;
  categoryId: string;
  attributes: ListingAttribute[];
  quantity: number;
  salePrice: number;
  listPrice?: number;
  vatRate: number;
  images: string[];
}

export interface MarketplaceListing {
  /**
   * The marketplace takes the brand as free text and keeps no list (Hepsiburada's `Marka`): a mapping's
   * brand is then stored as typed, and `listBrands(name)` answers that name back.
   */
  readonly freeTextBrand?: boolean;
  /** The marketplace's brand list (its own ids), by name where the marketplace searches by name. */
  listBrands(name?: string): Promise<Option[]>;
  /**
   * Opens the items; per item applied or refused with the marketplace's reason (a `validation`
   * failure whose `systemMessage` is its words), or not settled yet (transient, sent again next run).
   */
  createListings(items: ListingItem[]): Promise<BatchResult>;
}

export function hasListing(c: ShopConnector): c is ShopConnector & MarketplaceListing {
  const l = c as Partial<MarketplaceListing>;
  return typeof l.createListings === "function" && typeof l.listBrands === "function";
}
