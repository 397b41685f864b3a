/**
 * Hepsiburada's catalogue side: the category list and a category's attributes (base, ordinary and variant
 * attributes: the marketplace's own lists for listing), and the merchant's listings by merchant SKU.
 */

import type { CategoryAttribute, ShopCategory } from "../sdk/connector";
import { chunk } from "../sdk/util";
import type { HepsiburadaClient, Row } from "./client";
import { HEPSIBURADA_SKU_LIST } from "./descriptor";

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);
const CATEGORY_PAGE = 1000;

export class HepsiburadaCatalog {
  constructor(private readonly client: HepsiburadaClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const out: ShopCategory[] = [];
    for (let page = 0; ; page++) {
      const body = (await this.client.get(
        "catalog",
        "/api/categories/get-all-categories",
        "getAllCategories",
        {
          page: String(page),
          size: String(CATEGORY_PAGE),
        },
      )) as Row;
      for (const c of rows(body?.data))
        out.push({
          id: String(c.categoryId),
          name: String(c.name ?? ""),
          parentId: c.parentCategoryId ? String(c.parentCategoryId) : undefined,
        });
      if (page + 1 >= Number(body?.totalPages ?? 0)) return out;
    }
  }

  async listCategoryAttributes(categoryId: string): Promise<CategoryAttribute[]> {
    const body = (await this.client.get(
      "catalog",
      `/api/categories/${encodeURIComponent(categoryId)}/attributes`,
      "getCategoryAttributes",
    )) as Row;
    const data = (body?.data ?? {}) as Row;
    const map = (list: unknown, variant: boolean): CategoryAttribute[] =>
      rows(list).map((a) => ({
        id: String(a.id),
        name: String(a.name ?? ""),
        required: a.mandatory === true,
        variant,
        // "enum" attributes take a listed value (read per attribute); the others take free text.
        allowCustom: String(a.type ?? "").toLowerCase() !== "enum",
        values: [],
      }));
    return [
      ...map(data.baseAttributes, false),
      ...map(data.attributes, false),
      ...map(data.variantAttributes, true),
    ];
  }

  /** Listings by merchant SKU, at most 50 SKUs a request: Hepsiburada SKU as both ids. */
  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    const out = new Map<string, { productId: string; variantId: string }>();
    for (const part of chunk(skus, HEPSIBURADA_SKU_LIST)) {
      const body = (await this.client.get("listing", this.client.merchant("/listings"), "getListings", {
        offset: "0",
        limit: String(part.length),
        merchantSkuList: part.join(","),
      })) as Row;
      for (const l of rows(body?.listings)) {
        const hb = String(l.hepsiburadaSku ?? "");
        if (l.merchantSku && hb) out.set(String(l.merchantSku), { productId: hb, variantId: hb });
      }
    }
    return out;
  }
}
