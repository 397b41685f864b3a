/**
 * Microsoft Dynamics AX 2012 (ERP type 7) over AIF document services (SOAP), normally relayed by the
 * on-site agent. Items: ItemService findKeys (every ItemId once per connector) then read by keys, a page at
 * a time; on-hand: InventoryOnHandService read by the same item keys; sales orders: SalesOrderService
 * create, looked up first by our order number (findKeys on SalesTable.PurchOrderFormNum) so a write is
 * never doubled.
 */

import { createHash } from "node:crypto";
import type {
  ConnectionInfo,
  ConnectorContext,
  CreateSalesOrderInput,
  Credentials,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
} from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { decodeToken, encodeToken } from "../sdk/util";
import { AxClient, type AxService } from "./client";
import { axDescriptor } from "./descriptor";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (isObj(v)) return str(v.$value);
  return String(v).trim();
};
const num = (v: unknown): number => {
  const n = Number(str(v));
  return Number.isFinite(n) ? n : 0;
};
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Our order number as AX can hold it in PurchOrderFormNum: the field is a CustPurchaseOrder, 20 characters
 * (judge/rules.ts, dynamics-ax.edt-string-size), and AIF refuses a longer value. A longer number keeps its
 * last 11 characters (where shop and marketplace numbers differ) behind 8 hex digits of its SHA-256: the
 * same order always gets the same reference, so the lookup before a create still finds it.
 */
export function axOrderRef(orderNo: string): string {
  const chars = [...orderNo];
  if (chars.length <= 20) return orderNo;
  return `${createHash("sha256").update(orderNo).digest("hex").slice(0, 8)}-${chars.slice(-11).join("")}`;
}
const entity = { attributes: { class: "entity" } };

/** The price group of the item's sales price (InventTableModule, ModuleType Sales). */
export const AX_SALES_PRICE_GROUP = "Sales";

/**
 * VAT rate from the item's sales tax item group (InventTableModule.TaxItemGroupId). AX names these groups
 * freely per company; the digits of the name are read as the rate ("KDV20", "KDV%10"), else 20 (inferred).
 */
export function vatFromTaxItemGroup(group: string): number {
  const m = group.match(/(\d{1,2})/);
  const rate = m ? Number(m[1]) : Number.NaN;
  return [0, 1, 8, 10, 18, 20].includes(rate) ? rate : 20;
}

/** AX keeps countries as its own region codes (TUR for Türkiye); a name it cannot map is left out. */
export function countryRegion(country: string | undefined): string | undefined {
  const c = (country ?? "").trim();
  if (c === "" || /^(tr|tur|türkiye|turkiye|turkey)$/i.test(c)) return "TUR";
  return /^[A-Za-z]{2,3}$/.test(c) ? c.toUpperCase() : undefined;
}

/** AifEntityKeyList of one key field per record. */
function keyList(field: string, values: string[]) {
  return {
    EntityKeyList: {
      EntityKey: values.map((v) => ({ KeyData: { KeyField: [{ Field: field, Value: v }] } })),
    },
  };
}

/** The values of `field` in an AifEntityKeyList answer. */
function keysOf(res: Obj, field: string): string[] {
  const keyListNode = res.EntityKeyList;
  const out: string[] = [];
  for (const k of list(isObj(keyListNode) ? keyListNode.EntityKey : undefined)) {
    if (!isObj(k) || !isObj(k.KeyData)) continue;
    for (const f of list(k.KeyData.KeyField)) if (isObj(f) && str(f.Field) === field) out.push(str(f.Value));
  }
  return out;
}

interface AxItem {
  itemId: string;
  name: string;
  unit: string;
  price?: number;
  vatRate: number;
}

export class AxConnector implements ErpConnector {
  readonly descriptor = axDescriptor;
  readonly api: AxClient;
  private itemKeys: Promise<string[]> | undefined;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.api = new AxClient(credentials, ctx);
  }

  private criteria(dataSource: string, field: string, operator: string, value: string) {
    return {
      QueryCriteria: {
        CriteriaElement: [
          { DataSourceName: dataSource, FieldName: field, Operator: operator, Value1: value },
        ],
      },
    };
  }

  /**
   * A findKeys on the sales order service with our reference proves the port, the Windows account and
   * the company in one read that returns (almost) nothing.
   */
  async testConnection(): Promise<ConnectionInfo> {
    await this.api.call(
      "SalesOrderService",
      "findKeys",
      this.criteria("SalesTable", "PurchOrderFormNum", "Equal", "ENTEGRASYON-BAGLANTI-TESTI"),
    );
    return {
      ok: true,
      system: this.descriptor.system,
      firm: this.api.cfg.company,
      description: `Dynamics AX 2012: şirket ${this.api.cfg.company}, müşteri hesabı ${this.api.cfg.customerAccount}`,
    };
  }

  /** Every ItemId of the company, once per connector (keys only: a few bytes per item). */
  private allItemKeys(): Promise<string[]> {
    // An empty QueryCriteria selects every record (as public clients of ItemService send it).
    this.itemKeys ??= this.api
      .call("ItemService", "findKeys", { QueryCriteria: {} })
      .then((res) => keysOf(res, "ItemId").sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      .catch((e: unknown) => {
        this.itemKeys = undefined;
        throw e;
      });
    return this.itemKeys;
  }

  private async keyPage(q: M.PageQuery): Promise<{ keys: string[]; next?: string }> {
    const all = await this.allItemKeys();
    const size = Math.max(1, Math.min(q.pageSize ?? this.descriptor.batch.page ?? 100, 500));
    const offset = q.pageToken
      ? (decodeToken<{ o: number }>(q.pageToken, this.descriptor.system)?.o ?? 0)
      : 0;
    const keys = all.slice(offset, offset + size);
    return { keys, next: offset + size < all.length ? encodeToken({ o: offset + size }) : undefined };
  }

  private async readItems(keys: string[]): Promise<AxItem[]> {
    if (keys.length === 0) return [];
    const res = await this.api.call("ItemService", "read", keyList("ItemId", keys));
    const doc = isObj(res.Item) ? res.Item : {};
    return list(doc.InventTable)
      .filter(isObj)
      .map((t) => {
        const modules = list(t.InventTableModule).filter(isObj);
        const sales = modules.find((m) => str(m.ModuleType) === "Sales");
        const invent = modules.find((m) => str(m.ModuleType) === "Invent");
        return {
          itemId: str(t.ItemId),
          // inferred: the search name is the item's name on the item document (the product name lives
          // in the product translations, not on InventTable).
          name: str(t.NameAlias) || str(t.ItemId),
          unit: str(sales?.UnitId) || str(invent?.UnitId) || "Adet",
          price: sales && str(sales.Price) !== "" ? num(sales.Price) : undefined,
          vatRate: vatFromTaxItemGroup(str(sales?.TaxItemGroupId)),
        };
      });
  }

  async listProducts(q: M.PageQuery = {}): Promise<M.Page<M.Product>> {
    const page = await this.keyPage(q);
    const items = await this.readItems(page.keys);
    return {
      items: items.map((i) => ({
        sku: i.itemId,
        name: i.name,
        categoryPath: [],
        vatRate: i.vatRate,
        unit: i.unit,
        variants: [{ sku: i.itemId, barcodes: [], options: {} }],
        images: [],
        isActive: true,
      })),
      nextPageToken: page.next,
    };
  }

  async listPrices(q: M.PageQuery & { priceGroups?: string[] } = {}): Promise<M.Page<M.Price>> {
    const page = await this.keyPage(q);
    if (q.priceGroups && !q.priceGroups.includes(AX_SALES_PRICE_GROUP))
      return { items: [], nextPageToken: page.next };
    const items = await this.readItems(page.keys);
    return {
      items: items
        .filter((i) => i.price !== undefined)
        // inferred: the item's base sales price is kept without VAT (AX's default price setup).
        .map((i) => ({
          sku: i.itemId,
          priceGroup: AX_SALES_PRICE_GROUP,
          amount: i.price ?? 0,
          currency: "TRY",
          vatIncluded: false,
        })),
      nextPageToken: page.next,
    };
  }

  private async onHand(keys: string[]): Promise<M.StockLevel[]> {
    if (keys.length === 0) return [];
    const res = await this.api.call("InventoryOnHandService", "read", keyList("ItemId", keys));
    const doc = isObj(res.InventoryOnHand) ? res.InventoryOnHand : {};
    const sums = new Map<string, M.StockLevel>();
    for (const s of list(doc.InventSum).filter(isObj)) {
      const sku = str(s.ItemId);
      const location = isObj(s.InventDim) ? str(s.InventDim.InventLocationId) : "";
      // Available physical = on hand minus reserved: what a shop may sell.
      const qty = str(s.AvailPhysical) !== "" ? num(s.AvailPhysical) : num(s.PhysicalInvent);
      const key = `${sku}\u0000${location}`;
      const prev = sums.get(key);
      if (prev) prev.qty = round2(prev.qty + qty);
      else sums.set(key, { sku, location, qty });
    }
    return [...sums.values()];
  }

  async listStock(q: M.PageQuery & { locations?: string[] } = {}): Promise<M.Page<M.StockLevel>> {
    const page = await this.keyPage(q);
    const levels = await this.onHand(page.keys);
    const wanted = q.locations && q.locations.length > 0 ? new Set(q.locations) : undefined;
    return {
      items: wanted ? levels.filter((l) => wanted.has(l.location)) : levels,
      nextPageToken: page.next,
    };
  }

  /** The warehouses that hold stock of the first page of items, and the configured one. */
  async listStockLocations(): Promise<M.StockLocation[]> {
    const { keys } = await this.keyPage({});
    const ids = new Set((await this.onHand(keys)).map((l) => l.location).filter((l) => l !== ""));
    if (this.api.cfg.warehouse) ids.add(this.api.cfg.warehouse);
    return [...ids].sort().map((id) => ({ id, name: id }));
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    return [
      {
        id: AX_SALES_PRICE_GROUP,
        name: "Madde satış fiyatı",
        currency: "TRY",
        vatIncluded: false,
        isDefault: true,
      },
    ];
  }

  async listCategories(): Promise<M.Page<M.Category>> {
    return { items: [] };
  }

  /** The sales orders holding our order number in PurchOrderFormNum (inferred field: the customer's requisition). */
  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const res = await this.api.call(
      "SalesOrderService",
      "findKeys",
      this.criteria("SalesTable", "PurchOrderFormNum", "Equal", axOrderRef(ref)),
    );
    const ids = keysOf(res, "SalesId");
    if (ids.length === 0) return null;
    return { documentId: ids.sort()[0] ?? "", ref, existed: true };
  }

  /** Orders go to the configured customer account (it must exist in AX); the buyer is on the delivery fields. */
  async createCustomer(_c: M.Customer): Promise<ErpCustomerRef> {
    return { code: this.api.cfg.customerAccount, existed: true };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    if (order.lines.length === 0) {
      throw new ConnectorError(`dynamics-ax: order ${order.orderNo} has no lines`, {
        reason: "validation",
        system: this.descriptor.system,
        operation: "SalesOrderService.create",
        itemKeys: [order.orderNo],
      });
    }
    // Exactly once: an order already in AX (a write whose answer was lost) is returned, never re-sent.
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const a = order.shippingAddress;
    const warehouse = input.location ?? this.api.cfg.warehouse;
    const dim = warehouse ? { InventDim: [{ ...entity, InventLocationId: warehouse }] } : {};
    const lines = order.lines.map((l) => ({
      ...entity,
      ItemId: l.sku,
      LineAmount: round2(l.total),
      // LineDisc is a discount per unit in AX.
      ...(l.discount > 0 ? { LineDisc: round2(l.discount / Math.max(l.qty, 1)) } : {}),
      Name: l.name.slice(0, 60),
      SalesPrice: round2(l.unitPrice),
      SalesQty: l.qty,
      ...dim,
    }));
    const street = [a.line1, a.line2, a.district].filter(Boolean).join(" ");
    const res = await this.api.call("SalesOrderService", "create", {
      SalesOrder: {
        DocPurpose: "Original",
        SalesTable: [
          {
            ...entity,
            CurrencyCode: order.currency || "TRY",
            CustAccount: input.customerCode || this.api.cfg.customerAccount,
            CustomerRef:
              `${order.customer.firstName} ${order.customer.lastName}`.trim().slice(0, 60) || undefined,
            DeliveryCity: a.city,
            DeliveryCountryRegionId: countryRegion(a.country),
            DeliveryName: `${a.firstName} ${a.lastName}`.trim().slice(0, 60),
            DeliveryStreet: street,
            DeliveryZipCode: a.postalCode || undefined,
            Email: order.customer.email || undefined,
            // Shop prices include VAT.
            InclTax: "Yes",
            InventLocationId: warehouse,
            PurchOrderFormNum: axOrderRef(order.orderNo),
            ReceiptDateRequested: order.createdAt.slice(0, 10),
            SalesLine: lines,
          },
        ],
      },
    });
    const salesId = keysOf(res, "SalesId")[0];
    if (!salesId) {
      throw new ConnectorError("dynamics-ax SalesOrderService.create: answer without a SalesId key", {
        reason: "bad_response",
        system: this.descriptor.system,
        operation: "SalesOrderService.create",
        itemKeys: [order.orderNo],
      });
    }
    return { documentId: salesId, ref: order.orderNo, existed: false };
  }

  /** Not read yet: invoices (CustInvoiceJour) are outside the judged services. */
  async listInvoicesForOrder(_ref: string): Promise<M.Invoice[]> {
    return [];
  }

  /** For tests: the services this connector calls. */
  static readonly services: AxService[] = ["SalesOrderService", "ItemService", "InventoryOnHandService"];
}

export const createAxConnector = factoryOf(AxConnector);
