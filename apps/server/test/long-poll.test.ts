import { setMaxListeners } from "node:events";
import type { RunEvent } from "@ep/engine";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MAX_WAITERS_PER_COMPANY, RunEventHub } from "../src/modules/jobs/run-events.ts";
import { type Database, openDatabase } from "../src/platform/db/database.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

const run = (companyId: number, runId: number, jobType: string, extra: Partial<RunEvent> = {}): RunEvent => ({
  companyId,
  runId,
  jobId: 1,
  jobType,
  status: "Running",
  ...extra,
});
const progress = (read: number) => ({ counts: { read, changed: 0, written: 0, failed: 0 } });

describe("run-event hub (long-poll fan-out)", () => {
  let database: Database;
  const hubs: RunEventHub[] = [];
  const hubWith = async (options: ConstructorParameters<typeof RunEventHub>[2]) => {
    const hub = new RunEventHub(database, pino({ level: "silent" }), options);
    await hub.start();
    hubs.push(hub);
    return hub;
  };

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory", memoryTemplate: inject("pgliteTemplate") });
  });
  afterAll(async () => {
    for (const hub of hubs) await hub.close();
    await database?.close();
  });

  it("wakes only the waiters of the event's company and job type", async () => {
    const hub = await hubWith({ coalesceMs: 20 });
    const stop = new AbortController();
    const stock = hub.wait(1, ["StockIntegration", "PriceIntegration"], 30_000, stop.signal)!;
    const orders = hub.wait(1, ["OrderIntegration"], 30_000, stop.signal)!;
    const other = hub.wait(2, null, 30_000, stop.signal)!;
    const answered: string[] = [];
    void orders.then(() => answered.push("orders"));
    void other.then(() => answered.push("other company"));

    await hub.publish(run(1, 10, "StockIntegration", { status: "Succeeded" }));
    expect(await stock).toEqual([run(1, 10, "StockIntegration", { status: "Succeeded" })]);
    expect(hub.waiting(1)).toBe(1);
    expect(hub.waiting(2)).toBe(1);
    expect(answered).toEqual([]);
    stop.abort();
    expect(await orders).toEqual([]);
    expect(await other).toEqual([]);
    expect(hub.waiting(1) + hub.waiting(2)).toBe(0);
  });

  it("answers the events of a window together, a run's ticks collapsed to its latest state", async () => {
    const hub = await hubWith({ coalesceMs: 300, progressIntervalMs: 0 });
    const answer = hub.wait(7, null, 30_000)!;
    for (let i = 1; i <= 5; i++) await hub.publish(run(7, 1, "StockIntegration", progress(i * 100)));
    await hub.publish(run(7, 2, "PriceIntegration", { status: "Queued" }));
    const events = await answer;
    expect(events).toEqual([
      run(7, 1, "StockIntegration", progress(500)),
      run(7, 2, "PriceIntegration", { status: "Queued" }),
    ]);
  });

  it("holds mere progress for the progress interval, but answers a run that ends at once", async () => {
    const hub = await hubWith({ coalesceMs: 20, progressIntervalMs: 60_000 });
    const answer = hub.wait(8, ["StockIntegration"], 120_000)!;
    let settled = false;
    void answer.then(() => {
      settled = true;
    });
    await hub.publish(run(8, 3, "StockIntegration", progress(100)));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await hub.publish(run(8, 3, "StockIntegration", { status: "Succeeded", ...progress(900) }));
    expect(await answer).toEqual([run(8, 3, "StockIntegration", { status: "Succeeded", ...progress(900) })]);
  });

  it("caps the open waits of one company, not of the others", async () => {
    const hub = await hubWith({ maxWaitersPerCompany: 2 });
    const stop = new AbortController();
    const first = hub.wait(3, null, 30_000, stop.signal);
    expect(first).not.toBeNull();
    expect(hub.wait(3, null, 30_000, stop.signal)).not.toBeNull();
    expect(hub.wait(3, ["StockIntegration"], 30_000, stop.signal)).toBeNull();
    expect(hub.wait(4, null, 30_000, stop.signal)).not.toBeNull();
    stop.abort();
    await first;
    expect(hub.waiting(3)).toBe(0);
    const again = new AbortController();
    expect(hub.wait(3, null, 30_000, again.signal)).not.toBeNull();
    again.abort();
  });
});

describe("GET /api/JobHistory/do-long-polling past the cap", () => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof registerAndLogin>>;
  let b: Awaited<ReturnType<typeof registerAndLogin>>;

  beforeAll(async () => {
    t = await startTestApp();
    a = await registerAndLogin(t.app);
    b = await registerAndLogin(t.app, { company_Name: "Başka Firma" });
  });
  afterAll(() => t?.close());

  it("answers 429 with a Turkish next step to the company at its cap, and still serves another company", async () => {
    const hub = t.ctx.engine.hub;
    const companyA = a.account.company.id as number;
    const companyB = b.account.company.id as number;
    const held = new AbortController();
    setMaxListeners(0, held.signal);
    for (let i = 0; i < MAX_WAITERS_PER_COMPANY; i++) hub.wait(companyA, null, 60_000, held.signal);
    try {
      const refused = await call(t.app, "GET", "/api/JobHistory/do-long-polling?jobTypes=StockIntegration", {
        token: a.token,
      });
      expect(refused.status).toBe(429);
      expect(refused.body.successful).toBe(false);
      expect(refused.body.message).toContain("sekmeleri kapatınız");
      const raw = await t.app.inject({
        method: "GET",
        url: "/api/JobHistory/do-long-polling",
        headers: { authorization: `Bearer ${a.token}` },
      });
      expect(raw.headers["retry-after"]).toBe("5");

      const served = t.app.inject({
        method: "GET",
        url: "/api/JobHistory/do-long-polling?jobTypes=StockIntegration&channelName=b",
        headers: { authorization: `Bearer ${b.token}` },
      });
      await until(() => hub.waiting(companyB) === 1);
      await hub.publish(run(companyB, 99, "StockIntegration", { status: "Succeeded" }));
      const answer = (await served).json();
      expect(answer.data.channelName).toBe("b");
      expect(answer.data.events).toEqual([
        { runId: 99, jobId: 1, jobType: "StockIntegration", status: "Succeeded" },
      ]);
    } finally {
      held.abort();
    }
    expect(hub.waiting(companyA)).toBe(0);
  });

  it("checks the session row at most every 15 s: a signed-out session is refused once the window passes", async () => {
    const c = await registerAndLogin(t.app, { company_Name: "Oturum Firma" });
    const companyId = c.account.company.id as number;
    const hub = t.ctx.engine.hub;
    const poll = () =>
      t.app.inject({
        method: "GET",
        url: "/api/JobHistory/do-long-polling",
        headers: { authorization: `Bearer ${c.token}` },
      });
    const release = async (runId: number) => {
      await until(() => hub.waiting(companyId) === 1);
      await hub.publish(run(companyId, runId, "StockIntegration", { status: "Succeeded" }));
    };
    const first = poll();
    await release(1);
    expect((await first).statusCode).toBe(200);

    expect((await call(t.app, "POST", "/api/account/logout", { token: c.token })).status).toBe(200);
    // Every other call sees the logout at once.
    expect((await call(t.app, "GET", "/api/JobHistory", { token: c.token })).status).toBe(401);
    t.clock.advance(16_000);
    try {
      const after = await poll();
      expect(after.statusCode).toBe(401);
      expect(after.json().message).toBe("Oturumunuzun süresi doldu. Lütfen tekrar giriş yapınız.");
    } finally {
      t.clock.advance(-16_000);
    }
    expect(hub.waiting(companyId)).toBe(0);
  });
});
