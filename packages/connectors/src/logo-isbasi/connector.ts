/**
 * Logo İşbaşı ERP connector. Split by resource: api.ts (login, headers, envelope, lists), catalog.ts
 * (products with their categories and sales prices), orders.ts (customers, orders as draft invoices).
 * The account's monthly quota makes every call count: delta reads, pages of 100, checks before writes.
 */

import {
  ComposedErpConnector,
  type ConnectionInfo,
  type ConnectorContext,
  type Credentials,
  type ErpReads,
} from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { factoryOf } from "../sdk/skeleton";
import { IsbasiApi } from "./api";
import { IsbasiCatalog } from "./catalog";
import { isbasiDescriptor } from "./descriptor";
import { IsbasiOrders } from "./orders";

const NO_STOCK =
  "Logo İşbaşı API'si depo bazında stok miktarı vermiyor; stok aktarımı bu ERP ile yapılamaz. Stoku mağazada yönetin.";

export class IsbasiConnector extends ComposedErpConnector {
  readonly descriptor = isbasiDescriptor;
  private readonly api: IsbasiApi;
  protected readonly reading: ErpReads;
  protected readonly writing: IsbasiOrders;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    super();
    this.api = new IsbasiApi(credentials, ctx);
    const catalog = new IsbasiCatalog(this.api);
    this.writing = new IsbasiOrders(this.api);
    // Products, categories and sales prices come from the catalog; the API keeps no stock per warehouse.
    this.reading = {
      listProducts: (q) => catalog.listProducts(q),
      listCategories: () => catalog.listCategories(),
      listPrices: (q) => catalog.listPrices(q),
      listPriceGroups: async () => catalog.listPriceGroups(),
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
  }

  /** The login alone proves the key, the user and the tenant (no list call: it would cost quota). */
  async testConnection(): Promise<ConnectionInfo> {
    const s = await this.api.sessionInfo();
    return {
      ok: true,
      system: "logo-isbasi",
      firm: s.tenantId,
      description: `Logo İşbaşı: giriş başarılı (firma ${s.tenantId})`,
      details: { tenantId: s.tenantId, userId: s.userId },
    };
  }

  customerCode(ref: string): string {
    return this.writing.customerCode(ref);
  }
}

export const createIsbasiConnector = factoryOf(IsbasiConnector);
