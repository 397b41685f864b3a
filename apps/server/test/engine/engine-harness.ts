import {
  createErpConnector,
  createShopConnector,
  type IkasEmulator,
  type IkasEmulatorOptions,
  InMemoryRateLimitStore,
  type MikroEmulator,
  type MikroEmulatorOptions,
  startIkasEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import {
  DEFAULT_MAPPINGS,
  engineSchema,
  ensureCompanyJobs,
  type FlowContext,
  insertRun,
  RunTally,
  SyncLedger,
} from "@ep/engine";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { findConnection, saveConnection } from "../../src/modules/connections/repository.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "../harness.ts";
import { waitForRun as waitForAppRun } from "../support/job-run.ts";

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

/**
 * A company registered through the app with its ERP and shop connections saved (not tested) and its jobs
 * created: what the engine needs to run jobs against the given systems.
 */
export async function companyWithConnections(
  t: TestApp,
  erp: { systemType: number; credentials: object },
  shop: { systemType: number; credentials: object },
): Promise<{ token: string; companyId: number }> {
  const { token, account } = await registerAndLogin(t.app);
  const companyId = account.company.id as number;
  const db = t.ctx.database.db;
  for (const [kind, side] of [
    ["erp", erp],
    ["shop", shop],
  ] as const)
    await saveConnection(db, t.ctx.credentials, {
      companyId,
      kind,
      systemType: side.systemType,
      credentials: { ...(side.credentials as Record<string, string>) },
    });
  await ensureCompanyJobs(db, companyId, t.ctx.clock.now());
  return { token, companyId };
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
  const { token, companyId } = await companyWithConnections(t, erp, {
    systemType: 1,
    credentials: shop.credentials,
  });
  const db = t.ctx.database.db;
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

export function waitForRun(t: Pick<TestApp, "app">, token: string, runId: number, timeoutMs = 60_000) {
  return waitForAppRun(t.app, token, runId, timeoutMs);
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

/**
 * The file's test app (captcha off), handed to `set` once started. Answers the list the tests push their
 * companies on: closed after the file, then the app.
 */
export function useEngineTestApp(set: (t: TestApp) => void): ConnectedCompany[] {
  const companies: ConnectedCompany[] = [];
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp({ CAPTCHA: "off" });
    set(app);
  }, 60_000);
  afterAll(async () => {
    for (const c of companies) await c.close();
    await app?.close();
  });
  return companies;
}

/** The company's notifications whose source is like `source` (`quota-warning:%`), oldest first. */
export const notificationsLike = (t: TestApp, companyId: number, source: string) =>
  t.ctx.database.db
    .select()
    .from(engineSchema.notifications)
    .where(
      and(
        eq(engineSchema.notifications.companyId, companyId),
        like(engineSchema.notifications.source, source),
      ),
    )
    .orderBy(engineSchema.notifications.id);

/**
 * A ProductIntegration run's context around the company's real connectors (Mikro and IKAS, no retries),
 * creating missing products, on a clock that stands at `now`; `ledger` replaces the shop connection's
 * own (a watched one). For suites that call the flow directly.
 */
export async function productRunContext(
  t: TestApp,
  c: ConnectedCompany,
  now: string,
  ledger?: (shopConnectionId: number) => SyncLedger,
): Promise<FlowContext> {
  const db = t.ctx.database.db;
  const shopId = (await findConnection(db, c.companyId, "shop"))!.id;
  const common = {
    companyId: String(c.companyId),
    rateLimitStore: new InMemoryRateLimitStore(),
    retry: { maxRetries: 0 },
  };
  return {
    db,
    companyId: c.companyId,
    runId: 0,
    job: { id: c.jobId("ProductIntegration"), type: "ProductIntegration", name: "Ürün", options: {} },
    erp: createErpConnector(9, { ...c.erp.credentials }, common),
    shop: createShopConnector(1, { ...c.shop.credentials }, common),
    erpConnectionId: 0,
    shopConnectionId: shopId,
    ledger: ledger?.(shopId) ?? new SyncLedger(db, shopId, c.companyId),
    mappings: { ...DEFAULT_MAPPINGS, createMissingProducts: true },
    onlyKeys: null,
    trigger: "manual",
    now: () => new Date(now),
    tally: new RunTally(),
    signal: new AbortController().signal,
    workerId: "test",
    lockMs: 60_000,
  };
}
