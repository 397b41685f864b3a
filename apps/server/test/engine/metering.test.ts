import {
  checkSpecOf,
  type DiaEmulator,
  type IkasEmulator,
  type IsbasiEmulator,
  startDiaEmulator,
  startIkasEmulator,
  startIsbasiEmulator,
  turkishMonth,
} from "@ep/connectors";
import { engineSchema, enqueueRun } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionChecks } from "../../src/modules/connection-check/schema.ts";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { companyWithConnections, notificationsLike, waitForRun } from "./engine-harness.ts";

let t: TestApp;
const closers: Array<() => Promise<void>> = [];

type Company = { token: string; companyId: number; erpConnectionId: number; jobId: number };

/** The company's quota warnings (notifications from the metering). */
const quotaWarnings = (companyId: number) => notificationsLike(t, companyId, "quota-warning:%");

async function company(
  erpType: number,
  erpCredentials: Record<string, string>,
  shop: IkasEmulator,
): Promise<Company> {
  const { token, companyId } = await companyWithConnections(
    t,
    { systemType: erpType, credentials: erpCredentials },
    { systemType: 1, credentials: shop.credentials },
  );
  const db = t.ctx.database.db;
  const { connections, jobs } = engineSchema;
  const [erp] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.kind, "erp")));
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.type, "ProductIntegration")));
  return { token, companyId, erpConnectionId: erp!.id, jobId: job!.id };
}

async function run(c: Company, trigger: "manual" | "schedule") {
  const queued = await enqueueRun(t.ctx.engine.deps, c.companyId, c.jobId, trigger);
  if (!("runId" in queued)) throw new Error(`not queued: ${JSON.stringify(queued)}`);
  return waitForRun(t, c.token, queued.runId);
}

/** Usage of earlier days of this month (day "00" sorts before every real day and is never today). */
async function usedEarlier(c: Company, system: string, reads: number) {
  const day = `${turkishMonth(t.ctx.clock.now().getTime())}-00`;
  await t.ctx.database.db
    .insert(engineSchema.connectionUsage)
    .values({ companyId: c.companyId, connectionId: c.erpConnectionId, day, system, reads, writes: 0 })
    .onConflictDoUpdate({
      target: [engineSchema.connectionUsage.connectionId, engineSchema.connectionUsage.day],
      set: { reads },
    });
}

let dia: DiaEmulator;
let isbasi: IsbasiEmulator;
let a: Company;
let b: Company;
const CATALOGUE = 300;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  dia = await startDiaEmulator({ seed: 21, productCount: CATALOGUE });
  isbasi = await startIsbasiEmulator({ seed: 22, productCount: 120 });
  const shopA = await startIkasEmulator({
    host: "127.0.0.1",
    seed: 21,
    productCount: 50,
    orderCount: 0,
    rateLimit: { requests: 500, windowMs: 1000 },
  });
  const shopB = await startIkasEmulator({
    host: "127.0.0.1",
    seed: 22,
    productCount: 50,
    orderCount: 0,
    rateLimit: { requests: 500, windowMs: 1000 },
  });
  closers.push(
    () => dia.close(),
    () => isbasi.close(),
    () => shopA.close(),
    () => shopB.close(),
  );
  a = await company(5, { ...dia.credentials }, shopA);
  b = await company(21, { ...isbasi.credentials }, shopB);
}, 60_000);

afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await t?.close();
});

describe("metered ERPs: calls are counted per company, connection and month", () => {
  it("DİA: the run report and the usage API show this month's kontör; a run with nothing changed reads little", async () => {
    const first = await run(a, "manual");
    expect(first.report).toContain("bu ay:");
    expect(first.report).toContain("kontör");
    const after1 = (await call(t.app, "GET", "/api/settings/connection-usage", { token: a.token })).body.data;
    expect(after1).toHaveLength(1);
    expect(after1[0]).toMatchObject({
      system: "dia",
      kind: "credit",
      unit: "kontör",
      connectionId: a.erpConnectionId,
    });
    const firstReads = after1[0].used.read as number;
    // Before this first sync the connection check read DİA in a session of its own (one more login,
    // free): its other calls are billed in the same month's usage.
    const login = checkSpecOf("dia").setupCalls ?? 0;
    const [checked] = await t.ctx.database.db
      .select()
      .from(connectionChecks)
      .where(and(eq(connectionChecks.companyId, a.companyId), eq(connectionChecks.kind, "erp")));
    expect(checked?.trigger).toBe("firstSync");
    expect(firstReads).toBe(first.calls.erp.read - (dia.counters.logins - login) + (checked!.calls - login));

    const loginsBefore = dia.counters.logins;
    const second = await run(a, "manual");
    const after2 = (
      await call(t.app, "GET", `/api/settings/connection-usage/${a.erpConnectionId}`, { token: a.token })
    ).body.data;
    const secondReads = after2.used.read - firstReads;
    expect(secondReads).toBe(second.calls.erp.read - (dia.counters.logins - loginsBefore));
    expect(secondReads).toBeLessThanOrEqual(2);
    console.log(
      `DİA product run, catalogue ${CATALOGUE}: first run ${firstReads} billable calls, nothing changed ${secondReads}; month ${after2.used.read} calls = ${after2.credits} kontör`,
    );
  }, 120_000);

  it("refuses another company's connection id and lists only the caller's connections", async () => {
    const other = await call(t.app, "GET", `/api/settings/connection-usage/${a.erpConnectionId}`, {
      token: b.token,
    });
    expect(other.status).toBe(404);
    const list = (await call(t.app, "GET", "/api/settings/connection-usage", { token: b.token })).body.data;
    expect(list.map((u: { connectionId: number }) => u.connectionId)).toEqual([b.erpConnectionId]);
  });

  it("İşbaşı: warns once at 80 % of the monthly quota and shows what is left", async () => {
    await usedEarlier(b, "logo-isbasi", 2_398);
    const r = await run(b, "manual");
    expect(r.report).toContain("kalan kota: okuma");
    const usage = (
      await call(t.app, "GET", `/api/settings/connection-usage/${b.erpConnectionId}`, { token: b.token })
    ).body.data;
    expect(usage.quota).toEqual({ read: 3000, write: 7000 });
    expect(usage.remaining.read).toBe(3000 - usage.used.read);
    const warnings = await quotaWarnings(b.companyId);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.text).toContain("%80");
    await run(b, "manual");
    const again = await quotaWarnings(b.companyId);
    expect(again).toHaveLength(1);
  }, 120_000);

  it("İşbaşı: a scheduled run that today's share of the quota cannot carry is not started, and says why", async () => {
    await usedEarlier(b, "logo-isbasi", 2_995);
    const readsBefore = isbasi.counters.quotaReads;
    const refused = await run(b, "schedule");
    expect(refused.status).toBe("Failed");
    expect(refused.report).toContain("Zamanlanmış çalışma başlatılmadı");
    expect(refused.report).toContain("Kalan kota");
    expect(isbasi.counters.quotaReads).toBe(readsBefore);
    // The merchant may still start one by hand.
    const manual = await run(b, "manual");
    expect(manual.report).not.toContain("Zamanlanmış çalışma başlatılmadı");
  }, 120_000);

  it("a scheduled run with room in today's share goes ahead", async () => {
    await usedEarlier(b, "logo-isbasi", 100);
    const ok = await run(b, "schedule");
    expect(ok.report).not.toContain("Zamanlanmış çalışma başlatılmadı");
  }, 120_000);
});
