/**
 * n11's catalogue side: the whole category tree in one call (`GET /cdn/categories`, a leaf has
 * `subCategories: null`), a category's attributes with their values (`GET /cdn/category/{id}/attribute`),
 * and the merchant's products (`GET /ms/product-query`, 250 a page) for the engine's id map. n11 keys stock,
 * prices and order lines by the seller's stock code, so no lookup stands between a SKU and a write.
 */

import type { CategoryAttribute, ShopCategory } from "../sdk/connector";
import { flattenCategoryTree } from "../sdk/marketplace";
import type { N11Client, Row } from "./client";
import { N11_BRAND_ATTRIBUTE, N11_PRODUCT_PAGE } from "./descriptor";

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

export interface N11ProductRef {
  productId: string;
  variantId: string;
}

export class N11Catalog {
  private readonly known = new Map<string, N11ProductRef>();
  private scanned = false;

  constructor(private readonly client: N11Client) {}

  async listCategories(): Promise<ShopCategory[]> {
    const body = await this.client.get("/cdn/categories", "getCategories");
    // The tree comes as { categories: [...] } (a bare array in older answers): both are read.
    const top = Array.isArray(body) ? (body as Row[]) : rows((body as Row | undefined)?.categories);
    return flattenCategoryTree(top);
  }

  /** The category's attributes as n11 lists them (listing resolves the brand's `Marka` value here). */
  async categoryAttributes(categoryId: string): Promise<Row[]> {
    const body = (await this.client.get(
      `/cdn/category/${encodeURIComponent(categoryId)}/attribute`,
      "getCategoryAttributes",
    )) as Row;
    return rows(body?.categoryAttributes);
  }

  /** What a listing mapping fills: every attribute but `Marka`, which the mapping's brand fills. */
  async listCategoryAttributes(categoryId: string): Promise<CategoryAttribute[]> {
    const listed = await this.categoryAttributes(categoryId);
    const brand = N11_BRAND_ATTRIBUTE.toLocaleLowerCase("tr");
    return listed
      .filter(
        (a) =>
          String(a.attributeName ?? "")
            .trim()
            .toLocaleLowerCase("tr") !== brand,
      )
      .map((a) => ({
        id: String(a.attributeId),
        name: String(a.attributeName ?? ""),
        required: a.isMandatory === true,
        variant: a.isVariant === true || a.isSlicer === true,
        allowCustom: a.isCustomValue === true,
        values: rows(a.attributeValues).map((v) => ({ id: String(v.id), name: String(v.value ?? "") })),
      }));
  }

  /** Ids by stock code: the product list is read page by page until every code is found or it ends. */
  async findProductsBySku(skus: string[]): Promise<Map<string, N11ProductRef>> {
    const missing = () => skus.filter((s) => !this.known.has(s));
    if (missing().length > 0 && !this.scanned) {
      for (let page = 0; ; page++) {
        const body = (await this.client.get("/ms/product-query", "getProductQuery", {
          page: String(page),
          size: String(N11_PRODUCT_PAGE),
        })) as Row;
        const content = rows(body?.content);
        for (const p of content) {
          const code = String(p.stockCode ?? "");
          if (code)
            this.known.set(code, { productId: String(p.n11ProductId ?? p.id ?? code), variantId: code });
        }
        // n11's stopping rule: an empty page is the last one (totalPages is a hint).
        if (content.length === 0 || page + 1 >= Number(body?.totalPages ?? 0) || missing().length === 0)
          break;
      }
      this.scanned = missing().length > 0;
    }
    const out = new Map<string, N11ProductRef>();
    for (const s of skus) {
      const ref = this.known.get(s);
      if (ref) out.set(s, ref);
    }
    return out;
  }

  /** One page of products, for the connection check. */
  async countProducts(): Promise<number> {
    const body = (await this.client.get("/ms/product-query", "getProductQuery", {
      page: "0",
      size: "1",
    })) as Row;
    return Number(body?.totalElements ?? 0);
  }
}
