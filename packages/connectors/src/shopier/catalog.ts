/**
 * Shopier as the catalogue source: products (`/products`) with their variants (selection combinations,
 * each with its own stock and price), one stock location, one price list, and the shop's flat categories.
 * Shopier products have no SKU field: a product's key is its Shopier id, a variant's is the id followed by
 * its selection ids. Money arrives as strings ("1299.90").
 */

import { message } from "@ep/contracts";
import { ConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import type { ShopierClient } from "./client";

/** The shapes of @bbangg/shopier's `Product` the connector reads. */
export interface ShopierProduct {
  id: string;
  title: string;
  description?: string;
  type: "physical" | "digital";
  dateUpdated?: string;
  media?: Array<{ url: string; placement?: number }>;
  priceData: { currency: string; price: string; discount?: boolean; discountedPrice?: string };
  stockStatus?: string;
  stockQuantity: number;
  categories?: Array<{ id: string; title: string }>;
  variants?: ShopierVariant[];
}

/**
 * A variant's selection fields: arrays in `@bbangg/shopier` and in a live sync's reads, single strings in
 * shopier-go ("string or array on response"). Both are read (`asList`).
 */
export interface ShopierVariant {
  variationTitle: string[] | string;
  selectionId: string[] | string;
  selectionTitle: string[] | string;
  stockQuantity: number;
  priceData?: { currency: string; price: string };
}

const asList = (v: string[] | string | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

export const SHOPIER_LOCATION = { id: "shopier", name: "Shopier stoğu" };
export const SHOPIER_PRICE_GROUP = {
  id: "shopier",
  name: "Shopier satış fiyatı",
  vatIncluded: true,
  isDefault: true,
};

export function variantSku(p: ShopierProduct, v: Pick<ShopierVariant, "selectionId">): string {
  return [p.id, ...asList(v.selectionId)].join("-");
}

type Tok = { page: number };

export class ShopierCatalog {
  constructor(
    private readonly api: ShopierClient,
    private readonly pageSize: number,
  ) {}

  private vatRate(): number {
    const rate = Number(this.api.cfg.vatRate ?? "20");
    if (![0, 1, 10, 20].includes(rate)) {
      const text = message("connectors.shopierVatRateInvalid", { rate: this.api.cfg.vatRate ?? "" });
      throw new ConnectorError(`shopier: VAT rate '${this.api.cfg.vatRate}' is not a Turkish rate`, {
        reason: "config",
        system: "shopier",
        merchantMessage: text,
      });
    }
    return rate;
  }

  async productPage(q: M.PageQuery): Promise<{ rows: ShopierProduct[]; next?: string }> {
    const page = decodeToken<Tok>(q.pageToken, "shopier")?.page ?? 1;
    const { rows, totalPages } = await this.api.page<ShopierProduct>(
      "/products",
      page,
      q.pageSize ?? this.pageSize,
    );
    return { rows, next: page < totalPages ? encodeToken({ page: page + 1 } satisfies Tok) : undefined };
  }

  async listProducts(q: M.PageQuery = {}): Promise<M.Page<M.Product>> {
    const vatRate = this.vatRate();
    const { rows, next } = await this.productPage(q);
    const items = rows.map((p): M.Product => {
      const variants = p.variants ?? [];
      return {
        sku: p.id,
        name: p.title,
        categoryPath: p.categories?.[0] ? [p.categories[0].title] : [],
        vatRate,
        unit: "Adet",
        variants:
          variants.length > 0
            ? variants.map((v) => ({
                sku: variantSku(p, v),
                barcodes: [],
                options: Object.fromEntries(
                  asList(v.variationTitle).map((t, i) => [t, asList(v.selectionTitle)[i] ?? ""]),
                ),
              }))
            : [{ sku: p.id, barcodes: [], options: {} }],
        images: [...(p.media ?? [])]
          .sort((a, b) => (a.placement ?? 0) - (b.placement ?? 0))
          .map((m) => m.url),
        description: p.description || undefined,
        isActive: true,
        groupKey: variants.length > 0 ? p.id : undefined,
        updatedAt: p.dateUpdated,
      };
    });
    return { items, nextPageToken: next };
  }

  async listStock(q: M.PageQuery = {}): Promise<M.Page<M.StockLevel>> {
    const { rows, next } = await this.productPage(q);
    const items: M.StockLevel[] = rows.flatMap((p) =>
      (p.variants ?? []).length > 0
        ? (p.variants ?? []).map((v) => ({
            sku: variantSku(p, v),
            location: SHOPIER_LOCATION.id,
            qty: v.stockQuantity,
          }))
        : [{ sku: p.id, location: SHOPIER_LOCATION.id, qty: p.stockQuantity }],
    );
    return { items, nextPageToken: next };
  }

  async listPrices(q: M.PageQuery = {}): Promise<M.Page<M.Price>> {
    const { rows, next } = await this.productPage(q);
    const items: M.Price[] = [];
    for (const p of rows) {
      // The price a buyer pays: the discounted one when a discount is on.
      const own = Number(
        p.priceData.discount && p.priceData.discountedPrice ? p.priceData.discountedPrice : p.priceData.price,
      );
      const currency = p.priceData.currency;
      const units = (p.variants ?? []).length > 0 ? (p.variants ?? []) : undefined;
      if (!units) {
        items.push({
          sku: p.id,
          priceGroup: SHOPIER_PRICE_GROUP.id,
          amount: round2(own),
          currency,
          vatIncluded: true,
        });
        continue;
      }
      for (const v of units) {
        const amount = v.priceData?.price ? Number(v.priceData.price) : own;
        items.push({
          sku: variantSku(p, v),
          priceGroup: SHOPIER_PRICE_GROUP.id,
          amount: round2(amount),
          currency,
          vatIncluded: true,
        });
      }
    }
    return { items, nextPageToken: next };
  }

  /** The shop's one stock. */
  async listStockLocations(): Promise<M.StockLocation[]> {
    return [{ ...SHOPIER_LOCATION }];
  }

  /** The shop's one price (TRY). */
  async listPriceGroups(): Promise<M.PriceGroup[]> {
    return [{ ...SHOPIER_PRICE_GROUP, currency: "TRY" }];
  }

  async listCategories(): Promise<M.Page<M.Category>> {
    const out: M.Category[] = [];
    for (let page = 1; ; page++) {
      const { rows, totalPages } = await this.api.page<{ id: string; title: string }>(
        "/categories",
        page,
        this.pageSize,
      );
      out.push(...rows.map((c) => ({ id: c.id, name: c.title, path: [c.title] })));
      if (page >= totalPages || rows.length === 0) break;
    }
    return { items: out };
  }
}
