/**
 * `npm run bench:agent -w @ep/bench`: what the on-site agent adds to a connector call (issue 14). The
 * same Mikro connector calls the Mikro emulator on loopback twice in one run: straight, then through a
 * real agent process (the CLI, paired with the real server in this process) over its WebSocket. Figures:
 * calls/s with BENCH_CONCURRENCY calls in flight, and p50/p99 latency of one call at a time; the added
 * latency is through-agent minus direct at the same percentile (goal: ≤ 5 ms at p50 on loopback).
 * Then a full stock read of BENCH_STOCK_SKUS SKUs (every page, as a StockIntegration run reads it),
 * straight and through the agent, twice each, alternating (goal: through the agent ≤ 1.2× direct); a
 * second agent process speaking wire protocol 1 (bodies base64 in JSON frames, what agents before
 * protocol 2 send) reads it too, in the same rounds, so the binary frames' gain is measured under the
 * same load.
 *
 * Environment:
 *   BENCH_CALLS        calls per phase (default 2000)
 *   BENCH_CONCURRENCY  calls in flight for the calls/s phase (default 8)
 *   BENCH_STOCK_SKUS   SKUs of the full stock read (default 100000; 0 skips it)
 *   BENCH_PORT         the server's port (default: a random one in 4800-5199)
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
import { latencies, reportPaired, throughput, timed } from "./paired-latency.ts";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const STOCK_SKUS = Number(process.env.BENCH_STOCK_SKUS ?? 100_000);
const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../apps/agent/src/cli.ts");

/** One cheap read (one stock card), the connector's whole path: rate limiter, HttpClient, parsing. */
const oneCall = (connector: ErpConnector) => () => connector.listProducts({ pageSize: 1 });

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-agent-"));
  const agentHome = mkdtempSync(join(tmpdir(), "ep-bench-agent-home-"));
  const port = Number(process.env.BENCH_PORT ?? 4800 + Math.floor(Math.random() * 400));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn", PORT: String(port), DEMO: "0" });
  const ctx = await createContext(config, { workers: false, scheduler: false });
  const app = await buildApp(ctx);
  const server = await app.listen({ port, host: "127.0.0.1" });
  const emulator = await startMikroEmulator({ host: "127.0.0.1", seed: 14, productCount: 50 });
  const jsonAgentHome = mkdtempSync(join(tmpdir(), "ep-bench-agent-home-"));
  const children: ChildProcess[] = [];
  try {
    const [company] = await ctx.database.db
      .insert(companies)
      .values({ name: "Bench A.Ş.", erpType: 9, ecommerceType: 1 })
      .returning();
    const hub = agentHubOf(ctx);
    const startAgent = async (home: string, env: Record<string, string> = {}) => {
      const { code } = await new AgentService(ctx).issuePairingCode(company!.id);
      const paired = await pair(server, code, "BENCH-PC");
      new AgentStore(home).saveConfig(paired);
      children.push(
        spawn(process.execPath, ["--import", "tsx", agentCli, "run"], {
          env: { ...process.env, ENTEGRASYON_AGENT_HOME: home, ...env },
          stdio: "ignore",
        }),
      );
      for (let i = 0; i < 300 && !hub.isOnline(paired.agentId); i++)
        await new Promise((r) => setTimeout(r, 50));
      if (!hub.isOnline(paired.agentId)) throw new Error("the agent did not come online");
      return paired;
    };
    const paired = await startAgent(agentHome);
    const jsonPaired =
      STOCK_SKUS > 0 ? await startAgent(jsonAgentHome, { ENTEGRASYON_AGENT_PROTOCOL: "1" }) : undefined;

    const connector = (fetch: TransportFetch) =>
      createMikroConnector(emulator.credentials, {
        companyId: "1",
        rateLimitStore: new InMemoryRateLimitStore(),
        budget: { requests: 1_000_000, windowMs: 1000 },
        fetch,
      });
    const direct = oneCall(connector(fetch));
    const relayed = oneCall(connector(hub.fetchFor(paired.agentId)));
    const lat = await latencies(direct, relayed, CALLS);
    // Counted after the warm-up (the first call also signs in).
    const before = hub.relayedCalls(paired.agentId);
    await relayed();
    const httpPerCall = hub.relayedCalls(paired.agentId) - before;
    const directRate = await throughput(direct, CALLS, CONCURRENCY);
    const relayedRate = await throughput(relayed, CALLS, CONCURRENCY);
    const added50 = reportPaired(
      `Mikro listProducts(1) on loopback (${httpPerCall} HTTP call(s) each), ${CALLS} calls per phase, ` +
        `${CONCURRENCY} in flight for calls/s, direct and relayed calls alternating for latency`,
      { direct: directRate, relayed: relayedRate },
      lat,
    );
    let readOk = true;
    if (STOCK_SKUS > 0) {
      const big = await startMikroEmulator({ host: "127.0.0.1", seed: 15, productCount: STOCK_SKUS });
      try {
        const stockConnector = (fetch: TransportFetch) =>
          createMikroConnector(big.credentials, {
            companyId: "1",
            rateLimitStore: new InMemoryRateLimitStore(),
            budget: { requests: 1_000_000, windowMs: 1000 },
            fetch,
          });
        const readAll = (connector: ErpConnector) => async () => {
          let rows = 0;
          let pages = 0;
          let pageToken: string | undefined;
          do {
            const page = await connector.listStock({ pageToken });
            rows += page.items.length;
            pages++;
            pageToken = page.nextPageToken;
          } while (pageToken);
          return { rows, pages };
        };
        const directRead = readAll(stockConnector(fetch));
        const relayedRead = readAll(stockConnector(hub.fetchFor(paired.agentId)));
        const jsonRead = readAll(stockConnector(hub.fetchFor(jsonPaired!.agentId)));
        const shape = await directRead(); // warm-up, and the size of the read
        // Instant answers on loopback (the relay's cost alone), then the ERP answering in 150 ms as
        // the sync bench's realistic mode has it (what a merchant's read looks like).
        for (const latencyMs of [0, 150]) {
          big.setFaults(latencyMs ? { latencyMs } : {});
          const times = { direct: [] as number[], relayed: [] as number[], json: [] as number[] };
          for (let i = 0; i < 2; i++) {
            times.direct.push(await timed(directRead));
            times.relayed.push(await timed(relayedRead));
            times.json.push(await timed(jsonRead));
          }
          const best = (list: number[]) => Math.min(...list) / 1000;
          const ratio = best(times.relayed) / best(times.direct);
          readOk &&= ratio <= 1.2;
          console.log(
            `full stock read, ${STOCK_SKUS.toLocaleString("en")} SKUs (${shape.rows.toLocaleString("en")} rows, ${shape.pages} pages), ERP answer ${latencyMs} ms: ` +
              `direct ${best(times.direct).toFixed(2)} s, through the agent ${best(times.relayed).toFixed(2)} s (best of 2 each) → ` +
              `${ratio.toFixed(2)}× (goal ≤ 1.2×) ${ratio <= 1.2 ? "PASS" : "FAIL"}; ` +
              `protocol-1 agent (JSON + base64) ${best(times.json).toFixed(2)} s → ${(best(times.json) / best(times.direct)).toFixed(2)}×`,
          );
        }
      } finally {
        await big.close();
      }
    }
    process.exitCode = added50 <= 5 && readOk ? 0 : 1;
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await emulator.close();
    await app.close();
    await closeContext(ctx);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(agentHome, { recursive: true, force: true });
    rmSync(jsonAgentHome, { recursive: true, force: true });
  }
}

await main();
