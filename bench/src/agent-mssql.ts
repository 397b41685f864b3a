/**
 * `npm run bench:agent-mssql -w @ep/bench`: what the on-site agent adds to a SQL Server statement
 * (issue 14). One parameterised SELECT (20 rows) goes to the canned TDS responder twice in one run:
 * straight with the agent's own `mssql`/`tedious@19` executor, then through a real agent process (the
 * CLI, paired with the real server in this process) by the alias in its databases.json. Figures:
 * calls/s with BENCH_CONCURRENCY statements in flight, p50/p99 of one statement at a time (direct and
 * relayed alternating), and the added latency (relayed minus direct at the same percentile).
 *
 * Environment:
 *   BENCH_CALLS        statements per phase (default 2000)
 *   BENCH_CONCURRENCY  statements in flight for the calls/s phase (default 4, the agent's pool size)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentStore, createMssqlExecutor, pair } from "@ep/agent";
import { type SqlTransport, startTdsServer } from "@ep/connectors";
import { AgentService, agentHubOf } from "@ep/server/agents";
import { buildApp } from "@ep/server/app";
import { closeContext, createContext } from "@ep/server/bootstrap";
import { loadConfig } from "@ep/server/config";
import { companies } from "@ep/server/schema";
import { latencies, reportPaired, throughput } from "./paired-latency.ts";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../apps/agent/src/cli.ts");
const login = { user: "bench", password: "Bench.Sifre-1", database: "LOGODB" };

const rows = Array.from({ length: 20 }, (_, i) => [
  i + 1,
  `STK-${String(i + 1).padStart(4, "0")}`,
  "Kalem Kutusu",
  12.5,
]);

const oneCall = (sql: SqlTransport) => () =>
  sql.query({
    text: "SELECT LOGICALREF, CODE, NAME, PRICE FROM LG_001_ITEMS WHERE LOGICALREF > @after AND ACTIVE = @active",
    params: { after: 0, active: true },
  });

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-mssql-"));
  const agentHome = mkdtempSync(join(tmpdir(), "ep-bench-mssql-home-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn", PORT: "0", DEMO: "0" });
  const ctx = await createContext(config, { workers: false, scheduler: false });
  const app = await buildApp(ctx);
  const server = await app.listen({ port: 0, host: "127.0.0.1" });
  const tds = await startTdsServer({
    ...login,
    answer: () => ({
      columns: [
        { name: "LOGICALREF", type: "int" },
        { name: "CODE", type: "nvarchar" },
        { name: "NAME", type: "nvarchar" },
        { name: "PRICE", type: "decimal", scale: 2 },
      ],
      rows,
    }),
  });
  const target = { dialect: "mssql" as const, host: "127.0.0.1", port: tds.port, ...login };
  const executor = createMssqlExecutor(target);
  let child: ChildProcess | undefined;
  try {
    const [company] = await ctx.database.db
      .insert(companies)
      .values({ name: "Bench A.Ş.", erpType: 11, ecommerceType: 1 })
      .returning();
    const { code } = await new AgentService(ctx).issuePairingCode(company!.id);
    const paired = await pair(server, code, "BENCH-SQL");
    const store = new AgentStore(agentHome);
    store.saveConfig(paired);
    store.saveDatabases({ logo: target });
    child = spawn(process.execPath, ["--import", "tsx", agentCli, "run"], {
      env: { ...process.env, ENTEGRASYON_AGENT_HOME: agentHome },
      stdio: "ignore",
    });
    const hub = agentHubOf(ctx);
    for (let i = 0; i < 300 && !hub.isOnline(paired.agentId); i++)
      await new Promise((r) => setTimeout(r, 50));
    if (!hub.isOnline(paired.agentId)) throw new Error("the agent did not come online");

    const direct = oneCall(executor);
    const relayed = oneCall(hub.sqlFor(paired.agentId, { alias: "logo" }, "mssql"));
    // The relay alone: the agent answers at once (no such alias), no driver work.
    const relayOnly = () =>
      hub
        .sqlFor(paired.agentId, { alias: "none" }, "mssql")
        .query({ text: "SELECT 1 AS X" })
        .catch(() => undefined);
    const bare = await latencies(direct, relayOnly, CALLS);
    const lat = await latencies(direct, relayed, CALLS);
    const directRate = await throughput(direct, CALLS, CONCURRENCY);
    const relayedRate = await throughput(relayed, CALLS, CONCURRENCY);
    const added50 = reportPaired(
      `SQL Server SELECT (2 typed parameters, ${rows.length} rows) against the canned TDS responder on loopback, ` +
        `${CALLS} statements per phase, ${CONCURRENCY} in flight for calls/s, direct and relayed alternating for latency`,
      { direct: directRate, relayed: relayedRate },
      lat,
      `judge failures ${tds.judgeFailures.length}; logins ${tds.stats.logins}; `,
    );
    console.log(
      `of which the relay alone (agent answers without the driver): p50 ${(bare.relayed.p50 - bare.direct.p50).toFixed(2)} ms, ` +
        `median of paired differences ${bare.pairedMedian.toFixed(2)} ms`,
    );
    process.exitCode = added50 <= 5 && tds.judgeFailures.length === 0 ? 0 : 1;
  } finally {
    child?.kill("SIGKILL");
    await executor.close();
    await tds.close();
    await app.close();
    await closeContext(ctx);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(agentHome, { recursive: true, force: true });
  }
}

await main();
