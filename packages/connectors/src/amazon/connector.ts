/**
 * Amazon Türkiye sales-channel connector (Selling Partner API, Europe endpoint, Amazon.com.tr): orders in
 * through Orders v2026-01-01 (cancellations as status changes), stock and price out through
 * JSON_LISTINGS_FEED with the processing report read back, shipment confirmation with the tracking number,
 * product types (categories) and their schema's attributes read, products listed by putListingsItem.
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { CategoryAttribute, ConnectionInfo } from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { AmazonCatalog } from "./catalog";
import { AmazonClient } from "./client";
import { amazonDescriptor } from "./descriptor";
import { AmazonListing } from "./listing";
import { AmazonOrders } from "./orders";
import { AmazonProductTypes } from "./product-types";
import { AmazonStockPrices } from "./stock-prices";

export class AmazonConnector extends ComposedShopConnector implements MarketplaceListing {
  readonly descriptor = amazonDescriptor;
  readonly freeTextBrand = true;
  private readonly client = new AmazonClient(this.credentials, this.ctx);
  private readonly productTypes = new AmazonProductTypes(this.client);
  private readonly listing = new AmazonListing(this.client, this.productTypes);
  protected readonly products = new AmazonCatalog(this.client, this.productTypes);
  protected readonly stockPrices = new AmazonStockPrices(this.client, this.products);
  protected readonly orders = new AmazonOrders(this.client, this.ctx.now ?? Date.now);

  /** The token exchange and one listings read: both the credentials and the seller id are checked. */
  async testConnection(): Promise<ConnectionInfo> {
    const body = await this.client.get(
      "searchListingsItems",
      `/listings/2021-08-01/items/${encodeURIComponent(this.client.sellerId)}`,
      { marketplaceIds: [this.client.marketplaceId], includedData: ["summaries"], pageSize: "1" },
    );
    const count = Number(body.numberOfResults ?? 0);
    return {
      ok: true,
      system: "amazon",
      storeName: this.client.sellerId,
      description: `Amazon satıcı ${this.client.sellerId} (${this.client.marketplaceId}): ${count} ilan`,
      details: { listings: count, marketplaceId: this.client.marketplaceId },
    };
  }

  /** A product type's required attributes and those with listed values (its schema, product-types.ts). */
  listCategoryAttributes(productType: string): Promise<CategoryAttribute[]> {
    return this.productTypes.attributes(productType);
  }

  listBrands(name?: string): Promise<Option[]> {
    return this.listing.listBrands(name);
  }

  createListings(items: ListingItem[]): Promise<BatchResult> {
    return this.listing.createListings(items);
  }

  /** Amazon collects the payment: one means. */
  async listPaymentTypes(): Promise<Option[]> {
    return [{ id: "amazon", name: "Amazon (ödeme aracısı)" }];
  }

  /** One offer price per SKU on Amazon.com.tr, VAT included. */
  async listPriceLists(): Promise<PriceGroup[]> {
    return [
      { id: "default", name: "Amazon satış fiyatı", currency: "TRY", vatIncluded: true, isDefault: true },
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [{ id: "amazon", name: "Amazon Türkiye" }];
  }

  /** The seller's own fulfilment quantity (channel DEFAULT); Amazon's warehouses (FBA) count their own. */
  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: "default", name: "Amazon satıcı stoğu (kendi gönderim)" }];
  }
}

export const createAmazonConnector = factoryOf(AmazonConnector);
