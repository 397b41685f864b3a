/**
 * IKAS products, categories, brands and variant types. Options are real entities: a variant type
 * ("Beden") with values ("M"), found or created, then linked from each variant through
 * `variantValueIds` and declared on the product in `productVariantTypes`.
 */

import type { ProductWriteInput, ShopCategory, ShopProductRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { chunk } from "../sdk/util";
import type { IkasClient } from "./client";

interface PriceDto {
  priceListId: string | null;
  sellPrice: number;
  discountPrice: number | null;
  buyPrice: number | null;
  currency: string | null;
}
interface ValueRef {
  variantTypeId: string;
  variantValueId: string;
}
interface VariantDto {
  id: string;
  sku: string | null;
  barcodeList: string[] | null;
  isActive: boolean;
  prices: PriceDto[];
  variantValueIds: ValueRef[] | null;
}
interface ProductVariantTypeDto {
  order: number;
  variantTypeId: string;
  variantValueIds: string[] | null;
}
interface ProductDto {
  id: string;
  name: string;
  description: string | null;
  type: string;
  brandId: string | null;
  categoryIds: string[] | null;
  salesChannelIds: string[] | null;
  productVariantTypes: ProductVariantTypeDto[] | null;
  variants: VariantDto[];
}

const PRODUCT_FIELDS = `
  id name description type brandId categoryIds salesChannelIds
  productVariantTypes { order variantTypeId variantValueIds }
  variants { id sku barcodeList isActive prices { priceListId sellPrice discountPrice buyPrice currency }
             variantValueIds { variantTypeId variantValueId } }
`;

interface VariantTypeDto {
  id: string;
  name: string;
  selectionType: string;
  values: Array<{ id: string; name: string }>;
}
const VARIANT_TYPE_FIELDS = "id name selectionType values { id name }";

interface VariantOut {
  id?: string;
  sku: string | null;
  barcodeList: string[];
  isActive: boolean;
  prices: PriceDto[];
  variantValueIds: ValueRef[];
}

const key = (s: string) => s.trim().toLocaleLowerCase("tr-TR");

export class IkasProducts {
  private brandCache?: Map<string, string>;
  private typeCache?: Map<string, VariantTypeDto>;

  constructor(private readonly client: IkasClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const d = await this.client.gql<{
      listCategory: Array<{ id: string; name: string; parentId: string | null }>;
    }>("listCategory", "read", "query ListCategories { listCategory { id name parentId } }");
    return d.listCategory.map((c) => ({ id: c.id, name: c.name, parentId: c.parentId ?? undefined }));
  }

  async createCategory(input: { name: string; parentId?: string }): Promise<ShopCategory> {
    const d = await this.client.gql<{ saveCategory: { id: string; name: string; parentId: string | null } }>(
      "saveCategory",
      "write",
      "mutation CreateCategory($input: CategoryInput!) { saveCategory(input: $input) { id name parentId } }",
      { input: { name: input.name, parentId: input.parentId ?? null } },
    );
    return {
      id: d.saveCategory.id,
      name: d.saveCategory.name,
      parentId: d.saveCategory.parentId ?? undefined,
    };
  }

  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    const out = new Map<string, { productId: string; variantId: string }>();
    for (const part of chunk([...new Set(skus)], 200)) {
      const products = await this.client.allPages<
        { id: string; variants: Array<{ id: string; sku: string | null }> },
        {
          listProduct: {
            data: Array<{ id: string; variants: Array<{ id: string; sku: string | null }> }>;
            hasNext: boolean;
          };
        }
      >(
        "listProduct",
        "query FindProductsBySku($skus: [String!], $limit: Int, $page: Int) { listProduct(sku: { in: $skus }, pagination: { limit: $limit, page: $page }) { hasNext data { id variants { id sku } } } }",
        { skus: part },
        (d) => d.listProduct,
      );
      for (const p of products) {
        for (const v of p.variants) if (v.sku) out.set(v.sku, { productId: p.id, variantId: v.id });
      }
    }
    return out;
  }

  private async brandId(name: string | undefined): Promise<string | null> {
    if (!name) return null;
    if (!this.brandCache) {
      const d = await this.client.gql<{ listProductBrand: Array<{ id: string; name: string }> }>(
        "listProductBrand",
        "read",
        "query ListBrands { listProductBrand { id name } }",
      );
      this.brandCache = new Map(d.listProductBrand.map((b) => [key(b.name), b.id]));
    }
    const hit = this.brandCache.get(key(name));
    if (hit) return hit;
    const d = await this.client.gql<{ saveProductBrand: { id: string } }>(
      "saveProductBrand",
      "write",
      "mutation CreateBrand($input: ProductBrandInput!) { saveProductBrand(input: $input) { id } }",
      { input: { name } },
    );
    this.brandCache.set(key(name), d.saveProductBrand.id);
    return d.saveProductBrand.id;
  }

  /**
   * Ids of the variant types and values the options name, creating what is missing. `saveVariantType`
   * replaces a type's value list, so an added value is sent together with every existing one.
   */
  private async variantValueIds(
    options: Array<Record<string, string>>,
  ): Promise<Map<string, { typeId: string; values: Map<string, string> }>> {
    if (!this.typeCache) {
      const d = await this.client.gql<{ listVariantType: VariantTypeDto[] }>(
        "listVariantType",
        "read",
        `query ListVariantTypes { listVariantType { ${VARIANT_TYPE_FIELDS} } }`,
      );
      this.typeCache = new Map(d.listVariantType.map((t) => [key(t.name), t]));
    }
    const wanted = new Map<string, { name: string; values: Map<string, string> }>();
    for (const opts of options) {
      for (const [typeName, valueName] of Object.entries(opts)) {
        const t = wanted.get(key(typeName)) ?? { name: typeName.trim(), values: new Map() };
        t.values.set(key(valueName), valueName.trim());
        wanted.set(key(typeName), t);
      }
    }
    const out = new Map<string, { typeId: string; values: Map<string, string> }>();
    for (const [typeKey, want] of wanted) {
      let type = this.typeCache.get(typeKey);
      const known = new Set(type?.values.map((v) => key(v.name)) ?? []);
      const missing = [...want.values].filter(([k]) => !known.has(k)).map(([, name]) => name);
      if (!type || missing.length > 0) {
        const d = await this.client.gql<{ saveVariantType: VariantTypeDto }>(
          "saveVariantType",
          "write",
          `mutation SaveVariantType($input: VariantTypeInput!) { saveVariantType(input: $input) { ${VARIANT_TYPE_FIELDS} } }`,
          {
            input: {
              id: type?.id ?? null,
              name: type?.name ?? want.name,
              selectionType: type?.selectionType ?? "CHOICE",
              values: [
                ...(type?.values.map((v) => ({ id: v.id, name: v.name })) ?? []),
                ...missing.map((name) => ({ name })),
              ],
            },
          },
        );
        type = d.saveVariantType;
        this.typeCache.set(typeKey, type);
      }
      const values = new Map(type.values.map((v) => [key(v.name), v.id]));
      out.set(typeKey, { typeId: type.id, values });
    }
    return out;
  }

  /** `variantValueIds` of one variant, in the order of its options. */
  private static refs(
    options: Record<string, string>,
    ids: Map<string, { typeId: string; values: Map<string, string> }>,
  ): ValueRef[] {
    return Object.entries(options).map(([typeName, valueName]) => {
      const t = ids.get(key(typeName));
      const valueId = t?.values.get(key(valueName));
      if (!t || !valueId) {
        throw new ConnectorError(`ikas: variant value ${typeName}=${valueName} could not be created`, {
          reason: "bad_response",
          system: "ikas",
          operation: "saveVariantType",
        });
      }
      return { variantTypeId: t.typeId, variantValueId: valueId };
    });
  }

  /** The product's option types, from the values its variants use (kept in their previous order). */
  private static productVariantTypes(
    variants: VariantOut[],
    previous: ProductVariantTypeDto[],
  ): ProductVariantTypeDto[] {
    const used = new Map<string, Set<string>>();
    for (const v of variants) {
      for (const r of v.variantValueIds) {
        const set = used.get(r.variantTypeId) ?? new Set<string>();
        set.add(r.variantValueId);
        used.set(r.variantTypeId, set);
      }
    }
    const order = [
      ...previous
        .slice()
        .sort((a, b) => a.order - b.order)
        .map((p) => p.variantTypeId),
      ...used.keys(),
    ].filter((id, i, all) => used.has(id) && all.indexOf(id) === i);
    return order.map((variantTypeId, i) => ({
      order: i,
      variantTypeId,
      variantValueIds: [...(used.get(variantTypeId) ?? [])],
    }));
  }

  private async saveProduct(input: Record<string, unknown>): Promise<ShopProductRef> {
    const d = await this.client.gql<{
      saveProduct: { id: string; variants: Array<{ id: string; sku: string | null }> };
    }>(
      "saveProduct",
      "write",
      "mutation SaveProduct($input: ProductInput!) { saveProduct(input: $input) { id variants { id sku } } }",
      { input },
    );
    const variants: Record<string, string> = {};
    for (const v of d.saveProduct.variants) if (v.sku) variants[v.sku] = v.id;
    return { productId: d.saveProduct.id, variants };
  }

  async createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    const p = input.product;
    const brandId = await this.brandId(p.brand);
    const ids = await this.variantValueIds(p.variants.map((v) => v.options));
    const prices = new Map((input.prices ?? []).map((x) => [x.sku, x]));
    const variants: VariantOut[] = p.variants.map((v) => {
      const price = prices.get(v.sku);
      return {
        sku: v.sku,
        barcodeList: v.barcodes,
        isActive: v.isActive ?? p.isActive,
        prices: price
          ? [
              {
                sellPrice: price.listAmount ?? price.amount,
                discountPrice: price.listAmount !== undefined ? price.amount : null,
                buyPrice: null,
                currency: price.currency,
                priceListId: null,
              },
            ]
          : [],
        variantValueIds: IkasProducts.refs(v.options, ids),
      };
    });
    try {
      return await this.saveProduct({
        name: p.name,
        description: p.description ?? null,
        type: "PHYSICAL",
        brandId,
        categoryIds: input.categoryId ? [input.categoryId] : [],
        productVariantTypes: IkasProducts.productVariantTypes(variants, []),
        variants,
      });
    } catch (e) {
      // Refused input may mean it was created before (an earlier answer was lost): look the SKUs up
      // rather than reading the message.
      if (e instanceof ConnectorError && e.reason === "validation") {
        const found = await this.findProductsBySku(p.variants.map((v) => v.sku));
        const first = found.get(p.variants[0]?.sku ?? "");
        if (first) {
          const refs: Record<string, string> = {};
          for (const [sku, id] of found) if (id.productId === first.productId) refs[sku] = id.variantId;
          return { productId: first.productId, variants: refs };
        }
      }
      throw e;
    }
  }

  async updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    const current = await this.client.byId<ProductDto>(
      "listProduct",
      "ProductById",
      PRODUCT_FIELDS,
      productId,
      {
        operation: "updateProduct",
        what: "product",
        itemKey: input.product.sku,
      },
    );
    const p = input.product;
    const brandId = p.brand ? await this.brandId(p.brand) : current.brandId;
    const ids = await this.variantValueIds(p.variants.map((v) => v.options));
    const prices = new Map((input.prices ?? []).map((x) => [x.sku, x]));
    const bySku = new Map(current.variants.filter((v) => v.sku).map((v) => [v.sku ?? "", v]));
    const keep = (v: VariantDto): VariantOut => ({
      id: v.id,
      sku: v.sku,
      barcodeList: v.barcodeList ?? [],
      isActive: v.isActive,
      prices: v.prices.map((x) => ({ ...x })),
      variantValueIds: v.variantValueIds ?? [],
    });
    // saveProduct replaces the whole product: carry over every price list row and every variant we do not change.
    const variants = p.variants.map((v): VariantOut => {
      const old = bySku.get(v.sku);
      bySku.delete(v.sku);
      const price = prices.get(v.sku);
      let rows = old ? old.prices.map((x) => ({ ...x })) : [];
      if (price) {
        rows = rows.filter((x) => x.priceListId !== null);
        rows.push({
          priceListId: null,
          sellPrice: price.listAmount ?? price.amount,
          discountPrice: price.listAmount !== undefined ? price.amount : null,
          buyPrice: null,
          currency: price.currency,
        });
      }
      return {
        id: old?.id,
        sku: v.sku,
        barcodeList: v.barcodes,
        isActive: v.isActive ?? p.isActive,
        prices: rows,
        variantValueIds: IkasProducts.refs(v.options, ids),
      };
    });
    for (const rest of bySku.values()) variants.push(keep(rest));
    for (const v of current.variants) if (!v.sku) variants.push(keep(v));
    return this.saveProduct({
      id: current.id,
      name: p.name,
      description: p.description ?? current.description,
      type: current.type,
      brandId,
      categoryIds: input.categoryId ? [input.categoryId] : current.categoryIds,
      salesChannelIds: current.salesChannelIds,
      productVariantTypes: IkasProducts.productVariantTypes(variants, current.productVariantTypes ?? []),
      variants,
    });
  }
}
