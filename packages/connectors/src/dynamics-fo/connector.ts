/**
 * Microsoft Dynamics 365 Finance & Operations connector (OData v4 `/data/{EntitySet}`). Split by concern:
 * client.ts (token, paging, errors, $batch), catalog.ts, stock.ts, prices.ts, orders.ts.
 */

import { ComposedErpConnector, type ConnectionInfo, type ErpReads } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { D365Catalog } from "./catalog";
import { D365Client, str } from "./client";
import { d365Descriptor } from "./descriptor";
import { D365Orders } from "./orders";
import { D365Prices } from "./prices";
import { listD365Stock } from "./stock";

export class D365Connector extends ComposedErpConnector {
  readonly descriptor = d365Descriptor;
  private readonly api = new D365Client(this.credentials, this.ctx);
  private readonly catalog = new D365Catalog(this.api);
  private readonly prices = new D365Prices(this.api);
  protected readonly writing = new D365Orders(this.api);
  // Each read lives in the part of its data entities.
  protected readonly reading: ErpReads = {
    listProducts: (q) => this.catalog.listProducts(q),
    listCategories: () => this.catalog.listCategories(),
    listPrices: (q) => this.prices.listPrices(q),
    listPriceGroups: () => this.prices.listPriceGroups(),
    listStock: (q) => listD365Stock(this.api, q),
    listStockLocations: async () => {
      const rows = await this.api.all("Warehouses", { select: ["WarehouseId", "WarehouseName"] });
      return rows.map((r) => ({ id: str(r.WarehouseId), name: str(r.WarehouseName) || str(r.WarehouseId) }));
    },
  };

  /** A token and one warehouse of the company prove the app registration, its F&O user and the company. */
  async testConnection(): Promise<ConnectionInfo> {
    const rows = await this.api.all("Warehouses", { select: ["WarehouseId", "WarehouseName"], top: 1 });
    return {
      ok: true,
      system: this.descriptor.system,
      firm: this.api.company,
      description: `Dynamics 365 F&O: şirket ${this.api.company}${rows.length === 0 ? " (ambar tanımı yok)" : ""}`,
      details: { firstWarehouse: str(rows[0]?.WarehouseId) || null },
    };
  }

  customerAccount(ref: string): string {
    return this.writing.customerAccount(ref);
  }
}

export const createD365Connector = factoryOf(D365Connector);
