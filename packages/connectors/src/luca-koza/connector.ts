/**
 * Luca Koza connector (ERP 23): a cookie session with company/branch selection over the `.do` methods the
 * public document names. Reads stock cards, categories, depots, on-hand and sales price lists. Koza has no
 * sales-order method in the document, so orders (and the customers and invoices that go with them) are
 * refused as "unsupported" with a Turkish reason, and nothing is sent.
 */

import {
  ComposedErpConnector,
  type ConnectionInfo,
  type ConnectorContext,
  type Credentials,
  type ErpConnector,
  unsupportedOrderWrites,
} from "../sdk/connector";
import { KozaCatalog } from "./catalog";
import { KozaClient } from "./client";
import { lucaKozaDescriptor } from "./descriptor";

export class LucaKozaConnector extends ComposedErpConnector {
  readonly descriptor = lucaKozaDescriptor;
  private readonly api: KozaClient;
  private readonly catalog: KozaCatalog;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    super();
    this.api = new KozaClient(credentials, ctx);
    this.catalog = new KozaCatalog(this.api, ctx.batch?.page ?? lucaKozaDescriptor.batch.page ?? 500);
  }

  protected get reading() {
    return this.catalog;
  }

  /** No order, customer or invoice calls: luca-koza is only the catalogue source. */
  protected readonly writing = unsupportedOrderWrites("luca-koza", "connectors.lucaKozaOrderUnsupported");

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
}

export function createLucaKozaConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new LucaKozaConnector(credentials, ctx);
}
