/**
 * `npm run bench:agent -w @ep/bench`: what the on-site agent adds to a connector call (issue 14). The
 * same Mikro connector calls the Mikro emulator on loopback twice in one run: straight, then through a
 * real agent process (the CLI, paired with the real server in this process) over its WebSocket. Figures:
 * calls/s with BENCH_CONCURRENCY calls in flight, and p50/p99 latency of one call at a time; the added
 * latency is through-agent minus direct at the same percentile (goal: ≤ 5 ms at p50 on loopback).
 *
 * Environment:
 *   BENCH_CALLS        calls per phase (default 2000)
 *   BENCH_CONCURRENCY  calls in flight for the calls/s phase (default 8)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentStore, pair } from "@ep/agent";
import {
  createMikroConnector,
  type ErpConnector,
  InMemoryRateLimitStore,
  startMikroEmulator,
  type TransportFetch,
} from "@ep/connectors";
import { AgentService, agentHubOf } from "@ep/server/agents";
import { buildApp } from "@ep/server/app";
import { closeContext, createContext } from "@ep/server/bootstrap";
import { loadConfig } from "@ep/server/config";
import { companies } from "@ep/server/schema";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../apps/agent/src/cli.ts");

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** One cheap read (one stock card), the connector's whole path: rate limiter, HttpClient, parsing. */
async function measure(connector: ErpConnector) {
  const one = () => connector.listProducts({ pageSize: 1 });
  for (let i = 0; i < 200; i++) await one(); // warm up: JIT, keep-alive sockets
  const latencies: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    await one();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  latencies.sort((a, b) => a - b);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await one();
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), callsPerSecond: CALLS / seconds };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-agent-"));
  const agentHome = mkdtempSync(join(tmpdir(), "ep-bench-agent-home-"));
  const port = 4800 + Math.floor(Math.random() * 400);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn", PORT: String(port), DEMO: "0" });
  const ctx = await createContext(config, { workers: false, scheduler: false });
  const app = await buildApp(ctx);
  const server = await app.listen({ port, host: "127.0.0.1" });
  const emulator = await startMikroEmulator({ host: "127.0.0.1", seed: 14, productCount: 50 });
  let child: ChildProcess | undefined;
  try {
    const [company] = await ctx.database.db
      .insert(companies)
      .values({ name: "Bench A.Ş.", erpType: 9, ecommerceType: 1 })
      .returning();
    const { code } = await new AgentService(ctx).issuePairingCode(company!.id);
    const paired = await pair(server, code, "BENCH-PC");
    new AgentStore(agentHome).saveConfig(paired);
    child = spawn(process.execPath, ["--import", "tsx", agentCli, "run"], {
      env: { ...process.env, ENTEGRASYON_AGENT_HOME: agentHome },
      stdio: "ignore",
    });
    const hub = agentHubOf(ctx);
    for (let i = 0; i < 300 && !hub.isOnline(paired.agentId); i++)
      await new Promise((r) => setTimeout(r, 50));
    if (!hub.isOnline(paired.agentId)) throw new Error("the agent did not come online");

    const connector = (fetch: TransportFetch) =>
      createMikroConnector(emulator.credentials, {
        companyId: "1",
        rateLimitStore: new InMemoryRateLimitStore(),
        budget: { requests: 1_000_000, windowMs: 1000 },
        fetch,
      });
    const direct = await measure(connector(fetch));
    const relayed = await measure(connector(hub.fetchFor(paired.agentId)));
    const row = (name: string, m: Awaited<ReturnType<typeof measure>>) =>
      `${name.padEnd(14)} ${m.callsPerSecond.toFixed(0).padStart(8)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)}`;
    console.log(
      `Mikro listProducts(1) on loopback, ${CALLS} calls per phase, ${CONCURRENCY} in flight for calls/s`,
    );
    console.log(`${"".padEnd(14)} ${"calls/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
    console.log(row("direct", direct));
    console.log(row("through agent", relayed));
    const added50 = relayed.p50 - direct.p50;
    const added99 = relayed.p99 - direct.p99;
    console.log(
      `added latency: p50 ${added50.toFixed(2)} ms, p99 ${added99.toFixed(2)} ms (goal: p50 ≤ 5 ms)`,
    );
    process.exitCode = added50 <= 5 ? 0 : 1;
  } finally {
    child?.kill("SIGKILL");
    await emulator.close();
    await app.close();
    await closeContext(ctx);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(agentHome, { recursive: true, force: true });
  }
}

await main();
