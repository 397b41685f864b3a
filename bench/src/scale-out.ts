/**
 * `npm run bench:scale-out -w @ep/bench` (issue 13, item 6): do two worker processes do twice the work
 * of one?
 *
 * On PostgreSQL (DATABASE_URL names a server; a fresh database per phase is made there and dropped),
 * `BENCH_COMPANIES` companies (10), each with its Mikro and IKAS connections to one emulator pair of
 * `BENCH_SKUS` SKUs (20,000, in a child process). Each phase starts `n` production worker processes
 * (`npm run worker`: the bundle; queue slots, scheduler, sweeper; no HTTP), then enables every company's
 * ProductIntegration (the first full sync, the heaviest run) due now. The workers' schedulers queue
 * the runs and their queue slots run them. Figures per phase: wall time from the first run queued to
 * the last one finished (the database's clocks), and the CPU seconds of the worker processes
 * (/proc/<pid>/stat) per run. Then the ratio one / two (goal ≥ 1.8×).
 *
 * Environment: BENCH_COMPANIES (10), BENCH_SKUS (20000), BENCH_RATE_MULTIPLIER (1000: the
 * connectors' own budgets, multiplied, so the workers and not the vendors' limits set the pace; the
 * emulator's shared limit is off), BENCH_WORKERS ("1,2"), BENCH_ROUNDS (6: each round runs both phases,
 * in turn one → two and two → one; the figure is the throughput of all rounds' runs). `--strict` exits
 * 1 on a FAIL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCompanyJobs } from "@ep/engine";
import { saveConnection } from "@ep/server/connections";
import { CredentialCipher } from "@ep/server/credentials";
import { openDatabase } from "@ep/server/database";
import { companies } from "@ep/server/schema";
import { serverDir, serverNodeArgs } from "@ep/server/server-process";
import pg from "pg";
import type { EmulatorsReady } from "./emulator-host.ts";
import { Emulators } from "./emulators.ts";
import { IKAS, MIKRO } from "./engine.ts";
import { freshPostgres } from "./postgres.ts";
import { boxCpuSeconds, cpuSeconds, postmasterPid, treeCpuSeconds } from "./process-cpu.ts";

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 10);
const SKUS = Number(process.env.BENCH_SKUS ?? 20_000);
const RATE_MULTIPLIER = Number(process.env.BENCH_RATE_MULTIPLIER ?? 1000);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);
/**
 * Rounds of the phases (`BENCH_ROUNDS`), in turn one → two and two → one: the figure is the throughput
 * of all rounds' runs, so the box's drift weighs on both worker counts alike.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/** Cores each worker process may use (a cgroup CPU quota), or 0 for no limit. */
const WORKER_CPU = Number(process.env.BENCH_WORKER_CPU ?? 0.3);
const GOAL = 1.8;
/** Queue slots of a worker process (the server's default). */
const SLOTS = 2;
/** Warm-up runs per queue slot before the timed runs (`BENCH_WARM_UP`). */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2);

const CGROUP_CPU = "/sys/fs/cgroup/cpu";

/**
 * A worker process as a machine of its own: a CPU quota of `cores` (cgroup v1 CFS), so that it and
 * not the box's two cores, shared with PostgreSQL and the emulators, is what the phase measures.
 * Answers a function that removes the group, or undefined where cgroups are not writable.
 */
function limitCpu(pid: number, name: string, cores: number): (() => void) | undefined {
  if (!(cores > 0) || !existsSync(CGROUP_CPU)) return undefined;
  const dir = `${CGROUP_CPU}/${name}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/cpu.cfs_period_us`, "100000");
    writeFileSync(`${dir}/cpu.cfs_quota_us`, String(Math.round(cores * 100_000)));
    writeFileSync(`${dir}/cgroup.procs`, String(pid));
  } catch {
    return undefined;
  }
  return () => {
    try {
      rmdirSync(dir);
    } catch {
      // still has a process: it is gone once the worker has exited
    }
  };
}

/** Waits until the ProductIntegration run of each of `companyIds` has ended. */
async function finished(pool: pg.Pool, companyIds: number[]) {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const { rows } = await pool.query<{ done: number }>(
      `select count(*)::int as done from job_runs where job_type = 'ProductIntegration'
         and company_id = any($1) and status not in ('Queued', 'Running')`,
      [companyIds],
    );
    if ((rows[0]?.done ?? 0) >= companyIds.length) return;
    if (Date.now() > deadline) throw new Error("the runs did not end within 30 minutes");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** One measured run, as the database recorded it (epoch seconds). */
type RunSpan = { owner: string; status: string; queued: number; started: number; finished: number };

/**
 * A phase's figures from its runs' own times: wall time from the first run queued to the last one
 * finished, the mean wait and run, the runs per worker process and per status, and where the slots
 * lost time: slot-seconds free while a run waited (the queue's hand-out), and the tail after the last
 * run started (nothing left to hand out).
 */
function runFigures(runs: RunSpan[], slots: number) {
  const mean = (f: (r: RunSpan) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
  const count = (f: (r: RunSpan) => string) => {
    const out: Record<string, number> = {};
    for (const r of runs) out[f(r)] = (out[f(r)] ?? 0) + 1;
    return out;
  };
  const instants = [...new Set(runs.flatMap((r) => [r.queued, r.started, r.finished]))].sort((a, b) => a - b);
  let idleWhileWaiting = 0;
  for (let i = 0; i + 1 < instants.length; i++) {
    const at = instants[i]!;
    const waiting = runs.filter((r) => r.queued <= at && r.started > at).length;
    const running = runs.filter((r) => r.started <= at && r.finished > at).length;
    idleWhileWaiting += Math.min(waiting, slots - running) * (instants[i + 1]! - at);
  }
  const lastFinished = Math.max(...runs.map((r) => r.finished));
  return {
    runs: runs.length,
    wall: lastFinished - Math.min(...runs.map((r) => r.queued)),
    queued: mean((r) => r.started - r.queued),
    ran: mean((r) => r.finished - r.started),
    perWorker: Object.values(count((r) => r.owner)).sort((a, b) => b - a),
    statuses: count((r) => r.status),
    idleWhileWaiting,
    tail: lastFinished - Math.max(...runs.map((r) => r.started)),
  };
}

/** The share of their CPU quota the phases' workers used: what the queue handed out, whatever a run cost. */
const quotaUsed = (ps: Phase[]) =>
  ps.reduce((s, p) => s + p.cpu, 0) / ps.reduce((s, p) => s + p.workers * WORKER_CPU * p.wall, 0);

type Phase = {
  workers: number;
  wall: number;
  cpu: number;
  emulatorCpu: number;
  postgresCpu: number;
  /** The box's busy share of its cores over the phase. */
  boxBusy: number;
  /** Mean seconds a run waited in the queue, and ran. */
  queued: number;
  ran: number;
  runs: number;
  /** Runs each worker process ran, most first. */
  perWorker: number[];
  /** Slot-seconds free while a run waited in the queue: work the queue did not hand out. */
  idleWhileWaiting: number;
  /** Seconds from the last run started to the last one finished: the tail, when slots free up with nothing left. */
  tail: number;
  statuses: Record<string, number>;
};

async function phase(
  serverUrl: string,
  emulators: EmulatorsReady,
  emulatorPids: number[],
  workers: number,
): Promise<Phase> {
  const database = await freshPostgres(serverUrl);
  if (!database) throw new Error("no database");
  const key = randomBytes(32);
  const cipher = new CredentialCipher(new Map([["k1", key]]), "k1");
  const processes: ChildProcess[] = [];
  const cgroups: Array<() => void> = [];
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    // Seeding (migrations, companies, connections, jobs all disabled): not timed.
    // The measured companies, and `WARM_UP` warm-up companies per queue slot.
    const seed = await openDatabase({ databaseUrl: database.url });
    const measured: number[] = [];
    const warmUp: number[] = [];
    for (let i = 0; i < COMPANIES + workers * SLOTS * WARM_UP; i++) {
      const warm = i >= COMPANIES;
      const [company] = await seed.db
        .insert(companies)
        .values({
          name: warm ? `Isınma ${i - COMPANIES + 1} A.Ş.` : `Ölçek ${i + 1} A.Ş.`,
          erpType: MIKRO,
          ecommerceType: IKAS,
        })
        .returning();
      const companyId = company!.id;
      (warm ? warmUp : measured).push(companyId);
      await saveConnection(seed.db, cipher, {
        companyId,
        kind: "erp",
        systemType: MIKRO,
        credentials: { ...emulators.erp },
      });
      await saveConnection(seed.db, cipher, {
        companyId,
        kind: "shop",
        systemType: IKAS,
        credentials: { ...emulators.shop },
      });
      await ensureCompanyJobs(seed.db, companyId, new Date());
    }
    await seed.close();
    await pool.query("update jobs set is_enabled = false, next_run_at = null");

    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      ROLE: "worker",
      DEMO: "0",
      CAPTCHA: "off",
      LOG_LEVEL: "info",
      BROWSER: "none",
      TOKEN_SECRET: randomBytes(32).toString("hex"),
      CREDENTIAL_KEY: `k1:${key.toString("base64")}`,
      CONNECTOR_RATE_MULTIPLIER: String(RATE_MULTIPLIER),
      OUTBOUND_ALLOW: "127.0.0.1",
    };
    // The production worker (`npm run worker -w @ep/server`: the bundle and its node flags), one
    // after the other so that each has started before the next.
    const workerArgs = serverNodeArgs("worker");
    for (let w = 0; w < workers; w++) {
      const child = spawn(process.execPath, workerArgs, {
        cwd: serverDir,
        env: { ...env, DATA_DIR: mkdtempSync(join(tmpdir(), "ep-bench-scale-")) },
        stdio: ["ignore", "pipe", "inherit"],
      });
      processes.push(child);
      await new Promise<void>((resolve, reject) => {
        let seen = "";
        const onData = (chunk: Buffer) => {
          seen = (seen + chunk.toString()).slice(-4000);
          if (seen.includes("worker started")) {
            child.stdout?.off("data", onData);
            child.stdout?.resume();
            resolve();
          }
        };
        child.stdout?.on("data", onData);
        child.once("exit", (code) => reject(new Error(`worker exited with ${code} before it started`)));
      });
      const release = limitCpu(child.pid!, `ep-bench-worker-${process.pid}-${w}`, WORKER_CPU);
      if (WORKER_CPU > 0 && !release)
        throw new Error(`cannot set a CPU quota under ${CGROUP_CPU}: set BENCH_WORKER_CPU=0`);
      if (release) cgroups.push(release);
    }

    // Warm-up, not timed: first syncs, `WARM_UP` per queue slot, so that every worker process has
    // compiled and optimised what a run uses, as a long-running worker has. Each must have run one.
    await pool.query(
      "update jobs set is_enabled = true, next_run_at = now() where type = 'ProductIntegration' and company_id = any($1)",
      [warmUp],
    );
    await finished(pool, warmUp);
    const { rows: warmed } = await pool.query<{ n: number }>(
      "select count(distinct lease_owner)::int as n from job_runs where company_id = any($1)",
      [warmUp],
    );
    if ((warmed[0]?.n ?? 0) < workers)
      throw new Error(`the warm-up runs went to ${warmed[0]?.n} of ${workers} worker processes`);

    const cpuBefore = processes.map((p) => cpuSeconds(p.pid!));
    const emulatorBefore = emulatorPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const postmaster = postmasterPid();
    const postgresBefore = postmaster ? treeCpuSeconds(postmaster) : 0;
    const boxBefore = boxCpuSeconds();
    // Every measured company's first full sync, due now: the workers' schedulers queue them.
    await pool.query(
      "update jobs set is_enabled = true, next_run_at = now() where type = 'ProductIntegration' and company_id = any($1)",
      [measured],
    );
    await finished(pool, measured);
    const cpu = processes.reduce((sum, p, i) => sum + cpuSeconds(p.pid!) - cpuBefore[i]!, 0);
    const emulatorCpu = emulatorPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - emulatorBefore;
    const postgresCpu = postmaster ? treeCpuSeconds(postmaster) - postgresBefore : Number.NaN;
    const boxAfter = boxCpuSeconds();
    const boxBusy = (boxAfter.busy - boxBefore.busy) / (boxAfter.total - boxBefore.total);
    const { rows: timeline } = await pool.query<RunSpan>(
      `select lease_owner as owner, status, extract(epoch from created_at)::float8 as queued,
              extract(epoch from started_at)::float8 as started, extract(epoch from finished_at)::float8 as finished
         from job_runs where job_type = 'ProductIntegration' and company_id = any($1)`,
      [measured],
    );
    return { workers, cpu, emulatorCpu, postgresCpu, boxBusy, ...runFigures(timeline, workers * SLOTS) };
  } finally {
    for (const p of processes) {
      const exited = new Promise((r) => p.once("exit", r));
      p.kill("SIGTERM");
      await exited;
    }
    for (const release of cgroups) release();
    await pool.end();
    await database.drop();
  }
}

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.error(
      "bench:scale-out runs worker processes on PostgreSQL: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres",
    );
    process.exit(2);
  }
  const emulators = await Emulators.start({ skus: SKUS, seed: "bench-scale-out" });
  try {
    // The connectors' per-company budgets (×BENCH_RATE_MULTIPLIER) pace each company; the
    // emulator's one shared window would pace all companies together.
    await emulators.setRateLimit(false);
    console.log(
      `${COMPANIES} companies × ${SKUS.toLocaleString("en")} SKUs, ProductIntegration each; connector budgets ×${RATE_MULTIPLIER}; 2 queue slots per worker process; ${WORKER_CPU > 0 ? `${WORKER_CPU} core per worker process (a CPU quota)` : "no CPU quota"}.`,
    );
    // Rounds of one phase each way, in turn one → two and two → one, so that the box's slow drift
    // (the same run's CPU moves by ±10 % over minutes here) weighs on both sides of a round alike.
    const byWorkers = new Map<number, Phase[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const workers of round % 2 === 0 ? WORKERS : [...WORKERS].reverse()) {
        const p = await phase(serverUrl, emulators.ready, emulators.pids, workers);
        byWorkers.set(workers, [...(byWorkers.get(workers) ?? []), p]);
        console.log(
          `round ${round + 1}, ${workers} worker process${workers > 1 ? "es" : ""}: ${p.runs} runs in ${p.wall.toFixed(1)} s (${(p.runs / p.wall).toFixed(3)} runs/s), worker CPU ${p.cpu.toFixed(1)} s = ${(p.cpu / p.runs).toFixed(2)} s per run (emulators ${p.emulatorCpu.toFixed(1)} s, PostgreSQL ${p.postgresCpu.toFixed(1)} s; box busy ${(p.boxBusy * 100).toFixed(0)} %); a run queued ${p.queued.toFixed(1)} s and ran ${p.ran.toFixed(1)} s on average; runs per worker process ${p.perWorker.join("/")}; quota used ${WORKER_CPU > 0 ? `${(quotaUsed([p]) * 100).toFixed(0)} %` : "(none)"}, slots free while runs waited ${p.idleWhileWaiting.toFixed(1)} slot-s, tail ${p.tail.toFixed(1)} s; ${JSON.stringify(p.statuses)}`,
        );
        if ((p.statuses.Succeeded ?? 0) !== COMPANIES)
          throw new Error(`not every run succeeded: ${JSON.stringify(p.statuses)}`);
      }
    }
    const ones = byWorkers.get(1) ?? [];
    const twos = byWorkers.get(2) ?? [];
    if (ones.length > 0 && twos.length > 0) {
      // Throughput over all rounds: every run of a worker count against all the time they took.
      const throughput = (ps: Phase[]) =>
        ps.reduce((s, p) => s + p.runs, 0) / ps.reduce((s, p) => s + p.wall, 0);
      const cpuPerRun = (ps: Phase[]) =>
        ps.reduce((s, p) => s + p.cpu, 0) / ps.reduce((s, p) => s + p.runs, 0);
      const ratio = throughput(twos) / throughput(ones);
      const pass = ratio >= GOAL;
      console.log("");
      console.log(
        `rounds: ${ones.map((one, i) => `${(one.wall / twos[i]!.wall).toFixed(2)}×`).join(", ")}; worker CPU per run over all rounds, one / two: ${cpuPerRun(ones).toFixed(2)} / ${cpuPerRun(twos).toFixed(2)} s${WORKER_CPU > 0 ? `; quota used, one / two: ${(quotaUsed(ones) * 100).toFixed(0)} / ${(quotaUsed(twos) * 100).toFixed(0)} %` : ""}`,
      );
      console.log(
        `${pass ? "PASS" : "FAIL"}  two worker processes / one, throughput over ${ones.length} rounds  ${ratio.toFixed(2)}×  (goal ≥ ${GOAL}×)`,
      );
      if (process.argv.includes("--strict") && !pass) process.exitCode = 1;
    }
  } finally {
    await emulators.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
