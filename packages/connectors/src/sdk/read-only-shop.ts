/**
 * A shop connector that only reads (orders, and what else its API shows): every write fails as
 * `unsupported` with the descriptor's Turkish reason, so the engine skips such jobs and the panel says so;
 * the option lists its API does not give are empty.
 */

import type {
  ConnectionInfo,
  ConnectorContext,
  ConnectorDescriptor,
  Credentials,
  PriceUpdate,
  ShopCapability,
  ShopCategory,
  ShopConnector,
  ShopProductRef,
  StockUpdate,
} from "./connector";
import type { BatchResult } from "./errors";
import type { Option, Order, Page, PageQuery, PriceGroup, StockLocation } from "./model";
import { unsupportedOperation } from "./util";

export abstract class ReadOnlyShopConnector implements ShopConnector {
  abstract readonly descriptor: ConnectorDescriptor;
  /** The stored settings and the engine's context: what the connector's parts are built from. */
  constructor(
    protected readonly credentials: Credentials,
    protected readonly ctx: ConnectorContext,
  ) {}
  abstract testConnection(): Promise<ConnectionInfo>;
  abstract findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>>;
  abstract listOrders(q?: PageQuery): Promise<Page<Order>>;
  abstract listStockLocations(): Promise<StockLocation[]>;

  private refuse(capability: ShopCapability, operation: string): Promise<never> {
    return Promise.reject(unsupportedOperation(this.descriptor, capability, operation));
  }

  createCategory(): Promise<ShopCategory> {
    return this.refuse("categoryWrite", "createCategory");
  }
  createProduct(): Promise<ShopProductRef> {
    return this.refuse("productWrite", "createProduct");
  }
  updateProduct(): Promise<ShopProductRef> {
    return this.refuse("productWrite", "updateProduct");
  }
  // The writes' arguments are named so that a connector which can write one (a file shop) overrides it.
  setStock(_items: StockUpdate[]): Promise<BatchResult> {
    return this.refuse("stockWrite", "setStock");
  }
  setPrices(_items: PriceUpdate[]): Promise<BatchResult> {
    return this.refuse("priceWrite", "setPrices");
  }
  updateOrderStatus(): Promise<void> {
    return this.refuse("orderStatusWrite", "updateOrderStatus");
  }
  attachInvoice(): Promise<void> {
    return this.refuse("invoiceWrite", "attachInvoice");
  }

  async listCategories(): Promise<ShopCategory[]> {
    return [];
  }
  async listOrderStatuses(): Promise<Option[]> {
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
}
