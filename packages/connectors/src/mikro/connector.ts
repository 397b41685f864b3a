/**
 * Mikro ERP connector (MikroAPI V2): items via StokListesiV2, everything else via the read-only
 * SqlVeriOkuV2, writes via CariKaydetV2 / SiparisKaydetV2. Split by resource: api.ts (envelope, VAT table,
 * version), catalog.ts, stock.ts, prices.ts, orders.ts.
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
import { MikroApi, str } from "./api";
import { MikroCatalog } from "./catalog";
import { mikroDescriptor } from "./descriptor";
import { MikroOrders } from "./orders";
import { MikroPrices } from "./prices";
import { listMikroStock, splitMikroStock } from "./stock";

export { classifyMikroResponse, mikroDailyPassword, sqlString } from "./api";

export class MikroConnector implements ErpConnector {
  readonly descriptor = mikroDescriptor;
  private readonly api: MikroApi;
  private readonly catalog: MikroCatalog;
  private readonly prices: MikroPrices;
  private readonly orders: MikroOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new MikroApi(credentials, ctx);
    this.catalog = new MikroCatalog(this.api);
    this.prices = new MikroPrices(this.api);
    this.orders = new MikroOrders(this.api);
  }

  /** SqlVeriOkuV2, SELECT only (tests reach it to prove the server refuses anything else). */
  sql(query: string) {
    return this.api.sql(query);
  }

  /** The first SQL call detects the version: V16 has no SqlVeriOkuV2 and fails with a Turkish explanation. */
  async testConnection(): Promise<ConnectionInfo> {
    const rows = await this.api.sql("SELECT TOP 1 fir_unvan FROM FIRMALAR");
    const firm = str(rows[0]?.fir_unvan);
    const version = this.api.version === 17 ? ", V17" : "";
    return {
      ok: true,
      system: "mikro",
      firm: this.api.cfg.firmCode,
      period: this.api.cfg.period,
      description: `Mikro: ${firm || "firma"} (firma ${this.api.cfg.firmCode}, çalışma yılı ${this.api.cfg.period}${version})`,
      details: { firmName: firm, version: this.api.version ?? null },
    };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const rows = await this.api.sql("SELECT dep_no, dep_adi FROM DEPOLAR ORDER BY dep_no");
    return rows.map((r) => ({ id: str(r.dep_no), name: str(r.dep_adi) }));
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
    return listMikroStock(this.api, q);
  }

  listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    return this.prices.listPrices(q);
  }

  splitFullRead(
    listing: "stock" | "prices",
    parts: number,
    q: { locations?: string[]; priceGroups?: string[] } = {},
  ): Promise<string[]> {
    return listing === "stock" ? splitMikroStock(this.api, parts, q) : this.prices.splitPrices(parts, q);
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

export function createMikroConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new MikroConnector(credentials, ctx);
}
