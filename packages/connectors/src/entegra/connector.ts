/**
 * Entegra connector: a read connection (products with variations, stock, price lists, categories) over the
 * API the public Singer tap uses. Entegra is itself a marketplace integrator; no public artifact shows how an
 * order or a customer is written to it (third-party code marks its order endpoint as a guess), so those
 * operations fail as "unsupported" with a Turkish reason instead of sending unverified requests.
 */

import {
  ComposedErpConnector,
  type ConnectionInfo,
  type ConnectorContext,
  type Credentials,
  unsupportedOrderWrites,
} from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { EntegraCatalog } from "./catalog";
import { EntegraClient, num, str } from "./client";
import { entegraDescriptor } from "./descriptor";

export class EntegraConnector extends ComposedErpConnector {
  readonly descriptor = entegraDescriptor;
  private readonly api: EntegraClient;
  protected readonly reading: EntegraCatalog;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    super();
    this.api = new EntegraClient(credentials, ctx);
    this.reading = new EntegraCatalog(this.api);
  }

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
