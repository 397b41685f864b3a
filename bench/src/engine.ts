/** What the bench's engine processes share: the database, the engine's deps, running one job. */
import {
  type CallCounter,
  createErpConnector,
  createShopConnector,
  InMemoryRateLimitStore,
  type RateBudget,
} from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import { type EngineDeps, engineSchema, enqueueRun, executeRun } from "@ep/engine";
import { findConnection, openCredentials } from "@ep/server/connections";
import { CredentialCipher } from "@ep/server/credentials";
import { type Database, openDatabase } from "@ep/server/database";
import { and, eq, inArray } from "drizzle-orm";

export const MIKRO = 9;
export const IKAS = 1;

/** The bench's database: a fresh PostgreSQL database (BENCH_DATABASE_URL) or PGlite in BENCH_DATA_DIR. */
export function openBenchDatabase(): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) return openDatabase({ databaseUrl: url });
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error("BENCH_DATA_DIR or BENCH_DATABASE_URL must be set");
  return openDatabase({ dataDir });
}

export function benchCipher(): CredentialCipher {
  const key = process.env.BENCH_CREDENTIAL_KEY;
  if (!key) throw new Error("BENCH_CREDENTIAL_KEY must be set");
  return new CredentialCipher(new Map([["k1", Buffer.from(key, "base64")]]), "k1");
}

export type Budgets = { erp: RateBudget; shop: RateBudget; erpPage?: number };

const quiet = {
  info() {},
  warn(obj: object, msg?: string) {
    console.warn("engine warn:", msg ?? "", obj);
  },
  error(obj: object, msg?: string) {
    console.error("engine error:", msg ?? "", obj);
  },
};

/** Time spent in external calls per system (sum of answer times, from the connectors' call log). */
export const callTime = new Map<string, { calls: number; ms: number }>();

/**
 * EngineDeps as the server's EngineHost builds them, minus the queue (the bench executes each run
 * itself right after queueing it) and with the connectors' budgets chosen by the bench.
 */
export function benchDeps(database: Database, cipher: CredentialCipher, budgets: Budgets): EngineDeps {
  const rateLimitStore = new InMemoryRateLimitStore();
  return {
    db: database.db,
    logger: quiet,
    now: () => new Date(),
    workerId: `bench:${process.pid}`,
    enqueueRun: async () => {},
    publish: async () => {},
    async openConnectors(companyId: number, counter: CallCounter) {
      const [erpRow, shopRow] = await Promise.all([
        findConnection(database.db, companyId, "erp"),
        findConnection(database.db, companyId, "shop"),
      ]);
      if (!erpRow || !shopRow) throw new Error(`company ${companyId} lacks a connection`);
      const context = {
        companyId: String(companyId),
        rateLimitStore,
        counter,
        timeoutMs: 120_000,
        logger: (entry: { system: string; durationMs: number }) => {
          const t = callTime.get(entry.system) ?? { calls: 0, ms: 0 };
          t.calls++;
          t.ms += entry.durationMs;
          callTime.set(entry.system, t);
        },
      };
      return {
        erp: createErpConnector(erpRow.systemType, openCredentials(cipher, erpRow), {
          ...context,
          budget: budgets.erp,
          ...(budgets.erpPage ? { batch: { page: budgets.erpPage } } : {}),
        }),
        shop: createShopConnector(shopRow.systemType, openCredentials(cipher, shopRow), {
          ...context,
          budget: budgets.shop,
        }),
        erpConnectionId: erpRow.id,
        shopConnectionId: shopRow.id,
      };
    },
    leaseMs: 120_000,
  };
}

export type RunOutcome = {
  jobType: JobType;
  status: string;
  seconds: number;
  counts: { read: number; changed: number; written: number; failed: number } | null;
  calls: { erp: { read: number; write: number }; shop: { read: number; write: number } } | null;
  report: string | null;
};

/** Queues a run of the company's job of `jobType` and executes it here, to the end. */
export async function runJob(deps: EngineDeps, companyId: number, jobType: JobType): Promise<RunOutcome> {
  const { jobs, jobRuns } = engineSchema;
  const [job] = await deps.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.type, jobType)));
  if (!job) throw new Error(`no ${jobType} job`);
  const started = performance.now();
  const queued = await enqueueRun(deps, companyId, job.id, "manual");
  if (!("runId" in queued)) throw new Error(`${jobType} could not be queued`);
  await executeRun(deps, queued.runId);
  const seconds = (performance.now() - started) / 1000;
  const [run] = await deps.db.select().from(jobRuns).where(eq(jobRuns.id, queued.runId));
  return {
    jobType,
    status: run?.status ?? "?",
    seconds,
    counts: run?.counts ?? null,
    calls: run?.calls ?? null,
    report: run?.report ?? null,
  };
}

/** Queues a run of each of the company's jobs of `jobTypes` and executes them here, at the same time. */
export function runJobsHere(deps: EngineDeps, companyId: number, jobTypes: JobType[]): Promise<RunOutcome[]> {
  return Promise.all(jobTypes.map((jobType) => runJob(deps, companyId, jobType)));
}

/**
 * The production path: each run is queued through `deps.enqueueRun` (the server's pg-boss queue) and
 * executed by whichever worker process takes it; this process only watches the JobHistory rows until
 * every run has ended. `seconds` of each run is from its queueing to its end, as this process saw it.
 */
export async function runJobsThroughQueue(
  deps: Pick<EngineDeps, "db" | "enqueueRun" | "publish">,
  companyId: number,
  jobTypes: JobType[],
  timeoutMs = 30 * 60_000,
): Promise<RunOutcome[]> {
  const { jobs, jobRuns } = engineSchema;
  const rows = await deps.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), inArray(jobs.type, jobTypes)));
  const started = performance.now();
  const queued: Array<{ runId: number; jobType: JobType }> = [];
  for (const jobType of jobTypes) {
    const job = rows.find((j) => j.type === jobType);
    if (!job) throw new Error(`no ${jobType} job`);
    const result = await enqueueRun(deps, companyId, job.id, "manual");
    if (!("runId" in result)) throw new Error(`${jobType} could not be queued`);
    queued.push({ runId: result.runId, jobType });
  }
  const ended = new Map<number, number>();
  while (ended.size < queued.length) {
    if (performance.now() - started > timeoutMs) throw new Error("the runs did not end in time");
    await new Promise((r) => setTimeout(r, 50));
    const runs = await deps.db
      .select({ id: jobRuns.id, status: jobRuns.status })
      .from(jobRuns)
      .where(
        inArray(
          jobRuns.id,
          queued.map((q) => q.runId),
        ),
      );
    for (const r of runs) {
      if (!ended.has(r.id) && r.status !== "Queued" && r.status !== "Running")
        ended.set(r.id, (performance.now() - started) / 1000);
    }
  }
  const out: RunOutcome[] = [];
  for (const q of queued) {
    const [run] = await deps.db.select().from(jobRuns).where(eq(jobRuns.id, q.runId));
    out.push({
      jobType: q.jobType,
      status: run?.status ?? "?",
      seconds: ended.get(q.runId) ?? 0,
      counts: run?.counts ?? null,
      calls: run?.calls ?? null,
      report: run?.report ?? null,
    });
  }
  return out;
}

/** Forgets what was pushed for stock and prices (bindings stay): the next sync writes everything again. */
export async function forgetPushedStockAndPrices(database: Database, companyId: number): Promise<void> {
  const { syncLedger } = engineSchema;
  await database.db
    .delete(syncLedger)
    .where(and(eq(syncLedger.companyId, companyId), inArray(syncLedger.entity, ["stock", "price"])));
}
