/** Shopify catalogue: collections as categories, SKU look-ups, products and variants through `productSet`. */

import type { ProductWriteInput, ShopCategory, ShopProductRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { ProductVariant } from "../sdk/model";
import { chunk, round2 } from "../sdk/util";
import { ShopifyClient, type UserError } from "./client";

/** Shopify's single-variant products carry one option "Title" with the value "Default Title". */
const DEFAULT_OPTION = { name: "Title", value: "Default Title" };
/** SKUs per search query (`sku:"A" OR sku:"B" …`); the search syntax has a length limit (inferred). */
const SKUS_PER_QUERY = 50;

export interface VariantRef {
  productId: string;
  variantId: string;
  inventoryItemId: string;
}

/** A quoted term of Shopify's search syntax. */
export function searchTerm(field: string, value: string): string {
  return `${field}:"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

const VARIANTS_BY_SKU = `query VariantsBySku($query: String!, $first: Int!, $after: String) {
  productVariants(first: $first, after: $after, query: $query) {
    nodes { id sku product { id } inventoryItem { id } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const PRODUCT_SET = `mutation ProductSet($input: ProductSetInput!, $identifier: ProductSetIdentifiers) {
  productSet(input: $input, identifier: $identifier, synchronous: true) {
    product { id variants(first: 250) { nodes { id sku inventoryItem { id } } } }
    userErrors { field message code }
  }
}`;

const PRODUCT_VARIANTS = `query ProductVariants($id: ID!) {
  product(id: $id) { id variants(first: 250) { nodes { id sku } } }
}`;

export class ShopifyProducts {
  /** sku → ids, learnt from every look-up and write (the engine keeps its own map too). */
  readonly known = new Map<string, VariantRef>();

  constructor(private readonly client: ShopifyClient) {}

  async listCategories(): Promise<ShopCategory[]> {
    const nodes = await this.client.allNodes<
      { id: string; title: string },
      {
        collections: {
          nodes: Array<{ id: string; title: string }>;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      }
    >(
      "collections",
      "query Collections($after: String) { collections(first: 250, after: $after) { nodes { id title } pageInfo { hasNextPage endCursor } } }",
      {},
      (d) => d.collections,
    );
    return nodes.map((c) => ({ id: c.id, name: c.title }));
  }

  /** Shopify collections are flat: a parent cannot be kept. */
  async createCategory(input: { name: string; parentId?: string }): Promise<ShopCategory> {
    const d = await this.client.gql<{
      collectionCreate: { collection: { id: string; title: string } | null; userErrors: UserError[] };
    }>(
      "collectionCreate",
      "write",
      "mutation CollectionCreate($collection: CollectionCreateInput!) { collectionCreate(collection: $collection) { collection { id title } userErrors { field message } } }",
      { collection: { title: input.name } },
    );
    const failure = ShopifyClient.userErrorsFailure("collectionCreate", d.collectionCreate.userErrors, [
      input.name,
    ]);
    if (failure) throw failure;
    const c = d.collectionCreate.collection;
    if (!c)
      throw new ConnectorError("shopify collectionCreate: no collection", {
        reason: "bad_response",
        system: "shopify",
      });
    return { id: c.id, name: c.title };
  }

  /** Ids by SKU: one search per 50 SKUs. */
  async lookup(skus: string[]): Promise<Map<string, VariantRef>> {
    const out = new Map<string, VariantRef>();
    for (const part of chunk([...new Set(skus)], SKUS_PER_QUERY)) {
      const nodes = await this.client.allNodes<
        { id: string; sku: string | null; product: { id: string }; inventoryItem: { id: string } },
        {
          productVariants: {
            nodes: Array<{
              id: string;
              sku: string | null;
              product: { id: string };
              inventoryItem: { id: string };
            }>;
            pageInfo: { hasNextPage: boolean; endCursor: string | null };
          };
        }
      >(
        "productVariants",
        VARIANTS_BY_SKU,
        { query: part.map((s) => searchTerm("sku", s)).join(" OR "), first: 100 },
        (d) => d.productVariants,
      );
      const wanted = new Set(part);
      for (const v of nodes) {
        // The search matches tokens; only exact SKUs count.
        if (!v.sku || !wanted.has(v.sku)) continue;
        const ref = { productId: v.product.id, variantId: v.id, inventoryItemId: v.inventoryItem.id };
        out.set(v.sku, ref);
        this.known.set(v.sku, ref);
      }
    }
    return out;
  }

  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    const found = await this.lookup(skus);
    return new Map([...found].map(([k, v]) => [k, { productId: v.productId, variantId: v.variantId }]));
  }

  createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    return this.save(undefined, input);
  }

  async updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    // productSet replaces the variant list: existing variants keep their ids (and so prices and stock).
    const d = await this.client.gql<{
      product: { variants: { nodes: Array<{ id: string; sku: string | null }> } } | null;
    }>("product", "read", PRODUCT_VARIANTS, { id: productId });
    if (!d.product) {
      throw new ConnectorError(`shopify: product ${productId} not found`, {
        reason: "unknown_item",
        system: "shopify",
        operation: "productSet",
        itemKeys: [input.product.sku],
      });
    }
    const ids = new Map(d.product.variants.nodes.filter((v) => v.sku).map((v) => [v.sku as string, v.id]));
    return this.save(productId, input, ids);
  }

  private async save(
    productId: string | undefined,
    input: ProductWriteInput,
    variantIds = new Map<string, string>(),
  ): Promise<ShopProductRef> {
    const p = input.product;
    const optionNames = [...new Set(p.variants.flatMap((v) => Object.keys(v.options)))];
    const single = optionNames.length === 0;
    const prices = new Map((input.prices ?? []).map((x) => [x.sku, x]));
    const productOptions = single
      ? [{ name: DEFAULT_OPTION.name, values: [{ name: DEFAULT_OPTION.value }] }]
      : optionNames.map((name) => ({
          name,
          values: [...new Set(p.variants.map((v) => v.options[name] ?? "-"))].map((value) => ({
            name: value,
          })),
        }));
    const variants = (single ? p.variants.slice(0, 1) : p.variants).map((v: ProductVariant) => {
      const price = prices.get(v.sku);
      return {
        ...(variantIds.get(v.sku) ? { id: variantIds.get(v.sku) } : {}),
        sku: v.sku,
        barcode: v.barcodes[0] ?? null,
        optionValues: single
          ? [{ optionName: DEFAULT_OPTION.name, name: DEFAULT_OPTION.value }]
          : optionNames.map((name) => ({ optionName: name, name: v.options[name] ?? "-" })),
        ...(price
          ? price.listAmount !== undefined && price.listAmount > price.amount
            ? { price: round2(price.amount).toFixed(2), compareAtPrice: round2(price.listAmount).toFixed(2) }
            : { price: round2(price.amount).toFixed(2) }
          : {}),
      };
    });
    const d = await this.client.gql<{
      productSet: {
        product: {
          id: string;
          variants: { nodes: Array<{ id: string; sku: string | null; inventoryItem: { id: string } }> };
        } | null;
        userErrors: UserError[];
      };
    }>(
      "productSet",
      "write",
      PRODUCT_SET,
      {
        input: {
          title: p.name,
          ...(p.brand ? { vendor: p.brand } : {}),
          ...(p.description !== undefined ? { descriptionHtml: p.description } : {}),
          status: p.isActive ? "ACTIVE" : "DRAFT",
          ...(input.categoryId ? { collections: [input.categoryId] } : {}),
          productOptions,
          variants,
        },
        identifier: productId ? { id: productId } : null,
      },
      // productSet with an identifier is an upsert of the same state: safe to send twice.
      { idempotent: productId !== undefined },
    );
    const failure = ShopifyClient.userErrorsFailure("productSet", d.productSet.userErrors, [p.sku]);
    if (failure) throw failure;
    const product = d.productSet.product;
    if (!product)
      throw new ConnectorError("shopify productSet: no product", {
        reason: "bad_response",
        system: "shopify",
      });
    const refs: Record<string, string> = {};
    for (const v of product.variants.nodes) {
      if (!v.sku) continue;
      refs[v.sku] = v.id;
      this.known.set(v.sku, { productId: product.id, variantId: v.id, inventoryItemId: v.inventoryItem.id });
    }
    return { productId: product.id, variants: refs };
  }
}
