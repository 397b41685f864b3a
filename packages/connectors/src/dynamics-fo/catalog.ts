/**
 * D365 F&O products and categories: released products (`ReleasedProductsV2`), their variants
 * (`ReleasedProductVariantsV2`), category assignments of one hierarchy and the hierarchy's categories.
 * A product master's variants are read for the product masters of each page in one filtered call.
 */

import { message } from "@ep/contracts";
import { ConnectorError } from "../sdk/errors";
import type { Category, Page, PageQuery, Product, ProductVariant, RejectedRecord } from "../sdk/model";
import { chunk, decodeToken, encodeToken } from "../sdk/util";
import { type D365Client, type Row, str } from "./client";
import { anyOf } from "./odata";

const PRODUCT_FIELDS = [
  "ItemNumber",
  "ProductNumber",
  "SearchName",
  "ProductSearchName",
  "ProductSubType",
  "SalesSalesTaxItemGroupCode",
  "SalesUnitSymbol",
  "InventoryUnitSymbol",
] as const;

export const VARIANT_FIELDS = [
  "ItemNumber",
  "ProductVariantNumber",
  "ProductName",
  "ProductColorId",
  "ProductSizeId",
  "ProductStyleId",
  "ProductConfigurationId",
] as const;

/** Product dimension fields and the Turkish option names they become. */
export const DIMENSIONS: Array<[field: string, option: string]> = [
  ["ProductColorId", "Renk"],
  ["ProductSizeId", "Beden"],
  ["ProductStyleId", "Stil"],
  ["ProductConfigurationId", "Konfigürasyon"],
];

/** Key of an item's variant by its dimension values (on-hand and price rows carry the same fields). */
export function dimensionKey(row: Row): string {
  return [str(row.ItemNumber), ...DIMENSIONS.map(([f]) => str(row[f]))].join("|");
}

export function hasDimensions(row: Row): boolean {
  return DIMENSIONS.some(([f]) => str(row[f]) !== "");
}

/** Variants of some items: dimension key → variant number. Filters stay short (50 items per call). */
export async function variantsOf(api: D365Client, items: readonly string[]): Promise<Row[]> {
  const out: Row[] = [];
  for (const part of chunk([...new Set(items)], 50)) {
    if (part.length === 0) continue;
    out.push(
      ...(await api.all("ReleasedProductVariantsV2", {
        filter: anyOf("ItemNumber", part),
        select: VARIANT_FIELDS,
      })),
    );
  }
  return out;
}

interface CategoryRow {
  name: string;
  parent?: string;
}

export class D365Catalog {
  private tree?: Promise<Map<string, CategoryRow>>;

  constructor(private readonly api: D365Client) {}

  private hierarchy(): string | undefined {
    return this.api.cfg.categoryHierarchy || undefined;
  }

  private categoryTree(): Promise<Map<string, CategoryRow>> {
    this.tree ??= (async () => {
      const h = this.hierarchy();
      const map = new Map<string, CategoryRow>();
      if (!h) return map;
      const rows = await this.api.all("ProductCategories", {
        filter: `ProductCategoryHierarchyName eq '${h.replaceAll("'", "''")}'`,
        select: ["CategoryName", "ParentProductCategoryName"],
      });
      for (const r of rows) {
        const name = str(r.CategoryName);
        map.set(name, { name, parent: str(r.ParentProductCategoryName) || undefined });
      }
      return map;
    })();
    this.tree.catch(() => {
      this.tree = undefined;
    });
    return this.tree;
  }

  /** Names from the root down; the hierarchy's root node (no parent) is left out, as shops have no such level. */
  private pathOf(tree: Map<string, CategoryRow>, name: string): string[] {
    const path: string[] = [];
    const seen = new Set<string>();
    let cur = tree.get(name);
    while (cur && !seen.has(cur.name)) {
      seen.add(cur.name);
      if (cur.parent === undefined) break;
      path.unshift(cur.name);
      cur = cur.parent ? tree.get(cur.parent) : undefined;
    }
    return path;
  }

  async listCategories(): Promise<Page<Category>> {
    const tree = await this.categoryTree();
    const items: Category[] = [];
    for (const c of tree.values()) {
      if (c.parent === undefined) continue;
      const parent = tree.get(c.parent);
      items.push({
        id: c.name,
        name: c.name,
        parentId: parent && parent.parent !== undefined ? parent.name : undefined,
        path: this.pathOf(tree, c.name),
      });
    }
    return { items };
  }

  async listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    const tok = decodeToken<{ next: string }>(q.pageToken, "d365");
    const page = await this.api.page(
      "ReleasedProductsV2",
      { select: PRODUCT_FIELDS, pageSize: q.pageSize },
      tok?.next,
    );
    const masters = page.rows
      .filter((r) => str(r.ProductSubType) === "ProductMaster")
      .map((r) => str(r.ItemNumber));
    const variants = await variantsOf(this.api, masters);
    const tree = await this.categoryTree();
    const categoryOf = new Map<string, string>();
    const h = this.hierarchy();
    if (h) {
      for (const part of chunk(
        page.rows.map((r) => str(r.ProductNumber)),
        50,
      )) {
        if (part.length === 0) continue;
        const rows = await this.api.all("ProductCategoryAssignments", {
          filter: `ProductCategoryHierarchyName eq '${h.replaceAll("'", "''")}' and ${anyOf("ProductNumber", part)}`,
          select: ["ProductNumber", "ProductCategoryName"],
        });
        for (const r of rows) categoryOf.set(str(r.ProductNumber), str(r.ProductCategoryName));
      }
    }
    const rejected: RejectedRecord[] = [];
    const items: Product[] = [];
    for (const r of page.rows) {
      const sku = str(r.ItemNumber);
      const group = str(r.SalesSalesTaxItemGroupCode).toUpperCase();
      const vatRate = this.api.vatGroups.get(group);
      if (vatRate === undefined) {
        const text = message("connectors.d365VatGroupUnknown", { sku, group: group || "-" });
        rejected.push({
          key: sku,
          error: new ConnectorError(
            `d365 ReleasedProductsV2: sales tax item group '${group}' has no VAT rate`,
            {
              reason: "config",
              system: this.api.http.system,
              operation: "GET ReleasedProductsV2",
              itemKeys: [sku],
              merchantMessage: text,
            },
          ),
        });
        continue;
      }
      const own = variants.filter((v) => str(v.ItemNumber) === sku);
      const name = str(r.SearchName) || str(r.ProductSearchName) || sku;
      const productVariants: ProductVariant[] =
        own.length > 0
          ? own.map((v) => ({
              sku: str(v.ProductVariantNumber),
              barcodes: [],
              options: Object.fromEntries(
                DIMENSIONS.filter(([f]) => str(v[f]) !== "").map(([f, label]) => [label, str(v[f])]),
              ),
            }))
          : [{ sku, barcodes: [], options: {} }];
      const category = categoryOf.get(str(r.ProductNumber));
      items.push({
        sku,
        name,
        categoryPath: category ? this.pathOf(tree, category) : [],
        vatRate,
        unit: str(r.SalesUnitSymbol) || str(r.InventoryUnitSymbol) || "Adet",
        variants: productVariants,
        images: [],
        isActive: true,
        groupKey: own.length > 0 ? sku : undefined,
      });
    }
    return {
      items,
      nextPageToken: page.nextLink ? encodeToken({ next: page.nextLink }) : undefined,
      rejected: rejected.length > 0 ? rejected : undefined,
    };
  }
}
