/**
 * Sentos shop connector, read only: products (SKU → ids), warehouses and orders through the v1.5 API with
 * Basic Auth. No write path is verified (the only source blocks writes by design), so every write fails
 * as `unsupported` with the descriptor's Turkish reason; the engine skips such jobs and the panel says so.
 */

import type {
  ConnectionInfo,
  ConnectorContext,
  Credentials,
  ShopCategory,
  ShopConnector,
  ShopProductRef,
} from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import type { Option, Order, Page, PageQuery, PriceGroup, StockLocation } from "../sdk/model";
import { unsupportedOperation } from "../sdk/util";
import { SentosCatalog } from "./catalog";
import { SentosClient, sentosList } from "./client";
import { sentosDescriptor } from "./descriptor";
import { SentosOrders } from "./orders";

export class SentosConnector implements ShopConnector {
  readonly descriptor = sentosDescriptor;
  private readonly client: SentosClient;
  private readonly catalog: SentosCatalog;
  private readonly orders: SentosOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.client = new SentosClient(credentials, ctx);
    this.catalog = new SentosCatalog(this.client);
    this.orders = new SentosOrders(this.client, ctx.now ?? Date.now);
  }

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

  async listCategories(): Promise<ShopCategory[]> {
    // The source reads no category list (products carry category_id only).
    return [];
  }

  async createCategory(): Promise<ShopCategory> {
    throw unsupportedOperation(sentosDescriptor, "categoryWrite", "createCategory");
  }

  findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    return this.catalog.findProductsBySku(skus);
  }

  async createProduct(): Promise<ShopProductRef> {
    throw unsupportedOperation(sentosDescriptor, "productWrite", "createProduct");
  }

  async updateProduct(): Promise<ShopProductRef> {
    throw unsupportedOperation(sentosDescriptor, "productWrite", "updateProduct");
  }

  async setStock(): Promise<BatchResult> {
    throw unsupportedOperation(sentosDescriptor, "stockWrite", "setStock");
  }

  async setPrices(): Promise<BatchResult> {
    throw unsupportedOperation(sentosDescriptor, "priceWrite", "setPrices");
  }

  listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    return this.orders.listOrders(q);
  }

  async updateOrderStatus(): Promise<void> {
    throw unsupportedOperation(sentosDescriptor, "orderStatusWrite", "updateOrderStatus");
  }

  async attachInvoice(): Promise<void> {
    throw unsupportedOperation(sentosDescriptor, "invoiceWrite", "attachInvoice");
  }

  async listOrderStatuses(): Promise<Option[]> {
    // Status codes are numbers whose meaning the source does not give: none are offered.
    return [];
  }

  async listPaymentTypes(): Promise<Option[]> {
    return [];
  }

  async listPriceLists(): Promise<PriceGroup[]> {
    return [];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [];
  }

  listStockLocations(): Promise<StockLocation[]> {
    return this.catalog.listWarehouses();
  }
}

export function createSentosConnector(credentials: Credentials, ctx: ConnectorContext): ShopConnector {
  return new SentosConnector(credentials, ctx);
}
