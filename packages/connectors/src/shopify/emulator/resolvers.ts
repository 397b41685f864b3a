/**
 * Root resolvers of the Shopify emulator. Inputs arrive already coerced by graphql-js against Shopify's
 * schema; what the schema cannot say (user errors, limits, the mandatory `changeFromQuantity`) is checked
 * here in Shopify's answer shapes. Behaviour the artifact does not describe is marked "inferred".
 */

import { GraphQLError } from "graphql";
import type { WebhookSubscription } from "../../testing/webhooks";
import type { Resolver, ResolverDeps } from "./resolver-types";
import { catalogMutations } from "./resolvers-catalog";
import { orderMutations } from "./resolvers-orders";
import { inventoryMutations } from "./resolvers-stock";
import { type ConnArgs, connection, type ShopifyProduct } from "./state";

export type { Resolver, ResolverDeps, UserError } from "./resolver-types";

/** Documented limit: 250 ids per nodes. */
const MAX_NODES = 250;

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
  const { state } = deps;
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

    ...catalogMutations(deps),
    ...inventoryMutations(deps),
    ...orderMutations(deps),

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
