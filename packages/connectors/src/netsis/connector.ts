/**
 * Netsis ERP connector over NetOpenX REST (/api/v2), normally reached through the on-site agent.
 * api.ts (token, envelope, paging, Queries), catalog.ts (cards, prices, stock, depots, groups),
 * orders.ts (accounts, customer orders, invoices). Names and shapes come from the vendor's own client
 * DLL (judge/netopenx-models.generated.json); what it does not show is marked "inferred".
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
import { NetsisApi } from "./api";
import { NetsisCatalog } from "./catalog";
import { netsisDescriptor } from "./descriptor";
import { NetsisOrders } from "./orders";

export class NetsisConnector implements ErpConnector {
  readonly descriptor = netsisDescriptor;
  private readonly api: NetsisApi;
  private readonly catalog: NetsisCatalog;
  private readonly orders: NetsisOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new NetsisApi(credentials, ctx);
    this.catalog = new NetsisCatalog(this.api);
    this.orders = new NetsisOrders(this.api);
  }

  /** Logs in (branch, company, users) and reads the depots: both must answer. */
  async testConnection(): Promise<ConnectionInfo> {
    await this.api.accessToken();
    const depots = await this.catalog.listStockLocations();
    const db = this.api.cfg.dbName ?? "";
    return {
      ok: true,
      system: "netsis",
      firm: db,
      description: `Netsis: ${db} (şube ${this.api.branch}), ${depots.length} depo`,
      details: { dbName: db, branchCode: this.api.branch, depots: depots.length },
    };
  }

  listStockLocations(): Promise<StockLocation[]> {
    return this.catalog.listStockLocations();
  }

  listPriceGroups(): Promise<PriceGroup[]> {
    return this.catalog.listPriceGroups();
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

export function createNetsisConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new NetsisConnector(credentials, ctx);
}
