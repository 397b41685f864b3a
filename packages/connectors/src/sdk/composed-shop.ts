/**
 * A shop connector assembled from its parts (catalogue, stock and prices, orders): the delegating methods
 * every shop connector repeated live here once, and a write the shop's parts do not have is refused with
 * the descriptor's Turkish reason.
 */

import type {
  ConnectionInfo,
  ConnectorContext,
  ConnectorDescriptor,
  Credentials,
  InvoiceAttachment,
  OrderStatusUpdate,
  PriceUpdate,
  ProductWriteInput,
  ShopCapability,
  ShopCategory,
  ShopConnector,
  ShopProductRef,
  StockUpdate,
} from "./connector";
import type { BatchResult } from "./errors";
import type { Option, Order, Page, PageQuery, PriceGroup, StockLocation } from "./model";
import { unsupportedOperation } from "./util";

/** The catalogue part of a shop connector; a write it lacks is refused with the descriptor's reason. */
export type ShopProductPart = Pick<ShopConnector, "listCategories" | "findProductsBySku"> &
  Partial<Pick<ShopConnector, "createCategory" | "createProduct" | "updateProduct">>;
/** The stock and price writing part of a shop connector. */
export type ShopStockPricePart = Partial<Pick<ShopConnector, "setStock" | "setPrices">>;
/** The order part of a shop connector: the order list, the statuses it names, and the writes it has. */
export type ShopOrderPart = Pick<ShopConnector, "listOrders"> &
  Partial<Pick<ShopConnector, "updateOrderStatus" | "attachInvoice">> & {
    listOrderStatuses?(): Option[] | Promise<Option[]>;
  };

/**
 * A shop connector assembled from parts: catalogue calls go to `products`, stock and price writes to
 * `stockPrices`, order calls to `orders`. A write no part has fails as `unsupported` with the descriptor's
 * Turkish reason (nothing is sent). The connector writes its own `testConnection` and settings lists.
 */
export abstract class ComposedShopConnector implements ShopConnector {
  abstract readonly descriptor: ConnectorDescriptor;
  /** The stored settings and the engine's context: what the connector's parts are built from. */
  constructor(
    protected readonly credentials: Credentials,
    protected readonly ctx: ConnectorContext,
  ) {}
  abstract testConnection(): Promise<ConnectionInfo>;
  abstract listPaymentTypes(): Promise<Option[]>;
  abstract listPriceLists(): Promise<PriceGroup[]>;
  abstract listSalesChannels(): Promise<Option[]>;
  abstract listStockLocations(): Promise<StockLocation[]>;
  protected abstract readonly products: ShopProductPart;
  protected abstract readonly stockPrices: ShopStockPricePart;
  protected abstract readonly orders: ShopOrderPart;

  private refuse(capability: ShopCapability, operation: string): Promise<never> {
    return Promise.reject(unsupportedOperation(this.descriptor, capability, operation));
  }

  listCategories(): Promise<ShopCategory[]> {
    return this.products.listCategories();
  }
  createCategory(input: { name: string; parentId?: string }): Promise<ShopCategory> {
    return this.products.createCategory?.(input) ?? this.refuse("categoryWrite", "createCategory");
  }
  findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    return this.products.findProductsBySku(skus);
  }
  createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    return this.products.createProduct?.(input) ?? this.refuse("productWrite", "createProduct");
  }
  updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    return this.products.updateProduct?.(productId, input) ?? this.refuse("productWrite", "updateProduct");
  }
  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.stockPrices.setStock?.(items) ?? this.refuse("stockWrite", "setStock");
  }
  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    return this.stockPrices.setPrices?.(items) ?? this.refuse("priceWrite", "setPrices");
  }
  listOrders(q?: PageQuery): Promise<Page<Order>> {
    return this.orders.listOrders(q);
  }
  /** The order statuses the shop names (none when the order part gives no list). */
  async listOrderStatuses(): Promise<Option[]> {
    return (await this.orders.listOrderStatuses?.()) ?? [];
  }
  updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void> {
    return (
      this.orders.updateOrderStatus?.(orderId, update) ?? this.refuse("orderStatusWrite", "updateOrderStatus")
    );
  }
  attachInvoice(orderId: string, attachment: InvoiceAttachment): Promise<void> {
    return this.orders.attachInvoice?.(orderId, attachment) ?? this.refuse("invoiceWrite", "attachInvoice");
  }
}
