/**
 * Shopify stock and prices: absolute quantities through `inventorySetQuantities` (up to 250 rows a call,
 * `changeFromQuantity: null` — the ERP is the source of truth, so no compare-and-swap), prices through
 * `productVariantsBulkUpdate` (one call per product). Rows the system refuses are failed by the index
 * its user errors name; the rest of the batch is sent once more.
 */

import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import { chunk, round2 } from "../sdk/util";
import { gid, ShopifyClient, type UserError } from "./client";
import { shopifyDescriptor } from "./descriptor";
import type { ShopifyProducts, VariantRef } from "./products";

// @idempotent is mandatory from 2026-04 (runtime rule shopify.idempotent-directive).
const SET_QUANTITIES = `mutation SetStock($input: InventorySetQuantitiesInput!, $idempotencyKey: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $idempotencyKey) {
    inventoryAdjustmentGroup { id }
    userErrors { field message code }
  }
}`;

const BULK_PRICES = `mutation SetPrices($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants, allowPartialUpdates: true) {
    productVariants { id }
    userErrors { field message code }
  }
}`;

const VARIANT_NODES = `query VariantNodes($ids: [ID!]!) {
  nodes(ids: $ids) { ... on ProductVariant { id sku product { id } inventoryItem { id } } }
}`;

/** Shopify's limit on ids per `nodes` call and quantities per `inventorySetQuantities` (documented). */
const MAX_IDS = 250;

/** Row index named by a user error's `field` path (`["input", "quantities", "3", "quantity"]`). */
function rowIndex(e: UserError, list: string): number | undefined {
  const f = e.field ?? [];
  const i = f.indexOf(list);
  const n = i >= 0 ? Number(f[i + 1]) : Number.NaN;
  return Number.isInteger(n) ? n : undefined;
}

const UNKNOWN_CODES = new Set([
  "INVALID_INVENTORY_ITEM",
  "INVALID_LOCATION",
  "PRODUCT_VARIANT_DOES_NOT_EXIST",
  "PRODUCT_DOES_NOT_EXIST",
]);

export class ShopifyStockPrices {
  private readonly batchStock: number;
  private primaryLocation?: Promise<string>;

  constructor(
    private readonly client: ShopifyClient,
    private readonly products: ShopifyProducts,
    batch: { stock?: number } = {},
  ) {
    this.batchStock = Math.min(batch.stock ?? MAX_IDS, shopifyDescriptor.batch.stock ?? MAX_IDS, MAX_IDS);
  }

  /** The configured location, or the store's first active one that fulfils online orders. */
  defaultLocation(): Promise<string> {
    const configured = this.client.creds.locationId;
    if (configured) return Promise.resolve(gid("Location", configured));
    this.primaryLocation ??= this.client
      .gql<{ locations: { nodes: Array<{ id: string; isActive: boolean; fulfillsOnlineOrders: boolean }> } }>(
        "locations",
        "read",
        "query Locations { locations(first: 50) { nodes { id name isActive fulfillsOnlineOrders } } }",
      )
      .then((d) => {
        const loc =
          d.locations.nodes.find((l) => l.isActive && l.fulfillsOnlineOrders) ?? d.locations.nodes[0];
        if (!loc)
          throw new ConnectorError("shopify: the store has no location", {
            reason: "config",
            system: "shopify",
          });
        return loc.id;
      });
    return this.primaryLocation;
  }

  /** Ids of every row: cache, then `nodes` for rows with a variant id, then a SKU search for the rest. */
  private async resolve<T extends { sku: string; variantId?: string }>(
    items: T[],
  ): Promise<Map<string, VariantRef>> {
    const known = this.products.known;
    const byId = items
      .filter((i) => !known.has(i.sku) && i.variantId)
      .map((i) => gid("ProductVariant", i.variantId as string));
    for (const ids of chunk([...new Set(byId)], MAX_IDS)) {
      const d = await this.client.gql<{
        nodes: Array<{
          id: string;
          sku: string | null;
          product: { id: string };
          inventoryItem: { id: string };
        } | null>;
      }>("nodes", "read", VARIANT_NODES, { ids });
      for (const v of d.nodes) {
        if (v?.sku && v.inventoryItem)
          known.set(v.sku, { productId: v.product.id, variantId: v.id, inventoryItemId: v.inventoryItem.id });
      }
    }
    const bySku = items.filter((i) => !known.has(i.sku)).map((i) => i.sku);
    if (bySku.length > 0) await this.products.lookup(bySku);
    return known;
  }

  private static unknown(sku: string, operation: string): ConnectorError {
    return new ConnectorError(`shopify: no variant with sku ${sku}`, {
      reason: "unknown_item",
      system: "shopify",
      operation,
      itemKeys: [sku],
    });
  }

  /**
   * Send rows; user errors naming rows fail those rows and the rest is sent once more (a corrected
   * request). A systemic failure (auth, blocked, rate limited after retries) fails every row not sent.
   */
  private async sendRows<R extends { sku: string }>(
    rows: R[],
    list: string,
    send: (rows: R[]) => Promise<UserError[]>,
    operation: string,
    result: BatchResult,
    /** The call applied the rows its user errors do not name (`allowPartialUpdates`). */
    partial = false,
  ): Promise<ConnectorError | undefined> {
    let errors: UserError[];
    try {
      result.calls++;
      errors = await send(rows);
    } catch (e) {
      if (!(e instanceof ConnectorError)) throw e;
      for (const r of rows) result.failed.push({ key: r.sku, error: e.with({ itemKeys: [r.sku] }) });
      return e.reason === "auth" || e.reason === "blocked" || e.reason === "rate_limited" ? e : undefined;
    }
    if (errors.length === 0) {
      result.applied += rows.length;
      return undefined;
    }
    const bad = new Map<number, UserError>();
    for (const e of errors) {
      const i = rowIndex(e, list);
      if (i !== undefined && i < rows.length) bad.set(i, e);
    }
    if (bad.size === 0) {
      // Not tied to a row: the whole batch was refused.
      const failure = ShopifyClient.userErrorsFailure(operation, errors) as ConnectorError;
      for (const r of rows) result.failed.push({ key: r.sku, error: failure.with({ itemKeys: [r.sku] }) });
      return undefined;
    }
    for (const [i, e] of bad) {
      const r = rows[i] as R;
      const reason = e.code && UNKNOWN_CODES.has(e.code) ? "unknown_item" : "validation";
      result.failed.push({
        key: r.sku,
        error: ShopifyClient.userErrorsFailure(operation, [e], [r.sku], reason) as ConnectorError,
      });
    }
    const rest = rows.filter((_, i) => !bad.has(i));
    if (partial) {
      result.applied += rest.length;
      return undefined;
    }
    return rest.length > 0 ? this.sendRows(rest, list, send, operation, result) : undefined;
  }

  async setStock(items: StockUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    if (items.length === 0) return result;
    const ids = await this.resolve(items);
    const fallback = items.some((i) => !i.locationId) ? await this.defaultLocation() : "";
    const rows: Array<{ sku: string; inventoryItemId: string; locationId: string; quantity: number }> = [];
    for (const i of items) {
      const ref = ids.get(i.sku);
      if (!ref)
        result.failed.push({
          key: i.sku,
          error: ShopifyStockPrices.unknown(i.sku, "inventorySetQuantities"),
        });
      else {
        rows.push({
          sku: i.sku,
          inventoryItemId: ref.inventoryItemId,
          locationId: i.locationId ? gid("Location", i.locationId) : fallback,
          quantity: Math.max(0, Math.trunc(i.qty)),
        });
      }
    }
    const batches = chunk(rows, this.batchStock);
    for (let b = 0; b < batches.length; b++) {
      const stop = await this.sendRows(
        batches[b] ?? [],
        "quantities",
        async (part) => {
          const input = {
            name: "available",
            reason: "correction",
            // Required since 2026-04 (nullable in the schema): null = no compare-and-swap.
            quantities: part.map((r) => ({
              inventoryItemId: r.inventoryItemId,
              locationId: r.locationId,
              quantity: r.quantity,
              changeFromQuantity: null,
            })),
          };
          const d = await this.client.gql<{ inventorySetQuantities: { userErrors: UserError[] } }>(
            "inventorySetQuantities",
            "write",
            SET_QUANTITIES,
            { input, idempotencyKey: this.client.idempotencyKey("inventorySetQuantities", input) },
            // Absolute quantities under one key: a re-sent call is applied once by Shopify.
            { idempotent: true },
          );
          return d.inventorySetQuantities.userErrors;
        },
        "inventorySetQuantities",
        result,
      );
      if (stop) {
        for (const r of batches.slice(b + 1).flat())
          result.failed.push({ key: r.sku, error: stop.with({ itemKeys: [r.sku] }) });
        break;
      }
    }
    return result;
  }

  /** Only the store's own prices: Shopify Markets price lists are not written (the row fails as unsupported). */
  async setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const own = items.filter((i) => {
      if (!i.priceListId || i.priceListId === "default") return true;
      result.failed.push({
        key: i.sku,
        error: new ConnectorError(`shopify: price list ${i.priceListId} is not written`, {
          reason: "unsupported",
          system: "shopify",
          operation: "productVariantsBulkUpdate",
          itemKeys: [i.sku],
        }),
      });
      return false;
    });
    if (own.length === 0) return result;
    const ids = await this.resolve(own);
    const byProduct = new Map<
      string,
      Array<{ sku: string; id: string; price: string; compareAtPrice: string | null }>
    >();
    for (const i of own) {
      const ref = ids.get(i.sku);
      if (!ref) {
        result.failed.push({
          key: i.sku,
          error: ShopifyStockPrices.unknown(i.sku, "productVariantsBulkUpdate"),
        });
        continue;
      }
      const discounted = i.listAmount !== undefined && i.listAmount > i.amount;
      const rows = byProduct.get(ref.productId) ?? [];
      rows.push({
        sku: i.sku,
        id: ref.variantId,
        price: round2(i.amount).toFixed(2),
        compareAtPrice: discounted ? round2(i.listAmount as number).toFixed(2) : null,
      });
      byProduct.set(ref.productId, rows);
    }
    const work = [...byProduct].flatMap(([productId, rows]) =>
      chunk(rows, MAX_IDS).map((part) => ({ productId, part })),
    );
    for (let w = 0; w < work.length; w++) {
      const { productId, part } = work[w] as (typeof work)[number];
      const stop = await this.sendRows(
        part,
        "variants",
        async (rows) => {
          const d = await this.client.gql<{ productVariantsBulkUpdate: { userErrors: UserError[] } }>(
            "productVariantsBulkUpdate",
            "write",
            BULK_PRICES,
            {
              productId,
              variants: rows.map((r) => ({ id: r.id, price: r.price, compareAtPrice: r.compareAtPrice })),
            },
            { idempotent: true },
          );
          return d.productVariantsBulkUpdate.userErrors;
        },
        "productVariantsBulkUpdate",
        result,
        true,
      );
      if (stop) {
        for (const r of work.slice(w + 1).flatMap((x) => x.part))
          result.failed.push({ key: r.sku, error: stop.with({ itemKeys: [r.sku] }) });
        break;
      }
    }
    return result;
  }
}
