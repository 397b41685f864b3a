/**
 * `npm run bench`: full stock and price sync of 100,000 SKUs from the Mikro emulator into the IKAS
 * emulator at IKAS's rate limit, without delay and with realistic answer times, then a run with 1 %
 * changed and one with nothing changed. Every figure is printed with its goal and PASS / FAIL;
 * `--strict` exits 1 when one fails.
 *
 * Processes: the emulators run in two children (emulators.ts, emulator-host.ts: one per system), the
 * untimed setup (company, connections, ProductIntegration) in another (setup.ts). The engine of the
 * timed runs:
 *   - the embedded default (no DATABASE_URL): a PostgreSQL cluster under a temp data dir, started as
 *     the server starts it (`startEmbeddedPostgres`), and the server on it as `npm start` runs it (API,
 *     scheduler and workers in one process), runs queued as below; memory is the PSS of the server
 *     process and every process of the cluster, summed (shared buffers once), without the backends
 *     of this process's own connections (named `ep-bench`);
 *   - PGlite (no DATABASE_URL, EMBEDDED_DB=pglite, the former default): this process (one process,
 *     the in-memory rate limiter), so its peak RSS is the engine's and the database's;
 *   - PostgreSQL (DATABASE_URL): the production path. A worker process of the server
 *     (`apps/server/src/main.ts`, ROLE=worker: pg-boss workers, database rate limiter) executes the runs;
 *     this process queues them through the server's own queue and watches JobHistory.
 *
 * Environment:
 *   BENCH_SKUS             catalogue size (default 100000; e.g. 10000 for a quick check)
 *   BENCH_SPEEDUP          multiplies the requests allowed per window, on both sides: the emulator's and
 *                          the connectors' budgets (default 1 = the real limits)
 *   BENCH_SHOP_LATENCY_MS  shop answer time in the latency mode (default 300)
 *   BENCH_ERP_LATENCY_MS   ERP answer time in the latency mode (default 150)
 *   BENCH_MODES            which full syncs to time: `plain`, `latency` or both (default `plain,latency`)
 *   BENCH_SEQUENTIAL=1     StockIntegration then PriceIntegration (default: both at once, sharing the
 *                          company's budget, as the worker's two slots run them)
 *   BENCH_ERP_PAGE         rows per ERP page (PGlite only; default the Mikro connector's own, 4000)
 *   BENCH_WORKER_NODE_ARGS / BENCH_EMULATOR_NODE_ARGS
 *                          node flags for the server process / the emulator host (e.g. --cpu-prof)
 *   DATABASE_URL           a PostgreSQL server: a fresh database there, dropped afterwards
 *   EMBEDDED_DB=pglite     without DATABASE_URL: PGlite in this process instead of the embedded cluster
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ikasDescriptor, mikroDescriptor, type RateBudget } from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import type { EngineDeps } from "@ep/engine";
import { serverDir, serverNodeArgs } from "@ep/server/server-process";
import type { CallTimeline } from "./emulator-host.ts";
import { Emulators } from "./emulators.ts";
import {
  benchCipher,
  benchDeps,
  callTime,
  forgetPushedStockAndPrices,
  openBenchDatabase,
  type RunOutcome,
  runJobsHere,
  runJobsThroughQueue,
} from "./engine.ts";
import { ChildControl } from "./ipc.ts";
import { jointLeastTime, leastTime } from "./least-time.ts";
import { freshPostgres } from "./postgres.ts";
import { type HeapProbe, memoryByProcess, type ProcessMemory } from "./process-memory.ts";
import type { SetupReady } from "./setup.ts";

const here = dirname(fileURLToPath(import.meta.url));
const STRICT = process.argv.includes("--strict");
const SKUS = Number(process.env.BENCH_SKUS ?? 100_000);
const SPEEDUP = Number(process.env.BENCH_SPEEDUP ?? 1);
const SEQUENTIAL = process.env.BENCH_SEQUENTIAL === "1";
const SHOP_LATENCY_MS = Number(process.env.BENCH_SHOP_LATENCY_MS ?? 300);
const ERP_LATENCY_MS = Number(process.env.BENCH_ERP_LATENCY_MS ?? 150);
const MODES = (process.env.BENCH_MODES ?? "plain,latency").split(",").map((m) => m.trim());
const ERP_PAGE = process.env.BENCH_ERP_PAGE ? Number(process.env.BENCH_ERP_PAGE) : undefined;
/** Extra node flags for the server process (e.g. `--heapsnapshot-signal=SIGUSR2`). */
const WORKER_NODE_ARGS = (process.env.BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter(Boolean);
/** Extra node flags for the emulator host (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
const EMULATOR_NODE_ARGS = (process.env.BENCH_EMULATOR_NODE_ARGS ?? "").split(" ").filter(Boolean);
const CHANGED_EVERY = 100; // 1 %
const JOBS: JobType[] = ["StockIntegration", "PriceIntegration"];
let benchCompanyId = 0;

/**
 * IKAS's batch sizes and whether IKAS documents them (descriptor: "Prices: 3000 rows per
 * saveVariantPrices (documented). Stock: not documented, 1000 chosen."; VERIFIED.md).
 */
const BATCH = {
  stock: { size: ikasDescriptor.batch.stock ?? 1000, documented: false },
  price: { size: ikasDescriptor.batch.prices ?? 3000, documented: true },
};
const sizeNote = (b: { documented: boolean }) =>
  b.documented ? "" : " (belgelenmemiş boyut / undocumented size)";

const mb = (kb: number) => Math.round(kb / 1024);
const line = (label: string, value: string) => console.log(`  ${label.padEnd(52)} ${value}`);

/**
 * Where the wall time went: when the first and last call of each kind arrived, and the calls that
 * arrived in each second (ERP reads / shop stock writes / shop price writes).
 */
function printTimeline(t: CallTimeline, wallSeconds: number) {
  const s = (ms: number | undefined) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`);
  const span = (name: string, at: number[]) =>
    line(`  ${name} (${at.length})`, `first ${s(Math.min(...at))}, last ${s(Math.max(...at))}`);
  span("ERP reads", t.erpReads);
  span("shop stock writes", t.stockWrites);
  span("shop price writes", t.priceWrites);
  const seconds = Math.ceil(wallSeconds);
  const perSecond = (at: number[]) => {
    const n = new Array<number>(seconds + 1).fill(0);
    for (const ms of at) n[Math.min(seconds, Math.max(0, Math.floor(ms / 1000)))]!++;
    return n;
  };
  const [r, w, p] = [perSecond(t.erpReads), perSecond(t.stockWrites), perSecond(t.priceWrites)];
  const cells = r.map((_, i) => `${i}:${r[i]}/${w[i]}/${p[i]}`);
  line("  calls per second (s:ERP/stock/price)", "");
  for (let i = 0; i < cells.length; i += 10) console.log(`      ${cells.slice(i, i + 10).join("  ")}`);
}

type Verdict = { name: string; value: string; goal: string; pass: boolean };
const verdicts: Verdict[] = [];
/** Prints a figure with its goal and PASS / FAIL, and keeps it for the summary. */
function judge(name: string, value: string, goal: string, pass: boolean) {
  verdicts.push({ name, value, goal, pass });
  line(name, `${value}   goal ${goal}   ${pass ? "PASS" : "FAIL"}`);
}

/** Peak and current RSS of a process (Linux /proc), in kB. */
function procMemory(pid: number): { peakKb: number; rssKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakKb: kb("VmHWM"), rssKb: kb("VmRSS") };
}

async function main() {
  console.log(`Bench: ${SKUS.toLocaleString("en")} SKUs, Mikro → IKAS (emulators in two child processes)`);
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    await bench(cleanups);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error("cleanup:", e));
  }
  console.log("\nVerdict");
  for (const v of verdicts) line(v.name, `${v.pass ? "PASS" : "FAIL"} (${v.value}; goal ${v.goal})`);
  const failed = verdicts.filter((v) => !v.pass).length;
  console.log(`  ${verdicts.length - failed} PASS, ${failed} FAIL${STRICT ? " (--strict)" : ""}`);
  return STRICT && failed > 0 ? 1 : 0;
}

type Engine = {
  where: string;
  run(jobTypes: JobType[]): Promise<RunOutcome[]>;
  /** Peak RSS so far and RSS now of the process(es) executing the runs, kB. */
  memory(): { peakKb: number; rssKb: number };
  /** What the figure is made of, before the first run and at the peak (the embedded default). */
  breakdown?(): { baseline: MemorySnapshot; peak: MemorySnapshot };
  inProcess: boolean;
  pid?: number;
};

/** `processes`: the product's (the server and its cluster); `benchBackends`: the bench's own connections, left out. */
type MemorySnapshot = { processes: ProcessMemory[]; benchBackends: ProcessMemory[]; heap?: HeapProbe };

/** A connection string naming its connections `ep-bench`, so that the bench can tell its backends apart. */
function benchConnection(url: string): string {
  const named = new URL(url);
  named.searchParams.set("application_name", BENCH_APPLICATION);
  return named.toString();
}
const BENCH_APPLICATION = "ep-bench";

/** The server's PSS with its V8 figures, the cluster's processes grouped (PSS, shared memory apart). */
function printBreakdown(label: string, snapshot: MemorySnapshot, serverPid: number) {
  const sum = (ps: ProcessMemory[], f: (p: ProcessMemory) => number) => ps.reduce((n, p) => n + f(p), 0);
  const server = snapshot.processes.filter((p) => p.pid === serverPid);
  const postgres = snapshot.processes.filter((p) => p.pid !== serverPid);
  const backends = postgres.filter((p) => / \d+\.\d+\.\d+\.\d+\(\d+\)/.test(p.name));
  const others = postgres.filter((p) => !backends.includes(p));
  const total = sum(snapshot.processes, (p) => p.pss);
  const bytes = (n: number) => `${Math.round(n / 1048576)}`;
  console.log(`  ${label}: ${mb(total)} MB`);
  line(
    "    server process: PSS (anonymous, files)",
    `${mb(sum(server, (p) => p.pss))} MB (${mb(sum(server, (p) => p.anon))}, ${mb(sum(server, (p) => p.file))})`,
  );
  const h = snapshot.heap;
  if (h) {
    const space = (name: string) => bytes(h.spaces[name] ?? 0);
    line(
      "      V8 heap used / committed",
      `${bytes(h.heapUsed)} / ${bytes(h.heapTotal)} MB (new ${space("new_space")}, old ${space("old_space")}, ` +
        `code ${space("code_space")}, large ${space("large_object_space")})`,
    );
    line(
      "      external (array buffers) / bytecode + code / sources",
      `${bytes(h.external)} (${bytes(h.arrayBuffers)}) / ${bytes(h.code.bytecode + h.code.code)} / ${bytes(h.code.scriptSource)} MB`,
    );
  }
  line(
    `    cluster: postmaster + ${others.length - 1} auxiliary`,
    `${mb(sum(others, (p) => p.pss))} MB (largest ${mb(Math.max(0, ...others.map((p) => p.pss)))})`,
  );
  line(
    `    cluster: ${backends.length} backends`,
    `${mb(sum(backends, (p) => p.pss))} MB (largest ${mb(Math.max(0, ...backends.map((p) => p.pss)))})`,
  );
  line("    cluster: of which shared memory (PSS)", `${mb(sum(postgres, (p) => p.shmem))} MB`);
  line(
    `    not counted: the bench's own ${snapshot.benchBackends.length} backends`,
    `${mb(sum(snapshot.benchBackends, (p) => p.pss))} MB`,
  );
}

async function bench(cleanups: Array<() => Promise<unknown>>) {
  // --- emulators, limits lifted for the setup ---
  let t = performance.now();
  const emulators = await Emulators.start({ skus: SKUS, nodeArgs: EMULATOR_NODE_ARGS });
  cleanups.push(() => emulators.stop());
  await emulators.setRateLimit(false);
  console.log(`Emulators up in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // --- database ---
  const credentialKey = randomBytes(32).toString("base64");
  const env: Record<string, string> = {
    BENCH_CREDENTIAL_KEY: credentialKey,
    BENCH_ERP_CREDENTIALS: JSON.stringify(emulators.ready.erp),
    BENCH_SHOP_CREDENTIALS: JSON.stringify(emulators.ready.shop),
  };
  const cluster =
    !process.env.DATABASE_URL && process.env.EMBEDDED_DB !== "pglite"
      ? await embeddedCluster(cleanups)
      : undefined;
  const pg = cluster ?? (await freshPostgres(process.env.DATABASE_URL));
  if (cluster) {
    // The bench's own connections are named, so that their backends are not counted as the product's.
    env.BENCH_DATABASE_URL = benchConnection(cluster.url);
    console.log(`Database: the embedded default, a PostgreSQL cluster in ${cluster.dir}`);
  } else if (pg) {
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
  benchCompanyId = companyId;

  // --- the shop's limit: IKAS's window, SPEEDUP times the requests ---
  const shopLimit = {
    requests: Math.round(ikasDescriptor.budget.requests * SPEEDUP),
    windowMs: ikasDescriptor.budget.windowMs,
  };
  const erpBudget: RateBudget = {
    requests: Math.round(mikroDescriptor.budget.requests * SPEEDUP),
    windowMs: mikroDescriptor.budget.windowMs,
  };
  await emulators.setRateLimit(shopLimit);
  const database = await openBenchDatabase();
  cleanups.push(() => database.close());

  const engine = pg
    ? await serverEngine(pg.url, credentialKey, cleanups, cluster)
    : localEngine(benchDeps(database, benchCipher(), { erp: erpBudget, shop: shopLimit, erpPage: ERP_PAGE }));
  const baseline = engine.memory();
  console.log(
    `Engine: ${engine.where}\nIKAS emulator limit: ${shopLimit.requests} requests / ${shopLimit.windowMs / 1000} s ` +
      `(sliding window, arrivals); Mikro budget ${erpBudget.requests} / ${erpBudget.windowMs / 1000} s, ` +
      `ERP page ${!pg && ERP_PAGE ? ERP_PAGE : `${mikroDescriptor.batch.page} (connector default)`}; ` +
      `jobs ${SEQUENTIAL ? "one after the other" : "both at once (shared budget)"}`,
  );

  const peaks = { heap: 0, external: 0 };
  if (engine.inProcess) {
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peaks.heap = Math.max(peaks.heap, m.heapUsed / 1024);
      peaks.external = Math.max(peaks.external, m.external / 1024);
    }, 100);
    sampler.unref();
    cleanups.push(async () => clearInterval(sampler));
  }

  const syncBoth = async () => {
    await emulators.resetCounters();
    callTime.clear();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const runs = SEQUENTIAL
      ? [...(await engine.run([JOBS[0]!])), ...(await engine.run([JOBS[1]!]))]
      : await engine.run(JOBS);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const stats = await emulators.stats();
    for (const r of runs) {
      if (r.status !== "Succeeded") throw new Error(`${r.jobType} ended ${r.status}:\n${r.report}`);
    }
    return {
      seconds,
      runs,
      stats,
      cpuSeconds: (used.user + used.system) / 1e6,
      erpSeconds: (callTime.get("mikro")?.ms ?? 0) / 1000,
      shopSeconds: (callTime.get("ikas")?.ms ?? 0) / 1000,
    };
  };

  /** A full sync (every stock level and price written), timed against the true least time. */
  const fullSync = async (label: string, latency: boolean) => {
    await emulators.setLatency({
      shopMs: latency ? SHOP_LATENCY_MS : 0,
      erpMs: latency ? ERP_LATENCY_MS : 0,
    });
    const full = await syncBoth();
    await emulators.setLatency({ shopMs: 0, erpMs: 0 });
    const changed = (type: JobType) => full.runs.find((r) => r.jobType === type)?.counts?.changed ?? 0;
    const stockCalls = Math.ceil(changed("StockIntegration") / BATCH.stock.size);
    const priceCalls = Math.ceil(changed("PriceIntegration") / BATCH.price.size);
    const minCalls = stockCalls + priceCalls;
    const window = leastTime(minCalls, shopLimit);
    // With answer times, the last call is answered one shop answer after it is sent.
    const bound = window + (latency ? SHOP_LATENCY_MS / 1000 : 0);
    console.log(
      `\n${label}${latency ? ` (answer times: shop ${SHOP_LATENCY_MS} ms, ERP ${ERP_LATENCY_MS} ms)` : " (no added delay)"}`,
    );
    for (const r of full.runs) {
      line(
        `${r.jobType}`,
        `${r.seconds.toFixed(1)} s, read ${r.counts?.read}, changed ${r.counts?.changed}, written ${r.counts?.written}, ` +
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
      "least write calls",
      `${minCalls} = ${stockCalls} stock (${changed("StockIntegration")} ÷ ${BATCH.stock.size}${sizeNote(BATCH.stock)}) + ` +
        `${priceCalls} price (${changed("PriceIntegration")} ÷ ${BATCH.price.size}${sizeNote(BATCH.price)})`,
    );
    line(
      "true least time (sliding window, burst included)",
      `⌊(${minCalls} − 1) ÷ ${shopLimit.requests}⌋ × ${shopLimit.windowMs / 1000} s = ${window.toFixed(1)} s` +
        (latency ? ` + last answer ${SHOP_LATENCY_MS} ms = ${bound.toFixed(1)} s` : ""),
    );
    line(
      "  (the old bound, calls ÷ mean rate)",
      `${((minCalls * shopLimit.windowMs) / shopLimit.requests / 1000).toFixed(1)} s`,
    );
    const erpCalls = full.runs.reduce((n, r) => n + (r.calls?.erp.read ?? 0), 0);
    const erpFloor = leastTime(erpCalls, erpBudget) + (latency ? ERP_LATENCY_MS / 1000 : 0);
    line(
      "ERP floor (its reads under the Mikro budget)",
      `${erpCalls} reads: ${erpFloor.toFixed(1)} s${latency ? " (incl. the last answer)" : ""}`,
    );
    // Both limits at once: a write cannot go before its records are read, so the shop's burst is
    // usable at t = 0 only for what the ERP has answered by then (least-time.ts, every assumption in
    // the sync's favour). Never below either floor.
    const readsOf = (type: JobType) => full.runs.find((r) => r.jobType === type)?.calls?.erp.read ?? 0;
    const joint = jointLeastTime(
      [
        { reads: readsOf("StockIntegration"), writes: stockCalls },
        { reads: readsOf("PriceIntegration"), writes: priceCalls },
      ],
      erpBudget,
      shopLimit,
      latency ? { erpAnswerMs: ERP_LATENCY_MS, shopAnswerMs: SHOP_LATENCY_MS } : undefined,
    );
    const least = Math.max(bound, erpFloor, joint);
    line(
      "true least time of the sync (writes wait for their reads)",
      `${least.toFixed(1)} s (shop floor ${bound.toFixed(1)} s, ERP floor ${erpFloor.toFixed(1)} s)`,
    );
    line("wall time", `${full.seconds.toFixed(1)} s`);
    if (bound > 0) line(`${label}: wall ÷ shop floor alone`, (full.seconds / bound).toFixed(3));
    printTimeline(await emulators.timeline(), full.seconds);
    if (least > 0)
      judge(
        `${label}: wall ÷ true least time`,
        (full.seconds / least).toFixed(3),
        "≤ 1.15",
        full.seconds / least <= 1.15,
      );
    else
      line(`${label}: wall ÷ true least time`, "not judged: every call fits in one burst (raise BENCH_SKUS)");
    judge(
      `${label}: 429 answers from the shop`,
      String(full.stats.shop.rateLimitViolations),
      "0",
      full.stats.shop.rateLimitViolations === 0,
    );
    judge(
      `${label}: every record written once`,
      `stock ${full.stats.stock.items}/${changed("StockIntegration")}, prices ${full.stats.prices.items}/${changed("PriceIntegration")}`,
      "items = changed",
      full.stats.stock.items === changed("StockIntegration") &&
        full.stats.prices.items === changed("PriceIntegration"),
    );
    if (engine.inProcess) {
      line("engine CPU time (user + system)", `${full.cpuSeconds.toFixed(1)} s`);
      line(
        "time in ERP calls / shop calls (answers)",
        `${full.erpSeconds.toFixed(1)} s / ${full.shopSeconds.toFixed(1)} s`,
      );
    }
    return full;
  };

  // The ERP emulator's sort orders, as a SQL Server's indexes would have them (see warmErpSorts).
  await emulators.warmErpSorts();
  // A. Full sync without delay, then B and C on its ledger; A' full sync again with answer times.
  if (MODES.includes("plain")) await fullSync("A. Full sync", false);
  else await syncBoth(); // the ledger B and C compare against

  // B. 1 % changed.
  const mutation = await emulators.mutate(CHANGED_EVERY);
  const delta = await syncBoth();
  const wantStock = Math.ceil(mutation.stockChanges / BATCH.stock.size);
  const wantPrices = Math.ceil(mutation.priceChanges / BATCH.price.size);
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
    `stock write calls vs ⌈changes ÷ ${BATCH.stock.size}⌉${sizeNote(BATCH.stock)}`,
    `${delta.stats.stock.calls} vs ${wantStock} (items ${delta.stats.stock.items})`,
  );
  line(
    `price write calls vs ⌈changes ÷ ${BATCH.price.size}⌉`,
    `${delta.stats.prices.calls} vs ${wantPrices} (items ${delta.stats.prices.items})`,
  );
  judge(
    "B write calls",
    String(delta.stats.stock.calls + delta.stats.prices.calls),
    `≤ least ${wantStock + wantPrices} + 2`,
    delta.stats.stock.calls + delta.stats.prices.calls <= wantStock + wantPrices + 2,
  );
  judge(
    "B every change written",
    `stock ${delta.stats.stock.items}/${mutation.stockChanges}, prices ${delta.stats.prices.items}/${mutation.priceChanges}`,
    "all",
    delta.stats.stock.items >= mutation.stockChanges && delta.stats.prices.items >= mutation.priceChanges,
  );

  // C. Nothing changed.
  const same = await syncBoth();
  console.log("\nC. Nothing changed");
  for (const r of same.runs) line(`${r.jobType}`, `${r.seconds.toFixed(1)} s, changed ${r.counts?.changed}`);
  judge(
    "C shop write calls",
    `${same.stats.shop.writes} (requests in all ${same.stats.shop.requests})`,
    "0",
    same.stats.shop.writes === 0,
  );

  if (MODES.includes("latency")) {
    await forgetPushedStockAndPrices(database, companyId);
    await fullSync("A'. Full sync with answer times", true);
  }

  // Judged over every run of the command (A, B, C and A'), not only the first: A' holds more
  // records in flight while the shop answers slowly, and its peak is as much the product's.
  const mem = engine.memory();
  console.log(`\nMemory of the engine process${cluster ? " and the embedded cluster" : ""}`);
  judge(cluster ? "peak PSS, summed" : "peak RSS", `${mb(mem.peakKb)} MB`, "≤ 300 MB", mb(mem.peakKb) <= 300);
  line("  of which before the first run (modules, DB)", `${mb(baseline.rssKb)} MB`);
  line("  growth during the runs", `${mb(mem.peakKb - baseline.rssKb)} MB`);
  if (engine.inProcess)
    line("  peak JS heap / peak external memory", `${mb(peaks.heap)} MB / ${mb(peaks.external)} MB`);
  const parts = engine.breakdown?.();
  if (parts && engine.pid) {
    printBreakdown("before the first run", parts.baseline, engine.pid);
    printBreakdown("at the peak", parts.peak, engine.pid);
  }
}

/** PGlite: the engine in this process, as the embedded default runs it. */
function localEngine(deps: EngineDeps): Engine {
  return {
    where: "this process (PGlite, in-memory rate limiter, as the embedded default)",
    inProcess: true,
    run: (jobTypes) => runJobsHere(deps, benchCompanyId, jobTypes),
    memory: () => procMemory(process.pid),
  };
}

/**
 * PostgreSQL: the production path. A worker process of the server executes the runs (pg-boss, the
 * database rate limiter, the connectors' own budgets times BENCH_SPEEDUP); this process queues them
 * through a server context of its own (API role: no workers, no scheduler).
 *
 * The embedded default (`cluster`): the server as `npm start` runs it, API, scheduler and workers
 * in one process, its data dir the cluster's (it finds the cluster running and uses it as its
 * own); memory is that process and the cluster's, summed, without the backends
 * of this process's own connections (they stand in for the merchant's browser, which a server in
 * one process serves from its own pool).
 */
async function serverEngine(
  databaseUrl: string,
  credentialKey: string,
  cleanups: Array<() => Promise<unknown>>,
  cluster?: { pid: number | undefined; dir: string },
): Promise<Engine> {
  const clusterPid = cluster?.pid;
  if (cluster && clusterPid === undefined)
    throw new Error("the embedded cluster's postmaster has no pid to measure");
  const script = cluster ? "start" : "worker";
  const dataDir = cluster?.dir ?? mkdtempSync(join(tmpdir(), "ep-bench-worker-"));
  if (!cluster) cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const serverEnv = {
    ...(cluster ? {} : { DATABASE_URL: databaseUrl }),
    CREDENTIAL_KEY: `k1:${credentialKey}`,
    OUTBOUND_ALLOW: "127.0.0.1",
    CONNECTOR_RATE_MULTIPLIER: String(SPEEDUP),
    CAPTCHA: "off",
    DEMO: "0",
    LOG_LEVEL: "info",
    BROWSER: "none",
    DATA_DIR: dataDir,
    PORT: process.env.BENCH_WORKER_PORT ?? "41401",
    PUBLIC_URL: `http://127.0.0.1:${process.env.BENCH_WORKER_PORT ?? "41401"}`,
  };
  const probeFile = join(dataDir, "heap-probe.json");
  const server: ChildProcess = spawn(
    process.execPath,
    [...WORKER_NODE_ARGS, "--import", join(here, "heap-probe.mjs"), ...serverNodeArgs(script)],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        ...serverEnv,
        ROLE: script === "worker" ? "worker" : "all",
        BENCH_HEAP_PROBE: probeFile,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  // Its log says when it is up (the queue workers poll); warnings and errors are shown.
  const upLine = script === "worker" ? "worker started" : "Entegrasyon Paneli is running at";
  const started = new Promise<void>((resolve, reject) => {
    let rest = "";
    server.stdout?.on("data", (chunk: Buffer) => {
      rest += chunk.toString("utf8");
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const text of lines) {
        if (text.includes(upLine)) resolve();
        const level = Number(/"level":(\d+)/.exec(text)?.[1] ?? 0);
        if (level >= 40 || !text.startsWith("{")) console.log(`server: ${text}`);
      }
    });
    server.once("exit", (code) => reject(new Error(`the server process exited with ${code}`)));
  });
  const exited = new Promise((r) => server.once("exit", r));
  cleanups.push(async () => {
    server.kill("SIGTERM");
    await exited;
  });
  const { loadConfig } = await import("@ep/server/config");
  const { createContext, closeContext } = await import("@ep/server/bootstrap");
  const ownUrl = cluster ? benchConnection(databaseUrl) : databaseUrl;
  const ctx = await createContext(
    loadConfig({ ...process.env, ...serverEnv, DATABASE_URL: ownUrl, ROLE: "api" }),
    { workers: false, scheduler: false },
  );
  cleanups.push(() => closeContext(ctx));
  await started;
  if (!cluster || clusterPid === undefined)
    return {
      where: `a worker process of the server (pid ${server.pid}, ROLE=worker, PostgreSQL rate limiter), runs queued through pg-boss`,
      inProcess: false,
      run: (jobTypes) => runJobsThroughQueue(ctx.engine.deps, benchCompanyId, jobTypes),
      memory: () => procMemory(server.pid!),
    };
  // The embedded default: the server and the cluster together, PSS sampled (RSS would count the
  // cluster's shared buffers once per backend); at each new peak, what it is made of. The bench's
  // backends are looked up by name in the background; one that connected since the last look is
  // counted (against the product) until the next.
  let benchPids = new Set<number>();
  const lookUp = async () => {
    const { rows } = await ctx.database.executeSql(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
      [BENCH_APPLICATION],
    );
    benchPids = new Set(rows.map((r) => Number(r.pid)));
  };
  await lookUp();
  const snapshot = (): MemorySnapshot => {
    let heap: HeapProbe | undefined;
    try {
      heap = JSON.parse(readFileSync(probeFile, "utf8"));
    } catch {
      // not written yet, or being written
    }
    const all = memoryByProcess([server.pid!, clusterPid]);
    return {
      processes: all.filter((p) => !benchPids.has(p.pid)),
      benchBackends: all.filter((p) => benchPids.has(p.pid)),
      heap,
    };
  };
  const pssOf = (s: MemorySnapshot) => s.processes.reduce((n, p) => n + p.pss, 0);
  const baseline = snapshot();
  let peakSnapshot = baseline;
  let peak = pssOf(baseline);
  const sample = () => {
    const s = snapshot();
    const pss = pssOf(s);
    if (pss > peak) {
      peak = pss;
      peakSnapshot = s;
    }
    return pss;
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await lookUp().catch(() => undefined);
      sample();
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  cleanups.push(async () => {
    sampling = false;
    await sampler;
  });
  return {
    where: `the server as npm start runs it (pid ${server.pid}, ROLE=all) on the embedded PostgreSQL cluster (pid ${clusterPid}); memory: PSS of both, summed, without the bench's own backends`,
    inProcess: false,
    run: (jobTypes) => runJobsThroughQueue(ctx.engine.deps, benchCompanyId, jobTypes),
    pid: server.pid,
    memory: () => {
      const now = sample();
      return { peakKb: peak, rssKb: now };
    },
    breakdown: () => ({ baseline, peak: peakSnapshot }),
  };
}

/** The embedded default's cluster, started as the server starts it, in a temp data dir. */
async function embeddedCluster(cleanups: Array<() => Promise<unknown>>) {
  const { startEmbeddedPostgres } = await import("@ep/server/embedded-postgres");
  const dir = mkdtempSync(join(tmpdir(), "ep-bench-embedded-"));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const cluster = await startEmbeddedPostgres(join(dir, "postgres"), (m) => console.log(`embedded: ${m}`));
  cleanups.push(() => cluster.stop());
  return { ...cluster, dir, name: "postgres", drop: async () => undefined };
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
