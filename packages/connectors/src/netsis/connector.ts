/**
 * Netsis ERP connector over NetOpenX REST (/api/v2), normally reached through the on-site agent.
 * api.ts (token, envelope, paging, Queries), catalog.ts (cards, prices, stock, depots, groups),
 * orders.ts (accounts, customer orders, invoices). Names and shapes come from the vendor's own client
 * DLL (judge/netopenx-models.generated.json); what it does not show is marked "inferred".
 */

import { ComposedErpConnector, type ConnectionInfo } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { NetsisApi } from "./api";
import { NetsisCatalog } from "./catalog";
import { netsisDescriptor } from "./descriptor";
import { NetsisOrders } from "./orders";

export class NetsisConnector extends ComposedErpConnector {
  readonly descriptor = netsisDescriptor;
  private readonly api = new NetsisApi(this.credentials, this.ctx);
  protected readonly reading = new NetsisCatalog(this.api);
  protected readonly writing = new NetsisOrders(this.api);

  /** Logs in (branch, company, users) and reads the depots: both must answer. */
  async testConnection(): Promise<ConnectionInfo> {
    await this.api.accessToken();
    const depots = await this.reading.listStockLocations();
    const db = this.api.cfg.dbName ?? "";
    return {
      ok: true,
      system: "netsis",
      firm: db,
      description: `Netsis: ${db} (şube ${this.api.branch}), ${depots.length} depo`,
      details: { dbName: db, branchCode: this.api.branch, depots: depots.length },
    };
  }

  customerCode(ref: string): string {
    return this.writing.customerCode(ref);
  }
}

export const createNetsisConnector = factoryOf(NetsisConnector);
