/**
 * Luca Koza connector (ERP 23): a cookie session with company/branch selection over the `.do` methods the
 * public document names. Reads stock cards, categories, depots, on-hand and sales price lists. Koza has no
 * sales-order method in the document, so orders (and the customers and invoices that go with them) are
 * refused as "unsupported" with a Turkish reason, and nothing is sent.
 */

import { ComposedErpConnector, type ConnectionInfo, unsupportedOrderWrites } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { KozaCatalog } from "./catalog";
import { KozaClient } from "./client";
import { lucaKozaDescriptor } from "./descriptor";

export class LucaKozaConnector extends ComposedErpConnector {
  readonly descriptor = lucaKozaDescriptor;
  private readonly api = new KozaClient(this.credentials, this.ctx);
  protected readonly reading = new KozaCatalog(
    this.api,
    this.ctx.batch?.page ?? this.descriptor.batch.page ?? 500,
  );

  /** No order, customer or invoice calls: luca-koza is only the catalogue source. */
  protected readonly writing = unsupportedOrderWrites("luca-koza", "connectors.lucaKozaOrderUnsupported");

  /** Login, branch selection and the depot list prove the settings. */
  async testConnection(): Promise<ConnectionInfo> {
    const depots = await this.reading.listStockLocations();
    return {
      ok: true,
      system: "luca-koza",
      firm: this.api.branchName,
      description: `LucaKoza: ${this.api.branchName ?? "şirket/şube"} (${depots.length} depo)`,
    };
  }
}

export const createLucaKozaConnector = factoryOf(LucaKozaConnector);
