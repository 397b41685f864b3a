import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { describeFailures } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { startWebhookSink } from "../testing/webhook-sink";
import { type ShopifyEmulator, startShopifyEmulator } from "./emulator/server";
import { judgeShopifyRecorded } from "./judge/conformance";
import { SHOPIFY_RULES } from "./judge/rules";
import { shopifyWebhooks } from "./webhooks";

let emu: ShopifyEmulator;
let sink: Awaited<ReturnType<typeof startWebhookSink>>;
const ctx = (): ConnectorContext => ({
  companyId: "wh",
  rateLimitStore: new InMemoryRateLimitStore(),
  timeoutMs: 1000,
  retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 },
});

beforeAll(async () => {
  emu = await startShopifyEmulator({ host: "127.0.0.1", seed: 3, productCount: 10, orderCount: 0 });
  sink = await startWebhookSink();
});
afterAll(async () => {
  await emu.close();
  await sink.close();
});

describe("Shopify webhooks", () => {
  it("registers orders/create and orders/updated once, through a 429 and a 5xx", async () => {
    emu.setFaults({
      retryAfterSeconds: 0,
      queue: [
        { kind: "429", operation: "webhookSubscriptionCreate" },
        { kind: "5xx", operation: "webhookSubscriptions" },
      ],
    });
    const reg = await shopifyWebhooks.register(emu.credentials, ctx(), sink.url);
    expect(reg.topics).toEqual(["orders/create", "orders/updated"]);
    await shopifyWebhooks.register(emu.credentials, ctx(), sink.url);
    expect(emu.webhooks.subscriptions.map((s) => [s.topic, s.uri])).toEqual([
      ["ORDERS_CREATE", sink.url],
      ["ORDERS_UPDATED", sink.url],
    ]);
    emu.setFaults({});
  });

  it("refuses to register with a revoked token", async () => {
    const other = await startShopifyEmulator({ host: "127.0.0.1", seed: 4, productCount: 1 });
    try {
      const creds = { ...other.credentials };
      other.revokeToken();
      await expect(shopifyWebhooks.register(creds, ctx(), sink.url)).rejects.toMatchObject({
        reason: "auth",
      });
      await expect(shopifyWebhooks.register(creds, ctx(), sink.url)).rejects.toBeInstanceOf(ConnectorError);
    } finally {
      await other.close();
    }
  });

  it("gets a signed delivery per new order and verifies it; a changed body or secret fails", async () => {
    const orders = emu.generateOrders(2);
    await emu.webhooks.idle();
    expect(sink.received).toHaveLength(2);
    const secret = shopifyWebhooks.signingSecret(emu.credentials);
    if (!secret) throw new Error("emulator credentials carry no apiSecretKey");
    const verified = sink.received.map((d) => shopifyWebhooks.verify(d.body, d.headers, secret));
    expect(verified.map((v) => v?.orderIds?.[0])).toEqual(orders.map((o) => o.id));
    expect(verified.every((v) => v?.topic === "orders/create" && v.isOrder)).toBe(true);
    expect(new Set(verified.map((v) => v?.deliveryId)).size).toBe(2);
    const first = sink.received[0]!;
    const tampered = Buffer.from(first.body.toString().replace(/"name":"#/, '"name":"#9'));
    expect(shopifyWebhooks.verify(tampered, first.headers, secret)).toBeNull();
    expect(shopifyWebhooks.verify(first.body, first.headers, `${secret}x`)).toBeNull();
    expect(
      shopifyWebhooks.verify(first.body, { ...first.headers, "x-shopify-hmac-sha256": undefined }, secret),
    ).toBeNull();
  });

  it("sent only requests Shopify's schema accepts", () => {
    const report = judgeWithRules(emu.recorder.list(), judgeShopifyRecorded, SHOPIFY_RULES);
    console.info(
      `shopify webhook conformance: ${report.requests} requests, operations ${Object.keys(report.operations).join(", ")}, rejected ${report.failures.length}`,
    );
    expect(Object.keys(report.operations)).toEqual(
      expect.arrayContaining(["query WebhookSubscriptions", "mutation WebhookSubscriptionCreate"]),
    );
    expect(report.failures, describeFailures(report)).toEqual([]);
  });
});
