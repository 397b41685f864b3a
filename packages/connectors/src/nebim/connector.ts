/**
 * Nebim V3 ERP connector (Integrator service, on the customer's IIS, reached through the on-site agent).
 * api.ts: Connect / GetUserInfo / errors / RunProc / Post; reads.ts: products, stock, prices through the
 * customer's procedures — or, when the form holds SQL queries, through the generic SQL connector's
 * queries and mapping (the agent's SQL seam); orders.ts: customers and orders through Post.
 */

import { GenericSqlConnector } from "../generic-sql/connector";
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
import { NebimApi, str } from "./api";
import { nebimDescriptor } from "./descriptor";
import { NebimOrders } from "./orders";
import { NebimReads } from "./reads";

type Reader = Pick<
  ErpConnector,
  "listProducts" | "listStock" | "listPrices" | "listCategories" | "listPriceGroups" | "listStockLocations"
>;

export class NebimConnector implements ErpConnector {
  readonly descriptor = nebimDescriptor;
  readonly api: NebimApi;
  private readonly reader: Reader;
  private readonly orders: NebimOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new NebimApi(credentials, ctx);
    this.orders = new NebimOrders(this.api);
    const procs = new NebimReads(this.api);
    this.reader = credentials.sqlConfig?.trim()
      ? new GenericSqlConnector(nebimDescriptor, { sqlDialect: "mssql", ...credentials }, ctx)
      : {
          listProducts: () => procs.listProducts(),
          listCategories: () => procs.listCategories(),
          listStock: (q) => procs.listStock(q?.locations),
          listPrices: (q) => procs.listPrices(q?.priceGroups),
          listPriceGroups: () => procs.listPriceGroups(),
          listStockLocations: () => procs.listStockLocations(),
        };
  }

  /** Connect + GetUserInfo: the only proof the credentials are right (Connect itself always "succeeds"). */
  async testConnection(): Promise<ConnectionInfo> {
    const user = await this.api.userInfo();
    const office = str(user.OfficeCode);
    const store = str(user.StoreCode);
    return {
      ok: true,
      system: "nebim",
      firm: str(user.CompanyCode) || undefined,
      description: `Nebim V3: ${str(user.DatabaseName) || "veritabanı"} (${str(user.UserName)}${office ? `, ofis ${office}` : ""}${store ? `, mağaza ${store}` : ""}; ${this.api.mode === "session" ? "oturum" : "token"} modu)`,
      details: { ...user, mode: this.api.mode },
    };
  }

  listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    return this.reader.listProducts(q);
  }
  listStock(q: PageQuery & { locations?: string[] } = {}): Promise<Page<StockLevel>> {
    return this.reader.listStock(q);
  }
  listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    return this.reader.listPrices(q);
  }
  listCategories(q: PageQuery = {}): Promise<Page<Category>> {
    return this.reader.listCategories(q);
  }
  listPriceGroups(): Promise<PriceGroup[]> {
    return this.reader.listPriceGroups();
  }
  listStockLocations(): Promise<StockLocation[]> {
    return this.reader.listStockLocations();
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
  /** The Integrator documents no invoice read; Nebim's own e-invoice flow issues them (as generic SQL: none). */
  async listInvoicesForOrder(_ref: string): Promise<Invoice[]> {
    return [];
  }
}

export function createNebimConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new NebimConnector(credentials, ctx);
}
