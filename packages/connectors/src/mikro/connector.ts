/**
 * Mikro ERP connector (MikroAPI V2): items via StokListesiV2, everything else via the read-only
 * SqlVeriOkuV2, writes via CariKaydetV2 / SiparisKaydetV2. Split by resource: api.ts (envelope, VAT table,
 * version), catalog.ts, stock.ts, prices.ts, orders.ts.
 */

import { ComposedErpConnector, type ConnectionInfo, type ErpReads } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { MikroApi, str } from "./api";
import { cancelMikroOrder } from "./cancel";
import { MikroCatalog } from "./catalog";
import { mikroDescriptor } from "./descriptor";
import { MikroOrders } from "./orders";
import { MikroPrices } from "./prices";
import { listMikroStock, splitMikroStock } from "./stock";

export { classifyMikroResponse, mikroDailyPassword, sqlString } from "./api";

export class MikroConnector extends ComposedErpConnector {
  readonly descriptor = mikroDescriptor;
  private readonly api = new MikroApi(this.credentials, this.ctx);
  private readonly catalog = new MikroCatalog(this.api);
  private readonly prices = new MikroPrices(this.api);
  protected readonly writing = new MikroOrders(this.api);
  // Items through StokListesiV2 (catalog), prices and stock through SqlVeriOkuV2.
  protected readonly reading: ErpReads = {
    listProducts: (q) => this.catalog.listProducts(q),
    listCategories: () => this.catalog.listCategories(),
    listPrices: (q) => this.prices.listPrices(q),
    listPriceGroups: () => this.prices.listPriceGroups(),
    listStock: (q) => listMikroStock(this.api, q),
    listStockLocations: async () => {
      const rows = await this.api.sql("SELECT dep_no, dep_adi FROM DEPOLAR ORDER BY dep_no");
      return rows.map((r) => ({ id: str(r.dep_no), name: str(r.dep_adi) }));
    },
  };

  /** SqlVeriOkuV2, SELECT only (tests reach it to prove the server refuses anything else). */
  sql(query: string) {
    return this.api.sql(query);
  }

  /** The first SQL call detects the version: V16 has no SqlVeriOkuV2 and fails with a Turkish explanation. */
  async testConnection(): Promise<ConnectionInfo> {
    const rows = await this.api.sql("SELECT TOP 1 fir_unvan FROM FIRMALAR");
    const firm = str(rows[0]?.fir_unvan);
    const version = this.api.version === 17 ? ", V17" : "";
    return {
      ok: true,
      system: "mikro",
      firm: this.api.cfg.firmCode,
      period: this.api.cfg.period,
      description: `Mikro: ${firm || "firma"} (firma ${this.api.cfg.firmCode}, çalışma yılı ${this.api.cfg.period}${version})`,
      details: { firmName: firm, version: this.api.version ?? null },
    };
  }

  splitFullRead(
    listing: "stock" | "prices",
    parts: number,
    q: { locations?: string[]; priceGroups?: string[] } = {},
  ): Promise<string[]> {
    return listing === "stock" ? splitMikroStock(this.api, parts, q) : this.prices.splitPrices(parts, q);
  }

  customerCode(ref: string): string {
    return this.writing.customerCode(ref);
  }

  cancelSalesOrder(ref: string): Promise<"cancelled" | "absent"> {
    return cancelMikroOrder(this.api, ref);
  }
}

export const createMikroConnector = factoryOf(MikroConnector);
