/**
 * Sopyo shop connector: login with the API token and orders, as far as the public client and its tests
 * show. Sopyo's catalogue (products, stock, prices), order status and invoice calls were not found: they
 * fail as `unsupported` with the descriptor's Turkish reason; the engine skips such jobs.
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
import { SopyoClient } from "./client";
import { sopyoDescriptor } from "./descriptor";
import { type DetailWrapper, SopyoOrders } from "./orders";

export class SopyoConnector implements ShopConnector {
  readonly descriptor = sopyoDescriptor;
  private readonly client: SopyoClient;
  private readonly orders: SopyoOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.client = new SopyoClient(credentials, ctx);
    this.orders = new SopyoOrders(this.client, ctx.logger);
  }

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

  async listCategories(): Promise<ShopCategory[]> {
    return [];
  }

  async createCategory(): Promise<ShopCategory> {
    throw unsupportedOperation(sopyoDescriptor, "categoryWrite", "createCategory");
  }

  async findProductsBySku(): Promise<Map<string, { productId: string; variantId: string }>> {
    // No product API was found: nothing can be looked up.
    return new Map();
  }

  async createProduct(): Promise<ShopProductRef> {
    throw unsupportedOperation(sopyoDescriptor, "productWrite", "createProduct");
  }

  async updateProduct(): Promise<ShopProductRef> {
    throw unsupportedOperation(sopyoDescriptor, "productWrite", "updateProduct");
  }

  async setStock(): Promise<BatchResult> {
    throw unsupportedOperation(sopyoDescriptor, "stockWrite", "setStock");
  }

  async setPrices(): Promise<BatchResult> {
    throw unsupportedOperation(sopyoDescriptor, "priceWrite", "setPrices");
  }

  listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    return this.orders.listOrders(q);
  }

  async updateOrderStatus(): Promise<void> {
    throw unsupportedOperation(sopyoDescriptor, "orderStatusWrite", "updateOrderStatus");
  }

  async attachInvoice(): Promise<void> {
    throw unsupportedOperation(sopyoDescriptor, "invoiceWrite", "attachInvoice");
  }

  async listOrderStatuses(): Promise<Option[]> {
    // order_status is an integer whose meanings the sources do not give.
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

  async listStockLocations(): Promise<StockLocation[]> {
    return [];
  }
}

export function createSopyoConnector(credentials: Credentials, ctx: ConnectorContext): ShopConnector {
  return new SopyoConnector(credentials, ctx);
}
