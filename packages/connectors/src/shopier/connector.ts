/**
 * Shopier connected as the "ERP" side: the source of the catalogue (products, variants, stock, price) and the
 * place where Shopier's own orders are recorded. Its API (as `@bbangg/shopier` covers it) has no way to
 * create an order or a customer and issues no invoices, so those operations fail as "unsupported" with a
 * Turkish reason; nothing is sent.
 */

import { message } from "@ep/contracts";
import type {
  ConnectionInfo,
  ConnectorContext,
  CreateSalesOrderInput,
  Credentials,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
} from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type {
  Category,
  Customer,
  Invoice,
  Page,
  PageQuery,
  Price,
  PriceGroup,
  Product,
  StockLevel,
  StockLocation,
} from "../sdk/model";
import { SHOPIER_LOCATION, SHOPIER_PRICE_GROUP, ShopierCatalog } from "./catalog";
import { ShopierClient, verifyShopierWebhook } from "./client";
import { shopierDescriptor } from "./descriptor";

function unsupported(operation: string): ConnectorError {
  const text = message("connectors.shopierOrderWriteUnsupported");
  return new ConnectorError(`shopier ${operation}: not supported`, {
    reason: "unsupported",
    system: "shopier",
    operation,
    systemMessage: text,
    merchantMessage: text,
  });
}

export class ShopierConnector implements ErpConnector {
  readonly descriptor = shopierDescriptor;
  private readonly api: ShopierClient;
  private readonly catalog: ShopierCatalog;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new ShopierClient(credentials, ctx);
    this.catalog = new ShopierCatalog(this.api, ctx.batch?.page ?? shopierDescriptor.batch.page ?? 50);
  }

  /** A product page proves the token (the shop owner endpoint may be outside a read-only token's scope). */
  async testConnection(): Promise<ConnectionInfo> {
    await this.api.page("/products", 1, 1);
    return { ok: true, system: "shopier", description: "Shopier: mağaza ürünleri okunabiliyor" };
  }

  /** The webhook signature check for notifications from this shop (see `verifyShopierWebhook`). */
  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    return verifyShopierWebhook(rawBody, signature, this.api.cfg.webhookToken ?? "");
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [{ ...SHOPIER_LOCATION }];
  }

  async listPriceGroups(): Promise<PriceGroup[]> {
    return [{ ...SHOPIER_PRICE_GROUP, currency: "TRY" }];
  }

  listCategories(): Promise<Page<Category>> {
    return this.catalog.listCategories();
  }

  listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    return this.catalog.listProducts(q);
  }

  listStock(q: PageQuery & { locations?: string[] } = {}): Promise<Page<StockLevel>> {
    return this.catalog.listStock(q);
  }

  listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    return this.catalog.listPrices(q);
  }

  async findOrderByRef(_ref: string): Promise<ErpOrderRef | null> {
    throw unsupported("findOrderByRef");
  }

  async createCustomer(_c: Customer): Promise<ErpCustomerRef> {
    throw unsupported("createCustomer");
  }

  async createSalesOrder(_input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    throw unsupported("createSalesOrder");
  }

  async listInvoicesForOrder(_ref: string): Promise<Invoice[]> {
    throw unsupported("listInvoicesForOrder");
  }
}

export function createShopierConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new ShopierConnector(credentials, ctx);
}
