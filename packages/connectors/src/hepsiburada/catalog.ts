/**
 * Hepsiburada's catalogue side: the category list and a category's attributes (base, ordinary and variant
 * attributes, enum values: the marketplace's own lists for listing), and the merchant's listings by SKU.
 */

import type { CategoryAttribute, ShopCategory } from "../sdk/connector";
import { chunk } from "../sdk/util";
import type { HepsiburadaClient, Row } from "./client";
import { HEPSIBURADA_SKU_LIST } from "./descriptor";

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);
const CATEGORY_PAGE = 1000;
/** Base attributes the catalogue import fills from the product (listing.ts), never mapped per category. */
export const FILLED_FROM_PRODUCT =
  /^(merchantSku|VaryantGroupID|Barcode|UrunAdi|UrunAciklamasi|Marka|tax_vat_rate|price|stock|Image\d+|Video\d+)$/;

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

  /**
   * A category's attributes for listing: the ordinary and variant attributes, and the base attributes the
   * merchant answers per category (GarantiSuresi, kg…); those the import fills from the product itself
   * (SKU, barcode, name, brand, VAT, price, stock, images) are left out. Enum attributes come with their
   * listed values (the import takes the value's text, so a value's id is its text).
   */
  async listCategoryAttributes(categoryId: string): Promise<CategoryAttribute[]> {
    const body = (await this.client.get(
      "catalog",
      `/api/categories/${encodeURIComponent(categoryId)}/attributes`,
      "getCategoryAttributes",
      { version: "2" },
    )) as Row;
    const data = (body?.data ?? {}) as Row;
    const out: CategoryAttribute[] = [];
    const add = async (list: unknown, variant: boolean) => {
      for (const a of rows(list)) {
        const id = String(a.id);
        if (FILLED_FROM_PRODUCT.test(id)) continue;
        const isEnum = String(a.type ?? "").toLowerCase() === "enum";
        out.push({
          id,
          name: String(a.name ?? ""),
          required: a.mandatory === true,
          variant,
          allowCustom: !isEnum,
          values: isEnum ? await this.attributeValues(categoryId, id) : [],
        });
      }
    };
    await add(data.baseAttributes, false);
    await add(data.attributes, false);
    await add(data.variantAttributes, true);
    return out;
  }

  /** An enum attribute's values, every page. */
  private async attributeValues(categoryId: string, attributeId: string) {
    const out: Array<{ id: string; name: string }> = [];
    for (let page = 0; ; page++) {
      const body = (await this.client.get(
        "catalog",
        `/api/categories/${encodeURIComponent(categoryId)}/attribute/${encodeURIComponent(attributeId)}/values`,
        "getAttributeValues",
        { version: "5", page: String(page), size: String(CATEGORY_PAGE) },
      )) as Row;
      for (const v of rows(body?.data)) {
        const text = String(v.value ?? "");
        if (text) out.push({ id: text, name: text });
      }
      if (body?.last !== false || page + 1 >= Number(body?.totalPages ?? 0)) return out;
    }
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
