/**
 * DİA ERP connector (WS v3 JSON). Split by resource: api.ts (session, envelope, in-body codes), paging.ts
 * (key and change-date scans), catalog.ts, stock.ts, prices.ts, orders.ts. Every call costs kontör, so
 * reads are delta reads on `_date` wherever the service has it, with big pages and selected columns.
 */

import { ComposedErpConnector, type ConnectionInfo, type ErpReads } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { factoryOf } from "../sdk/skeleton";
import { DiaApi, type DiaRow, num, str } from "./api";
import { DiaCatalog } from "./catalog";
import { diaDescriptor } from "./descriptor";
import { DiaOrders } from "./orders";
import { DiaPrices } from "./prices";
import { DiaStock } from "./stock";

export class DiaConnector extends ComposedErpConnector {
  readonly descriptor = diaDescriptor;
  private readonly api = new DiaApi(this.credentials, this.ctx);
  private readonly catalog = new DiaCatalog(this.api);
  private readonly prices = new DiaPrices(this.api);
  private readonly stock = new DiaStock(this.api);
  protected readonly writing = new DiaOrders(this.api);
  // Each read lives in the part of its DİA service.
  protected readonly reading: ErpReads = {
    listProducts: (q) => this.catalog.listProducts(q),
    listCategories: () => this.catalog.listCategories(),
    listPrices: (q) => this.prices.listPrices(q),
    listPriceGroups: () => this.prices.listPriceGroups(),
    listStock: (q) => this.stock.listStock(q),
    listStockLocations: async () => (await this.stock.depotList()).map(({ id, name }) => ({ id, name })),
  };

  /** Logs in and checks that the firm and period exist for this user (one billable call). */
  async testConnection(): Promise<ConnectionInfo> {
    const answer = await this.api.call(
      "sis",
      "sis_yetkili_firma_donem_sube_depo",
      "read",
      {},
      { scoped: false },
    );
    const firms = Array.isArray(answer.result) ? (answer.result as DiaRow[]) : [];
    const firm = firms.find((f) => num(f.firmakodu) === this.api.firm);
    const periods = (firm?.donemler as DiaRow[] | undefined) ?? [];
    if (!firm || !periods.some((p) => num(p.donemkodu) === this.api.period)) {
      const text = firm
        ? `DİA: ${this.api.period} kodlu dönem bu firmada yok ya da kullanıcının yetkisi yok.`
        : `DİA: ${this.api.firm} kodlu firma yok ya da kullanıcının yetkisi yok.`;
      throw new ConnectorError("dia: firm or period not available to this user", {
        reason: "config",
        system: "dia",
        operation: "sis_yetkili_firma_donem_sube_depo",
        systemMessage: text,
        merchantMessage: text,
      });
    }
    const name = str(firm.firmaadi);
    return {
      ok: true,
      system: "dia",
      firm: String(this.api.firm),
      period: String(this.api.period),
      description: `DİA: ${name || "firma"} (firma ${this.api.firm}, dönem ${this.api.period})`,
      details: { firmName: name },
    };
  }

  customerCode(ref: string): string {
    return this.writing.customerCode(ref);
  }
}

export const createDiaConnector = factoryOf(DiaConnector);
