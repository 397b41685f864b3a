/**
 * Nebim V3 ERP connector (Integrator service, on the customer's IIS, reached through the on-site agent).
 * api.ts: Connect / GetUserInfo / errors / RunProc / Post; reads.ts: products, stock, prices through the
 * customer's procedures — or, when the form holds SQL queries, through the generic SQL connector's
 * queries and mapping (the agent's SQL seam); orders.ts: customers and orders through Post.
 */

import { GenericSqlConnector } from "../generic-sql/connector";
import { ComposedErpConnector, type ConnectionInfo, type ErpReads } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { NebimApi, str } from "./api";
import { nebimDescriptor } from "./descriptor";
import { NebimOrders } from "./orders";
import { NebimReads } from "./reads";

export class NebimConnector extends ComposedErpConnector {
  readonly descriptor = nebimDescriptor;
  readonly api = new NebimApi(this.credentials, this.ctx);
  /** Orders and customers; no invoice read: the Integrator documents none (Nebim's own e-invoice flow issues them). */
  protected readonly writing = new NebimOrders(this.api);
  private readonly procs = new NebimReads(this.api);
  protected readonly reading: ErpReads = this.credentials.sqlConfig?.trim()
    ? new GenericSqlConnector(nebimDescriptor, { sqlDialect: "mssql", ...this.credentials }, this.ctx)
    : {
        listProducts: () => this.procs.listProducts(),
        listCategories: () => this.procs.listCategories(),
        listStock: (q) => this.procs.listStock(q?.locations),
        listPrices: (q) => this.procs.listPrices(q?.priceGroups),
        listPriceGroups: () => this.procs.listPriceGroups(),
        listStockLocations: () => this.procs.listStockLocations(),
      };

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

  customerCode(ref: string): string {
    return this.writing.customerCode(ref);
  }
}

export const createNebimConnector = factoryOf(NebimConnector);
