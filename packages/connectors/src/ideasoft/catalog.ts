/**
 * Products, variants and categories. Ideasoft has no sku filter on `GET /products` (the file lists none),
 * so sku lookups scan the catalogue once per connector and keep the map. Variants are child products
 * (`parent: { id }`), each with its own sku, stock and price.
 */

import type { ProductWriteInput, ShopCategory, ShopProductRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { IdeasoftClient } from "./client";
import type { IdeaCategory, IdeaProduct } from "./types";

export type SkuRef = { productId: string; variantId: string };

const STOCK_TYPE: Record<string, string> = {
  adet: "Piece",
  kg: "kg",
  gr: "gram",
  gram: "gram",
  metre: "metre",
  m: "metre",
  m2: "m2",
  paket: "Package",
  düzine: "Dozen",
  çift: "pair",
  cm: "cm",
};

export function stockTypeLabel(unit: string): string {
  return STOCK_TYPE[unit.trim().toLocaleLowerCase("tr-TR")] ?? "Piece";
}

export class IdeasoftCatalog {
  private skuMap?: Map<string, SkuRef>;

  constructor(private readonly client: IdeasoftClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const rows = await this.client.all<IdeaCategory>("listCategories", "/categories", { sort: "id" });
    return rows.map((c) => ({
      id: String(c.id),
      name: c.name,
      ...(c.parent ? { parentId: String(c.parent.id) } : {}),
    }));
  }

  async createCategory(input: { name: string; parentId?: string }): Promise<ShopCategory> {
    // The body's `parent` is a whole Category (the file's schema): read it first.
    const parent = input.parentId
      ? await this.client.call<IdeaCategory>("getCategory", "read", "GET", `/categories/${input.parentId}`)
      : undefined;
    const body = {
      name: input.name,
      sortOrder: 0,
      status: 1,
      displayShowcaseContent: 0,
      showcaseContentDisplayType: 1,
      displayShowcaseFooterContent: 0,
      showcaseFooterContentDisplayType: 1,
      hasChildren: 0,
      isCombine: 0,
      ...(parent ? { parent: stripCategory(parent) } : {}),
    };
    const c = await this.client.call<IdeaCategory>("createCategory", "write", "POST", "/categories", {
      body,
    });
    return { id: String(c.id), name: c.name, ...(input.parentId ? { parentId: input.parentId } : {}) };
  }

  private async scan(): Promise<Map<string, SkuRef>> {
    const rows = await this.client.all<IdeaProduct>("listProducts", "/products", { sort: "id" });
    const map = new Map<string, SkuRef>();
    for (const p of rows) {
      map.set(p.sku, { productId: String(p.parent?.id ?? p.id), variantId: String(p.id) });
      for (const c of p.children ?? []) map.set(c.sku, { productId: String(p.id), variantId: String(c.id) });
    }
    this.skuMap = map;
    return map;
  }

  /** Shop ids by sku; an sku not in the map triggers one fresh scan (the engine refreshes on unknown items). */
  async findProductsBySku(skus: string[]): Promise<Map<string, SkuRef>> {
    let map = this.skuMap ?? (await this.scan());
    if (skus.some((s) => !map.has(s))) map = await this.scan();
    const out = new Map<string, SkuRef>();
    for (const s of skus) {
      const ref = map.get(s);
      if (ref) out.set(s, ref);
    }
    return out;
  }

  remember(sku: string, ref: SkuRef): void {
    this.skuMap?.set(sku, ref);
  }

  async get(id: string, operation: string, key: string): Promise<IdeaProduct> {
    try {
      return await this.client.call<IdeaProduct>("getProduct", "read", "GET", `/products/${id}`);
    } catch (e) {
      if (e instanceof ConnectorError && e.httpStatus === 404)
        throw this.client.notFound("product", key, operation);
      throw e;
    }
  }

  /** PUT the whole product: the file's body is the full Product, so writes read first (VERIFIED.md). */
  async put(p: IdeaProduct, operation: string): Promise<IdeaProduct> {
    return this.client.call<IdeaProduct>(operation, "write", "PUT", `/products/${p.id}`, {
      body: stripProduct(p),
    });
  }

  async createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    const currency = await this.primaryCurrency();
    const { product } = input;
    const priceOf = (sku: string) => input.prices?.find((p) => p.sku === sku);
    const category = input.categoryId
      ? await this.client.call<IdeaCategory>("getCategory", "read", "GET", `/categories/${input.categoryId}`)
      : undefined;
    const base = (sku: string, name: string, barcode: string | undefined) => {
      const price = priceOf(sku);
      return {
        name,
        sku,
        ...(barcode ? { barcode } : {}),
        stockAmount: 0,
        price1: price?.listAmount ?? price?.amount ?? 0,
        ...(price?.listAmount !== undefined && price.listAmount > price.amount
          ? { discount: round2(price.listAmount - price.amount) }
          : {}),
        currency,
        discountType: 0,
        moneyOrderDiscount: 0,
        taxIncluded: 1,
        tax: product.vatRate,
        stockTypeLabel: stockTypeLabel(product.unit),
        customShippingDisabled: 1,
        hasGift: 0,
        status: product.isActive ? 1 : 0,
        hasOption: 0,
        categoryShowcaseStatus: 0,
        ...(category ? { categories: [stripCategory(category)] } : {}),
      };
    };
    const single = product.variants.length <= 1;
    const first = product.variants[0];
    const main = await this.client.call<IdeaProduct>("createProduct", "write", "POST", "/products", {
      body: base(
        single ? (first?.sku ?? product.sku) : product.sku,
        product.name,
        single ? first?.barcodes[0] : undefined,
      ),
    });
    const ref: ShopProductRef = { productId: String(main.id), variants: {} };
    if (single) {
      ref.variants[main.sku] = String(main.id);
      this.remember(main.sku, { productId: String(main.id), variantId: String(main.id) });
      return ref;
    }
    for (const v of product.variants) {
      const label = Object.values(v.options).join(" ");
      const child = await this.client.call<IdeaProduct>("createProduct", "write", "POST", "/products", {
        body: { ...base(v.sku, label || v.sku, v.barcodes[0]), parent: { id: main.id } },
      });
      ref.variants[v.sku] = String(child.id);
      this.remember(v.sku, { productId: String(main.id), variantId: String(child.id) });
    }
    return ref;
  }

  async updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    const p = await this.get(productId, "updateProduct", input.product.sku);
    p.name = input.product.name;
    p.status = input.product.isActive ? 1 : 0;
    p.tax = input.product.vatRate;
    if (input.categoryId && !p.categories?.some((c) => String(c.id) === input.categoryId)) {
      const c = await this.client.call<IdeaCategory>(
        "getCategory",
        "read",
        "GET",
        `/categories/${input.categoryId}`,
      );
      p.categories = [c];
    }
    const single = input.product.variants.length <= 1;
    if (single && input.product.variants[0]?.barcodes[0]) p.barcode = input.product.variants[0].barcodes[0];
    const saved = await this.put(p, "updateProduct");
    const ref: ShopProductRef = { productId: String(saved.id), variants: {} };
    const known = await this.findProductsBySku(input.product.variants.map((v) => v.sku));
    for (const [sku, r] of known) if (r.productId === productId) ref.variants[sku] = r.variantId;
    if (single) ref.variants[saved.sku] = String(saved.id);
    return ref;
  }

  private async primaryCurrency() {
    const rows = await this.client.page<IdeaProduct["currency"]>("listCurrencies", "/currencies", {}, 1, 100);
    const c = rows.find((r) => r.isPrimary === 1) ?? rows.find((r) => r.abbr === "TL" || r.abbr === "TRY");
    if (!c) {
      throw new ConnectorError("ideasoft: the store has no primary currency", {
        reason: "config",
        system: "ideasoft",
        operation: "listCurrencies",
      });
    }
    return c;
  }
}

function round2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/** A category as a write body carries it: its own fields, its parent chain without children lists. */
export function stripCategory(c: IdeaCategory): IdeaCategory {
  const { parent, ...rest } = c;
  delete (rest as { children?: unknown }).children;
  return parent ? { ...rest, parent: stripCategory(parent) } : rest;
}

/** The product as PUT sends it: the read answer without read-only relations the API fills itself. */
export function stripProduct(p: IdeaProduct): IdeaProduct {
  const { children: _children, ...rest } = p;
  return { ...rest, ...(p.categories ? { categories: p.categories.map(stripCategory) } : {}) };
}
