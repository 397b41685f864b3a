import {
  type IkasEmulator,
  type IkasEmulatorOptions,
  type MikroEmulator,
  type MikroEmulatorOptions,
  startIkasEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import { engineSchema, ensureCompanyJobs, insertRun } from "@ep/engine";
import { eq } from "drizzle-orm";
import { saveConnection } from "../../src/modules/connections/repository.ts";
import { call, registerAndLogin, type TestApp } from "../harness.ts";

export type ConnectedCompany<Erp = MikroEmulator> = {
  token: string;
  companyId: number;
  erp: Erp;
  shop: IkasEmulator;
  jobId(type: JobType): number;
  close(): Promise<void>;
};

/** An ERP emulator as a company's connection sees it: its system type and the credentials it answers to. */
export type ErpUnderTest = {
  systemType: number;
  credentials: Record<string, string>;
  close(): Promise<void>;
};

/**
 * A registered company wired to its own Mikro and IKAS emulators, with its jobs created (their
 * schedules left to the test: the scheduler does not tick in tests).
 */
export async function connectedCompany(
  t: TestApp,
  options: { seed?: number; erp?: MikroEmulatorOptions; shop?: IkasEmulatorOptions } = {},
): Promise<ConnectedCompany> {
  const seed = options.seed ?? 7;
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed, productCount: 60, ...options.erp });
  return connectedCompanyWithErp(t, Object.assign(erp, { systemType: 9 }), { seed, shop: options.shop });
}

/** As `connectedCompany`, with any ERP emulator (Wolvox, Netsis, Nebim, …) already started by the test. */
export async function connectedCompanyWithErp<Erp extends ErpUnderTest>(
  t: TestApp,
  erp: Erp,
  options: { seed?: number; shop?: IkasEmulatorOptions } = {},
): Promise<ConnectedCompany<Erp>> {
  const seed = options.seed ?? 7;
  const shop = await startIkasEmulator({
    host: "127.0.0.1",
    seed,
    productCount: 50,
    orderCount: 0,
    rateLimit: { requests: 500, windowMs: 1000 },
    ...options.shop,
  });
  const { token, account } = await registerAndLogin(t.app);
  const companyId = account.company.id as number;
  const db = t.ctx.database.db;
  await saveConnection(db, t.ctx.credentials, {
    companyId,
    kind: "erp",
    systemType: erp.systemType,
    credentials: { ...erp.credentials },
  });
  await saveConnection(db, t.ctx.credentials, {
    companyId,
    kind: "shop",
    systemType: 1,
    credentials: { ...shop.credentials },
  });
  await ensureCompanyJobs(db, companyId, t.ctx.clock.now());
  const jobs = await db.select().from(engineSchema.jobs).where(eq(engineSchema.jobs.companyId, companyId));
  return {
    token,
    companyId,
    erp,
    shop,
    jobId(type) {
      const job = jobs.find((j) => j.type === type);
      if (!job) throw new Error(`no ${type} job`);
      return job.id;
    },
    async close() {
      await Promise.all([erp.close(), shop.close()]);
    },
  };
}

/** Starts a job through the API and waits for its run to end; answers the run's report. */
export async function runJob(t: TestApp, c: ConnectedCompany<unknown>, type: JobType, timeoutMs = 60_000) {
  const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${c.jobId(type)}`, { token: c.token });
  if (started.status !== 200) throw new Error(`run-job: ${JSON.stringify(started.body)}`);
  return waitForRun(t, c.token, started.body.data.runId as number, timeoutMs);
}

export async function waitForRun(t: TestApp, token: string, runId: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(t.app, "GET", `/api/JobHistory/report/${runId}`, { token });
    const run = res.body.data;
    if (run && run.status !== "Queued" && run.status !== "Running") return run;
    if (Date.now() > until) throw new Error(`run ${runId} still ${run?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Queues a manual stock run straight in the ledger and answers its row, for suites that run it with
 * `executeRun` and their own engine dependencies.
 */
export async function queueStockRun(t: TestApp, c: ConnectedCompany<unknown>) {
  const queued = await insertRun(t.ctx.database.db, {
    companyId: c.companyId,
    jobId: c.jobId("StockIntegration"),
    jobType: "StockIntegration",
    jobName: "Stok Güncelleme",
    trigger: "manual",
    onlyKeys: null,
  });
  if (!queued) throw new Error("stock run not queued");
  return queued;
}
