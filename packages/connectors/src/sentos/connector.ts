/**
 * Sentos shop connector, read only: products (SKU → ids), warehouses and orders through the v1.5 API with
 * Basic Auth. No write path is verified (the only source blocks writes by design), so every write fails
 * as `unsupported` with the descriptor's Turkish reason; the engine skips such jobs and the panel says so.
 */

import type { ConnectionInfo } from "../sdk/connector";
import type { Order, Page, PageQuery, StockLocation } from "../sdk/model";
import { ReadOnlyShopConnector } from "../sdk/read-only-shop";
import { factoryOf } from "../sdk/skeleton";
import { SentosCatalog } from "./catalog";
import { SentosClient, sentosList } from "./client";
import { sentosDescriptor } from "./descriptor";
import { SentosOrders } from "./orders";

/**
 * No category list (products carry category_id only) and no order statuses (numbers whose meaning the
 * source does not give) are offered.
 */
export class SentosConnector extends ReadOnlyShopConnector {
  readonly descriptor = sentosDescriptor;
  private readonly client = new SentosClient(this.credentials, this.ctx);
  private readonly catalog = new SentosCatalog(this.client);
  private readonly orders = new SentosOrders(this.client, this.ctx.now ?? Date.now);

  async testConnection(): Promise<ConnectionInfo> {
    const rows = sentosList(await this.client.get("/products", "listProducts", { page: "1", size: "1" }));
    const host = new URL(this.client.creds.apiUrl ?? "").host;
    return {
      ok: true,
      system: "sentos",
      storeName: host.split(".")[0],
      description: `Sentos hesabı: ${host} (yalnızca okuma)`,
      details: { sampleProducts: rows.length },
    };
  }

  findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    return this.catalog.findProductsBySku(skus);
  }

  listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    return this.orders.listOrders(q);
  }

  listStockLocations(): Promise<StockLocation[]> {
    return this.catalog.listWarehouses();
  }
}

export const createSentosConnector = factoryOf(SentosConnector);
