/**
 * Luca Koza connector (ERP 23): a cookie session with company/branch selection over the `.do` methods the
 * public document names. Reads stock cards, categories, depots, on-hand and sales price lists. Koza has no
 * sales-order method in the document, so orders (and the customers and invoices that go with them) are
 * refused as "unsupported" with a Turkish reason, and nothing is sent.
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
import { KozaCatalog } from "./catalog";
import { KozaClient } from "./client";
import { lucaKozaDescriptor } from "./descriptor";

function unsupported(operation: string): ConnectorError {
  const text = message("connectors.lucaKozaOrderUnsupported");
  return new ConnectorError(`luca-koza ${operation}: not supported`, {
    reason: "unsupported",
    system: "luca-koza",
    operation,
    systemMessage: text,
    merchantMessage: text,
  });
}

export class LucaKozaConnector implements ErpConnector {
  readonly descriptor = lucaKozaDescriptor;
  private readonly api: KozaClient;
  private readonly catalog: KozaCatalog;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new KozaClient(credentials, ctx);
    this.catalog = new KozaCatalog(this.api, ctx.batch?.page ?? lucaKozaDescriptor.batch.page ?? 500);
  }

  /** Login, branch selection and the depot list prove the settings. */
  async testConnection(): Promise<ConnectionInfo> {
    const depots = await this.catalog.listStockLocations();
    return {
      ok: true,
      system: "luca-koza",
      firm: this.api.branchName,
      description: `Luca Koza: ${this.api.branchName ?? "şirket/şube"} (${depots.length} depo)`,
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

export function createLucaKozaConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new LucaKozaConnector(credentials, ctx);
}
