/**
 * Entegra reads, in the tap's shapes: products `{ totalProduct, productList: [...] }` with variations in
 * `variatios` (the API's spelling) and their `variationSpec`, categories as a plain array
 * (`/category/page=1/` holds all), price lists `{ prices: [...] }`. Every value arrives as a string.
 */

import { ConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import { type EntegraClient, num, str } from "./client";

type Row = Record<string, unknown>;

/**
 * Stock locations: Entegra keeps `quantity` and, when `quantity2_enable` is set, `quantity2` per product and
 * variation (the tap: "Secondary quantity"); there is no warehouse list.
 */
export const ENTEGRA_LOCATIONS = [
  { id: "quantity", name: "Entegra stok (quantity)" },
  { id: "quantity2", name: "Entegra ikinci stok (quantity2)" },
];

/** Price fields of a product: `price1` … `price8` (the tap's schema). */
const PRICE_FIELDS = ["price1", "price2", "price3", "price4", "price5", "price6", "price7", "price8"];

function bad(operation: string, body: unknown): ConnectorError {
  return new ConnectorError(`entegra ${operation}: unexpected answer`, {
    reason: "bad_response",
    system: "entegra",
    operation,
    systemMessage: JSON.stringify(body ?? null).slice(0, 300),
  });
}

/** Entegra's TRL is the Turkish lira (ISO TRY). */
function currency(v: unknown): string {
  const c = str(v).toUpperCase();
  return c === "" || c === "TRL" || c === "TL" ? "TRY" : c;
}

export class EntegraCatalog {
  private categoryCache?: Promise<Row[]>;

  constructor(private readonly api: EntegraClient) {}

  /** One product page: the rows, and whether more follow (`page × page size < totalProduct`, as the tap decides). */
  async productPage(page: number): Promise<{ rows: Row[]; more: boolean }> {
    const body = (await this.api.get(`product/page=${page}/`, "products")) as Row;
    const rows = Array.isArray(body?.productList) ? (body.productList as Row[]) : undefined;
    if (!rows) throw bad("products", body);
    const total = num(body.totalProduct);
    return { rows, more: rows.length > 0 && (page - 1) * this.pageSize(rows) + rows.length < total };
  }

  private size?: number;
  /** The server's page size is the size of the first full page seen (Entegra does not take one). */
  private pageSize(rows: Row[]): number {
    this.size = Math.max(this.size ?? 0, rows.length);
    return this.size;
  }

  private categories(): Promise<Row[]> {
    this.categoryCache ??= this.api.get("category/page=1/", "categories").then((b) => {
      if (!Array.isArray(b)) throw bad("categories", b);
      return b as Row[];
    });
    this.categoryCache.catch(() => {
      this.categoryCache = undefined;
    });
    return this.categoryCache;
  }

  /** The fixed warehouses of Entegra's stock fields. */
  async listStockLocations(): Promise<M.StockLocation[]> {
    return ENTEGRA_LOCATIONS.map((l) => ({ ...l }));
  }

  async listCategories(): Promise<M.Page<M.Category>> {
    const rows = await this.categories();
    const byId = new Map(rows.map((r) => [str(r.id), r]));
    const path = (id: string): string[] => {
      const out: string[] = [];
      const seen = new Set<string>();
      let cur = byId.get(id);
      while (cur && !seen.has(str(cur.id))) {
        seen.add(str(cur.id));
        out.unshift(str(cur.name));
        const parent = str(cur.parent_id);
        cur = parent && parent !== "0" ? byId.get(parent) : undefined;
      }
      return out;
    };
    return {
      items: rows.map((r) => {
        const parent = str(r.parent_id);
        return {
          id: str(r.id),
          name: str(r.name),
          parentId: parent && parent !== "0" ? parent : undefined,
          path: path(str(r.id)),
        };
      }),
    };
  }

  async listProducts(q: M.PageQuery = {}): Promise<M.Page<M.Product>> {
    const page = decodeToken<{ page: number }>(q.pageToken, "entegra")?.page ?? 1;
    const { rows, more } = await this.productPage(page);
    const cats = (await this.listCategories()).items;
    const catPath = new Map(cats.map((c) => [c.id, c.path]));
    const items: M.Product[] = rows.map((r) => {
      const variations = Array.isArray(r.variatios) ? (r.variatios as Row[]) : [];
      const sku = str(r.productCode);
      return {
        sku,
        name: str(r.name),
        brand: str(r.brand) || undefined,
        categoryPath: catPath.get(str(r.group)) ?? [],
        // Inferred: `kdv_id` holds the rate itself (third-party code sends 0, 8, 10, 18 as kdv_id).
        vatRate: num(r.kdv_id),
        unit: "Adet",
        variants:
          variations.length > 0
            ? variations.map((v) => ({
                sku: str(v.productCode),
                barcodes: [str(v.barcode)].filter(Boolean),
                options: Object.fromEntries(
                  (Array.isArray(v.variationSpec) ? (v.variationSpec as Row[]) : []).map((s) => [
                    str(s.name),
                    str(s.value),
                  ]),
                ),
              }))
            : [{ sku, barcodes: [str(r.barcode)].filter(Boolean), options: {} }],
        images: (Array.isArray(r.pictures) ? (r.pictures as Row[]) : [])
          .map((p) => str(p.picture))
          .filter(Boolean),
        description: str(r.description) || undefined,
        isActive: str(r.status) === "1",
        groupKey: variations.length > 0 ? sku : undefined,
        updatedAt: str(r.date_change) || undefined,
      };
    });
    return { items, nextPageToken: more ? encodeToken({ page: page + 1 }) : undefined };
  }

  async listStock(q: M.PageQuery & { locations?: string[] } = {}): Promise<M.Page<M.StockLevel>> {
    const page = decodeToken<{ page: number }>(q.pageToken, "entegra")?.page ?? 1;
    const { rows, more } = await this.productPage(page);
    const wanted = new Set(
      q.locations && q.locations.length > 0 ? q.locations : ENTEGRA_LOCATIONS.map((l) => l.id),
    );
    const items: M.StockLevel[] = [];
    for (const r of rows) {
      const second = str(r.quantity2_enable) === "1";
      const variations = Array.isArray(r.variatios) ? (r.variatios as Row[]) : [];
      const units = variations.length > 0 ? variations : [r];
      for (const u of units) {
        const sku = str(u.productCode);
        if (wanted.has("quantity")) items.push({ sku, location: "quantity", qty: num(u.quantity) });
        if (second && wanted.has("quantity2"))
          items.push({ sku, location: "quantity2", qty: num(u.quantity2) });
      }
    }
    return { items, nextPageToken: more ? encodeToken({ page: page + 1 }) : undefined };
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    const body = (await this.api.get("price/getPrices", "prices")) as Row;
    const rows = Array.isArray(body?.prices) ? (body.prices as Row[]) : undefined;
    if (!rows) throw bad("prices", body);
    // Inferred: price list `id` N is the product's `priceN` field (the tap lists both, without a link).
    return rows
      .filter((r) => PRICE_FIELDS.includes(`price${str(r.id)}`))
      .map((r) => ({
        id: `price${str(r.id)}`,
        name: str(r.name) || `Fiyat ${str(r.id)}`,
        currency: currency(r.currencyType),
        // Inferred: third-party code documents price1 as VAT excluded; the others are taken alike.
        vatIncluded: false,
        isDefault: str(r.id) === "1",
      }));
  }

  async listPrices(q: M.PageQuery & { priceGroups?: string[] } = {}): Promise<M.Page<M.Price>> {
    const page = decodeToken<{ page: number }>(q.pageToken, "entegra")?.page ?? 1;
    const groups = await this.listPriceGroups();
    const wanted = groups.filter(
      (g) => !q.priceGroups || q.priceGroups.length === 0 || q.priceGroups.includes(g.id),
    );
    const { rows, more } = await this.productPage(page);
    const items: M.Price[] = [];
    for (const r of rows) {
      const variations = Array.isArray(r.variatios) ? (r.variatios as Row[]) : [];
      for (const g of wanted) {
        const base = num(r[g.id]);
        if (variations.length === 0) {
          if (base > 0)
            items.push({
              sku: str(r.productCode),
              priceGroup: g.id,
              amount: round2(base),
              currency: currency(r.currencyType),
              vatIncluded: false,
            });
          continue;
        }
        for (const v of variations) {
          // A variation's own priceN wins; otherwise the product's.
          const amount = num(v[g.id]) || base;
          if (amount > 0)
            items.push({
              sku: str(v.productCode),
              priceGroup: g.id,
              amount: round2(amount),
              currency: currency(r.currencyType),
              vatIncluded: false,
            });
        }
      }
    }
    return { items, nextPageToken: more ? encodeToken({ page: page + 1 }) : undefined };
  }
}
