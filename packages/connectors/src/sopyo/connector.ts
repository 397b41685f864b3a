/**
 * Sopyo shop connector: login with the API token and orders, as far as the public client and its tests
 * show. Sopyo's catalogue (products, stock, prices), order status and invoice calls were not found: they
 * fail as `unsupported` with the descriptor's Turkish reason; the engine skips such jobs.
 */

import type { ConnectionInfo } from "../sdk/connector";
import type { Order, Page, PageQuery, StockLocation } from "../sdk/model";
import { ReadOnlyShopConnector } from "../sdk/read-only-shop";
import { factoryOf } from "../sdk/skeleton";
import { SopyoClient } from "./client";
import { sopyoDescriptor } from "./descriptor";
import { type DetailWrapper, SopyoOrders } from "./orders";

/** No order statuses are offered: order_status is an integer whose meanings the sources do not give. */
export class SopyoConnector extends ReadOnlyShopConnector {
  readonly descriptor = sopyoDescriptor;
  private readonly client = new SopyoClient(this.credentials, this.ctx);
  private readonly orders = new SopyoOrders(this.client, this.ctx.logger);

  /** Details seen per wrapper so far (bare object / under `data`). */
  get detailWrappersSeen(): Record<DetailWrapper, number> {
    return { ...this.orders.wrappersSeen };
  }

  async testConnection(): Promise<ConnectionInfo> {
    const page = await this.orders.listOrders();
    return {
      ok: true,
      system: "sopyo",
      description: "Sopyo hesabı: oturum açıldı, siparişler okunabiliyor (yalnızca sipariş okuma).",
      details: { ordersOnFirstPage: page.items.length, detailWrappers: this.detailWrappersSeen },
    };
  }

  async findProductsBySku(): Promise<Map<string, { productId: string; variantId: string }>> {
    // No product API was found: nothing can be looked up.
    return new Map();
  }

  listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    return this.orders.listOrders(q);
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [];
  }
}

export const createSopyoConnector = factoryOf(SopyoConnector);
