/**
 * DİA ERP connector (WS v3 JSON). Split by resource: api.ts (session, envelope, in-body codes), paging.ts
 * (key and change-date scans), catalog.ts, stock.ts, prices.ts, orders.ts. Every call costs kontör, so
 * reads are delta reads on `_date` wherever the service has it, with big pages and selected columns.
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
import { DiaApi, type DiaRow, num, str } from "./api";
import { DiaCatalog } from "./catalog";
import { diaDescriptor } from "./descriptor";
import { DiaOrders } from "./orders";
import { DiaPrices } from "./prices";
import { DiaStock } from "./stock";

export class DiaConnector implements ErpConnector {
  readonly descriptor = diaDescriptor;
  private readonly api: DiaApi;
  private readonly catalog: DiaCatalog;
  private readonly prices: DiaPrices;
  private readonly stock: DiaStock;
  private readonly orders: DiaOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new DiaApi(credentials, ctx);
    this.catalog = new DiaCatalog(this.api);
    this.prices = new DiaPrices(this.api);
    this.stock = new DiaStock(this.api);
    this.orders = new DiaOrders(this.api);
  }

  /** Logs in and checks that the firm and period exist for this user (one billable call). */
  async testConnection(): Promise<ConnectionInfo> {
    const answer = await this.api.call(
      "sis",
      "sis_yetkili_firma_donem_sube_depo",
      "read",
      {},
      { scoped: false },
    );
    const firms = Array.isArray(answer.result) ? (answer.result as DiaRow[]) : [];
    const firm = firms.find((f) => num(f.firmakodu) === this.api.firm);
    const periods = (firm?.donemler as DiaRow[] | undefined) ?? [];
    if (!firm || !periods.some((p) => num(p.donemkodu) === this.api.period)) {
      const text = firm
        ? `DİA: ${this.api.period} kodlu dönem bu firmada yok ya da kullanıcının yetkisi yok.`
        : `DİA: ${this.api.firm} kodlu firma yok ya da kullanıcının yetkisi yok.`;
      throw new ConnectorError("dia: firm or period not available to this user", {
        reason: "config",
        system: "dia",
        operation: "sis_yetkili_firma_donem_sube_depo",
        systemMessage: text,
        merchantMessage: text,
      });
    }
    const name = str(firm.firmaadi);
    return {
      ok: true,
      system: "dia",
      firm: String(this.api.firm),
      period: String(this.api.period),
      description: `DİA: ${name || "firma"} (firma ${this.api.firm}, dönem ${this.api.period})`,
      details: { firmName: name },
    };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return (await this.stock.depotList()).map(({ id, name }) => ({ id, name }));
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
    return this.stock.listStock(q);
  }

  listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    return this.prices.listPrices(q);
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

export function createDiaConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new DiaConnector(credentials, ctx);
}
