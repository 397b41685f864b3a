/**
 * Hepsiburada sales-channel connector: orders in (paid lines read as whole orders, cancellations), stock
 * and price out as uploads whose results are read back, packaging, the merchant carrier's tracking number
 * and the invoice link back; products opened through the catalogue import (listing.ts).
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { CategoryAttribute, ConnectionInfo } from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { HepsiburadaCatalog } from "./catalog";
import { HepsiburadaClient, type Row } from "./client";
import { hepsiburadaDescriptor } from "./descriptor";
import { HepsiburadaListing } from "./listing";
import { HepsiburadaOrders } from "./orders";
import { HepsiburadaStockPrices } from "./stock-prices";

export class HepsiburadaConnector extends ComposedShopConnector implements MarketplaceListing {
  readonly descriptor = hepsiburadaDescriptor;
  private readonly client = new HepsiburadaClient(this.credentials, this.ctx);
  protected readonly products = new HepsiburadaCatalog(this.client);
  protected readonly stockPrices = new HepsiburadaStockPrices(this.client);
  protected readonly orders = new HepsiburadaOrders(this.client, this.ctx.now ?? Date.now);
  private readonly listing = new HepsiburadaListing(this.client);
  readonly freeTextBrand = this.listing.freeTextBrand;

  async testConnection(): Promise<ConnectionInfo> {
    const body = (await this.client.get("listing", this.client.merchant("/listings"), "getListings", {
      offset: "0",
      limit: "1",
    })) as Row;
    const total = Number(body?.totalCount ?? 0);
    return {
      ok: true,
      system: "hepsiburada",
      storeName: this.client.merchantId,
      description: `Hepsiburada mağaza ${this.client.merchantId}: ${total} listing`,
      details: { listings: total },
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

  async listPaymentTypes(): Promise<Option[]> {
    return [{ id: "hepsiburada", name: "Hepsiburada (ödeme aracısı)" }];
  }

  async listPriceLists(): Promise<PriceGroup[]> {
    return [
      {
        id: "default",
        name: "Hepsiburada satış fiyatı",
        currency: "TRY",
        vatIncluded: true,
        isDefault: true,
      },
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [{ id: "hepsiburada", name: "Hepsiburada" }];
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: "default", name: "Hepsiburada satılabilir stok" }];
  }
}

export const createHepsiburadaConnector = factoryOf(HepsiburadaConnector);
