import { engineSchema, type RunEvent } from "@ep/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompanyAnswerCache } from "../src/modules/dashboard/dashboard-cache.ts";
import { type ConnectedCompany, connectedCompany } from "./engine/engine-harness.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";

const { jobRuns } = engineSchema;

let t: TestApp;
let a: ConnectedCompany;
let b: ConnectedCompany;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  a = await connectedCompany(t, { seed: 91 });
  b = await connectedCompany(t, { seed: 92 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await t?.close();
});

const dashboard = async (c: ConnectedCompany) => {
  const res = await call(t.app, "GET", "/api/Dashboard", { token: c.token });
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Resolves when this process's hub has heard an event of the company (by NOTIFY or in-process). */
function heard(companyId: number, status: string): Promise<RunEvent> {
  return new Promise((resolve) => {
    const stop = t.ctx.engine.hub.onEvent((event) => {
      if (event.companyId !== companyId || event.status !== status) return;
      stop();
      resolve(event);
    });
  });
}

describe("the dashboard's per-company micro-cache", () => {
  it("answers each company its own dashboard, and a run event drops only that company's answer", async () => {
    const idsOf = (d: { companyJobs: { id: number }[] }) => d.companyJobs.map((j) => j.id).sort();
    const first = { a: await dashboard(a), b: await dashboard(b) };
    // Asked again at once (served from the cache): still each company's own jobs.
    const again = { a: await dashboard(a), b: await dashboard(b) };
    expect(idsOf(again.a)).toEqual(idsOf(first.a));
    expect(idsOf(again.b)).toEqual(idsOf(first.b));
    expect(idsOf(again.a).some((id: number) => idsOf(again.b).includes(id))).toBe(false);
    expect(again.a.stockIntegrationReport.description).toBe("Stok Güncelleme henüz çalışmadı.");

    // A run that another process finished: its row, then its event through the hub.
    const now = t.ctx.clock.now();
    const [run] = await t.ctx.database.db
      .insert(jobRuns)
      .values({
        jobId: a.jobId("StockIntegration"),
        companyId: a.companyId,
        jobType: "StockIntegration",
        jobName: "Stok Güncelleme",
        trigger: "schedule",
        status: "Succeeded",
        queuedAt: new Date(now.getTime() - 20_000),
        enqueuedAt: new Date(now.getTime() - 20_000),
        startedAt: new Date(now.getTime() - 19_000),
        finishedAt: now,
        counts: { read: 12, changed: 3, written: 3, failed: 0 },
      })
      .returning({ id: jobRuns.id });
    const event = heard(a.companyId, "Succeeded");
    await t.ctx.engine.hub.publish({
      companyId: a.companyId,
      runId: run!.id,
      jobId: a.jobId("StockIntegration"),
      jobType: "StockIntegration",
      status: "Succeeded",
    });
    await event;
    const after = await dashboard(a);
    expect(after.stockIntegrationReport.description).toMatch(/^Stok Güncelleme son çalışmasında/);
    // The other company's answer is untouched and still its own.
    const other = await dashboard(b);
    expect(other.stockIntegrationReport.description).toBe("Stok Güncelleme henüz çalışmadı.");
    expect(idsOf(other)).toEqual(idsOf(first.b));
  });

  it("drops a company's answer when that company writes, not another's", async () => {
    const stockJob = a.jobId("StockIntegration");
    const enabled = (d: { companyJobs: { id: number; is_enabled: boolean }[] }, id: number) =>
      d.companyJobs.find((j) => j.id === id)?.is_enabled;
    expect(enabled(await dashboard(a), stockJob)).toBe(true);
    const bBefore = await dashboard(b);
    const off = await call(t.app, "PUT", "/api/job", {
      token: a.token,
      body: { id: stockJob, is_enabled: false },
    });
    expect(off.status).toBe(200);
    expect(enabled(await dashboard(a), stockJob)).toBe(false);
    // Company b cannot touch a's job, and its dashboard never shows a's jobs.
    const foreign = await call(t.app, "PUT", "/api/job", {
      token: b.token,
      body: { id: stockJob, is_enabled: true },
    });
    expect(foreign.status).not.toBe(200);
    expect(enabled(await dashboard(a), stockJob)).toBe(false);
    expect(enabled(await dashboard(b), stockJob)).toBeUndefined();
    expect((await dashboard(b)).companyJobs).toEqual(bBefore.companyJobs);
    await call(t.app, "PUT", "/api/job", { token: a.token, body: { id: stockJob, is_enabled: true } });
    expect(enabled(await dashboard(a), stockJob)).toBe(true);
  });
});

describe("CompanyAnswerCache", () => {
  it("shares one computation among concurrent callers and keeps nothing computed across a change", async () => {
    const cache = new CompanyAnswerCache<number>(60_000);
    let computed = 0;
    let release: (() => void) | undefined;
    const slow = () =>
      new Promise<number>((resolve) => {
        computed++;
        const value = computed;
        release = () => resolve(value);
      });
    const first = cache.get(1, slow);
    const second = cache.get(1, slow);
    expect(computed).toBe(1);
    // The company changes while the computation is under way: its callers get it, nobody later does.
    cache.invalidate(1);
    release?.();
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    const third = cache.get(1, slow);
    expect(computed).toBe(2);
    release?.();
    expect(await third).toBe(2);
    // Kept now, and only for company 1.
    expect(await cache.get(1, slow)).toBe(2);
    const forTwo = cache.get(2, slow);
    expect(computed).toBe(3);
    release?.();
    expect(await forTwo).toBe(3);
    expect(await cache.get(1, slow)).toBe(2);
  });

  it("does not keep a failed computation", async () => {
    const cache = new CompanyAnswerCache<number>(60_000);
    await expect(cache.get(1, () => Promise.reject(new Error("database down")))).rejects.toThrow(
      "database down",
    );
    expect(await cache.get(1, async () => 7)).toBe(7);
  });
});
