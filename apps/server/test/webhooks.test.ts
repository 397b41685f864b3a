import { createHash } from "node:crypto";
import { ikasWebhookSignature } from "@ep/connectors";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../src/modules/webhooks/schema.ts";
import { DELIVERIES_PER_MINUTE, SIGNED_REPEAT_WINDOW_MS } from "../src/modules/webhooks/service.ts";
import { type ConnectedCompany, connectedCompany } from "./engine/engine-harness.ts";
import { call, startTestApp, type TestApp, until } from "./harness.ts";
import { postWebhook, webhookRunsOf, webhooksIdle } from "./webhook-harness.ts";

let t: TestApp;
let listenUrl: string;
let a: ConnectedCompany;
let b: ConnectedCompany;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  // The emulators post deliveries over HTTP: the app listens on loopback for them.
  listenUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  a = await connectedCompany(t, { seed: 51 });
  b = await connectedCompany(t, { seed: 53, shop: { clientSecret: "ikas-secret-of-company-b-987654" } });
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await t.close();
});

const db = () => t.ctx.database.db;

async function endpointOf(c: ConnectedCompany) {
  const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, c.companyId));
  if (!row) throw new Error("no endpoint");
  return row;
}

async function register(c: ConnectedCompany) {
  const res = await call(t.app, "POST", "/api/webhooks/register", { token: c.token });
  expect(res.status).toBe(200);
  // Registered at PUBLIC_URL (http://panel.test); the test app answers on loopback instead.
  for (const s of c.shop.webhooks.subscriptions) s.uri = s.uri.replace("http://panel.test", listenUrl);
  return res.body.data;
}

/** An IKAS delivery signed with `secret` for the order `orderId` (`status` varies its content). */
function ikasDelivery(id: string, orderId: string, secret: string, status = "CREATED"): string {
  const data = JSON.stringify({ id: orderId, status });
  return JSON.stringify({
    id,
    createdAt: new Date().toISOString(),
    scope: "store/order/created",
    merchantId: "m",
    data,
    signature: ikasWebhookSignature(data, secret),
    authorizedAppId: "app",
  });
}

/** The de-duplication key of an IKAS delivery: the hash of its signed `data`. */
const dataKey = (orderId: string, status: string) =>
  `data:${createHash("sha256")
    .update(JSON.stringify({ id: orderId, status }))
    .digest("hex")}`;

const post = (token: string, body: string) => postWebhook(t, token, body);

const webhookRuns = (c: ConnectedCompany) => webhookRunsOf(t, c.companyId);

const idle = (c: ConnectedCompany, timeoutMs?: number) => webhooksIdle(t, c.companyId, timeoutMs);

const erpHasOrder = (c: ConnectedCompany, orderNo: string) =>
  c.erp.state.table("SIPARISLER").rows.some((r) => String(r.sip_belgeno) === orderNo);

describe("orders by webhook", () => {
  it("shows webhooks as not registered, then registers the order scopes at the shop", async () => {
    const before = await call(t.app, "GET", "/api/webhooks/status", { token: a.token });
    expect(before.body.data).toMatchObject({ supported: true, registered: false, lastDeliveryAt: null });
    const status = await register(a);
    expect(status).toMatchObject({ supported: true, registered: true, lastError: null });
    const ep = await endpointOf(a);
    expect(ep.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.shop.webhooks.subscriptions.map((s) => s.topic)).toEqual([
      "store/order/created",
      "store/order/updated",
    ]);
    expect(a.shop.webhooks.subscriptions[0]?.uri).toBe(`${listenUrl}/api/webhooks/${ep.token}`);
  });

  it("refuses a bad signature with 401 and stores nothing", async () => {
    const ep = await endpointOf(a);
    const res = await post(ep.token, ikasDelivery("d-bad", "o1", "not-the-secret"));
    expect(res.statusCode).toBe(401);
    const garbage = await post(ep.token, "{not json");
    expect(garbage.statusCode).toBe(401);
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ep.id));
    expect(rows).toEqual([]);
    expect((await endpointOf(a)).lastDeliveryAt).toBeNull();
    expect(await webhookRuns(a)).toEqual([]);
    expect(
      (await post("no-such-token", ikasDelivery("d", "o", a.shop.credentials.clientSecret))).statusCode,
    ).toBe(404);
  });

  it("moves a new shop order into the ERP through the webhook, without waiting for the schedule", async () => {
    const [order] = a.shop.generateOrders(1);
    await a.shop.webhooks.idle();
    expect(a.shop.webhooks.stats).toMatchObject({ sent: 1, failed: 0 });
    await until("the order in the ERP", () => erpHasOrder(a, order!.orderNumber));
    expect((await webhookRuns(a)).length).toBeGreaterThanOrEqual(1);
    const status = await call(t.app, "GET", "/api/webhooks/status", { token: a.token });
    expect(status.body.data.lastDeliveryAt).not.toBeNull();
    await idle(a);
  });

  it("starts one run for a delivery sent twice", async () => {
    await idle(a);
    const ep = await endpointOf(a);
    const runsBefore = (await webhookRuns(a)).length;
    const body = ikasDelivery("dup-1", "o-dup", a.shop.credentials.clientSecret);
    const first = await post(ep.token, body);
    const second = await post(ep.token, body);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect([first.json().data.duplicate, second.json().data.duplicate]).toEqual([false, true]);
    await idle(a);
    expect((await webhookRuns(a)).length).toBe(runsBefore + 1);
    const rows = await db()
      .select()
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.endpointId, ep.id), eq(webhookDeliveries.topic, "store/order/created")),
      );
    expect(rows.filter((r) => r.deliveryId === dataKey("o-dup", "CREATED"))).toHaveLength(1);
  });

  it("counts a signed delivery once by what IKAS signs: resent with 50 new ids, it starts one run", async () => {
    await idle(a);
    const ep = await endpointOf(a);
    const runsBefore = (await webhookRuns(a)).length;
    const secret = a.shop.credentials.clientSecret;
    const captured = JSON.parse(ikasDelivery("replay-0", "o-replay", secret)) as Record<string, string>;
    const answers = [await post(ep.token, JSON.stringify(captured))];
    // The id (and createdAt) are outside the signature: an attacker changes them freely.
    for (let i = 1; i <= 50; i++)
      answers.push(
        await post(
          ep.token,
          JSON.stringify({ ...captured, id: `replay-${i}`, createdAt: `2026-01-0${i % 9}` }),
        ),
      );
    expect(answers.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    expect(answers.filter((r) => r.json().data.duplicate === false)).toHaveLength(1);
    await idle(a);
    expect((await webhookRuns(a)).length).toBe(runsBefore + 1);
  }, 60_000);

  it("caps signed deliveries per connection: beyond the cap they answer 429 and start nothing", async () => {
    await idle(a);
    t.clock.advance(120_000);
    const ep = await endpointOf(a);
    const secret = a.shop.credentials.clientSecret;
    const codes: number[] = [];
    for (let i = 0; i < DELIVERIES_PER_MINUTE + 10; i++)
      codes.push((await post(ep.token, ikasDelivery(`cap-${i}`, `o-cap-${i}`, secret))).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(DELIVERIES_PER_MINUTE);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
    await idle(a, 60_000);
    t.clock.advance(61_000);
    expect((await post(ep.token, ikasDelivery("cap-after", "o-cap-after", secret))).statusCode).toBe(200);
    await idle(a);
  }, 90_000);

  it("coalesces many deliveries for one order into one follow-up run", async () => {
    await idle(a);
    t.clock.advance(120_000);
    const ep = await endpointOf(a);
    const runsBefore = (await webhookRuns(a)).length;
    const secret = a.shop.credentials.clientSecret;
    for (let i = 0; i < 12; i++) {
      // Each an order change the shop really signed; each waits until no run is active, as a shop
      // sending status after status would.
      const res = await post(ep.token, ikasDelivery(`co-${i}`, "o-coalesce", secret, `S${i}`));
      expect(res.json().data.duplicate).toBe(false);
      await until("no active run", async () =>
        (await webhookRuns(a)).every((r) => r.status !== "Queued" && r.status !== "Running"),
      );
    }
    await idle(a);
    // The first delivery's run, and one follow-up for the eleven after it.
    expect((await webhookRuns(a)).length).toBe(runsBefore + 2);
  }, 60_000);

  it("asks for a follow-up run when a delivery comes during a run, never a parallel one", async () => {
    await idle(a);
    a.shop.setFaults({ latencyMs: 400 });
    try {
      const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${a.jobId("OrderIntegration")}`, {
        token: a.token,
      });
      expect(started.status).toBe(200);
      const runsBefore = (await webhookRuns(a)).length;
      const [order] = a.shop.generateOrders(1);
      await a.shop.webhooks.idle();
      expect((await endpointOf(a)).rerunRequestedAt).not.toBeNull();
      await until("the follow-up run", async () => (await webhookRuns(a)).length > runsBefore);
      await idle(a, 60_000);
      expect(erpHasOrder(a, order!.orderNumber)).toBe(true);
    } finally {
      a.shop.setFaults({});
    }
  }, 90_000);

  it("does not let one company's deliveries reach another's connection", async () => {
    await register(b);
    const epB = await endpointOf(b);
    const epA = await endpointOf(a);
    expect(epB.token).not.toBe(epA.token);
    // Signed with company A's secret, sent to B's endpoint: refused, nothing stored for B.
    const res = await post(epB.token, ikasDelivery("cross-1", "o", a.shop.credentials.clientSecret));
    expect(res.statusCode).toBe(401);
    expect(
      await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, epB.id)),
    ).toEqual([]);
    // B's own delivery only starts B's run; A's status and runs do not move.
    const aRuns = (await webhookRuns(a)).length;
    const ok = await post(epB.token, ikasDelivery("b-1", "o", b.shop.credentials.clientSecret));
    expect(ok.statusCode).toBe(200);
    await idle(b);
    expect((await webhookRuns(b)).length).toBe(1);
    expect((await webhookRuns(a)).length).toBe(aRuns);
    const statusB = await call(t.app, "GET", "/api/webhooks/status", { token: b.token });
    expect(statusB.body.data.lastDeliveryAt).not.toBeNull();
    expect(b.shop.webhooks.subscriptions[0]?.uri).toContain(epB.token);
  });

  // Last: moving the clock a day ends the test sessions.
  it("takes the same signed content again once the repeat window has passed", async () => {
    await idle(a);
    const ep = await endpointOf(a);
    const body = ikasDelivery("late-0", "o-late", a.shop.credentials.clientSecret);
    expect((await post(ep.token, body)).json().data.duplicate).toBe(false);
    expect((await post(ep.token, body)).json().data.duplicate).toBe(true);
    t.clock.advance(SIGNED_REPEAT_WINDOW_MS + 1_000);
    expect((await post(ep.token, body)).json().data.duplicate).toBe(false);
    await idle(a);
  });
});
