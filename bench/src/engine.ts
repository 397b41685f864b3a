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
import { and, eq } from "drizzle-orm";

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
