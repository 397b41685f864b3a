import { type ChildProcess, execFile, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
// The store alone: the package's index also loads the agent's SQL drivers (mssql, tedious, Azure
// auth), which the server never runs.
import { AgentStore } from "@ep/agent/store";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { agents } from "../agents/schema.ts";
import { AgentService } from "../agents/service.ts";

const agentDir = resolve(fileURLToPath(import.meta.url), "../../../../../agent");
/**
 * The agent's own CLI (`entegrasyon-agent run`), as a customer's machine runs it, bundled by
 * apps/agent/scripts/build-bundle.mjs and run by plain node: under tsx the idle agent took 123 MB PSS
 * (transpiler, source maps), a third of an idle `npm start` (issue 34).
 */
export const AGENT_BUNDLE = join(agentDir, "dist/cli.mjs");

/** Builds the agent's bundle when it is missing or older than its sources (a few stat calls otherwise). */
export function buildAgentBundle(): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [join(agentDir, "scripts/build-bundle.mjs"), "--if-stale"],
      { env: { ...process.env, NODE_OPTIONS: "" } },
      (error, _stdout, stderr) =>
        error
          ? fail(new Error(`the agent's bundle did not build: ${stderr || error.message}`))
          : done(AGENT_BUNDLE),
    );
  });
}
export const DEMO_AGENT_MACHINE = "DEMO-ERP-SUNUCU";

export type DemoAgent = {
  agentId: number;
  /** The running process (tests: kill it to see the restart). */
  readonly child: ChildProcess | undefined;
  /** How many times the process was started (1 + restarts). */
  readonly starts: number;
  stop(): Promise<void>;
};

export type DemoAgentOptions = {
  /** Where the agent keeps its config, status and log (default `DATA_DIR/demo-agent`). */
  home?: string;
  /** The server the agent connects out to (default this process, on loopback). */
  server?: string;
  minBackoffMs?: number;
  maxBackoffMs?: number;
};

/**
 * The demo's on-site agent: paired for the demo company on the first start (its config kept in the data
 * directory, so later starts reuse it), the demo ERP connection routed through it, and a real agent
 * process started beside the server. If the process dies it is started again with backoff (the panel
 * says "çevrimdışı" meanwhile); it stops with the server, and by itself when the server process is gone
 * (its IPC channel closes).
 */
export async function startDemoAgent(
  ctx: AppContext,
  companyId: number,
  options: DemoAgentOptions = {},
): Promise<DemoAgent> {
  // First: without a runnable agent the demo's ERP must stay reached directly (main.ts).
  const bundle = await buildAgentBundle();
  const store = new AgentStore(options.home ?? join(ctx.config.dataDir, "demo-agent"));
  const server = options.server ?? `http://127.0.0.1:${ctx.config.port}`;
  const service = new AgentService(ctx);
  const db = ctx.database.db;

  let config = store.loadConfig();
  const [known] = config
    ? await db
        .select({ id: agents.id })
        .from(agents)
        .where(and(eq(agents.id, config.agentId), eq(agents.companyId, companyId), isNull(agents.revokedAt)))
    : [];
  const valid = config && known && (await service.authenticate(config.credential))?.id === known.id;
  if (!config || !valid || config.server !== server) {
    // Paired the way the panel's steps pair one: a one-time code spent for a credential.
    const { code } = await service.issuePairingCode(companyId);
    const paired = await service.pair(code, DEMO_AGENT_MACHINE);
    config = { server, ...paired };
    store.saveConfig(config);
    store.log(`paired as agent ${paired.agentId} for the demo company`);
  }
  await service.assignConnection(companyId, "erp", config.agentId);

  const minBackoff = options.minBackoffMs ?? 1000;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let child: ChildProcess | undefined;
  let stopped = false;
  let starts = 0;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const launch = () => {
    if (stopped) return;
    starts++;
    const startedAt = Date.now();
    // A small young generation: the idle agent holds little, and a relayed page is short-lived.
    const proc = spawn(
      process.execPath,
      ["--max-semi-space-size=2", "--heap-growing-percent=50", bundle, "run"],
      {
        env: { ...process.env, ENTEGRASYON_AGENT_HOME: store.home, NODE_OPTIONS: "" },
        stdio: ["ignore", "ignore", "ignore", "ipc"],
        // Its own process group: Ctrl-C at the terminal reaches the server, which stops the agent after
        // the runs drain (the agent also exits when the server's IPC channel closes, e.g. on a kill -9).
        detached: true,
      },
    );
    child = proc;
    proc.on("error", (e) => ctx.logger.warn({ err: e }, "demo agent could not start"));
    proc.on("exit", (code, signal) => {
      if (child === proc) child = undefined;
      if (stopped) return;
      // A run that lasted a minute was healthy: the next failure starts the backoff over.
      failures = Date.now() - startedAt > 60_000 ? 1 : failures + 1;
      const delay = Math.min(maxBackoff, minBackoff * 2 ** (failures - 1));
      ctx.logger.warn({ code, signal, restartInMs: delay }, "demo agent exited; restarting");
      retry = setTimeout(launch, delay);
      retry.unref();
    });
  };
  launch();

  return {
    agentId: config.agentId,
    get child() {
      return child;
    },
    get starts() {
      return starts;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((r) => proc.once("exit", () => r()));
      proc.kill("SIGTERM");
      const hard = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(hard);
    },
  };
}
