/**
 * Entegra connector: a read connection (products with variations, stock, price lists, categories) over the
 * API the public Singer tap uses. Entegra is itself a marketplace integrator; no public artifact shows how an
 * order or a customer is written to it (third-party code marks its order endpoint as a guess), so those
 * operations fail as "unsupported" with a Turkish reason instead of sending unverified requests.
 */

import { ComposedErpConnector, type ConnectionInfo, unsupportedOrderWrites } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { EntegraCatalog } from "./catalog";
import { EntegraClient, num, str } from "./client";
import { entegraDescriptor } from "./descriptor";

export class EntegraConnector extends ComposedErpConnector {
  readonly descriptor = entegraDescriptor;
  private readonly api = new EntegraClient(this.credentials, this.ctx);
  protected readonly reading = new EntegraCatalog(this.api);

  /** No order, customer or invoice calls: entegra is only the catalogue source. */
  protected readonly writing = unsupportedOrderWrites("entegra", "connectors.entegraWriteUnsupported");

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
}

export const createEntegraConnector = factoryOf(EntegraConnector);
