/**
 * İşbaşı products (`POST products/products`), with the categories and sales prices they carry (the
 * artifact shows no separate category or price list). Delta reads filter on `modificationDate` with the
 * numeric `>=` operator (5) seen live on the invoice lists; the product column name is inferred.
 */

import { ConnectorError } from "../sdk/errors";
import type { Category, Page, PageQuery, Price, PriceGroup, Product } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import { type IsbasiApi, type IsbasiFilter, isObj, num, type Row, str } from "./api";

type Tok = { page: number; since: string; max: string };

const currency = (c: string) => (c === "" || c === "TL" ? "TRY" : c);
/** Price `type` 1 is the sales price (inferred from the Go client's Price model). */
const SALES = 1;

export class IsbasiCatalog {
  private readonly categories = new Map<string, Category>();

  constructor(private readonly api: IsbasiApi) {}

  /** One page of product rows, full (by id) or changed since a cursor (by modification date). */
  async scan(q: PageQuery): Promise<{ rows: Row[]; nextPageToken?: string; cursor?: string }> {
    const tok = decodeToken<Tok>(q.pageToken, "logo-isbasi") ?? {
      page: 1,
      since: q.since ?? "",
      max: q.since ?? "",
    };
    const filters: IsbasiFilter[] = tok.since
      ? [{ columnName: "modificationDate", operator: 5, value: tok.since }]
      : [];
    const sorting: Record<string, string> = tok.since ? { modificationDate: "Asc" } : { id: "Asc" };
    const { rows, count } = await this.api.list(
      "products/products",
      "listProducts",
      filters,
      tok.page,
      sorting,
    );
    let max = tok.max;
    for (const r of rows) if (str(r.modificationDate) > max) max = str(r.modificationDate);
    for (const r of rows) this.noteCategory(r);
    const more = rows.length === this.api.pageSize && tok.page * this.api.pageSize < count;
    const next = more ? encodeToken({ page: tok.page + 1, since: tok.since, max } satisfies Tok) : undefined;
    return { rows, nextPageToken: next, cursor: max || undefined };
  }

  private noteCategory(r: Row): void {
    const c = isObj(r.category) ? r.category : undefined;
    if (c && str(c.name)) {
      const id = str(c.code) || str(c.id);
      this.categories.set(id, { id, name: str(c.name), path: [str(c.name)] });
    }
  }

  async listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    const scan = await this.scan(q);
    const items: Product[] = [];
    const rejected = [];
    for (const r of scan.rows) {
      const sku = str(r.code);
      if (!sku) {
        rejected.push({
          key: `id:${str(r.id)}`,
          error: new ConnectorError("logo-isbasi products: a product without a code", {
            reason: "validation",
            system: "logo-isbasi",
            operation: "listProducts",
            itemKeys: [`id:${str(r.id)}`],
            merchantMessage: `Logo Is Basi ürünü "${str(r.name)}" için ürün kodu yok; kodsuz ürün mağazayla eşleşemez.`,
          }),
        });
        continue;
      }
      const units = Array.isArray(r.units) ? r.units.filter(isObj) : [];
      const main = isObj(r.mainUnit) ? r.mainUnit : units.find((u) => u.isMain === true);
      const barcodes = units.map((u) => str(u.barcode)).filter(Boolean);
      const cat = isObj(r.category) ? str(r.category.name) : "";
      const brand = isObj(r.brand) ? str(r.brand.name) : "";
      const active = r.isActive !== false;
      items.push({
        sku,
        name: str(r.name),
        brand: brand || undefined,
        categoryPath: cat ? [cat] : [],
        vatRate: num(r.vatRate),
        unit: str(main?.name) || "Adet",
        variants: [{ sku, barcodes, options: {}, isActive: active }],
        images: [],
        isActive: active,
        updatedAt: str(r.modificationDate) || undefined,
      });
    }
    return { items, nextPageToken: scan.nextPageToken, cursor: scan.cursor, rejected };
  }

  /** Categories named by the products read so far; a first call reads the products once to learn them. */
  async listCategories(): Promise<Page<Category>> {
    if (this.categories.size === 0) {
      let token: string | undefined;
      do token = (await this.scan({ pageToken: token })).nextPageToken;
      while (token);
    }
    return { items: [...this.categories.values()] };
  }

  listPriceGroups(): PriceGroup[] {
    return [{ id: String(SALES), name: "Satış fiyatı", currency: "TRY", isDefault: true }];
  }

  async listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    const scan = await this.scan(q);
    const items: Price[] = [];
    for (const r of scan.rows) {
      const prices = Array.isArray(r.prices) ? r.prices.filter(isObj) : [];
      for (const p of prices) {
        if (num(p.type) !== SALES) continue;
        const included = p.vatIncluded === true;
        items.push({
          sku: str(r.code),
          priceGroup: String(SALES),
          amount: num(included ? (p.priceTaxIncluded ?? p.price) : (p.priceTaxExcluded ?? p.price)),
          currency: currency(str(p.currency)),
          vatIncluded: included,
        });
      }
    }
    const wanted = q.priceGroups?.length ? items.filter((i) => q.priceGroups?.includes(i.priceGroup)) : items;
    return { items: wanted, nextPageToken: scan.nextPageToken, cursor: scan.cursor };
  }
}
