/**
 * Logo İşbaşı ERP connector. Split by resource: api.ts (login, headers, envelope, lists), catalog.ts
 * (products with their categories and sales prices), orders.ts (customers, orders as draft invoices).
 * The account's monthly quota makes every call count: delta reads, pages of 100, checks before writes.
 */

import { ComposedErpConnector, type ConnectionInfo, type ErpReads } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { factoryOf } from "../sdk/skeleton";
import { IsbasiApi } from "./api";
import { IsbasiCatalog } from "./catalog";
import { isbasiDescriptor } from "./descriptor";
import { IsbasiOrders } from "./orders";

const NO_STOCK =
  "Logo Is Basi API'si depo bazında stok miktarı vermiyor; stok aktarımı bu ERP ile yapılamaz. Stoku mağazada yönetin.";

export class IsbasiConnector extends ComposedErpConnector {
  readonly descriptor = isbasiDescriptor;
  private readonly api = new IsbasiApi(this.credentials, this.ctx);
  private readonly catalog = new IsbasiCatalog(this.api);
  protected readonly writing = new IsbasiOrders(this.api);
  // Products, categories and sales prices come from the catalog; the API keeps no stock per warehouse.
  protected readonly reading: ErpReads = {
    listProducts: (q) => this.catalog.listProducts(q),
    listCategories: () => this.catalog.listCategories(),
    listPrices: (q) => this.catalog.listPrices(q),
    listPriceGroups: async () => this.catalog.listPriceGroups(),
    listStock: () =>
      Promise.reject(
        new ConnectorError("logo-isbasi: no stock per warehouse in the API", {
          reason: "unsupported",
          system: "logo-isbasi",
          operation: "listStock",
          merchantMessage: NO_STOCK,
          systemMessage: NO_STOCK,
        }),
      ),
    listStockLocations: async () => [],
  };

  /** The login alone proves the key, the user and the tenant (no list call: it would cost quota). */
  async testConnection(): Promise<ConnectionInfo> {
    const s = await this.api.sessionInfo();
    return {
      ok: true,
      system: "logo-isbasi",
      firm: s.tenantId,
      description: `Logo Is Basi: giriş başarılı (firma ${s.tenantId})`,
      details: { tenantId: s.tenantId, userId: s.userId },
    };
  }

  customerCode(ref: string): string {
    return this.writing.customerCode(ref);
  }
}

export const createIsbasiConnector = factoryOf(IsbasiConnector);
