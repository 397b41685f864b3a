/**
 * Trendyol's catalogue side: the category tree and a category's attributes (the marketplace's own lists,
 * what product listing maps to), and the merchant's products read through filterProducts to find the
 * barcode of a stock code — Trendyol keys stock, prices and order lines by barcode.
 */

import type { CategoryAttribute, ShopCategory } from "../sdk/connector";
import { flattenCategoryTree } from "../sdk/marketplace";
import { type Row, rows, type TrendyolClient } from "./client";
import { TRENDYOL_PRODUCT_PAGE } from "./descriptor";

export interface TrendyolProductRef {
  productId: string;
  variantId: string;
}

export class TrendyolCatalog {
  /** stockCode and barcode → ids, filled by the product scans of this connector's life. */
  private readonly known = new Map<string, TrendyolProductRef>();
  private scanned = false;

  constructor(private readonly client: TrendyolClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const body = (await this.client.get("/product/product-categories", "getCategoryTree")) as Row;
    return flattenCategoryTree(body?.categories);
  }

  async listCategoryAttributes(categoryId: string): Promise<CategoryAttribute[]> {
    const body = (await this.client.get(
      `/product/product-categories/${encodeURIComponent(categoryId)}/attributes`,
      "getCategoryAttributes",
    )) as Row;
    return rows(body?.categoryAttributes).map((a) => {
      const attr = (a.attribute ?? {}) as Row;
      return {
        id: String(attr.id),
        name: String(attr.name ?? ""),
        required: a.required === true,
        variant: a.varianter === true || a.slicer === true,
        allowCustom: a.allowCustom === true,
        values: rows(a.attributeValues).map((v) => ({ id: String(v.id), name: String(v.name ?? "") })),
      };
    });
  }

  /**
   * Ids by stock code (or barcode): approved products are read page by page until every key is found or
   * the list ends; what a scan saw is kept, so a run reads the list once.
   */
  async findProductsBySku(skus: string[]): Promise<Map<string, TrendyolProductRef>> {
    const missing = () => skus.filter((s) => !this.known.has(s));
    if (missing().length > 0 && !this.scanned) {
      let page = 0;
      for (;;) {
        const body = (await this.client.get(this.client.seller("product", "/products"), "filterProducts", {
          approved: "true",
          page: String(page),
          size: String(TRENDYOL_PRODUCT_PAGE),
        })) as Row;
        for (const p of rows(body?.content)) {
          const ref = { productId: String(p.productMainId ?? p.id), variantId: String(p.barcode) };
          if (p.stockCode) this.known.set(String(p.stockCode), ref);
          if (p.barcode) this.known.set(String(p.barcode), ref);
        }
        page++;
        const total = Number(body?.totalPages ?? 0);
        if (page >= total || missing().length === 0) break;
      }
      this.scanned = missing().length > 0;
    }
    const out = new Map<string, TrendyolProductRef>();
    for (const s of skus) {
      const ref = this.known.get(s);
      if (ref) out.set(s, ref);
    }
    return out;
  }
}
