import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { describeFailures, judgeRequests } from "../testing/recorder";
import { startWebhookSink } from "../testing/webhook-sink";
import { type IdeasoftEmulator, startIdeasoftEmulator } from "./emulator/server";
import { ideasoftJudge } from "./judge/openapi";
import { ideasoftWebhooks, readIdeasoftDelivery } from "./webhooks";

const judge = ideasoftJudge();
let emu: IdeasoftEmulator;
let sink: Awaited<ReturnType<typeof startWebhookSink>>;
// As the server does: each refresh kills the refresh token it used; the new pair is stored.
let stored: Credentials = {};
const creds = (): Credentials => ({ ...emu.credentials, ...stored });
const ctx = (): ConnectorContext => ({
  companyId: "wh",
  persistCredentials: async (changed) => {
    stored = { ...stored, ...changed };
  },
  rateLimitStore: new InMemoryRateLimitStore(),
  timeoutMs: 300,
  retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 },
});

beforeAll(async () => {
  emu = await startIdeasoftEmulator({
    host: "127.0.0.1",
    seed: 5,
    productCount: 10,
    orderCount: 0,
    rateLimit: false,
    judge,
    recordAnswers: true,
    faults: { hangMs: 600 },
  });
  sink = await startWebhookSink();
});
afterAll(async () => {
  await emu?.close();
  await sink?.close();
});

describe("Ideasoft webhooks (client_webhooks)", () => {
  it("declares no signature: the URL token authenticates, the payload is only a trigger", () => {
    expect(ideasoftWebhooks.authentication).toBe("url-token");
    expect(ideasoftWebhooks.signingSecret(emu.credentials)).toBeUndefined();
  });

  it("subscribes order/create and order/update once, through a 429, a 5xx, a timeout and an expired token", async () => {
    emu.setFaults({
      retryAfterSeconds: 0,
      hangMs: 600,
      queue: [
        { kind: "429", operation: "listClientWebhooks" },
        { kind: "5xx", operation: "listClientWebhooks" },
        { kind: "timeout", operation: "listClientWebhooks" },
      ],
    });
    const reg = await ideasoftWebhooks.register(creds(), ctx(), sink.url);
    expect(reg.topics).toEqual(["order/create", "order/update"]);
    emu.setFaults({});
    emu.expireTokens();
    await ideasoftWebhooks.register(creds(), ctx(), sink.url);
    expect(emu.clientWebhooks.map((w) => [w.topic, w.address, w.status])).toEqual([
      ["order/create", sink.url, 1],
      ["order/update", sink.url, 1],
    ]);
  });

  it("switches a subscription someone turned off back on instead of adding one", async () => {
    emu.clientWebhooks[1]!.status = 0;
    await ideasoftWebhooks.register(creds(), ctx(), sink.url);
    expect(emu.clientWebhooks).toHaveLength(2);
    expect(emu.clientWebhooks.every((w) => w.status === 1)).toBe(true);
  });

  it("a new order delivers; the key is order id + status, the same body twice is one key", async () => {
    const [order] = emu.generateOrders(1);
    await emu.webhooks.idle();
    expect(sink.received).toHaveLength(1);
    const first = ideasoftWebhooks.verify(sink.received[0]!.body, sink.received[0]!.headers, "");
    expect(first).toMatchObject({ isOrder: true, orderIds: [String(order!.id)] });
    expect(first?.deliveryId).toBe(`order:${order!.id}:${order!.status}`);
    const again = readIdeasoftDelivery(Buffer.from(sink.received[0]!.body), {});
    expect(again.deliveryId).toBe(first?.deliveryId);
    // Anything else is still only a trigger, keyed by its bytes.
    const junk = readIdeasoftDelivery(Buffer.from("not json"), {});
    expect(junk.deliveryId).toMatch(/^body:[0-9a-f]{64}$/);
    expect(junk.orderIds).toBeUndefined();
    expect(readIdeasoftDelivery(Buffer.from('{"id":"1; drop"}'), {}).deliveryId).toMatch(/^body:/);
  });

  it("every request was a valid operation of the vendor OpenAPI, every answer validates", () => {
    const report = judgeRequests(emu.recorder.list(), judge.requestJudge);
    console.info(
      `Ideasoft webhook conformance: ${report.requests} requests, operations ${Object.keys(report.operations).sort().join(", ")}, rejected ${report.failures.length}`,
    );
    expect(report.failures, describeFailures(report)).toEqual([]);
    expect(emu.counters.refused).toBe(0);
    expect(Object.keys(report.operations).join()).toMatch(/client_webhooks/);
    const answers = emu.answers.filter((a) => a.path.includes("client_webhooks") && a.status < 300);
    const problems = answers.flatMap((a) => judge.judgeAnswer(a.method, a.path, a.status, a.body).problems);
    expect(answers.length).toBeGreaterThan(2);
    expect(problems).toEqual([]);
  });
});
