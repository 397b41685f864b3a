/**
 * `npm run bench:cpu -w @ep/bench` (issue 34, item 3): CPU seconds per 1,000 records moved, of the
 * server process and of PostgreSQL, for a first product sync, a full stock + price sync and a 1 % delta.
 *
 * The production server (`npm start`'s bundle: API, scheduler and queue workers in one process) runs on
 * the embedded default's PostgreSQL cluster in a temp dir (its whole process tree is the database's
 * CPU), or with DATABASE_URL on a fresh database of that server (the backends serving that database
 * are the database's CPU, sampled from /proc; the server's other databases are not counted). The Mikro
 * and IKAS emulators are processes of their own (not counted), with `BENCH_SKUS` SKUs; the connectors'
 * budgets are multiplied (`CONNECTOR_RATE_MULTIPLIER`) and the shop's window is off, so CPU and not the
 * vendors' limits sets the pace. Each cycle is a new company registered through the API, its runs
 * started as a user starts them (`POST /api/Job/run-job`): ProductIntegration (the first sync), then
 * StockIntegration and PriceIntegration at once (full: nothing pushed yet), then the same two after 1 %
 * of the ERP's stock and prices changed. Records moved: the runs' `written` counts (the first sync:
 * `read`, the cards it adopts or creates).
 *
 * With `BENCH_BASE=<git rev>` (a temporary worktree of that revision, its own `npm ci` and server
 * bundle, removed afterwards) or `BENCH_BASE_DIR=<a checkout with node_modules>` the same cycles run on
 * that revision's server too, on a database of its own, the cycles of the two taking turns, and each
 * figure is printed with the ratio this checkout ÷ base.
 *
 * Environment: BENCH_SKUS (20000), BENCH_REPEATS (3 measured cycles per server), BENCH_WARM_UP (1
 * cycle per server, not measured: a long-running server has compiled what a run uses),
 * BENCH_RATE_MULTIPLIER (1000), BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureCompanyJobs } from "@ep/engine";
import { saveConnection } from "@ep/server/connections";
import { CredentialCipher } from "@ep/server/credentials";
import { openDatabase } from "@ep/server/database";
import { serverDir, serverNodeArgs } from "@ep/server/server-process";
import pg from "pg";
import {
  type BenchDatabase,
  type BenchServer,
  benchDatabase,
  boxLoad,
  registerCompany,
  request,
  type ServerCommand,
  startServer,
} from "./bench-server.ts";
import { Emulators } from "./emulators.ts";
import { IKAS, MIKRO } from "./engine.ts";
import { boxCpuSeconds, cpuSeconds, treeCpuSeconds } from "./process-cpu.ts";

const SKUS = Number(process.env.BENCH_SKUS ?? 20_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 1);
const RATE_MULTIPLIER = process.env.BENCH_RATE_MULTIPLIER ?? "1000";
/** 1 % of the ERP's stock cards change before the delta. */
const CHANGED_EVERY = 100;

const PHASES = ["first sync", "full sync", "1 % delta"] as const;
type PhaseName = (typeof PHASES)[number];
type Figure = { moved: number; read: number; server: number; postgres: number; wall: number; busy: number };

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
const repoRoot = resolve(serverDir, "../..");

/** The CPU seconds of the PostgreSQL backends serving `database` (by their process title), per pid. */
function backendCpu(database: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const title = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (title.startsWith("postgres: ") && title.includes(` ${database} `))
        out.set(Number(name), cpuSeconds(Number(name)));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * The database's CPU seconds over a phase: the embedded cluster's process tree, or the backends of
 * the database on DATABASE_URL's server, sampled every 100 ms (a backend's time until its last sample).
 */
function postgresMeter(database: BenchDatabase) {
  const pid = database.postmasterPid;
  if (pid) {
    const before = treeCpuSeconds(pid);
    return { stop: () => treeCpuSeconds(pid) - before };
  }
  const name = new URL(database.url).pathname.slice(1);
  const first = backendCpu(name);
  const last = new Map(first);
  const sample = () => {
    for (const [p, s] of backendCpu(name)) last.set(p, s);
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let sum = 0;
      for (const [p, s] of last) sum += s - (first.get(p) ?? 0);
      return sum;
    },
  };
}

type Side = {
  label: string;
  database: BenchDatabase;
  server: BenchServer;
  pool: pg.Pool;
  cipher: CredentialCipher;
  figures: Map<PhaseName, Figure[]>;
};

async function startSide(label: string, command: ServerCommand): Promise<Side> {
  const database = await benchDatabase();
  const key = randomBytes(32);
  const server = await startServer(
    database.url,
    {
      CREDENTIAL_KEY: `k1:${key.toString("base64")}`,
      CONNECTOR_RATE_MULTIPLIER: RATE_MULTIPLIER,
      OUTBOUND_ALLOW: "127.0.0.1",
    },
    command,
  );
  return {
    label,
    database,
    server,
    pool: new pg.Pool({ connectionString: database.url, max: 1 }),
    cipher: new CredentialCipher(new Map([["k1", key]]), "k1"),
    figures: new Map(),
  };
}

/** A company with its Mikro and IKAS connections (the shop tested) and its jobs, all disabled. */
async function newCompany(side: Side, emulators: Emulators, name: string) {
  const { token, companyId } = await registerCompany(side.server.port, name, MIKRO);
  const database = await openDatabase({ databaseUrl: side.database.url });
  try {
    await saveConnection(database.db, side.cipher, {
      companyId,
      kind: "erp",
      systemType: MIKRO,
      credentials: { ...emulators.ready.erp },
    });
    await saveConnection(database.db, side.cipher, {
      companyId,
      kind: "shop",
      systemType: IKAS,
      credentials: { ...emulators.ready.shop },
    });
    await ensureCompanyJobs(database.db, companyId, new Date());
  } finally {
    await database.close();
  }
  await side.pool.query("update connections set last_test_ok = true where company_id = $1", [companyId]);
  await side.pool.query("update jobs set is_enabled = false, next_run_at = null where company_id = $1", [
    companyId,
  ]);
  return { token, companyId };
}

/** Starts the company's runs of `types` through the API and waits for them to end; their counts summed. */
async function runJobs(side: Side, company: { token: string; companyId: number }, types: string[]) {
  const { rows: jobRows } = await side.pool.query<{ id: number; type: string }>(
    "select id, type from jobs where company_id = $1 and type = any($2)",
    [company.companyId, types],
  );
  const agent = new http.Agent({ keepAlive: false });
  const runIds: number[] = [];
  for (const job of jobRows) {
    const reply = await request(
      agent,
      side.server.port,
      "POST",
      `/api/Job/run-job?jobId=${job.id}`,
      company.token,
    );
    if (reply.status !== 200) throw new Error(`run-job ${job.type}: ${reply.status} ${reply.body}`);
    runIds.push(JSON.parse(reply.body).data.runId);
  }
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const { rows } = await side.pool.query<{ status: string; counts: Record<string, number> | null }>(
      "select status, counts from job_runs where id = any($1)",
      [runIds],
    );
    if (rows.length === runIds.length && rows.every((r) => r.status !== "Queued" && r.status !== "Running")) {
      const failed = rows.filter((r) => r.status !== "Succeeded");
      if (failed.length > 0)
        throw new Error(`${side.label}: runs ended ${failed.map((r) => r.status).join(", ")}`);
      const sum = (k: string) => rows.reduce((s, r) => s + (r.counts?.[k] ?? 0), 0);
      return { read: sum("read"), written: sum("written") };
    }
    if (Date.now() > deadline) throw new Error("the runs did not end within 30 minutes");
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function measured(side: Side, run: () => Promise<{ read: number; written: number }>, first: boolean) {
  const pid = side.server.child.pid!;
  const serverBefore = cpuSeconds(pid);
  const meter = postgresMeter(side.database);
  const box = boxCpuSeconds();
  const t = performance.now();
  const counts = await run();
  const wall = (performance.now() - t) / 1000;
  const postgres = meter.stop();
  const server = cpuSeconds(pid) - serverBefore;
  const boxAfter = boxCpuSeconds();
  const busy = (boxAfter.busy - box.busy) / (boxAfter.total - box.total);
  return { moved: first ? counts.read : counts.written, read: counts.read, server, postgres, wall, busy };
}

/** One company through its first sync, a full sync and a 1 % delta; figures kept unless a warm-up. */
async function cycle(side: Side, emulators: Emulators, name: string, keep: boolean) {
  const company = await newCompany(side, emulators, name);
  const phases: Array<[PhaseName, () => Promise<{ read: number; written: number }>]> = [
    ["first sync", () => runJobs(side, company, ["ProductIntegration"])],
    ["full sync", () => runJobs(side, company, ["StockIntegration", "PriceIntegration"])],
    [
      "1 % delta",
      async () => {
        await emulators.mutate(CHANGED_EVERY);
        return runJobs(side, company, ["StockIntegration", "PriceIntegration"]);
      },
    ],
  ];
  const line: string[] = [];
  for (const [phase, run] of phases) {
    const f = await measured(side, run, phase === "first sync");
    line.push(
      `${phase}: ${f.moved} moved, server ${f.server.toFixed(2)} s, PostgreSQL ${f.postgres.toFixed(2)} s, ${f.wall.toFixed(1)} s wall`,
    );
    if (keep) side.figures.set(phase, [...(side.figures.get(phase) ?? []), f]);
  }
  console.log(`  ${side.label}, ${keep ? name : `${name} (warm-up)`}: ${line.join("; ")}  [${boxLoad()}]`);
}

/** A revision's server: this checkout's, or another checkout's (its own bundle and node flags). */
async function checkoutCommand(root: string): Promise<ServerCommand> {
  const mod = (await import(join(root, "apps/server/src/server-process.ts"))) as {
    serverDir: string;
    serverNodeArgs: (script: "start") => string[];
  };
  return { dir: mod.serverDir, args: mod.serverNodeArgs("start") };
}

/** The base revision's checkout: BENCH_BASE_DIR as it is, or a temporary worktree of BENCH_BASE. */
function baseCheckout(): { root: string; sha: string; remove(): void } | undefined {
  const given = process.env.BENCH_BASE_DIR;
  if (given) return { root: given, sha: git(given, "rev-parse", "--short", "HEAD"), remove() {} };
  const rev = process.env.BENCH_BASE;
  if (!rev) return undefined;
  const sha = git(repoRoot, "rev-parse", "--short", rev);
  const root = join(mkdtempSync(join(tmpdir(), "ep-bench-base-")), "repo");
  console.log(`base ${sha}: a worktree in ${root}, npm ci and the server's bundle (a few minutes)`);
  git(repoRoot, "worktree", "add", "--detach", root, sha);
  const remove = () => {
    git(repoRoot, "worktree", "remove", "--force", root);
    rmSync(resolve(root, ".."), { recursive: true, force: true });
  };
  try {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "ignore" });
  } catch (error) {
    remove();
    throw error;
  }
  return { root, sha, remove };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function report(sides: Side[]) {
  console.log(`\nCPU seconds per 1,000 records moved (median of ${REPEATS}, [min–max]), ${boxLoad()}`);
  const perK = (f: Figure, k: "server" | "postgres") => (f[k] / f.moved) * 1000;
  for (const phase of PHASES) {
    const cells = sides.map((side) => {
      const fs = side.figures.get(phase) ?? [];
      const cell = (k: "server" | "postgres") => {
        const xs = fs.map((f) => perK(f, k));
        return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
      };
      return {
        side,
        moved: median(fs.map((f) => f.moved)),
        busy: median(fs.map((f) => f.busy)),
        server: cell("server"),
        postgres: cell("postgres"),
      };
    });
    for (const c of cells) {
      const fmt = (x: { median: number; min: number; max: number }) =>
        `${x.median.toFixed(3)} [${x.min.toFixed(3)}–${x.max.toFixed(3)}]`;
      console.log(
        `  ${phase.padEnd(10)} ${c.side.label.padEnd(18)} ${String(c.moved).padStart(7)} moved: server ${fmt(c.server)}, PostgreSQL ${fmt(c.postgres)}, together ${(c.server.median + c.postgres.median).toFixed(3)}  (box busy ${(c.busy * 100).toFixed(0)} %)`,
      );
    }
    const [ours, base] = cells;
    if (ours && base)
      console.log(
        `  ${phase.padEnd(10)} ours ÷ base: server ${(ours.server.median / base.server.median).toFixed(2)}×, PostgreSQL ${(ours.postgres.median / base.postgres.median).toFixed(2)}×, together ${((ours.server.median + ours.postgres.median) / (base.server.median + base.postgres.median)).toFixed(2)}×`,
      );
  }
}

async function main() {
  const base = baseCheckout();
  const sides: Side[] = [];
  const emulators = await Emulators.start({ skus: SKUS, seed: "bench-cpu" });
  try {
    await emulators.setRateLimit(false);
    await emulators.warmErpSorts();
    const ours = git(repoRoot, "rev-parse", "--short", "HEAD");
    const dirty = git(repoRoot, "status", "--porcelain", "--untracked-files=no") ? "+changes" : "";
    sides.push(await startSide(`ours ${ours}${dirty}`, { dir: serverDir, args: serverNodeArgs("start") }));
    if (base) sides.push(await startSide(`base ${base.sha}`, await checkoutCommand(base.root)));
    console.log(
      `${SKUS.toLocaleString("en")} SKUs, Mikro → IKAS; ${sides[0]!.database.name}; connector budgets ×${RATE_MULTIPLIER}, shop window off; ${WARM_UP} warm-up + ${REPEATS} measured cycles per server  [${boxLoad()}]`,
    );
    for (let i = 0; i < WARM_UP + REPEATS; i++) {
      // The servers take turns, in alternating order, so the box's drift weighs on both alike.
      for (const side of i % 2 === 0 ? sides : [...sides].reverse())
        await cycle(side, emulators, `cycle${i + 1}`, i >= WARM_UP);
    }
    report(sides);
  } finally {
    for (const side of sides) {
      await side.pool.end();
      await side.server.stop();
      await side.database.drop();
    }
    await emulators.stop();
    base?.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
