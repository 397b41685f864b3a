/**
 * Nebim reads through the customer's stored procedures (`RunProc`). The Integrator has no product, stock
 * or price listing of its own: each company writes its procedures, so the names are settings and the
 * columns below are what the form asks them to return (inferred: no public procedure shows them all).
 * A variant is an ItemCode with a ColorCode and an ItemDim1Code (size); its SKU is the ItemCode alone when it
 * has neither, else `ItemCode/ColorCode/ItemDim1Code` (our convention, read back when orders are written).
 * Variants form one product per ItemCode, or per the optional `ModelCode` column when the company keeps
 * each size as its own item and groups them (then `OptionName`/`OptionValue` name the variant).
 */

import type { Category, Page, Price, PriceGroup, Product, StockLevel, StockLocation } from "../sdk/model";
import { round2 } from "../sdk/util";
import { type NebimApi, type NebimRow, num, str } from "./api";
import { NEBIM_DEFAULT_PROCS } from "./descriptor";

export interface NebimItemKey {
  itemCode: string;
  colorCode: string;
  itemDim1Code: string;
}

export function variantSku(row: NebimRow): string {
  const item = str(row.ItemCode);
  const color = str(row.ColorCode);
  const dim1 = str(row.ItemDim1Code);
  return color || dim1 ? `${item}/${color}/${dim1}` : item;
}

/** The inverse of `variantSku`: the last two `/` parts are the colour and the size. */
export function itemKeyOf(sku: string): NebimItemKey {
  const parts = sku.split("/");
  if (parts.length < 3) return { itemCode: sku, colorCode: "", itemDim1Code: "" };
  const itemDim1Code = parts.pop() as string;
  const colorCode = parts.pop() as string;
  return { itemCode: parts.join("/"), colorCode, itemDim1Code };
}

const bool = (v: unknown): boolean => v === true || v === 1 || /^(1|true|evet|e)$/i.test(str(v));

export class NebimReads {
  constructor(private readonly api: NebimApi) {}

  private proc(name: "productsProc" | "stockProc" | "pricesProc"): string {
    const key = name === "productsProc" ? "products" : name === "stockProc" ? "stock" : "prices";
    return (this.api.cfg[name] ?? "").trim() || NEBIM_DEFAULT_PROCS[key];
  }

  private productRows(): Promise<NebimRow[]> {
    return this.api.runProc(this.proc("productsProc"), {}, "products");
  }

  async listProducts(): Promise<Page<Product>> {
    const rows = await this.productRows();
    const byItem = new Map<string, Product>();
    for (const r of rows) {
      const item = str(r.ItemCode);
      if (!item) continue;
      const code = str(r.ModelCode) || item;
      let p = byItem.get(code);
      if (!p) {
        p = {
          sku: code,
          name: str(r.ModelDescription) || str(r.ItemDescription) || code,
          brand: str(r.Brand) || undefined,
          categoryPath: str(r.Category)
            .split(">")
            .map((s) => s.trim())
            .filter(Boolean),
          vatRate: num(r.VatRate),
          unit: str(r.UnitOfMeasureCode1) || "AD",
          variants: [],
          images: [],
          isActive: !bool(r.IsBlocked),
          groupKey: code,
        };
        byItem.set(code, p);
      }
      const sku = variantSku(r);
      let v = p.variants.find((x) => x.sku === sku);
      if (!v) {
        const options: Record<string, string> = {};
        if (str(r.ColorCode)) options.Renk = str(r.ColorDescription) || str(r.ColorCode);
        if (str(r.ItemDim1Code)) options.Beden = str(r.ItemDim1Code);
        if (str(r.OptionName) && str(r.OptionValue)) options[str(r.OptionName)] = str(r.OptionValue);
        v = { sku, barcodes: [], options, isActive: !bool(r.IsBlocked) };
        p.variants.push(v);
      }
      const barcode = str(r.Barcode);
      if (barcode && !v.barcodes.includes(barcode)) v.barcodes.push(barcode);
    }
    return { items: [...byItem.values()].sort((a, b) => a.sku.localeCompare(b.sku)) };
  }

  async listCategories(): Promise<Page<Category>> {
    const out = new Map<string, Category>();
    for (const r of await this.productRows()) {
      const path = str(r.Category)
        .split(">")
        .map((s) => s.trim())
        .filter(Boolean);
      for (let i = 0; i < path.length; i++) {
        const id = path.slice(0, i + 1).join(" > ");
        if (!out.has(id))
          out.set(id, {
            id,
            name: path[i] as string,
            parentId: i > 0 ? path.slice(0, i).join(" > ") : undefined,
            path: path.slice(0, i + 1),
          });
      }
    }
    return { items: [...out.values()] };
  }

  private stockRows(): Promise<NebimRow[]> {
    return this.api.runProc(this.proc("stockProc"), {}, "stock");
  }

  async listStock(locations?: string[]): Promise<Page<StockLevel>> {
    const want = locations && locations.length > 0 ? new Set(locations) : undefined;
    const items: StockLevel[] = [];
    for (const r of await this.stockRows()) {
      const location = str(r.WarehouseCode);
      if (!str(r.ItemCode) || (want && !want.has(location))) continue;
      items.push({ sku: variantSku(r), location, qty: num(r.Qty) });
    }
    return { items };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const out = new Map<string, StockLocation>();
    const own = this.api.cfg.warehouseCode;
    for (const r of await this.stockRows()) {
      const id = str(r.WarehouseCode);
      if (id && !out.has(id)) out.set(id, { id, name: str(r.WarehouseDescription) || id });
    }
    if (own && !out.has(own)) out.set(own, { id: own, name: own });
    return [...out.values()];
  }

  private priceRows(): Promise<NebimRow[]> {
    return this.api.runProc(this.proc("pricesProc"), {}, "prices");
  }

  async listPrices(priceGroups?: string[]): Promise<Page<Price>> {
    const want = priceGroups && priceGroups.length > 0 ? new Set(priceGroups) : undefined;
    const items: Price[] = [];
    for (const r of await this.priceRows()) {
      const group = str(r.PriceGroupCode);
      if (!str(r.ItemCode) || (want && !want.has(group))) continue;
      const currency = str(r.CurrencyCode) || "TRY";
      items.push({
        sku: variantSku(r),
        priceGroup: group,
        amount: round2(num(r.Price)),
        currency: currency === "TL" ? "TRY" : currency,
        vatIncluded: bool(r.IsVatIncluded),
      });
    }
    return { items };
  }

  async listPriceGroups(): Promise<PriceGroup[]> {
    const out = new Map<string, PriceGroup>();
    for (const r of await this.priceRows()) {
      const id = str(r.PriceGroupCode);
      if (!id || out.has(id)) continue;
      const currency = str(r.CurrencyCode) || "TRY";
      out.set(id, {
        id,
        name: str(r.PriceGroupDescription) || id,
        currency: currency === "TL" ? "TRY" : currency,
        vatIncluded: bool(r.IsVatIncluded),
      });
    }
    return [...out.values()];
  }
}
