/**
 * The AX 2012 emulator's data: one company with seeded items (the kit's Turkish catalogue, so the IKAS
 * emulator of the same seed sells the same SKUs), on-hand per warehouse, customer accounts and the sales
 * orders written through SalesOrderService.create.
 */

import { type CatalogItem, generateCatalog } from "../../testing/catalog";

export const AX_TEST_COMPANY = "dat";
export const AX_TEST_CUSTOMER = "WEB-001";
/** Warehouses (InventLocationId) holding the catalogue's depot 1 and depot 2 stock. */
export const AX_WAREHOUSES = ["11", "12"] as const;

export interface AxSalesLine {
  itemId: string;
  qty: number;
  price: number;
  lineAmount: number;
  name: string;
  warehouse?: string;
}

export interface AxSalesOrder {
  salesId: string;
  recId: number;
  custAccount: string;
  purchOrderFormNum?: string;
  currency: string;
  deliveryName?: string;
  warehouse?: string;
  lines: AxSalesLine[];
}

export class AxState {
  readonly company: string;
  readonly items: CatalogItem[];
  readonly itemsById: Map<string, CatalogItem>;
  readonly customers = new Set<string>([AX_TEST_CUSTOMER, "CUST-0002"]);
  readonly orders = new Map<string, AxSalesOrder>();
  private nextSales = 1;
  private nextRecId = 5_637_144_576;

  constructor(opts: { seed?: number | string; itemCount?: number; company?: string } = {}) {
    this.company = opts.company ?? AX_TEST_COMPANY;
    this.items = generateCatalog({ seed: opts.seed ?? 1, count: opts.itemCount ?? 60 });
    this.itemsById = new Map(this.items.map((i) => [i.sku, i]));
  }

  recId(): number {
    return this.nextRecId++;
  }

  /**
   * On-hand of an item per warehouse. AX keeps an InventSum row per item and dimension once stock moved
   * there, also when it is back at zero (inferred: the emulator's items all had stock in both warehouses).
   */
  onHand(item: CatalogItem): Array<{ warehouse: string; qty: number }> {
    return [
      { warehouse: AX_WAREHOUSES[0], qty: item.stock1 },
      { warehouse: AX_WAREHOUSES[1], qty: item.stock2 },
    ];
  }

  createOrder(o: Omit<AxSalesOrder, "salesId" | "recId">): AxSalesOrder {
    const salesId = `SO-${String(this.nextSales++).padStart(6, "0")}`;
    const order = { ...o, salesId, recId: this.recId() };
    this.orders.set(salesId, order);
    return order;
  }

  /** Our order number → the AX sales orders holding it (tests: exactly once). */
  documentsByRef(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const o of this.orders.values()) {
      const ref = o.purchOrderFormNum ?? "";
      const docs = out.get(ref) ?? new Set<string>();
      docs.add(o.salesId);
      out.set(ref, docs);
    }
    return out;
  }
}
