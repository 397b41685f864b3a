/**
 * Trendyol sales-channel connector: orders in (shipment packages, cancellations and returns as package
 * changes), stock and price out in batches of 1,000 with their asynchronous results read back, package
 * status, tracking number and invoice link back; the category and attribute lists read for listing.
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { CategoryAttribute, ConnectionInfo } from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { TrendyolCatalog } from "./catalog";
import { type Row, TrendyolClient } from "./client";
import { trendyolDescriptor } from "./descriptor";
import { TrendyolListing } from "./listing";
import { TrendyolOrders } from "./orders";
import { TrendyolStockPrices } from "./stock-prices";

export class TrendyolConnector extends ComposedShopConnector implements MarketplaceListing {
  readonly descriptor = trendyolDescriptor;
  private readonly client = new TrendyolClient(this.credentials, this.ctx);
  protected readonly products = new TrendyolCatalog(this.client);
  protected readonly stockPrices = new TrendyolStockPrices(
    this.client,
    this.products,
    this.ctx.now ?? Date.now,
  );
  protected readonly orders = new TrendyolOrders(this.client, this.ctx.now ?? Date.now);
  private readonly listing = new TrendyolListing(this.client);

  async testConnection(): Promise<ConnectionInfo> {
    const body = (await this.client.get(this.client.seller("product", "/products"), "filterProducts", {
      approved: "true",
      page: "0",
      size: "1",
    })) as Row;
    return {
      ok: true,
      system: "trendyol",
      storeName: this.client.sellerId,
      description: `Trendyol satıcı ${this.client.sellerId}: ${Number(body?.totalElements ?? 0)} onaylı ürün`,
      details: { approvedProducts: Number(body?.totalElements ?? 0) },
    };
  }

  listCategoryAttributes(categoryId: string): Promise<CategoryAttribute[]> {
    return this.products.listCategoryAttributes(categoryId);
  }

  listBrands(name?: string): Promise<Option[]> {
    return this.listing.listBrands(name);
  }

  createListings(items: ListingItem[]): Promise<BatchResult> {
    return this.listing.createListings(items);
  }

  /** Payment is Trendyol's: one means. */
  async listPaymentTypes(): Promise<Option[]> {
    return [{ id: "trendyol", name: "Trendyol (ödeme aracısı)" }];
  }

  /** One price per barcode (sale and list price). */
  async listPriceLists(): Promise<PriceGroup[]> {
    return [
      { id: "default", name: "Trendyol satış fiyatı", currency: "TRY", vatIncluded: true, isDefault: true },
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [{ id: "trendyol", name: "Trendyol" }];
  }

  /** Stock is one sellable quantity per barcode. */
  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: "default", name: "Trendyol satılabilir stok" }];
  }
}

export const createTrendyolConnector = factoryOf(TrendyolConnector);
