/**
 * Full catalogue reads. Up to 10,000 variants: paged `products` queries. Above: a bulk operation
 * (`bulkOperationRunQuery`, polled through `node(id:)`, the JSONL result downloaded from its URL), which
 * costs a handful of calls whatever the size and does not drain the cost bucket.
 */

import { ConnectorError } from "../sdk/errors";
import type { Product } from "../sdk/model";
import { sleep } from "../sdk/rate-limit";
import { ShopifyClient, type UserError } from "./client";

/** Above this many variants a full read goes through a bulk operation. */
export const BULK_THRESHOLD = 10_000;

export interface ShopifyCatalogVariant {
  id: string;
  sku: string | null;
  barcode: string | null;
  price: string;
  compareAtPrice: string | null;
  inventoryItem: { id: string };
  selectedOptions: Array<{ name: string; value: string }>;
}
export interface ShopifyCatalogProduct {
  id: string;
  title: string;
  vendor: string;
  status: string;
  descriptionHtml: string;
  updatedAt: string;
  variants: ShopifyCatalogVariant[];
}

const PRODUCT_FIELDS = "id title vendor status descriptionHtml updatedAt";
const VARIANT_FIELDS =
  "id sku barcode price compareAtPrice inventoryItem { id } selectedOptions { name value }";

/** The bulk query: connections in `edges { node }` form, as bulk operations require. */
export const BULK_CATALOG_QUERY = `{ products { edges { node { ${PRODUCT_FIELDS} variants { edges { node { ${VARIANT_FIELDS} } } } } } } }`;

/** 10 products × 30 variants stay under the 1,000-point query limit; more variants are read per product. */
const PAGED = `query CatalogPage($after: String) {
  products(first: 10, after: $after) {
    nodes { ${PRODUCT_FIELDS} variants(first: 30) { nodes { ${VARIANT_FIELDS} } pageInfo { hasNextPage endCursor } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const MORE_VARIANTS = `query ProductVariantPage($id: ID!, $after: String) {
  product(id: $id) { variants(first: 100, after: $after) { nodes { ${VARIANT_FIELDS} } pageInfo { hasNextPage endCursor } } }
}`;

type VariantPage = {
  nodes: ShopifyCatalogVariant[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
};

/** JSONL of a bulk operation: one object per line, children after their parent with `__parentId`. */
export function parseBulkCatalog(jsonl: string): ShopifyCatalogProduct[] {
  const products = new Map<string, ShopifyCatalogProduct>();
  for (const line of jsonl.split("\n")) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as Record<string, unknown> & { id: string; __parentId?: string };
    if (row.__parentId) {
      const parent = products.get(row.__parentId);
      if (!parent)
        throw new ConnectorError("shopify bulk: a variant before its product", {
          reason: "bad_response",
          system: "shopify",
        });
      const { __parentId: _, ...variant } = row;
      parent.variants.push(variant as unknown as ShopifyCatalogVariant);
    } else products.set(row.id, { ...(row as unknown as ShopifyCatalogProduct), variants: [] });
  }
  return [...products.values()];
}

export function mapCatalogProduct(p: ShopifyCatalogProduct): Product {
  const single = p.variants.length === 1 && p.variants[0]?.selectedOptions.every((o) => o.name === "Title");
  return {
    sku: (single ? p.variants[0]?.sku : undefined) ?? p.id,
    name: p.title,
    brand: p.vendor || undefined,
    categoryPath: [],
    // Shopify keeps no VAT rate per product (taxes come from regions): inferred 20 %.
    vatRate: 20,
    unit: "Adet",
    variants: p.variants
      .filter((v) => v.sku)
      .map((v) => ({
        sku: v.sku as string,
        barcodes: v.barcode ? [v.barcode] : [],
        options: single ? {} : Object.fromEntries(v.selectedOptions.map((o) => [o.name, o.value])),
      })),
    images: [],
    description: p.descriptionHtml || undefined,
    isActive: p.status === "ACTIVE",
    groupKey: p.id,
    updatedAt: p.updatedAt,
  };
}

export class ShopifyCatalog {
  constructor(
    private readonly client: ShopifyClient,
    private readonly opts: {
      pollMs?: number;
      maxWaitMs?: number;
      sleep?: (ms: number) => Promise<void>;
    } = {},
  ) {}

  async variantCount(): Promise<{ count: number; atLeast: boolean }> {
    const d = await this.client.gql<{ productVariantsCount: { count: number; precision: string } | null }>(
      "productVariantsCount",
      "read",
      `query VariantCount { productVariantsCount(limit: ${BULK_THRESHOLD + 1}) { count precision } }`,
    );
    return {
      count: d.productVariantsCount?.count ?? 0,
      atLeast: d.productVariantsCount?.precision === "AT_LEAST",
    };
  }

  /** Every product with its variants; bulk above `BULK_THRESHOLD` variants. */
  async readAll(): Promise<{ products: ShopifyCatalogProduct[]; via: "paged" | "bulk" }> {
    const n = await this.variantCount();
    if (n.atLeast || n.count > BULK_THRESHOLD) return { products: await this.readBulk(), via: "bulk" };
    return { products: await this.readPaged(), via: "paged" };
  }

  async readPaged(): Promise<ShopifyCatalogProduct[]> {
    const nodes = await this.client.allNodes<
      Omit<ShopifyCatalogProduct, "variants"> & { variants: VariantPage },
      {
        products: {
          nodes: Array<Omit<ShopifyCatalogProduct, "variants"> & { variants: VariantPage }>;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      }
    >("products", PAGED, {}, (d) => d.products);
    for (const p of nodes) {
      let info = p.variants.pageInfo;
      while (info.hasNextPage && info.endCursor) {
        const more = await this.client.gql<{ product: { variants: VariantPage } | null }>(
          "product",
          "read",
          MORE_VARIANTS,
          {
            id: p.id,
            after: info.endCursor,
          },
        );
        if (!more.product) break;
        p.variants.nodes.push(...more.product.variants.nodes);
        info = more.product.variants.pageInfo;
      }
    }
    return nodes.map((p) => ({ ...p, variants: p.variants.nodes }));
  }

  async readBulk(): Promise<ShopifyCatalogProduct[]> {
    const started = await this.client.gql<{
      bulkOperationRunQuery: {
        bulkOperation: { id: string; status: string } | null;
        userErrors: UserError[];
      };
    }>(
      "bulkOperationRunQuery",
      "write",
      "mutation BulkCatalog($query: String!) { bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { field message code } } }",
      { query: BULK_CATALOG_QUERY },
    );
    const failure = ShopifyClient.userErrorsFailure(
      "bulkOperationRunQuery",
      started.bulkOperationRunQuery.userErrors,
      undefined,
      // OPERATION_IN_PROGRESS: one bulk query per shop at a time — try again later.
      started.bulkOperationRunQuery.userErrors[0]?.code === "OPERATION_IN_PROGRESS" ? "lock" : "validation",
    );
    if (failure) throw failure;
    const id = started.bulkOperationRunQuery.bulkOperation?.id;
    if (!id)
      throw new ConnectorError("shopify bulk: no operation id", {
        reason: "bad_response",
        system: "shopify",
      });
    const wait = this.opts.sleep ?? ((ms: number) => sleep(ms));
    const deadline = Date.now() + (this.opts.maxWaitMs ?? 30 * 60_000);
    for (;;) {
      const d = await this.client.gql<{
        node: {
          id: string;
          status: string;
          errorCode: string | null;
          url: string | null;
          objectCount: string;
        } | null;
      }>(
        "node",
        "read",
        "query BulkStatus($id: ID!) { node(id: $id) { ... on BulkOperation { id status errorCode url objectCount } } }",
        { id },
      );
      const op = d.node;
      if (op?.status === "COMPLETED")
        return op.url ? parseBulkCatalog(await this.client.download(op.url, "bulk result")) : [];
      if (!op || ["FAILED", "CANCELED", "CANCELING", "EXPIRED"].includes(op.status)) {
        throw new ConnectorError(`shopify bulk operation ${op?.status ?? "lost"}`, {
          reason:
            op?.errorCode === "TIMEOUT" || op?.errorCode === "INTERNAL_SERVER_ERROR"
              ? "server_error"
              : "bad_response",
          system: "shopify",
          operation: "bulkOperationRunQuery",
          systemCode: op?.errorCode ?? undefined,
        });
      }
      if (Date.now() > deadline) {
        throw new ConnectorError("shopify bulk operation still running", {
          reason: "timeout",
          system: "shopify",
          operation: "bulkOperationRunQuery",
        });
      }
      await wait(this.opts.pollMs ?? 2000);
    }
  }
}
