/**
 * Root resolvers of the Shopify emulator. Inputs arrive already coerced by graphql-js against Shopify's
 * schema; what the schema cannot say (user errors, limits, the mandatory `changeFromQuantity`) is checked
 * here in Shopify's answer shapes. Behaviour the artifact does not describe is marked "inferred".
 */

import { GraphQLError } from "graphql";
import type { WebhookOutbox, WebhookSubscription } from "../../testing/webhooks";
import {
  type ConnArgs,
  connection,
  type ShopifyProduct,
  type ShopifyState,
  type ShopifyVariant,
} from "./state";

export type Resolver = (args: Record<string, unknown>) => unknown;

export interface ResolverDeps {
  state: ShopifyState;
  stats: { stockCalls: number; stockItems: number; priceCalls: number; priceItems: number };
  startBulk(query: string): { id: string; status: string } | { error: { message: string; code: string } };
  bulkNode(id: string): Record<string, unknown> | undefined;
  webhooks: WebhookOutbox;
}

type UserError = { field: string[] | null; message: string; code?: string };

/** Documented limits: 250 quantities per inventorySetQuantities, 250 ids per nodes. */
const MAX_QUANTITIES = 250;
const MAX_NODES = 250;
/** Inventory reasons Shopify accepts (documented list, abridged to the common ones — inferred). */
const REASONS = new Set([
  "correction",
  "cycle_count_available",
  "damaged",
  "movement_created",
  "movement_updated",
  "movement_received",
  "movement_canceled",
  "other",
  "promotion",
  "quality_control",
  "received",
  "reservation_created",
  "reservation_deleted",
  "reservation_updated",
  "restock",
  "safety_stock",
  "shrinkage",
]);

/** `sku:"A" OR sku:"B"` → the SKUs (Shopify search syntax, the part the connector uses). */
function skuTerms(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/sku:(?:"((?:[^"\\]|\\.)*)"|(\S+))/g))
    out.push((m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1"));
  return out;
}

function updatedSince(query: string | undefined | null): string | undefined {
  const m = /updated_at:>=?'?([^'\s]+)'?/.exec(query ?? "");
  return m?.[1];
}

export function createRoot(deps: ResolverDeps): Record<string, Resolver> {
  const { state, stats } = deps;
  const productNode = (p: ShopifyProduct | undefined) => (p ? state.productView(p) : null);
  const nodeById = (id: string): Record<string, unknown> | null => {
    const type = /^gid:\/\/shopify\/(\w+)\//.exec(id)?.[1];
    if (type === "Product") return productNode(state.products.get(id));
    if (type === "ProductVariant") {
      const v = state.variants.get(id);
      return v ? state.variantView(v) : null;
    }
    if (type === "Order") {
      const o = state.orders.get(id);
      return o ? state.orderView(o) : null;
    }
    if (type === "Location") {
      const l = state.locations.find((x) => x.id === id);
      return l ? { __typename: "Location", ...l } : null;
    }
    if (type === "BulkOperation") return deps.bulkNode(id) ?? null;
    return null;
  };

  return {
    shop: () => ({
      __typename: "Shop",
      ...state.shop,
      email: "magaza@example.com.tr",
      ianaTimezone: "Europe/Istanbul",
    }),
    locations: (a) =>
      connection(
        state.locations
          .filter((l) => l.isActive || a.includeInactive)
          .map((l) => ({ __typename: "Location", ...l })),
        a as ConnArgs,
      ),
    collections: (a) =>
      connection(
        [...state.collections.values()].map((c) => ({ __typename: "Collection", ...c })),
        a as ConnArgs,
      ),
    products: (a) =>
      connection(
        [...state.products.values()].map((p) => state.productView(p)),
        a as ConnArgs,
      ),
    product: (a) => productNode(state.products.get(String(a.id))),
    productVariants: (a) => {
      const q = typeof a.query === "string" ? a.query : "";
      const skus = new Set(skuTerms(q));
      const rows = [...state.variants.values()].filter(
        (v) => skus.size === 0 || (v.sku !== null && skus.has(v.sku)),
      );
      return connection(
        rows.map((v) => state.variantView(v)),
        a as ConnArgs,
      );
    },
    productVariantsCount: (a) => {
      const limit = typeof a.limit === "number" ? a.limit : 10_000;
      const n = state.variants.size;
      return { count: Math.min(n, limit), precision: n > limit ? "AT_LEAST" : "EXACT" };
    },
    nodes: (a) => {
      const ids = a.ids as string[];
      if (ids.length > MAX_NODES)
        throw new GraphQLError(`The maximum number of ids is ${MAX_NODES}`, {
          extensions: { code: "BAD_REQUEST" },
        });
      return ids.map(nodeById);
    },
    node: (a) => nodeById(String(a.id)),
    order: (a) => {
      const o = state.orders.get(String(a.id));
      return o ? state.orderView(o) : null;
    },
    orders: (a) => {
      const since = updatedSince(a.query as string | undefined);
      let rows = [...state.orders.values()].filter((o) => !since || o.updatedAt >= since);
      const key = a.sortKey === "UPDATED_AT" ? "updatedAt" : "createdAt";
      rows = rows.sort((x, y) => (x[key] < y[key] ? -1 : x[key] > y[key] ? 1 : x.number - y.number));
      if (a.reverse) rows.reverse();
      return connection(
        rows.map((o) => state.orderView(o)),
        a as ConnArgs,
      );
    },

    collectionCreate: (a) => {
      const input = (a.collection ?? a.input) as { title?: string } | undefined;
      if (!input?.title)
        return {
          collection: null,
          userErrors: [{ field: ["collection", "title"], message: "Title can't be blank" }],
        };
      const id = state.newId("Collection");
      state.collections.set(id, { id, title: input.title });
      return { collection: { __typename: "Collection", id, title: input.title }, userErrors: [] };
    },

    productSet: (a) => {
      const input = a.input as {
        title?: string;
        vendor?: string;
        status?: ShopifyProduct["status"];
        descriptionHtml?: string;
        collections?: string[];
        productOptions?: Array<{ name: string; values?: Array<{ name: string }> }>;
        variants?: Array<{
          id?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string | null;
          compareAtPrice?: string | null;
          optionValues: Array<{ optionName?: string | null; name?: string | null }>;
        }>;
      };
      const identifier = a.identifier as { id?: string } | null | undefined;
      const errors: UserError[] = [];
      const existing = identifier?.id ? state.products.get(identifier.id) : undefined;
      if (identifier?.id && !existing) {
        return {
          product: null,
          userErrors: [
            {
              field: ["identifier", "id"],
              message: "Product does not exist",
              code: "PRODUCT_DOES_NOT_EXIST",
            },
          ],
        };
      }
      if (!existing && !input.title)
        errors.push({ field: ["input", "title"], message: "Title can't be blank", code: "INVALID_PRODUCT" });
      const options =
        input.productOptions ??
        (existing
          ? existing.options.map((o) => ({ name: o.name, values: o.values.map((v) => ({ name: v })) }))
          : []);
      const variants = input.variants ?? [];
      if (variants.length > 0 && options.length === 0) {
        errors.push({
          field: ["input", "productOptions"],
          message: "Product options input is required when updating variants",
          code: "PRODUCT_OPTIONS_INPUT_MISSING",
        });
      }
      if (variants.length > 2048)
        errors.push({
          field: ["input", "variants"],
          message: "Too many variants",
          code: "VARIANTS_OVER_LIMIT",
        });
      const names = new Set(options.map((o) => o.name));
      const combos = new Set<string>();
      variants.forEach((v, i) => {
        const given = v.optionValues.map((o) => o.optionName ?? "");
        if (given.length !== names.size || given.some((n) => !names.has(n))) {
          errors.push({
            field: ["input", "variants", String(i), "optionValues"],
            message: "Option values must name every product option",
            code: "OPTION_VALUES_MISSING",
          });
        }
        const combo = v.optionValues
          .map((o) => `${o.optionName}=${o.name}`)
          .sort()
          .join("|");
        if (combos.has(combo))
          errors.push({
            field: ["input", "variants", String(i)],
            message: "The variant already exists",
            code: "DUPLICATED_OPTION_VALUE",
          });
        combos.add(combo);
        if (v.id && (!state.variants.has(v.id) || state.variants.get(v.id)?.productId !== existing?.id)) {
          errors.push({
            field: ["input", "variants", String(i), "id"],
            message: "Variant does not exist",
            code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
          });
        }
      });
      for (const c of input.collections ?? []) {
        if (!state.collections.has(c))
          errors.push({
            field: ["input", "collections"],
            message: `Collection ${c} does not exist`,
            code: "INVALID_INPUT",
          });
      }
      if (errors.length > 0) return { product: null, userErrors: errors };
      const rows = variants.map((v) => {
        const prev = v.id ? (state.variants.get(v.id) as ShopifyVariant) : undefined;
        return {
          id: v.id,
          sku: v.sku !== undefined ? v.sku : (prev?.sku ?? null),
          barcode: v.barcode !== undefined ? v.barcode : (prev?.barcode ?? null),
          // Omitted fields of an existing variant are kept (inferred); a new one defaults to 0.00.
          price: v.price ?? prev?.price ?? "0.00",
          compareAtPrice: v.compareAtPrice !== undefined ? v.compareAtPrice : (prev?.compareAtPrice ?? null),
          options: v.optionValues.map((o) => ({ name: o.optionName ?? "", value: o.name ?? "" })),
        };
      });
      const productOptions = options.map((o) => ({
        name: o.name,
        values: (o.values ?? []).map((v) => v.name),
      }));
      let product: ShopifyProduct;
      if (existing) {
        Object.assign(existing, {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.vendor !== undefined ? { vendor: input.vendor } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.descriptionHtml !== undefined ? { descriptionHtml: input.descriptionHtml } : {}),
          ...(input.collections !== undefined ? { collectionIds: input.collections } : {}),
          options: productOptions,
        });
        if (input.variants) state.replaceVariants(existing, rows);
        product = existing;
      } else {
        product = state.createProduct({
          title: input.title ?? "",
          vendor: input.vendor ?? "",
          status: input.status ?? "ACTIVE",
          descriptionHtml: input.descriptionHtml ?? "",
          options: productOptions,
          collectionIds: input.collections ?? [],
          variants: rows,
        });
      }
      return { product: state.productView(product), userErrors: [] };
    },

    productVariantsBulkUpdate: (a) => {
      stats.priceCalls++;
      const productId = String(a.productId);
      const product = state.products.get(productId);
      if (!product)
        return {
          product: null,
          productVariants: null,
          userErrors: [
            { field: ["productId"], message: "Product does not exist", code: "PRODUCT_DOES_NOT_EXIST" },
          ],
        };
      const rows = a.variants as Array<{
        id?: string | null;
        price?: string | null;
        compareAtPrice?: string | null;
        barcode?: string | null;
      }>;
      stats.priceItems += rows.length;
      const errors: UserError[] = [];
      const ok: Array<{ v: ShopifyVariant; row: (typeof rows)[number] }> = [];
      rows.forEach((row, i) => {
        const v = row.id ? state.variants.get(row.id) : undefined;
        if (!row.id)
          errors.push({
            field: ["variants", String(i), "id"],
            message: "Product variant is missing ID attribute",
            code: "PRODUCT_VARIANT_ID_MISSING",
          });
        else if (!v)
          errors.push({
            field: ["variants", String(i), "id"],
            message: "Product variant does not exist",
            code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
          });
        else if (v.productId !== productId)
          errors.push({
            field: ["variants", String(i), "id"],
            message: "Product variant does not belong to this product",
            code: "MUST_BE_FOR_THIS_PRODUCT",
          });
        else if (row.price != null && Number(row.price) < 0)
          errors.push({
            field: ["variants", String(i), "price"],
            message: "Price must be greater than or equal to 0",
            code: "NEGATIVE_PRICE_VALUE",
          });
        else ok.push({ v, row });
      });
      if (errors.length > 0 && !a.allowPartialUpdates)
        return { product: null, productVariants: null, userErrors: errors };
      for (const { v, row } of ok) {
        if (row.price != null) v.price = Number(row.price).toFixed(2);
        if (row.compareAtPrice !== undefined)
          v.compareAtPrice = row.compareAtPrice === null ? null : Number(row.compareAtPrice).toFixed(2);
        if (row.barcode !== undefined) v.barcode = row.barcode;
        v.updatedAt = new Date(state.now()).toISOString();
      }
      return {
        product: state.productView(product),
        productVariants: ok.map(({ v }) => state.variantView(v)),
        userErrors: errors,
      };
    },

    inventorySetQuantities: (a) => {
      stats.stockCalls++;
      const input = a.input as {
        name: string;
        reason: string;
        quantities: Array<{
          inventoryItemId: string;
          locationId: string;
          quantity: number;
          changeFromQuantity?: number | null;
        }>;
      };
      stats.stockItems += input.quantities.length;
      const errors: UserError[] = [];
      if (input.name !== "available" && input.name !== "on_hand")
        errors.push({
          field: ["input", "name"],
          message: "The quantity name must be either 'available' or 'on_hand'",
          code: "INVALID_NAME",
        });
      if (!REASONS.has(input.reason))
        errors.push({
          field: ["input", "reason"],
          message: "The specified reason is invalid",
          code: "INVALID_REASON",
        });
      if (input.quantities.length > MAX_QUANTITIES)
        errors.push({
          field: ["input", "quantities"],
          message: `At most ${MAX_QUANTITIES} quantities`,
          code: "INVALID_QUANTITY_TOO_HIGH",
        });
      const items = new Set([...state.variants.values()].map((v) => v.inventoryItemId));
      const seen = new Set<string>();
      input.quantities.forEach((q, i) => {
        const f = (x: string) => ["input", "quantities", String(i), x];
        // Since 2026-04 the field is mandatory although nullable: omission is refused (null skips the check).
        if (!("changeFromQuantity" in q))
          errors.push({
            field: f("changeFromQuantity"),
            message: "The changeFromQuantity argument must be specified",
            code: "COMPARE_QUANTITY_REQUIRED",
          });
        if (!items.has(q.inventoryItemId))
          errors.push({
            field: f("inventoryItemId"),
            message: "The specified inventory item could not be found",
            code: "INVALID_INVENTORY_ITEM",
          });
        if (!state.locations.some((l) => l.id === q.locationId))
          errors.push({
            field: f("locationId"),
            message: "The specified location could not be found",
            code: "INVALID_LOCATION",
          });
        if (q.quantity < -1_000_000_000 || q.quantity > 1_000_000_000)
          errors.push({
            field: f("quantity"),
            message: "The quantity is out of range",
            code: q.quantity < 0 ? "INVALID_QUANTITY_TOO_LOW" : "INVALID_QUANTITY_TOO_HIGH",
          });
        const key = `${q.inventoryItemId}|${q.locationId}`;
        if (seen.has(key))
          errors.push({
            field: f("inventoryItemId"),
            message: "The combination of inventoryItemId and locationId must be unique",
            code: "NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR",
          });
        seen.add(key);
        if (
          q.changeFromQuantity != null &&
          q.changeFromQuantity !== state.available(q.inventoryItemId, q.locationId)
        ) {
          errors.push({
            field: f("changeFromQuantity"),
            message: "The specified compare quantity does not match the current quantity",
            code: "CHANGE_FROM_QUANTITY_STALE",
          });
        }
      });
      // All or nothing (inferred from the documented compare-and-swap semantics).
      if (errors.length > 0) return { inventoryAdjustmentGroup: null, userErrors: errors };
      for (const q of input.quantities)
        state.inventory.set(`${q.inventoryItemId}|${q.locationId}`, q.quantity);
      return {
        inventoryAdjustmentGroup: {
          __typename: "InventoryAdjustmentGroup",
          id: state.newId("InventoryAdjustmentGroup"),
          reason: input.reason,
          createdAt: new Date(state.now()).toISOString(),
        },
        userErrors: [],
      };
    },

    fulfillmentCreate: (a) => {
      const f = a.fulfillment as {
        lineItemsByFulfillmentOrder: Array<{ fulfillmentOrderId: string }>;
        trackingInfo?: { company?: string; number?: string; url?: string } | null;
      };
      const orders = new Set<string>();
      for (const [i, g] of f.lineItemsByFulfillmentOrder.entries()) {
        const order = [...state.orders.values()].find((o) =>
          o.fulfillmentOrders.some((x) => x.id === g.fulfillmentOrderId),
        );
        const fo = order?.fulfillmentOrders.find((x) => x.id === g.fulfillmentOrderId);
        if (!order || !fo)
          return {
            fulfillment: null,
            userErrors: [
              {
                field: ["fulfillment", "lineItemsByFulfillmentOrder", String(i)],
                message: "Fulfillment order does not exist.",
              },
            ],
          };
        if (fo.status === "CLOSED")
          return {
            fulfillment: null,
            userErrors: [
              { field: ["fulfillment"], message: "Fulfillment order is not in an acceptable state." },
            ],
          };
        orders.add(order.id);
      }
      if (orders.size !== 1)
        return {
          fulfillment: null,
          userErrors: [
            { field: ["fulfillment"], message: "All fulfillment orders must belong to the same order." },
          ],
        };
      const order = state.orders.get([...orders][0] as string);
      if (!order)
        return { fulfillment: null, userErrors: [{ field: ["fulfillment"], message: "Order not found" }] };
      for (const g of f.lineItemsByFulfillmentOrder) {
        const fo = order.fulfillmentOrders.find((x) => x.id === g.fulfillmentOrderId);
        if (fo) fo.status = "CLOSED";
      }
      const id = state.newId("Fulfillment");
      order.fulfillments.push({
        id,
        createdAt: new Date(state.now()).toISOString(),
        company: f.trackingInfo?.company,
        number: f.trackingInfo?.number,
        url: f.trackingInfo?.url,
      });
      if (order.fulfillmentOrders.every((x) => x.status === "CLOSED")) order.fulfillment = "FULFILLED";
      state.touchOrder(order);
      return {
        fulfillment: {
          __typename: "Fulfillment",
          id,
          status: "SUCCESS",
          name: `${order.name}-F${order.fulfillments.length}`,
        },
        userErrors: [],
      };
    },

    orderMarkAsPaid: (a) => {
      const id = String((a.input as { id: string }).id);
      const order = state.orders.get(id);
      if (!order) return { order: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] };
      if (order.financial === "PAID")
        return {
          order: state.orderView(order),
          userErrors: [{ field: ["id"], message: "Order cannot be marked as paid." }],
        };
      order.financial = "PAID";
      order.paidAt = new Date(state.now()).toISOString();
      state.touchOrder(order);
      return { order: state.orderView(order), userErrors: [] };
    },

    metafieldsSet: (a) => {
      const list = a.metafields as Array<{
        ownerId: string;
        namespace?: string | null;
        key: string;
        type?: string | null;
        value: string;
      }>;
      if (list.length > 25)
        return {
          metafields: null,
          userErrors: [
            {
              field: ["metafields"],
              message: "Exceeded the maximum metafields input limit of 25.",
              code: "LESS_THAN_OR_EQUAL_TO",
            },
          ],
        };
      const out: Array<Record<string, unknown>> = [];
      const errors: UserError[] = [];
      for (const [i, m] of list.entries()) {
        const order = state.orders.get(m.ownerId);
        if (!order) {
          errors.push({
            field: ["metafields", String(i), "ownerId"],
            message: "Owner does not exist.",
            code: "INVALID",
          });
          continue;
        }
        if (m.type === "json") {
          try {
            JSON.parse(m.value);
          } catch {
            errors.push({
              field: ["metafields", String(i), "value"],
              message: "Value is invalid JSON.",
              code: "INVALID_VALUE",
            });
            continue;
          }
        }
        const ns = m.namespace ?? "app";
        const prev = order.metafields.get(`${ns}.${m.key}`);
        const row = {
          id: prev?.id ?? state.newId("Metafield"),
          namespace: ns,
          key: m.key,
          type: m.type ?? prev?.type ?? "single_line_text_field",
          value: m.value,
        };
        order.metafields.set(`${ns}.${m.key}`, row);
        out.push({ __typename: "Metafield", ...row });
      }
      if (errors.length > 0) return { metafields: null, userErrors: errors };
      return { metafields: out, userErrors: [] };
    },

    webhookSubscriptions: (a) => {
      const uri = typeof a.uri === "string" ? a.uri : undefined;
      const nodes = deps.webhooks.subscriptions.filter((s) => !uri || s.uri === uri).map(subscriptionNode);
      return {
        nodes,
        edges: nodes.map((node) => ({ node, cursor: node.id })),
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      };
    },

    webhookSubscriptionCreate: (a) => {
      const input = (a.webhookSubscription ?? {}) as { uri?: string | null; callbackUrl?: string | null };
      const uri = input.uri ?? input.callbackUrl;
      if (!uri || !/^https?:\/\//.test(uri))
        return {
          webhookSubscription: null,
          userErrors: [{ field: ["webhookSubscription", "uri"], message: "Address is invalid" }],
        };
      return {
        webhookSubscription: subscriptionNode(deps.webhooks.subscribe(String(a.topic), uri)),
        userErrors: [],
      };
    },

    bulkOperationRunQuery: (a) => {
      const r = deps.startBulk(String(a.query));
      if ("error" in r)
        return {
          bulkOperation: null,
          userErrors: [{ field: ["query"], message: r.error.message, code: r.error.code }],
        };
      return { bulkOperation: deps.bulkNode(r.id), userErrors: [] };
    },
  };
}

function subscriptionNode(s: WebhookSubscription) {
  return {
    __typename: "WebhookSubscription",
    id: `gid://shopify/WebhookSubscription/${s.id}`,
    topic: s.topic,
    uri: s.uri,
    callbackUrl: s.uri,
    format: "JSON",
    createdAt: s.createdAt,
    updatedAt: s.createdAt,
    includeFields: [],
    metafieldNamespaces: [],
  };
}
