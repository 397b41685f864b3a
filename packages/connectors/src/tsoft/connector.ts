/**
 * T-Soft shop connector: REST1 with a login token. One request helper (`client.ts`) owns the token, the
 * envelope and errors; catalogue, stock/prices and orders have their own modules. Category creation,
 * order status and invoice writes are not verified by any source: they fail as `unsupported` with the
 * descriptor's Turkish reason (the engine skips such jobs, the panel says so).
 */

import type {
  ConnectionInfo,
  ConnectorContext,
  Credentials,
  PriceUpdate,
  ProductWriteInput,
  ShopCategory,
  ShopConnector,
  ShopProductRef,
  StockUpdate,
} from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import type { Option, Order, Page, PageQuery, PriceGroup, StockLocation } from "../sdk/model";
import { unsupportedOperation } from "../sdk/util";
import { TsoftClient } from "./client";
import { tsoftDescriptor } from "./descriptor";
import { TsoftOrders } from "./orders";
import { TsoftProducts } from "./products";
import { TsoftStockPrices } from "./stock-prices";

/** REST1 has one stock figure and one selling price per product. */
export const TSOFT_STOCK_LOCATION = "default";
export const TSOFT_PRICE_LIST = "default";

export class TsoftConnector implements ShopConnector {
  readonly descriptor = tsoftDescriptor;
  private readonly client: TsoftClient;
  private readonly products: TsoftProducts;
  private readonly stockPrices: TsoftStockPrices;
  private readonly orders: TsoftOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.client = new TsoftClient(credentials, ctx);
    this.products = new TsoftProducts(this.client);
    this.stockPrices = new TsoftStockPrices(
      this.client,
      (skus) => this.products.findProductsBySku(skus),
      ctx.batch,
    );
    this.orders = new TsoftOrders(this.client, ctx.now ?? Date.now);
  }

  async testConnection(): Promise<ConnectionInfo> {
    // A login and one product row: the user may read products (the pilot notes validate the same way).
    await this.client.call("product/get", "read", { start: "0", limit: "1" });
    const host = new URL(this.client.creds.storeUrl ?? "").host;
    return { ok: true, system: "tsoft", storeName: host, description: `T-Soft mağazası: ${host}` };
  }

  listCategories(): Promise<ShopCategory[]> {
    return this.products.listCategories();
  }

  async createCategory(): Promise<ShopCategory> {
    throw unsupportedOperation(tsoftDescriptor, "categoryWrite", "createCategory");
  }

  findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    return this.products.findProductsBySku(skus);
  }

  createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    return this.products.createProduct(input);
  }

  updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    return this.products.updateProduct(productId, input);
  }

  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.stockPrices.setStock(items);
  }

  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    return this.stockPrices.setPrices(items);
  }

  listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    return this.orders.listOrders(q);
  }

  async updateOrderStatus(): Promise<void> {
    throw unsupportedOperation(tsoftDescriptor, "orderStatusWrite", "updateOrderStatus");
  }

  async attachInvoice(): Promise<void> {
    throw unsupportedOperation(tsoftDescriptor, "invoiceWrite", "attachInvoice");
  }

  async listOrderStatuses(): Promise<Option[]> {
    return this.orders.listOrderStatuses();
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

export function createTsoftConnector(credentials: Credentials, ctx: ConnectorContext): ShopConnector {
  return new TsoftConnector(credentials, ctx);
}
