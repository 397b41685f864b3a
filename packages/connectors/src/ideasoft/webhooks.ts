/**
 * Ideasoft order webhooks through the file's `ClientWebhook` resource (`GET`/`POST /admin-api/client_webhooks`:
 * `{topic, address, status}`, topics `order/create` and `order/update`). The file documents no delivery
 * body, no delivery id, no signature and no signing secret, so nothing can be verified cryptographically:
 * a delivery is a bare trigger. What stands in for the signature (the server's webhook service):
 * - the unguessable per-connection token in the callback URL is the only proof of origin;
 * - nothing in the payload is trusted: the order run reads orders from the API as polling does;
 * - the payload's order id and status (when present) only form a de-duplication key, repeated within
 *   a window; a payload without them is keyed by its bytes;
 * - a per-connection cap on runs started by deliveries stops a flood.
 */

import { createHash } from "node:crypto";
import type { ShopWebhooks, WebhookDelivery, WebhookHeaders, WebhookRegistration } from "../sdk/connector";
import { IdeasoftClient } from "./client";

/** The file's `ClientWebhook.topic` values that concern orders. */
export const IDEASOFT_ORDER_TOPICS = ["order/create", "order/update"] as const;

interface ClientWebhook {
  id?: number;
  topic: string;
  address: string;
  status: number;
}

export async function registerIdeasoftWebhooks(
  client: IdeasoftClient,
  callbackUrl: string,
): Promise<WebhookRegistration> {
  const existing = await client.all<ClientWebhook>("listClientWebhooks", "/client_webhooks", { sort: "id" });
  const active = new Set(
    existing.filter((w) => w.address === callbackUrl && w.status === 1).map((w) => w.topic),
  );
  for (const topic of IDEASOFT_ORDER_TOPICS) {
    if (active.has(topic)) continue;
    // An inactive subscription of ours is switched on again instead of adding a second one.
    const inactive = existing.find((w) => w.address === callbackUrl && w.topic === topic && w.id);
    if (inactive?.id)
      await client.call("updateClientWebhook", "write", "PUT", `/client_webhooks/${inactive.id}`, {
        body: { topic, address: callbackUrl, status: 1 },
      });
    else
      await client.call("createClientWebhook", "write", "POST", "/client_webhooks", {
        body: { topic, address: callbackUrl, status: 1 },
      });
  }
  return { topics: [...IDEASOFT_ORDER_TOPICS] };
}

/**
 * A delivery as a trigger. Its de-duplication key: `order:{id}:{status}` when the body is a JSON object
 * with an id (the body's shape is not in the file: inferred to be the resource, as `fields` suggests),
 * else the SHA-256 of the bytes. Never null: without a signature there is nothing to refuse here.
 */
export function readIdeasoftDelivery(rawBody: Buffer, _headers: WebhookHeaders): WebhookDelivery {
  let body: { id?: unknown; status?: unknown } | undefined;
  try {
    const parsed = JSON.parse(rawBody.toString("utf8")) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as typeof body;
  } catch {
    body = undefined;
  }
  const id = body?.id;
  const hasId =
    (typeof id === "number" && Number.isSafeInteger(id)) || (typeof id === "string" && /^\d{1,20}$/.test(id));
  const status = typeof body?.status === "string" ? body.status.slice(0, 40) : "";
  const deliveryId = hasId
    ? `order:${String(id)}:${status}`
    : `body:${createHash("sha256").update(rawBody).digest("hex")}`;
  return {
    deliveryId,
    topic: "order",
    isOrder: true,
    ...(hasId ? { orderIds: [String(id)] } : {}),
  };
}

export const ideasoftWebhooks: ShopWebhooks = {
  authentication: "url-token",
  signingSecret: () => undefined,
  register: (credentials, ctx, callbackUrl) =>
    registerIdeasoftWebhooks(new IdeasoftClient(credentials, ctx), callbackUrl),
  verify: (rawBody, headers) => readIdeasoftDelivery(rawBody, headers),
};
