/**
 * Logo İşbaşı ERP connector. Split by resource: api.ts (login, headers, envelope, lists), catalog.ts
 * (products with their categories and sales prices), orders.ts (customers, orders as draft invoices).
 * The account's monthly quota makes every call count: delta reads, pages of 100, checks before writes.
 */

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
import { IsbasiApi } from "./api";
import { IsbasiCatalog } from "./catalog";
import { isbasiDescriptor } from "./descriptor";
import { IsbasiOrders } from "./orders";

const NO_STOCK =
  "Logo İşbaşı API'si depo bazında stok miktarı vermiyor; stok aktarımı bu ERP ile yapılamaz. Stoku mağazada yönetin.";

export class IsbasiConnector implements ErpConnector {
  readonly descriptor = isbasiDescriptor;
  private readonly api: IsbasiApi;
  private readonly catalog: IsbasiCatalog;
  private readonly orders: IsbasiOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new IsbasiApi(credentials, ctx);
    this.catalog = new IsbasiCatalog(this.api);
    this.orders = new IsbasiOrders(this.api);
  }

  /** The login alone proves the key, the user and the tenant (no list call: it would cost quota). */
  async testConnection(): Promise<ConnectionInfo> {
    const s = await this.api.sessionInfo();
    return {
      ok: true,
      system: "logo-isbasi",
      firm: s.tenantId,
      description: `Logo İşbaşı: giriş başarılı (firma ${s.tenantId})`,
      details: { tenantId: s.tenantId, userId: s.userId },
    };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [];
  }

  listStock(_q?: PageQuery & { locations?: string[] }): Promise<Page<StockLevel>> {
    return Promise.reject(
      new ConnectorError("logo-isbasi: no stock per warehouse in the API", {
        reason: "unsupported",
        system: "logo-isbasi",
        operation: "listStock",
        merchantMessage: NO_STOCK,
        systemMessage: NO_STOCK,
      }),
    );
  }

  async listPriceGroups(): Promise<PriceGroup[]> {
    return this.catalog.listPriceGroups();
  }

  listCategories(): Promise<Page<Category>> {
    return this.catalog.listCategories();
  }

  listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    return this.catalog.listProducts(q);
  }

  listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    return this.catalog.listPrices(q);
  }

  customerCode(ref: string): string {
    return this.orders.customerCode(ref);
  }

  createCustomer(c: Customer): Promise<ErpCustomerRef> {
    return this.orders.createCustomer(c);
  }

  findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    return this.orders.findOrderByRef(ref);
  }

  createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    return this.orders.createSalesOrder(input);
  }

  listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    return this.orders.listInvoicesForOrder(ref);
  }
}

export function createIsbasiConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new IsbasiConnector(credentials, ctx);
}
