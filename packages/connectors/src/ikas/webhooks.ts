/**
 * IKAS order webhooks. Registration: `saveWebhook(input: WebhookInput {endpoint, scopes})` and
 * `listWebhook` (both in the schema derived from `@ikas/api-client`). Delivery: the package's
 * `IkasWebhook` JSON `{id, createdAt, scope, merchantId, data, signature, authorizedAppId}`, where
 * `signature` is the hex HMAC-SHA256 of the `data` string with the app's client secret (the package's
 * `validateIkasWebhookSignature`). The HMAC is over `data`, not the raw body: the body is parsed first,
 * and a body that is not such a JSON object is refused like a bad signature.
 */

import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { ShopWebhooks, WebhookDelivery, WebhookHeaders, WebhookRegistration } from "../sdk/connector";
import { IkasClient } from "./client";

/** Scopes of the package's `WebhookScope` enum that concern orders. */
export const IKAS_ORDER_SCOPES = ["store/order/created", "store/order/updated"] as const;

export function ikasWebhookSignature(data: string, clientSecret: string): string {
  return createHmac("sha256", clientSecret).update(data, "utf8").digest("hex");
}

export async function registerIkasWebhooks(
  client: IkasClient,
  callbackUrl: string,
): Promise<WebhookRegistration> {
  const existing = await client.gql<{
    listWebhook: Array<{ endpoint: string; scope: string; deleted: boolean }>;
  }>("listWebhook", "read", "query ListWebhook { listWebhook { id endpoint scope deleted } }");
  const have = new Set(
    existing.listWebhook.filter((w) => w.endpoint === callbackUrl && !w.deleted).map((w) => w.scope),
  );
  const missing = IKAS_ORDER_SCOPES.filter((s) => !have.has(s));
  if (missing.length > 0) {
    await client.gql<{ saveWebhook: Array<{ id: string }> | null }>(
      "saveWebhook",
      "write",
      "mutation SaveWebhook($input: WebhookInput!) { saveWebhook(input: $input) { id endpoint scope } }",
      { input: { endpoint: callbackUrl, scopes: missing } },
      // Inferred: saving the same endpoint and scopes again keeps one subscription each, so a lost
      // answer may be retried.
      { idempotent: true },
    );
  }
  return { topics: [...IKAS_ORDER_SCOPES] };
}

export function verifyIkasDelivery(
  rawBody: Buffer,
  _headers: WebhookHeaders,
  secret: string,
): WebhookDelivery | null {
  let body: { id?: unknown; scope?: unknown; data?: unknown; signature?: unknown };
  try {
    body = JSON.parse(rawBody.toString("utf8")) as typeof body;
  } catch {
    return null;
  }
  if (typeof body?.data !== "string" || typeof body.signature !== "string" || typeof body.id !== "string")
    return null;
  const expected = Buffer.from(ikasWebhookSignature(body.data, secret));
  const given = Buffer.from(body.signature.toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const scope = typeof body.scope === "string" ? body.scope : "";
  let orderIds: string[] | undefined;
  try {
    const data = JSON.parse(body.data) as { id?: unknown };
    if (typeof data.id === "string") orderIds = [data.id];
  } catch {
    // Signed but not JSON: still a trigger.
  }
  // The signature covers `data` only: the body's `id` (and `scope`) can be changed by anyone resending a
  // captured delivery, so the key is the hash of the signed `data` (a replay with new ids is a repeat).
  const deliveryId = `data:${createHash("sha256").update(body.data, "utf8").digest("hex")}`;
  return { deliveryId, topic: scope, isOrder: scope.startsWith("store/order/"), orderIds };
}

export const ikasWebhooks: ShopWebhooks = {
  signingSecret: (credentials) => credentials.clientSecret || undefined,
  register: (credentials, ctx, callbackUrl) =>
    registerIkasWebhooks(new IkasClient(credentials, ctx), callbackUrl),
  verify: verifyIkasDelivery,
};
