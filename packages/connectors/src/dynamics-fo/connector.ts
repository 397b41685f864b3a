/**
 * Microsoft Dynamics 365 Finance & Operations connector (OData v4 `/data/{EntitySet}`). Split by concern:
 * client.ts (token, paging, errors, $batch), catalog.ts, stock.ts, prices.ts, orders.ts.
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
import { D365Catalog } from "./catalog";
import { D365Client, str } from "./client";
import { d365Descriptor } from "./descriptor";
import { D365Orders } from "./orders";
import { D365Prices } from "./prices";
import { listD365Stock } from "./stock";

export class D365Connector implements ErpConnector {
  readonly descriptor = d365Descriptor;
  private readonly api: D365Client;
  private readonly catalog: D365Catalog;
  private readonly prices: D365Prices;
  private readonly orders: D365Orders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new D365Client(credentials, ctx);
    this.catalog = new D365Catalog(this.api);
    this.prices = new D365Prices(this.api);
    this.orders = new D365Orders(this.api);
  }

  /** A token and one warehouse of the company prove the app registration, its F&O user and the company. */
  async testConnection(): Promise<ConnectionInfo> {
    const rows = await this.api.all("Warehouses", { select: ["WarehouseId", "WarehouseName"], top: 1 });
    return {
      ok: true,
      system: this.descriptor.system,
      firm: this.api.company,
      description: `Dynamics 365 F&O: şirket ${this.api.company}${rows.length === 0 ? " (ambar tanımı yok)" : ""}`,
      details: { firstWarehouse: str(rows[0]?.WarehouseId) || null },
    };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const rows = await this.api.all("Warehouses", { select: ["WarehouseId", "WarehouseName"] });
    return rows.map((r) => ({ id: str(r.WarehouseId), name: str(r.WarehouseName) || str(r.WarehouseId) }));
  }

  listPriceGroups(): Promise<PriceGroup[]> {
    return this.prices.listPriceGroups();
  }

  listCategories(): Promise<Page<Category>> {
    return this.catalog.listCategories();
  }

  listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    return this.catalog.listProducts(q);
  }

  listStock(q: PageQuery & { locations?: string[] } = {}): Promise<Page<StockLevel>> {
    return listD365Stock(this.api, q);
  }

  listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    return this.prices.listPrices(q);
  }

  customerAccount(ref: string): string {
    return this.orders.customerAccount(ref);
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

export function createD365Connector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new D365Connector(credentials, ctx);
}
