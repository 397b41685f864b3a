/**
 * T-Soft catalogue: categories, main products with their sub products (variants), creating and updating
 * them. Ids are T-Soft's own codes (ProductCode, SubProductCode): every REST1 write is keyed by them.
 */

import type { ProductWriteInput, ShopCategory, ShopProductRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Product } from "../sdk/model";
import { round2 } from "../sdk/util";
import { type Row, rest1Rows, type TsoftClient } from "./client";
import { TSOFT_PRODUCT_PAGE } from "./descriptor";

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v).trim());
export const num = (v: unknown): number => {
  const n = Number(str(v).replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};

export interface TsoftVariantRow {
  code: string;
  barcode: string;
  stock: number;
  price: number;
}

export interface TsoftProductRow {
  code: string;
  name: string;
  barcode: string;
  stock: number;
  price: number;
  listPrice: number;
  /** Sub products; empty for a product without variants. */
  variants: TsoftVariantRow[];
}

export function parseProductRow(p: Row): TsoftProductRow {
  const subs = Array.isArray(p.SubProducts) ? (p.SubProducts as Row[]) : [];
  return {
    code: str(p.ProductCode),
    name: str(p.ProductName),
    barcode: str(p.Barcode),
    stock: num(p.Stock),
    price: num(p.SellingPrice),
    listPrice: num(p.ListPrice),
    variants: subs
      // SubProductCode is the write key (addSubProducts); inferred to be on the read side as well.
      .map((v) => ({
        code: str(v.SubProductCode),
        barcode: str(v.Barcode),
        stock: num(v.Stock),
        price: num(v.SellingPrice),
      }))
      .filter((v) => v.code !== ""),
  };
}

/** Values are sent as strings, decimals with a point (the public writers send "500"; decimals inferred). */
export const money = (n: number): string => String(round2(n));

const optionValues = (p: Product["variants"][number]): [string, string] => {
  const values = Object.values(p.options);
  return [values[0] ?? "", values[1] ?? ""];
};

export class TsoftProducts {
  constructor(private readonly client: TsoftClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const res = await this.client.call("category/getCategories", "read", {
      limit: String(TSOFT_PRODUCT_PAGE),
    });
    return rest1Rows(res)
      .map((c) => {
        const id = str(c.CategoryCode) || (str(c.CategoryId) ? `T${str(c.CategoryId)}` : "");
        const parent = str(c.ParentCode);
        return { id, name: str(c.CategoryName), parentId: parent && parent !== "0" ? parent : undefined };
      })
      .filter((c) => c.id !== "");
  }

  /** Every product page (start/limit) with sub products. */
  async *pages(extra: Record<string, string> = {}): AsyncGenerator<TsoftProductRow[]> {
    for (let start = 0; ; start += TSOFT_PRODUCT_PAGE) {
      const res = await this.client.call("product/get", "read", {
        start: String(start),
        limit: String(TSOFT_PRODUCT_PAGE),
        FetchDetails: "true",
        StockFields: "true",
        FetchSubProducts: "true",
        ...extra,
      });
      const rows = rest1Rows(res);
      yield rows.map(parseProductRow);
      if (rows.length < TSOFT_PRODUCT_PAGE) return;
    }
  }

  async getProduct(code: string): Promise<TsoftProductRow | undefined> {
    for await (const page of this.pages({ ProductCode: code })) {
      const found = page.find((p) => p.code === code);
      if (found) return found;
    }
    return undefined;
  }

  /** Main and sub product codes by SKU: a full scan (REST1 has no lookup of many sub codes at once). */
  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    const wanted = new Set(skus);
    const out = new Map<string, { productId: string; variantId: string }>();
    for await (const page of this.pages()) {
      for (const p of page) {
        if (wanted.has(p.code)) out.set(p.code, { productId: p.code, variantId: p.code });
        for (const v of p.variants) {
          if (wanted.has(v.code)) out.set(v.code, { productId: p.code, variantId: v.code });
        }
      }
      if (out.size === wanted.size) break;
    }
    return out;
  }

  private isSingle(product: Product): boolean {
    return product.variants.length <= 1 && (product.variants[0]?.sku ?? product.sku) === product.sku;
  }

  private mainRow(input: ProductWriteInput, single: boolean): Row {
    const p = input.product;
    const price = input.prices?.find((x) => x.sku === p.sku);
    const row: Row = {
      ProductCode: p.sku,
      ProductName: p.name,
      Vat: String(p.vatRate),
      StockUnit: p.unit,
      IsActive: p.isActive ? "1" : "0",
      Currency: "TL",
      HasSubProducts: !single,
    };
    if (input.categoryId) row.DefaultCategoryCode = input.categoryId;
    if (p.brand) row.Brand = p.brand;
    if (single && p.variants[0]?.barcodes[0]) row.Barcode = p.variants[0].barcodes[0];
    if (p.description) row.Details = p.description;
    if (p.images[0]) row.ImageUrl = p.images[0];
    if (price) row.SellingPrice = money(price.amount);
    return row;
  }

  private subRow(input: ProductWriteInput, v: Product["variants"][number], withPrice: boolean): Row {
    const [p1, p2] = optionValues(v);
    const row: Row = {
      MainProductCode: input.product.sku,
      SubProductCode: v.sku,
      IsActive: v.isActive === false ? "0" : "1",
    };
    if (v.barcodes[0]) row.Barcode = v.barcodes[0];
    if (p1) row.Property1 = p1;
    if (p2) row.Property2 = p2;
    const price = withPrice ? input.prices?.find((x) => x.sku === v.sku) : undefined;
    if (price) row.SellingPrice = money(price.amount);
    return row;
  }

  async createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    const single = this.isSingle(input.product);
    const main = this.mainRow(input, single);
    // A new product starts with no stock; stock sync writes it.
    main.Stock = "0";
    await this.client.write("product/setProducts", [main]);
    const variants: Record<string, string> = {};
    if (single) variants[input.product.sku] = input.product.sku;
    else {
      const rows = input.product.variants.map((v) => ({ ...this.subRow(input, v, true), Stock: "0" }));
      await this.client.write("subProduct/addSubProducts", rows);
      for (const v of input.product.variants) variants[v.sku] = v.sku;
    }
    return { productId: input.product.sku, variants };
  }

  async updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    const current = await this.getProduct(productId);
    if (!current) {
      throw new ConnectorError(`tsoft: product ${productId} not found`, {
        reason: "not_found",
        system: "tsoft",
        operation: "product/updateProducts",
        itemKeys: [input.product.sku],
      });
    }
    const single = this.isSingle(input.product);
    // Prices and stock are left to their own jobs: the update names neither.
    const main = { ...this.mainRow({ ...input, prices: undefined }, single), ProductCode: productId };
    await this.client.write("product/updateProducts", [main]);
    const variants: Record<string, string> = {};
    if (single) {
      variants[input.product.sku] = productId;
      return { productId, variants };
    }
    const known = new Set(current.variants.map((v) => v.code));
    const fresh = input.product.variants.filter((v) => !known.has(v.sku));
    const existing = input.product.variants.filter((v) => known.has(v.sku));
    if (existing.length > 0)
      await this.client.write(
        "subProduct/setSubProducts",
        existing.map((v) => this.subRow(input, v, false)),
      );
    if (fresh.length > 0)
      await this.client.write(
        "subProduct/addSubProducts",
        fresh.map((v) => ({ ...this.subRow(input, v, true), Stock: "0" })),
      );
    for (const v of input.product.variants) variants[v.sku] = v.sku;
    return { productId, variants };
  }
}
