/**
 * `npm run bench:idle -w @ep/bench` (issue 34, item 2: "idle ≤ 200 MB"): the embedded default as the
 * README's `npm start` runs it — the root script itself (web build when stale, the server's bundle),
 * on a fresh data dir, so the server, its PostgreSQL cluster and the demo company with its on-site
 * agent process. The bench waits for real readiness (`/health` answers ok and the panel shows the
 * demo's agent online, asked as the demo user would), lets it idle IDLE_SETTLE_SECONDS (60) with its
 * scheduler, stock probes and agent running as they do, then samples every second for
 * IDLE_SAMPLE_SECONDS (10) the PSS and RSS of the server process and all its descendants (the
 * cluster's postmaster and backends, the agent) from /proc, and prints the mean and peak of the total
 * with the split per kind of process at the last sample, and the box's load.
 *
 * The npm processes `npm start` leaves above the server (they only wait for it) are printed apart and
 * not counted: an install runs the server with a process manager, not through npm.
 *
 * `--heap`: the server also loads heap-probe.mjs (NODE_OPTIONS), and its V8 figures are printed.
 * `--strict`: exits 1 when the mean total PSS is over 200 MB. PORT from BENCH_PORT (free one otherwise).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { boxLoad, freePort, request } from "./bench-server.ts";
import { descendants, type HeapProbe, memoryByProcess, type ProcessMemory } from "./process-memory.ts";

const GOAL_MB = 200;
const SETTLE = Number(process.env.IDLE_SETTLE_SECONDS ?? 60);
const SAMPLES = Number(process.env.IDLE_SAMPLE_SECONDS ?? 10);
const strict = process.argv.includes("--strict");
const heap = process.argv.includes("--heap");
const root = fileURLToPath(new URL("../../", import.meta.url));
const DEMO = { email: "demo@entegrasyonpaneli.com", password: "Demo.Panel2026" };

const mb = (kb: number) => (kb / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
};

type Kind = "server" | "postgres postmaster" | "postgres backends" | "agent" | "other";
/** Which part of the product a process is, from its command line (PostgreSQL titles its processes). */
function kindOf(pid: number, serverPid: number, agentPids: Set<number>): Kind {
  if (pid === serverPid) return "server";
  if (agentPids.has(pid)) return "agent";
  const args = cmdline(pid);
  const first = args[0] ?? "";
  if (first.startsWith("postgres:")) return "postgres backends";
  if (first.endsWith("/postgres") || first === "postgres") return "postgres postmaster";
  return "other";
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-idle-"));
  const port = Number(process.env.BENCH_PORT ?? 0) || (await freePort());
  const probeFile = join(dataDir, "heap-probe.json");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    BROWSER: "none",
  };
  // The defaults, as on a fresh machine: embedded PostgreSQL, demo on, demo agent on.
  for (const name of [
    "DATABASE_URL",
    "EMBEDDED_DB",
    "DEMO",
    "DEMO_AGENT",
    "NODE_OPTIONS",
    "ROLE",
    "PUBLIC_URL",
  ])
    delete env[name];
  if (heap) {
    env.NODE_OPTIONS = `--import=${join(root, "bench/src/heap-probe.mjs")}`;
    env.BENCH_HEAP_PROBE = probeFile;
    env.BENCH_HEAP_PROBE_SCRIPT = "dist/main.js";
  }
  let stderr = "";
  const t0 = performance.now();
  const npm: ChildProcess = spawn("npm", ["start"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  npm.stderr?.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const agent = new http.Agent({ keepAlive: false });
  let serverPid = 0;
  try {
    // Ready: /health ok, then the demo user's panel shows its agent online.
    let token = "";
    for (let i = 0; ; i++) {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${stderr}`);
      if (i > 3000) throw new Error(`not ready within 300 s:\n${stderr}`);
      await sleep(100);
      const health = await request(agent, port, "GET", "/health").catch(() => undefined);
      if (health?.status !== 200 || JSON.parse(health.body).status !== "ok") continue;
      if (!token) {
        const login = await request(agent, port, "POST", "/api/account/login", undefined, DEMO).catch(
          () => undefined,
        );
        if (login?.status !== 200) continue;
        token = JSON.parse(login.body).data.token;
      }
      const agents = await request(agent, port, "GET", "/api/agents", token).catch(() => undefined);
      if (agents?.status === 200 && JSON.parse(agents.body).data?.some((a: { online: boolean }) => a.online))
        break;
    }
    const readyS = (performance.now() - t0) / 1000;
    // The node process itself, not the `sh -c` npm runs it through.
    serverPid =
      descendants([npm.pid!]).find((pid) => {
        const args = cmdline(pid);
        return args[0] === process.execPath || args[0]?.endsWith("/node") || args[0] === "node"
          ? args.some((a) => a.endsWith("dist/main.js"))
          : false;
      }) ?? 0;
    if (!serverPid) throw new Error("no `node … dist/main.js` process under npm start");
    console.log(`ready in ${readyS.toFixed(1)} s (health ok, demo agent online); idling ${SETTLE} s …`);
    await sleep(SETTLE * 1000);

    const totals: { pss: number; rss: number }[] = [];
    let last: ProcessMemory[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      last = memoryByProcess([serverPid]);
      totals.push({
        pss: last.reduce((s, p) => s + p.pss, 0),
        rss: last.reduce((s, p) => s + p.rss, 0),
      });
      await sleep(1000);
    }
    const wrappers = memoryByProcess([npm.pid!]).filter((p) => !last.some((q) => q.pid === p.pid));
    const load = boxLoad();

    // The agent: a node child of the server, and whatever it runs (tsx ran an esbuild service).
    const agentRoots = last
      .filter((p) => p.pid !== serverPid && /node$/.test(cmdline(p.pid)[0] ?? ""))
      .map((p) => p.pid);
    const agentPids = new Set(descendants(agentRoots));
    const byKind = new Map<
      Kind,
      { n: number; pss: number; rss: number; anon: number; file: number; shmem: number }
    >();
    for (const p of last) {
      const k = kindOf(p.pid, serverPid, agentPids);
      const row = byKind.get(k) ?? { n: 0, pss: 0, rss: 0, anon: 0, file: 0, shmem: 0 };
      byKind.set(k, {
        n: row.n + 1,
        pss: row.pss + p.pss,
        rss: row.rss + p.rss,
        anon: row.anon + p.anon,
        file: row.file + p.file,
        shmem: row.shmem + p.shmem,
      });
    }
    const meanPss = totals.reduce((s, t) => s + t.pss, 0) / totals.length;
    const meanRss = totals.reduce((s, t) => s + t.rss, 0) / totals.length;
    const peakPss = Math.max(...totals.map((t) => t.pss));
    const peakRss = Math.max(...totals.map((t) => t.rss));

    console.log(`\nIdle memory of \`npm start\` (server + embedded PostgreSQL + demo agent), ${load}`);
    console.log(
      `after ${SETTLE} s idle, ${SAMPLES} samples 1 s apart; MB (PSS split: anon / file / shmem)\n`,
    );
    console.log("  kind                   procs     PSS     RSS    anon    file   shmem");
    for (const [k, r] of [...byKind].sort((a, b) => b[1].pss - a[1].pss))
      console.log(
        `  ${k.padEnd(22)} ${String(r.n).padStart(5)} ${mb(r.pss).padStart(7)} ${mb(r.rss).padStart(7)} ${mb(r.anon).padStart(7)} ${mb(r.file).padStart(7)} ${mb(r.shmem).padStart(7)}`,
      );
    console.log(
      `  ${"total (last sample)".padEnd(22)} ${String(last.length).padStart(5)} ${mb(totals.at(-1)!.pss).padStart(7)} ${mb(totals.at(-1)!.rss).padStart(7)}`,
    );
    console.log(
      `\n  total PSS mean ${mb(meanPss)} MB, peak ${mb(peakPss)} MB; RSS mean ${mb(meanRss)} MB, peak ${mb(peakRss)} MB`,
    );
    console.log(
      `  not counted: ${wrappers.length} npm wrapper process(es) above the server, PSS ${mb(wrappers.reduce((s, p) => s + p.pss, 0))} MB`,
    );
    if (heap && existsSync(probeFile)) {
      const p = JSON.parse(readFileSync(probeFile, "utf8")) as HeapProbe;
      const m = (b: number) => (b / 1048576).toFixed(1);
      console.log(
        `  server V8: heap used ${m(p.heapUsed)} of ${m(p.heapTotal)} MB, external ${m(p.external)} MB (array buffers ${m(p.arrayBuffers)}), bytecode ${m(p.code.bytecode)} MB, code ${m(p.code.code)} MB, script source ${m(p.code.scriptSource)} MB`,
      );
      console.log(
        `  spaces: ${Object.entries(p.spaces)
          .map(([k, v]) => `${k} ${m(v)}`)
          .join(", ")}`,
      );
    }
    const pass = meanPss / 1024 <= GOAL_MB;
    console.log(`\n  goal idle ≤ ${GOAL_MB} MB PSS: ${pass ? "PASS" : "FAIL"} (${mb(meanPss)} MB)`);
    if (strict && !pass) process.exitCode = 1;
  } finally {
    // SIGTERM to the server: it drains, stops the agent and the cluster; then npm returns.
    // Whatever is still running: a kill that finds nothing must not hide the error that got here.
    const signal = (pid: number, name: NodeJS.Signals) => {
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    };
    if (serverPid) signal(serverPid, "SIGTERM");
    else if (npm.pid) signal(-npm.pid, "SIGTERM");
    const exited = npm.exitCode !== null ? Promise.resolve() : new Promise((r) => npm.once("exit", r));
    const hard = setTimeout(() => {
      if (npm.pid) signal(-npm.pid, "SIGKILL");
    }, 30_000);
    await exited;
    clearTimeout(hard);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
