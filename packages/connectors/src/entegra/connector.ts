/**
 * Entegra connector: a read connection (products with variations, stock, price lists, categories) over the
 * API the public Singer tap uses. Entegra is itself a marketplace integrator; no public artifact shows how an
 * order or a customer is written to it (third-party code marks its order endpoint as a guess), so those
 * operations fail as "unsupported" with a Turkish reason instead of sending unverified requests.
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
import { ENTEGRA_LOCATIONS, EntegraCatalog } from "./catalog";
import { EntegraClient, num, str } from "./client";
import { entegraDescriptor } from "./descriptor";

function unsupported(operation: string): ConnectorError {
  const text = message("connectors.entegraWriteUnsupported");
  return new ConnectorError(`entegra ${operation}: not supported`, {
    reason: "unsupported",
    system: "entegra",
    operation,
    systemMessage: text,
    merchantMessage: text,
  });
}

export class EntegraConnector implements ErpConnector {
  readonly descriptor = entegraDescriptor;
  private readonly api: EntegraClient;
  private readonly catalog: EntegraCatalog;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new EntegraClient(credentials, ctx);
    this.catalog = new EntegraCatalog(this.api);
  }

  /** A token and the first product page prove the account. */
  async testConnection(): Promise<ConnectionInfo> {
    const body = (await this.api.get("product/page=1/", "products")) as Record<string, unknown>;
    const total = num(body?.totalProduct);
    return {
      ok: true,
      system: "entegra",
      description: `Entegra: ${str(this.api.cfg.email)} (${total} ürün)`,
      details: { totalProduct: total },
    };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return ENTEGRA_LOCATIONS.map((l) => ({ ...l }));
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

export function createEntegraConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new EntegraConnector(credentials, ctx);
}
