/**
 * Ideasoft order webhooks: registered through the OpenAPI's `client_webhooks`; the file documents no
 * signature, so the per-connection URL token authenticates, the payload is only a trigger (the run reads
 * orders from the API), repeats are de-duplicated by order id + status within a window, and a flood is
 * capped per connection.
 */
import {
  type IdeasoftEmulator,
  ideasoftDescriptor,
  ideasoftJudge,
  type MikroEmulator,
  startIdeasoftEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../src/modules/webhooks/schema.ts";
import { DELIVERIES_PER_MINUTE, UNSIGNED_REPEAT_WINDOW_MS } from "../src/modules/webhooks/service.ts";
import { companyWithConnections } from "./engine/engine-harness.ts";
import { call, startTestApp, type TestApp, until } from "./harness.ts";
import { postWebhook, webhookRunsOf, webhooksIdle } from "./webhook-harness.ts";

interface Tenant {
  token: string;
  companyId: number;
  shop: IdeasoftEmulator;
  erp: MikroEmulator;
}

let t: TestApp;
let listenUrl: string;
let a: Tenant;
let b: Tenant;
const judge = ideasoftJudge();

async function tenant(seed: number): Promise<Tenant> {
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed, productCount: 30 });
  const shop = await startIdeasoftEmulator({
    host: "127.0.0.1",
    seed,
    productCount: 20,
    orderCount: 0,
    rateLimit: false,
    judge,
    storeDomain: `magaza-${seed}.myideasoft.com`,
  });
  const { token, companyId } = await companyWithConnections(
    t,
    { systemType: 9, credentials: erp.credentials },
    { systemType: ideasoftDescriptor.type, credentials: shop.credentials },
  );
  return { token, companyId, shop, erp };
}

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  listenUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  a = await tenant(61);
  b = await tenant(63);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.shop.close(), a?.erp.close(), b?.shop.close(), b?.erp.close()]);
  await t?.close();
});

const db = () => t.ctx.database.db;

async function endpointOf(c: Tenant) {
  const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, c.companyId));
  if (!row) throw new Error("no endpoint");
  return row;
}

async function register(c: Tenant) {
  const res = await call(t.app, "POST", "/api/webhooks/register", { token: c.token });
  expect(res.status).toBe(200);
  // Registered at PUBLIC_URL (http://panel.test); the test app answers on loopback instead.
  for (const s of c.shop.webhooks.subscriptions) s.uri = s.uri.replace("http://panel.test", listenUrl);
  return res.body.data;
}

const post = (token: string, body: string) => postWebhook(t, token, body);

const webhookRuns = (c: Tenant) => webhookRunsOf(t, c.companyId);

const idle = (c: Tenant, timeoutMs?: number) => webhooksIdle(t, c.companyId, timeoutMs);

const erpOrders = (c: Tenant) => c.erp.state.table("SIPARISLER").rows.length;

describe("Ideasoft orders by webhook", () => {
  it("registers order/create and order/update at client_webhooks, each request judged by the OpenAPI", async () => {
    const before = await call(t.app, "GET", "/api/webhooks/status", { token: a.token });
    expect(before.body.data).toMatchObject({ supported: true, registered: false, lastDeliveryAt: null });
    const status = await register(a);
    expect(status).toMatchObject({ supported: true, registered: true, lastError: null });
    expect(status.topics).toEqual(["order/create", "order/update"]);
    const ep = await endpointOf(a);
    expect(a.shop.clientWebhooks.map((w) => [w.topic, w.address, w.status])).toEqual([
      ["order/create", `http://panel.test/api/webhooks/${ep.token}`, 1],
      ["order/update", `http://panel.test/api/webhooks/${ep.token}`, 1],
    ]);
    // Registering again keeps the two subscriptions.
    await register(a);
    expect(a.shop.clientWebhooks).toHaveLength(2);
    expect(a.shop.counters.refused).toBe(0);
  });

  it("a new order in the store reaches the ERP through the delivery, not the schedule", async () => {
    const erpBefore = erpOrders(a);
    a.shop.generateOrders(1);
    await a.shop.webhooks.idle();
    expect(a.shop.webhooks.stats).toMatchObject({ sent: 1, failed: 0 });
    await until("the order in the ERP", () => erpOrders(a) > erpBefore);
    expect((await webhookRuns(a)).length).toBeGreaterThanOrEqual(1);
    const status = await call(t.app, "GET", "/api/webhooks/status", { token: a.token });
    expect(status.body.data.lastDeliveryAt).not.toBeNull();
    await idle(a);
  });

  it("the payload is never trusted: a forged order is only a trigger and the ERP gets only real orders", async () => {
    await idle(a);
    const erpBefore = erpOrders(a);
    const ep = await endpointOf(a);
    const forged = JSON.stringify({ id: 999_999, status: "approved", finalAmount: 1, orderItems: [] });
    expect((await post(ep.token, forged)).statusCode).toBe(200);
    await idle(a);
    expect(erpOrders(a)).toBe(erpBefore);
  });

  it("the same order and status twice in the window starts one run; after the window it triggers again", async () => {
    await idle(a);
    const ep = await endpointOf(a);
    const runsBefore = (await webhookRuns(a)).length;
    const body = JSON.stringify({ id: 424_242, status: "waiting_for_approval" });
    const first = await post(ep.token, body);
    const second = await post(ep.token, body);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect([first.json().data.duplicate, second.json().data.duplicate]).toEqual([false, true]);
    // Another status of the same order is a new event.
    const changed = await post(ep.token, JSON.stringify({ id: 424_242, status: "approved" }));
    expect(changed.json().data.duplicate).toBe(false);
    await idle(a);
    expect((await webhookRuns(a)).length).toBeGreaterThanOrEqual(runsBefore + 1);
    const rows = await db()
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, ep.id),
          eq(webhookDeliveries.deliveryId, "order:424242:waiting_for_approval"),
        ),
      );
    expect(rows).toHaveLength(1);
    t.clock.advance(UNSIGNED_REPEAT_WINDOW_MS + 1_000);
    const later = await post(ep.token, body);
    expect(later.json().data.duplicate).toBe(false);
    await idle(a);
  });

  it("caps a flood per connection: beyond the cap deliveries answer 429, store nothing and start nothing", async () => {
    await idle(a);
    t.clock.advance(120_000);
    const ep = await endpointOf(a);
    const answers: number[] = [];
    for (let i = 0; i < DELIVERIES_PER_MINUTE + 10; i++)
      answers.push(
        (await post(ep.token, JSON.stringify({ id: 700_000 + i, status: "approved" }))).statusCode,
      );
    expect(answers.filter((s) => s === 200)).toHaveLength(DELIVERIES_PER_MINUTE);
    expect(answers.filter((s) => s === 429)).toHaveLength(10);
    const stored = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ep.id));
    expect(stored.filter((r) => r.deliveryId.startsWith("order:7")).length).toBe(DELIVERIES_PER_MINUTE);
    await idle(a, 60_000);
    // Deliveries that came during a run asked for one follow-up each time, never a run per delivery.
    const runs = await webhookRuns(a);
    expect(runs.length).toBeLessThan(DELIVERIES_PER_MINUTE);
    // A minute later the connection takes deliveries again.
    t.clock.advance(61_000);
    expect((await post(ep.token, JSON.stringify({ id: 800_001, status: "approved" }))).statusCode).toBe(200);
    await idle(a);
  }, 90_000);

  it("keeps companies apart: another company's token, and an unknown token, reach nothing of A", async () => {
    await register(b);
    const epA = await endpointOf(a);
    const epB = await endpointOf(b);
    expect(epB.token).not.toBe(epA.token);
    const aRuns = (await webhookRuns(a)).length;
    const aStatus = (await call(t.app, "GET", "/api/webhooks/status", { token: a.token })).body.data;
    expect((await post(epB.token, JSON.stringify({ id: 1, status: "approved" }))).statusCode).toBe(200);
    await idle(b);
    expect((await webhookRuns(b)).length).toBe(1);
    expect((await webhookRuns(a)).length).toBe(aRuns);
    const aAfter = (await call(t.app, "GET", "/api/webhooks/status", { token: a.token })).body.data;
    expect(aAfter.lastDeliveryAt).toBe(aStatus.lastDeliveryAt);
    expect((await post("no-such-token", "{}")).statusCode).toBe(404);
    expect(b.shop.clientWebhooks[0]?.address).toContain(epB.token);
  });
});
