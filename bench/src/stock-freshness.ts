/**
 * Stock in the shop within seconds (issue 13, item 7): the time from a stock change in the ERP (Mikro
 * emulator) to the new quantity in the shop (IKAS emulator), p50/p95, with today's 1-minute schedule and
 * with the light "changed since" probe, in one run of the real server (scheduler, probe, queue, engine
 * workers) on the database an install runs: the embedded default (a PostgreSQL cluster in a temp dir),
 * a fresh database on `DATABASE_URL`'s server (dropped afterwards), or PGlite in memory with
 * `EMBEDDED_DB=pglite`. Both modes are measured on the wall clock, end to end: changes land at
 * uniformly random moments of a window, on distinct SKUs.
 *
 * Then, with the probe on and nothing changing, the ERP calls per probe.
 *
 * Run: npm run bench:freshness -w @ep/bench [-- --strict]
 *   BENCH_CHANGES (20) changes per mode, BENCH_WINDOW_SECONDS (120) over which they land,
 *   BENCH_PROBE_SECONDS (15) probe interval, BENCH_QUIET_SECONDS (60) the quiet phase.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { generateCatalog, startIkasEmulator, startMikroEmulator } from "@ep/connectors";
import { engineSchema, enqueueRun } from "@ep/engine";
import { buildApp } from "@ep/server/app";
import { closeContext, createContext } from "@ep/server/bootstrap";
import { loadConfig } from "@ep/server/config";
import { and, eq, inArray, ne } from "drizzle-orm";
import { benchCompany } from "./bench-company.ts";
import { freshPostgres } from "./postgres.ts";

const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_SECONDS ?? 120) * 1000;
const PROBE_SECONDS = Number(process.env.BENCH_PROBE_SECONDS ?? 15);
const QUIET_MS = Number(process.env.BENCH_QUIET_SECONDS ?? 60) * 1000;
const SKUS = 300;
const SEED = 31;
const strict = process.argv.includes("--strict");

function pct(values: number[], p: number): number {
  const s = [...values].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Mode = "schedule" | "probe";

/** Where this run's server keeps its data, and what to remove afterwards. */
const DATABASE = process.env.DATABASE_URL
  ? "PostgreSQL (DATABASE_URL, a fresh database per mode)"
  : process.env.EMBEDDED_DB === "pglite"
    ? "PGlite in memory"
    : "the embedded default (a PostgreSQL cluster)";

async function measure(mode: Mode) {
  const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-fresh-"));
  const pg = await freshPostgres(process.env.DATABASE_URL);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    EMBEDDED_DB: process.env.EMBEDDED_DB === "pglite" ? "pglite" : "postgres",
    LOG_LEVEL: "warn",
    PUBLIC_URL: "http://127.0.0.1",
    OUTBOUND_ALLOW: "127.0.0.1",
    DEMO: "0",
    CAPTCHA: "off",
    STOCK_PROBE_SECONDS: mode === "probe" ? String(PROBE_SECONDS) : "0",
  });
  const ctx = await createContext(config, {
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
    ...(process.env.EMBEDDED_DB === "pglite" && !pg ? { dataDirOverride: "memory" } : {}),
    scheduler: true,
  });
  const app = await buildApp(ctx);
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed: SEED, productCount: SKUS });
  const shop = await startIkasEmulator({
    host: "127.0.0.1",
    seed: SEED,
    productCount: SKUS,
    orderCount: 0,
    rateLimit: { requests: 500, windowMs: 1000 },
  });
  try {
    const companyId = await benchCompany(ctx, app, erp, { type: 1, credentials: shop.credentials });
    const db = ctx.database.db;
    const { jobs, jobRuns } = engineSchema;
    // Only the stock job runs by itself; the catalogue is bound once by hand first.
    await db
      .update(jobs)
      .set({ isEnabled: false })
      .where(and(eq(jobs.companyId, companyId), ne(jobs.type, "StockIntegration")));
    const jobIdOf = async (type: string) =>
      (
        await db
          .select()
          .from(jobs)
          .where(and(eq(jobs.companyId, companyId), eq(jobs.type, type)))
      )[0]!.id;
    const idle = async () => {
      for (;;) {
        const active = await db
          .select({ id: jobRuns.id })
          .from(jobRuns)
          .where(and(eq(jobRuns.companyId, companyId), inArray(jobRuns.status, ["Queued", "Running"])));
        if (active.length === 0) return;
        await sleep(50);
      }
    };
    await enqueueRun(ctx.engine.deps, companyId, await jobIdOf("ProductIntegration"), "manual");
    await idle();
    const stockJob = await jobIdOf("StockIntegration");
    await enqueueRun(ctx.engine.deps, companyId, stockJob, "manual");
    await idle();
    // Schedule mode: every minute, as today. Probe mode: the schedule is the daily reconciliation.
    const minutes = mode === "schedule" ? 1 : 1440;
    await db
      .update(jobs)
      .set({ schedule: { kind: "interval", minutes }, nextRunAt: new Date(Date.now() + minutes * 60_000) })
      .where(eq(jobs.id, stockJob));

    const location = shop.state.stockLocations[0]!.id;
    const shopQty = (sku: string) => {
      const ids = shop.state.skuIndex.get(sku);
      const variant = ids ? shop.state.findVariant(ids[0], ids[1]) : undefined;
      return variant?.stocks.find((s) => s.stockLocationId === location)?.stockCount;
    };
    const skus = generateCatalog({ seed: SEED, count: SKUS })
      .map((i) => i.sku)
      .filter((sku) => shopQty(sku) !== undefined)
      .sort(() => Math.random() - 0.5)
      .slice(0, CHANGES);
    const latencies = await Promise.all(
      skus.map(async (sku, i) => {
        await sleep(Math.random() * WINDOW_MS);
        const qty = 1000 + i;
        erp.state.setStock(sku, 1, qty);
        const want = Math.max(0, qty + erp.state.quantity(sku, 2));
        const t0 = performance.now();
        while (shopQty(sku) !== want) {
          if (performance.now() - t0 > 300_000) throw new Error(`${sku} never reached the shop`);
          await sleep(20);
        }
        return performance.now() - t0;
      }),
    );
    const runs = await db
      .select({ trigger: jobRuns.trigger })
      .from(jobRuns)
      .where(and(eq(jobRuns.jobId, stockJob), ne(jobRuns.trigger, "manual")));

    let callsPerProbe: number | undefined;
    if (mode === "probe") {
      await idle();
      await sleep(PROBE_SECONDS * 1000);
      const before = erp.counters.requests;
      await sleep(QUIET_MS);
      callsPerProbe = (erp.counters.requests - before) / (QUIET_MS / (PROBE_SECONDS * 1000));
    }
    return { latencies, runs: runs.length, callsPerProbe };
  } finally {
    await app.close();
    await Promise.all([erp.close(), shop.close()]);
    await closeContext(ctx);
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `Stock freshness: ${CHANGES} ERP stock changes per mode over ${WINDOW_MS / 1000} s (Mikro emulator → IKAS emulator, real server, ${DATABASE})`,
  );
  const schedule = await measure("schedule");
  const probe = await measure("probe");
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  let failed = false;
  const verdict = (ok: boolean) => {
    if (!ok) failed = true;
    return ok ? "PASS" : "FAIL";
  };
  console.log(
    `1-minute schedule:      p50 ${s(pct(schedule.latencies, 50))}  p95 ${s(pct(schedule.latencies, 95))}  (${schedule.runs} scheduled runs)`,
  );
  const p95 = pct(probe.latencies, 95);
  console.log(
    `probe every ${PROBE_SECONDS} s:     p50 ${s(pct(probe.latencies, 50))}  p95 ${s(p95)}  (${probe.runs} runs started by changes)  goal p95 ≤ 20 s: ${verdict(p95 <= 20_000)}`,
  );
  const calls = probe.callsPerProbe ?? Number.NaN;
  console.log(
    `nothing changed: ${calls.toFixed(2)} ERP calls per probe over ${QUIET_MS / 1000} s  goal ≤ 1: ${verdict(calls <= 1)}`,
  );
  if (strict && failed) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
