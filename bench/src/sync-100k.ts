/**
 * `npm run bench`: full stock and price sync of 100,000 SKUs from the Mikro emulator into the IKAS
 * emulator at IKAS's rate limit, then a run with 1 % changed and one with nothing changed.
 *
 * Processes: the emulators run in a child (emulator-host.ts), the untimed setup (company, connections,
 * ProductIntegration) in another (setup.ts); this process is the engine of the timed runs, so its
 * peak RSS is the engine's.
 *
 * Environment:
 *   BENCH_SKUS            catalogue size (default 100000; e.g. 5000 for a quick check)
 *   BENCH_SPEEDUP         divides IKAS's window (50 requests / 10 s) and multiplies the ERP budget
 *                         (Mikro descriptor: 10 / s) by this factor (default 1 = the real limits)
 *   BENCH_ERP_PAGE        rows per ERP page (default: the Mikro connector's own, 2000; at most 5000)
 *   BENCH_CONCURRENT=1    run StockIntegration and PriceIntegration at the same time (default: one
 *                         after the other)
 *   DATABASE_URL          use a fresh database on this PostgreSQL server (default: PGlite in a temp dir)
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ikasDescriptor, mikroDescriptor, type RateBudget } from "@ep/connectors";
import type { CallStats, EmulatorsReady, Mutation } from "./emulator-host.ts";
import { benchCipher, benchDeps, callTime, openBenchDatabase, type RunOutcome, runJob } from "./engine.ts";
import { ChildControl } from "./ipc.ts";
import { freshPostgres } from "./postgres.ts";
import type { SetupReady } from "./setup.ts";

const here = dirname(fileURLToPath(import.meta.url));
const SKUS = Number(process.env.BENCH_SKUS ?? 100_000);
const SPEEDUP = Number(process.env.BENCH_SPEEDUP ?? 1);
const CONCURRENT = process.env.BENCH_CONCURRENT === "1";
const ERP_PAGE = process.env.BENCH_ERP_PAGE ? Number(process.env.BENCH_ERP_PAGE) : undefined;
const CHANGED_EVERY = 100; // 1 %

const mb = (kb: number) => Math.round(kb / 1024);
const line = (label: string, value: string) => console.log(`  ${label.padEnd(44)} ${value}`);
const stockBatch = ikasDescriptor.batch.stock ?? 1000;
const priceBatch = ikasDescriptor.batch.prices ?? 3000;

async function main() {
  console.log(`Bench: ${SKUS.toLocaleString("en")} SKUs, Mikro → IKAS (emulators in a child process)`);
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    await bench(cleanups);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error("cleanup:", e));
  }
}

async function bench(cleanups: Array<() => Promise<unknown>>) {
  // --- emulators, limits lifted for the setup ---
  let t = performance.now();
  const emulators = await ChildControl.start<EmulatorsReady>(join(here, "emulator-host.ts"), {
    BENCH_SKUS: String(SKUS),
  });
  cleanups.push(() => emulators.stop());
  await emulators.call("setRateLimit", false);
  console.log(`Emulators up in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // --- database ---
  const env: Record<string, string> = {
    BENCH_CREDENTIAL_KEY: randomBytes(32).toString("base64"),
    BENCH_ERP_CREDENTIALS: JSON.stringify(emulators.ready.erp),
    BENCH_SHOP_CREDENTIALS: JSON.stringify(emulators.ready.shop),
  };
  const pg = await freshPostgres(process.env.DATABASE_URL);
  if (pg) {
    cleanups.push(() => pg.drop());
    env.BENCH_DATABASE_URL = pg.url;
    console.log(`Database: PostgreSQL, fresh database ${pg.name}`);
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-"));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    env.BENCH_DATA_DIR = dataDir;
    console.log(`Database: PGlite in ${dataDir}`);
  }
  Object.assign(process.env, env);

  // --- setup (not timed): company, connections, ProductIntegration binds every SKU ---
  t = performance.now();
  const setup = await ChildControl.start<SetupReady>(join(here, "setup.ts"), env);
  await setup.stop();
  console.log(
    `Setup (ProductIntegration, limits lifted, own process): ${setup.ready.status}, ` +
      `${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const companyId = setup.ready.companyId;

  // --- the engine: this process, at the shop's rate limit ---
  const shopLimit = {
    requests: ikasDescriptor.budget.requests,
    windowMs: ikasDescriptor.budget.windowMs / SPEEDUP,
  };
  const budgets: { erp: RateBudget; shop: RateBudget; erpPage?: number } = {
    erpPage: ERP_PAGE,
    shop: shopLimit,
    erp: {
      requests: Math.round(mikroDescriptor.budget.requests * SPEEDUP),
      windowMs: mikroDescriptor.budget.windowMs,
    },
  };
  await emulators.call("setRateLimit", shopLimit);
  const database = await openBenchDatabase();
  cleanups.push(() => database.close());
  const deps = benchDeps(database, benchCipher(), budgets);
  // What this process holds before any run: modules (tsx, drizzle, pg, fastify…) and, on PGlite, the
  // embedded database itself.
  const baselineRss = process.memoryUsage().rss / 1024;
  const rate = shopLimit.requests / (shopLimit.windowMs / 1000);
  console.log(
    `IKAS emulator limit: ${shopLimit.requests} requests / ${shopLimit.windowMs / 1000} s ` +
      `(${rate} /s); connector budgets: IKAS ${budgets.shop.requests} / ${budgets.shop.windowMs / 1000} s, ` +
      `Mikro ${budgets.erp.requests} / ${budgets.erp.windowMs / 1000} s, ERP page ${ERP_PAGE ?? `${mikroDescriptor.batch.page} (connector default)`}`,
  );

  // Where the memory sits, sampled: the JS heap (the engine's own objects) and "external" memory
  // (on PGlite mostly the embedded database's WebAssembly memory).
  const peaks = { heap: 0, external: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peaks.heap = Math.max(peaks.heap, m.heapUsed / 1024);
    peaks.external = Math.max(peaks.external, m.external / 1024);
  }, 100);
  sampler.unref();
  cleanups.push(async () => clearInterval(sampler));

  const syncBoth = async () => {
    await emulators.call("resetCounters");
    callTime.clear();
    const cpu = process.cpuUsage();
    const started = performance.now();
    let runs: RunOutcome[];
    if (CONCURRENT) {
      runs = await Promise.all([
        runJob(deps, companyId, "StockIntegration"),
        runJob(deps, companyId, "PriceIntegration"),
      ]);
    } else {
      runs = [
        await runJob(deps, companyId, "StockIntegration"),
        await runJob(deps, companyId, "PriceIntegration"),
      ];
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const erpMs = callTime.get("mikro")?.ms ?? 0;
    const shopMs = callTime.get("ikas")?.ms ?? 0;
    const stats = await emulators.call<CallStats>("stats");
    for (const r of runs) {
      if (r.status !== "Succeeded") throw new Error(`${r.jobType} ended ${r.status}:\n${r.report}`);
    }
    return { seconds, runs, stats, cpuSeconds, erpSeconds: erpMs / 1000, shopSeconds: shopMs / 1000 };
  };

  // A. Full sync.
  const full = await syncBoth();
  const rss = process.resourceUsage().maxRSS;
  const minCalls = Math.ceil(SKUS / stockBatch) + Math.ceil(SKUS / priceBatch);
  const bound = minCalls / rate;
  // With a sliding window the first `requests` calls need no wait: the least time the limit allows.
  const burstBound = Math.max(0, minCalls - shopLimit.requests) / rate;
  console.log("\nA. Full sync (StockIntegration + PriceIntegration)");
  line("mode", CONCURRENT ? "both jobs at once" : "one job after the other");
  for (const r of full.runs) {
    line(
      `${r.jobType}`,
      `${r.seconds.toFixed(1)} s, read ${r.counts?.read}, written ${r.counts?.written}, ` +
        `shop calls r/w ${r.calls?.shop.read}/${r.calls?.shop.write}, ERP reads ${r.calls?.erp.read}`,
    );
  }
  line("shop write calls (stock, prices)", `${full.stats.stock.calls}, ${full.stats.prices.calls}`);
  line("shop items written (stock, prices)", `${full.stats.stock.items}, ${full.stats.prices.items}`);
  line(
    "shop requests in all / 429 answers",
    `${full.stats.shop.requests} / ${full.stats.shop.rateLimitViolations}`,
  );
  line(
    "bound = min write calls ÷ allowed rate",
    `${minCalls} (${Math.ceil(SKUS / stockBatch)} stock + ${Math.ceil(SKUS / priceBatch)} price) ÷ ${rate}/s = ${bound.toFixed(1)} s`,
  );
  line("wall time", `${full.seconds.toFixed(1)} s`);
  line("RATIO wall / bound (goal ≤ 1.15)", `${(full.seconds / bound).toFixed(3)}`);
  line("(burst-aware least time, (calls − 50) ÷ rate)", `${burstBound.toFixed(1)} s`);
  const erpCalls = full.runs.reduce((n, r) => n + (r.calls?.erp.read ?? 0), 0);
  const erpRate =
    budgets.erp.requests / ((budgets.erp.windowMs + Math.max(50, budgets.erp.windowMs * 0.02)) / 1000);
  line(
    "ERP floor = ERP reads ÷ Mikro budget",
    `${erpCalls} ÷ ${erpRate.toFixed(1)}/s = ${(erpCalls / erpRate).toFixed(1)} s (reads overlap the shop writes)`,
  );
  const floor = Math.max(bound, erpCalls / erpRate);
  line("RATIO wall / tightest floor (shop bound, ERP floor)", `${(full.seconds / floor).toFixed(3)}`);
  line("engine CPU time (user + system)", `${full.cpuSeconds.toFixed(1)} s`);
  line(
    "time in ERP calls / shop calls (answers)",
    `${full.erpSeconds.toFixed(1)} s / ${full.shopSeconds.toFixed(1)} s`,
  );
  line("PEAK RSS of the engine process (goal ≤ 300 MB)", `${mb(rss)} MB`);
  line("  of which before the first run (modules, DB)", `${mb(baselineRss)} MB`);
  line("  growth during the runs", `${mb(rss - baselineRss)} MB`);
  line("  peak JS heap / peak external memory", `${mb(peaks.heap)} MB / ${mb(peaks.external)} MB`);

  // B. 1 % changed.
  const mutation = await emulators.call<Mutation>("mutate", { every: CHANGED_EVERY });
  const delta = await syncBoth();
  const wantStock = Math.ceil(mutation.stockChanges / stockBatch);
  const wantPrices = Math.ceil(mutation.priceChanges / priceBatch);
  console.log(
    `\nB. 1 % changed in the ERP (${mutation.stockChanges} stock, ${mutation.priceChanges} prices)`,
  );
  for (const r of delta.runs) {
    line(
      `${r.jobType}`,
      `${r.seconds.toFixed(1)} s, changed ${r.counts?.changed}, written ${r.counts?.written}`,
    );
  }
  line(
    "STOCK write calls vs ceil(changes/1000)",
    `${delta.stats.stock.calls} vs ${wantStock} (items ${delta.stats.stock.items})`,
  );
  line(
    "PRICE write calls vs ceil(changes/3000)",
    `${delta.stats.prices.calls} vs ${wantPrices} (items ${delta.stats.prices.items})`,
  );
  line("all shop write calls / requests", `${delta.stats.shop.writes} / ${delta.stats.shop.requests}`);

  // C. Nothing changed.
  const same = await syncBoth();
  console.log("\nC. Nothing changed");
  for (const r of same.runs) line(`${r.jobType}`, `${r.seconds.toFixed(1)} s, changed ${r.counts?.changed}`);
  line(
    "SHOP write calls (goal 0)",
    `${same.stats.shop.writes} (requests in all ${same.stats.shop.requests})`,
  );

  const verdicts = [
    ["A ratio ≤ 1.15", full.seconds / bound <= 1.15],
    ["A peak RSS ≤ 300 MB", mb(rss) <= 300],
    [
      "B write calls ≤ minimum + 2",
      delta.stats.stock.calls + delta.stats.prices.calls <= wantStock + wantPrices + 2,
    ],
    [
      "B every change written",
      delta.stats.stock.items >= mutation.stockChanges && delta.stats.prices.items >= mutation.priceChanges,
    ],
    ["C no write call", same.stats.shop.writes === 0],
  ] as const;
  console.log("\nVerdict");
  for (const [name, ok] of verdicts) line(name, ok ? "PASS" : "FAIL");
  console.log(`  peak RSS at the end: ${mb(process.resourceUsage().maxRSS)} MB`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
