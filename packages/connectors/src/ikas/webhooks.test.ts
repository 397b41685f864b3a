import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext } from "../sdk/connector";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { describeFailures, judgeRequests } from "../testing/recorder";
import { startWebhookSink } from "../testing/webhook-sink";
import { type IkasEmulator, startIkasEmulator } from "./emulator/server";
import { judgeIkasRecorded } from "./judge/conformance";
import { ikasWebhooks } from "./webhooks";

let emu: IkasEmulator;
let sink: Awaited<ReturnType<typeof startWebhookSink>>;
const ctx = (): ConnectorContext => ({
  companyId: "wh",
  rateLimitStore: new InMemoryRateLimitStore(),
  timeoutMs: 300,
  retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 },
});

beforeAll(async () => {
  emu = await startIkasEmulator({ host: "127.0.0.1", seed: 3, productCount: 10, orderCount: 0 });
  sink = await startWebhookSink();
});
afterAll(async () => {
  await emu.close();
  await sink.close();
});

describe("IKAS webhooks", () => {
  it("saves the order scopes once, through a 429, a 5xx, a timeout and an expired token", async () => {
    emu.setFaults({
      retryAfterSeconds: 0,
      hangMs: 600,
      queue: [
        { kind: "429", operation: "listWebhook" },
        { kind: "5xx", operation: "listWebhook" },
        { kind: "timeout", operation: "saveWebhook" },
      ],
    });
    const reg = await ikasWebhooks.register(emu.credentials, ctx(), sink.url);
    expect(reg.topics).toEqual(["store/order/created", "store/order/updated"]);
    emu.setFaults({});
    emu.expireTokens();
    await ikasWebhooks.register(emu.credentials, ctx(), sink.url);
    expect(emu.webhooks.subscriptions.map((s) => [s.topic, s.uri])).toEqual([
      ["store/order/created", sink.url],
      ["store/order/updated", sink.url],
    ]);
  });

  it("gets a signed IkasWebhook per new order and verifies it like the package; tampering fails", async () => {
    const orders = emu.generateOrders(2);
    await emu.webhooks.idle();
    expect(sink.received).toHaveLength(2);
    const secret = ikasWebhooks.signingSecret(emu.credentials);
    if (!secret) throw new Error("no client secret");
    const verified = sink.received.map((d) => ikasWebhooks.verify(d.body, d.headers, secret));
    expect(verified.map((v) => v?.orderIds?.[0])).toEqual(orders.map((o) => o.id));
    expect(verified.every((v) => v?.topic === "store/order/created" && v.isOrder)).toBe(true);
    // The package's own check (validateIkasWebhookSignature): hex HMAC-SHA256 of `data`.
    const body = JSON.parse(sink.received[0]!.body.toString()) as { data: string; signature: string };
    expect(createHmac("sha256", secret).update(body.data, "utf8").digest("hex")).toBe(body.signature);
    const tampered = Buffer.from(JSON.stringify({ ...body, data: body.data.replace(/"id":"/, '"id":"x') }));
    expect(ikasWebhooks.verify(tampered, {}, secret)).toBeNull();
    expect(ikasWebhooks.verify(sink.received[0]!.body, {}, `${secret}x`)).toBeNull();
    expect(ikasWebhooks.verify(Buffer.from("not json"), {}, secret)).toBeNull();
  });

  it("sent only requests the schema derived from @ikas/api-client accepts", () => {
    const report = judgeRequests(emu.recorder.list(), judgeIkasRecorded);
    console.info(
      `ikas webhook conformance: ${report.requests} requests, operations ${Object.keys(report.operations).join(", ")}, rejected ${report.failures.length}`,
    );
    expect(report.failures, describeFailures(report)).toEqual([]);
    expect(Object.keys(report.operations).join()).toMatch(/SaveWebhook/);
  });
});
