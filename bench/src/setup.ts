/**
 * Child process of the bench, before the timed part: seeds the company and its two connections into
 * the database and runs ProductIntegration once (limits lifted), binding every SKU to its shop
 * variant. A process of its own, so the engine process's peak memory shows the stock and price sync
 * only.
 */
import { engineSchema, ensureCompanyJobs, SPILL_DEFAULTS } from "@ep/engine";
import { saveConnection } from "@ep/server/connections";
import { companies } from "@ep/server/schema";
import { eq } from "drizzle-orm";
import { benchCipher, benchDeps, IKAS, MIKRO, openBenchDatabase, runJob } from "./engine.ts";
import { failIpc, serveIpc } from "./ipc.ts";

export type SetupReady = {
  companyId: number;
  seconds: number;
  status: string;
  /** This process's resident memory before the run and its peak (kB): the first sync's own cost. */
  rssBeforeKb: number;
  peakRssKb: number;
  /** Peak of V8's live heap (used, sampled every 100 ms) and of memory outside it (kB). */
  peakHeapKb: number;
  peakExternalKb: number;
  written: number;
  moved: number;
};

const UNLIMITED = { requests: 1_000_000, windowMs: 1_000 };

async function main() {
  const erp = JSON.parse(process.env.BENCH_ERP_CREDENTIALS ?? "{}") as Record<string, string>;
  const shop = JSON.parse(process.env.BENCH_SHOP_CREDENTIALS ?? "{}") as Record<string, string>;
  const database = await openBenchDatabase();
  const cipher = benchCipher();
  const [company] = await database.db
    .insert(companies)
    .values({ name: "Bench Ticaret A.Ş.", erpType: MIKRO, ecommerceType: IKAS })
    .returning();
  const companyId = company!.id;
  await saveConnection(database.db, cipher, { companyId, kind: "erp", systemType: MIKRO, credentials: erp });
  await saveConnection(database.db, cipher, { companyId, kind: "shop", systemType: IKAS, credentials: shop });
  await ensureCompanyJobs(database.db, companyId, new Date());

  const deps = benchDeps(database, cipher, { erp: UNLIMITED, shop: UNLIMITED });
  // BENCH_HOLD_WHOLE=1: the catalogue held in memory whole, as before issue 34 (first-sync-memory.ts).
  if (process.env.BENCH_HOLD_WHOLE === "1") SPILL_DEFAULTS.holdAt = Number.POSITIVE_INFINITY;
  const rssBeforeKb = Math.round(process.memoryUsage().rss / 1024);
  const peaks = { heap: 0, external: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peaks.heap = Math.max(peaks.heap, m.heapUsed / 1024);
    peaks.external = Math.max(peaks.external, (m.external + m.arrayBuffers) / 1024);
  }, 100);
  const run = await runJob(deps, companyId, "ProductIntegration");
  clearInterval(sampler);
  // Never due while the bench runs: a worker process's scheduler must not start runs of its own.
  await database.db
    .update(engineSchema.jobs)
    .set({ isEnabled: false, nextRunAt: null })
    .where(eq(engineSchema.jobs.companyId, companyId));
  await database.close();
  if (run.status !== "Succeeded") throw new Error(`ProductIntegration ended ${run.status}:\n${run.report}`);
  serveIpc(
    {
      companyId,
      seconds: run.seconds,
      status: run.status,
      rssBeforeKb,
      peakRssKb: process.resourceUsage().maxRSS,
      peakHeapKb: Math.round(peaks.heap),
      peakExternalKb: Math.round(peaks.external),
      written: run.counts?.written ?? 0,
      moved: run.counts?.read ?? 0,
    } satisfies SetupReady,
    { close: () => setImmediate(() => process.exit(0)) },
  );
}

main().catch(failIpc);
