/**
 * Shopify order webhooks: `webhookSubscriptionCreate` (HTTP callback, JSON) for orders/create and
 * orders/updated, and the delivery check — `X-Shopify-Hmac-Sha256` over the raw body with the app's API
 * secret key. `X-Shopify-Webhook-Id` is not signed, so a delivery is keyed by its signed body's hash.
 */

import { createHash } from "node:crypto";
import type { ShopWebhooks, WebhookDelivery, WebhookHeaders, WebhookRegistration } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { verifyShopifyWebhook } from "./auth";
import { ShopifyClient } from "./client";

export const SHOPIFY_ORDER_TOPICS = ["ORDERS_CREATE", "ORDERS_UPDATED"] as const;

function header(headers: WebhookHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

type SubscriptionsAnswer = {
  webhookSubscriptions: { nodes: Array<{ id: string; topic: string; uri: string }> };
};
type CreateAnswer = {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string; topic: string } | null;
    userErrors: Array<{ field: string[] | null; message: string }>;
  };
};

export async function registerShopifyWebhooks(
  client: ShopifyClient,
  callbackUrl: string,
): Promise<WebhookRegistration> {
  const existing = await client.gql<SubscriptionsAnswer>(
    "webhookSubscriptions",
    "read",
    "query WebhookSubscriptions($uri: String) { webhookSubscriptions(first: 50, uri: $uri) { nodes { id topic uri } } }",
    { uri: callbackUrl },
  );
  const have = new Set(
    existing.webhookSubscriptions.nodes.filter((n) => n.uri === callbackUrl).map((n) => n.topic),
  );
  for (const topic of SHOPIFY_ORDER_TOPICS) {
    if (have.has(topic)) continue;
    const d = await client.gql<CreateAnswer>(
      "webhookSubscriptionCreate",
      "write",
      "mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) { webhookSubscription { id topic } userErrors { field message } } }",
      { topic, sub: { uri: callbackUrl, format: "JSON" } },
    );
    const errors = d.webhookSubscriptionCreate.userErrors;
    if (errors.length > 0) {
      throw new ConnectorError(`shopify webhookSubscriptionCreate: ${errors[0]!.message}`, {
        reason: "validation",
        system: "shopify",
        operation: "webhookSubscriptionCreate",
        systemMessage: errors.map((e) => e.message).join("; "),
      });
    }
  }
  return { topics: SHOPIFY_ORDER_TOPICS.map((t) => t.toLowerCase().replace("_", "/")) };
}

export function verifyShopifyDelivery(
  rawBody: Buffer,
  headers: WebhookHeaders,
  secret: string,
): WebhookDelivery | null {
  if (!verifyShopifyWebhook(rawBody, header(headers, "x-shopify-hmac-sha256"), secret)) return null;
  // The HMAC covers the body only, not the X-Shopify-Webhook-Id header: the key is the signed body's
  // hash, so a captured delivery resent with new ids is a repeat.
  if (!header(headers, "x-shopify-webhook-id") && !header(headers, "x-shopify-event-id")) return null;
  const deliveryId = `body:${createHash("sha256").update(rawBody).digest("hex")}`;
  const topic = header(headers, "x-shopify-topic") ?? "";
  let orderIds: string[] | undefined;
  try {
    const body = JSON.parse(rawBody.toString("utf8")) as { admin_graphql_api_id?: string };
    if (body.admin_graphql_api_id) orderIds = [body.admin_graphql_api_id];
  } catch {
    // A signed body that is not JSON still counts as a trigger.
  }
  return { deliveryId, topic, isOrder: topic.startsWith("orders/"), orderIds };
}

export const shopifyWebhooks: ShopWebhooks = {
  // A Dev Dashboard or public app signs with its client secret; a legacy custom app with its API secret key.
  signingSecret: (credentials) => credentials.apiSecretKey || credentials.clientSecret || undefined,
  register: (credentials, ctx, callbackUrl) =>
    registerShopifyWebhooks(new ShopifyClient(credentials, ctx), callbackUrl),
  verify: verifyShopifyDelivery,
};
