/**
 * T-Soft shop connector: REST1 with a login token. One request helper (`client.ts`) owns the token, the
 * envelope and errors; catalogue, stock/prices and orders have their own modules. Category creation,
 * order status and invoice writes are not verified by any source: they fail as `unsupported` with the
 * descriptor's Turkish reason (the engine skips such jobs, the panel says so).
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { ConnectionInfo } from "../sdk/connector";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { TsoftClient } from "./client";
import { tsoftDescriptor } from "./descriptor";
import { TsoftOrders } from "./orders";
import { TsoftProducts } from "./products";
import { TsoftStockPrices } from "./stock-prices";

/** REST1 has one stock figure and one selling price per product. */
export const TSOFT_STOCK_LOCATION = "default";
export const TSOFT_PRICE_LIST = "default";

export class TsoftConnector extends ComposedShopConnector {
  readonly descriptor = tsoftDescriptor;
  private readonly client = new TsoftClient(this.credentials, this.ctx);
  protected readonly products = new TsoftProducts(this.client);
  protected readonly stockPrices = new TsoftStockPrices(
    this.client,
    (skus) => this.products.findProductsBySku(skus),
    this.ctx.batch,
  );
  protected readonly orders = new TsoftOrders(this.client, this.ctx.now ?? Date.now);

  async testConnection(): Promise<ConnectionInfo> {
    // A login and one product row: the user may read products (the pilot notes validate the same way).
    await this.client.call("product/get", "read", { start: "0", limit: "1" });
    const host = new URL(this.client.creds.storeUrl ?? "").host;
    return { ok: true, system: "tsoft", storeName: host, description: `Tsoft mağazası: ${host}` };
  }

  async listPaymentTypes(): Promise<Option[]> {
    return [];
  }

  async listPriceLists(): Promise<PriceGroup[]> {
    // VAT included is inferred (setProducts carries a Vat rate and a DisplayWithVat flag, not their meaning).
    return [
      { id: TSOFT_PRICE_LIST, name: "Satış fiyatı", currency: "TRY", vatIncluded: true, isDefault: true },
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [];
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: TSOFT_STOCK_LOCATION, name: "Mağaza stoğu" }];
  }
}

export const createTsoftConnector = factoryOf(TsoftConnector);
