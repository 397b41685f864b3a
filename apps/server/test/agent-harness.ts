import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentStore, pair } from "@ep/agent";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { connectionChecks } from "../src/modules/connection-check/schema.ts";
import { type ConnectedCompany, runJob, waitForRun } from "./engine/engine-harness.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";

/** The agent's CLI, run with tsx by the suites that start agent processes. */
export const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../agent/src/cli.ts");

/**
 * The connector timeout of a suite whose jobs reach the ERP through an agent process. The suites' 1 s
 * is shorter than a relayed call can take on a loaded box (CI runs the browser suite beside these): a
 * call that times out is left for the next run, and a test counting one run's writes sees one fewer.
 * A killed agent still fails its calls at once (its socket closes), so the kill tests wait no longer.
 */
/**
 * The calls the connection check made through the agent since `since` (the check before a first sync
 * reads one page of each ERP read, through the agent too); 0 when no check ran since.
 */
export async function erpCheckCallsSince(t: TestApp, companyId: number, since: Date): Promise<number> {
  const [checked] = await t.ctx.database.db
    .select()
    .from(connectionChecks)
    .where(and(eq(connectionChecks.companyId, companyId), eq(connectionChecks.kind, "erp")));
  return checked && checked.checkedAt >= since ? checked.calls : 0;
}

export const RELAYED_CONNECTOR_TIMEOUT = { CONNECTOR_TIMEOUT_SECONDS: "10" } as const;

/**
 * The agent suites' server: listening on loopback (the agent processes dial it), relayed calls given
 * the agent's timeout, no captcha, and an offline agent waited for `AGENT_OFFLINE_WAIT_SECONDS`.
 */
export async function startAgentTestApp(offlineWaitSeconds: string): Promise<{ t: TestApp; server: string }> {
  const t = await startTestApp({
    ...RELAYED_CONNECTOR_TIMEOUT,
    CAPTCHA: "off",
    AGENT_OFFLINE_WAIT_SECONDS: offlineWaitSeconds,
  });
  return { t, server: await t.app.listen({ port: 0, host: "127.0.0.1" }) };
}

export type AgentTestApp = Awaited<ReturnType<typeof startAgentTestApp>>;

/**
 * Starts the agent suites' server before the file's tests (handing it to `set`) and closes it after,
 * killing first the processes the suite started itself and put in `spawned` (agent processes).
 */
export function useAgentTestApp(
  offlineWaitSeconds: string,
  set: (app: AgentTestApp) => void,
  spawned: readonly ChildProcess[] = [],
): void {
  let app: AgentTestApp | undefined;
  beforeAll(async () => {
    app = await startAgentTestApp(offlineWaitSeconds);
    set(app);
  });
  afterAll(async () => {
    for (const c of spawned) c.kill("SIGKILL");
    await app?.t.close();
  });
}

export type AgentProcess = Awaited<ReturnType<typeof agentProcess>>;

/**
 * A real agent process (the CLI), paired once with the company of `token`; `start` again after a kill
 * runs it with the same credential. `prepare` may write the agent's own files (e.g. `databases.json`)
 * into its home before the first start.
 */
export async function agentProcess(
  t: TestApp,
  server: string,
  token: string,
  prepare?: (home: string) => void,
) {
  const code = await call(t.app, "POST", "/api/agents/pairing-code", { token });
  const config = await pair(server, code.body.data.code as string, "ERP-SUNUCU");
  const home = mkdtempSync(join(tmpdir(), "ep-agent-"));
  new AgentStore(home).saveConfig(config);
  prepare?.(home);
  const hub = agentHubOf(t.ctx);
  let child: ChildProcess | undefined;
  return {
    agentId: config.agentId,
    home,
    async start() {
      child = spawn(process.execPath, ["--import", "tsx", agentCli, "run"], {
        env: { ...process.env, ENTEGRASYON_AGENT_HOME: home },
        stdio: "ignore",
      });
      for (let i = 0; i < 1200 && !hub.isOnline(config.agentId); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(hub.isOnline(config.agentId)).toBe(true);
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGKILL");
      await exited;
      for (let i = 0; i < 100 && hub.isOnline(config.agentId); i++)
        await new Promise((r) => setTimeout(r, 20));
    },
  };
}

/** Binds the company's ERP connection to the agent, so every ERP call (HTTP and SQL) goes through it. */
export async function bindErpToAgent(t: TestApp, token: string, agentId: number) {
  const bound = await call(t.app, "PUT", "/api/agents/connection", { token, body: { kind: "erp", agentId } });
  expect(bound.status).toBe(200);
}

/**
 * The kill scenario for any ERP: `count` shop orders go to the ERP through the agent while
 * the agent is SIGKILLed twice mid-writes (at about a quarter and two thirds of the orders); then
 * every order is in the ERP exactly once and confirmed once in the ledger.
 * `erpDocumentsByOrder` reads the ERP emulator: our order number → the ERP documents holding it.
 * `settledDocumentsByOrder`, for an ERP read through a polling watcher, reads it afresh for the verdict
 * (a watcher's snapshot may predate the last run's writes).
 * `slowWrites(true)` makes the emulator's writes slow enough that each kill lands during a run.
 */
export async function ordersThroughKilledAgent<Erp>(
  t: TestApp,
  c: ConnectedCompany<Erp>,
  agent: AgentProcess,
  options: {
    count: number;
    erpDocumentsByOrder: () => Map<string, Set<string>>;
    settledDocumentsByOrder?: () => Promise<Map<string, Set<string>>>;
    slowWrites: (on: boolean) => void;
  },
) {
  const { count, erpDocumentsByOrder } = options;
  const orders = c.shop.generateOrders(count);
  options.slowWrites(true);
  let runId: number | undefined;
  let lastRun: { status?: string; report?: unknown } | undefined;
  const runFinished = async () => {
    if (runId === undefined) return true;
    const res = await call(t.app, "GET", `/api/JobHistory/report/${runId}`, { token: c.token });
    lastRun = res.body.data;
    return !["Queued", "Running"].includes(res.body.data?.status);
  };
  const startRun = async () => {
    const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${c.jobId("OrderIntegration")}`, {
      token: c.token,
    });
    expect(started.status).toBe(200);
    runId = started.body.data.runId as number;
  };
  const kills: number[] = [];
  for (const share of [0.25, 0.65]) {
    // The second kill waits for at least one more order than the first saw: on a loaded box the writes
    // can run past 65 % before the first kill lands, and two kills at the same point prove one.
    const target = Math.max(Math.ceil(count * share), (kills.at(-1) ?? 0) + 1);
    // A deadline, not a count of polls: on a loaded box each poll is slow, and a stalled scenario
    // should fail here with its state, not at the test's timeout without one.
    const until = Date.now() + 120_000;
    for (let i = 0; Date.now() < until && erpDocumentsByOrder().size < target; i++) {
      if (i % 20 === 0 && (await runFinished())) await startRun();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(
      erpDocumentsByOrder().size,
      `orders in the ERP before kill ${kills.length + 1}; last run ${runId}: ${JSON.stringify(lastRun)}`,
    ).toBeGreaterThanOrEqual(target);
    await agent.kill();
    kills.push(erpDocumentsByOrder().size);
    await agent.start();
  }
  expect(kills[0]).toBeGreaterThan(0);
  expect(kills[1]).toBeGreaterThan(kills[0]!);
  expect(kills[1]).toBeLessThan(count);
  options.slowWrites(false);
  if (runId !== undefined) await waitForRun(t, c.token, runId, 300_000);
  const settled = async () => (await options.settledDocumentsByOrder?.()) ?? erpDocumentsByOrder();
  for (let i = 0; i < 5 && (await settled()).size < count; i++)
    await runJob(t, c, "OrderIntegration", 300_000);
  const last = await runJob(t, c, "OrderIntegration");
  expect(last.status, JSON.stringify(last)).toBe("Succeeded");

  const docs = await settled();
  const confirmed = await expectEachOrderOnce(t, c, orders, docs);
  return { kills, documents: docs.size, confirmed };
}

/**
 * The kill scenario on a fresh agent: started, bound as the company's ERP route, then
 * `ordersThroughKilledAgent`; the figures the note quotes are printed as `<label> kill test: …`, `check`
 * adds the system's own assertions, and the agent is killed and the company closed whatever happens.
 */
export async function killScenario<Erp>(
  t: TestApp,
  server: string,
  c: ConnectedCompany<Erp>,
  scenario: Parameters<typeof ordersThroughKilledAgent>[3] & {
    label: string;
    /** Where the documents are counted ("in Netsis"). */
    where: string;
    check?: () => void | Promise<void>;
  },
): Promise<void> {
  const agent = await agentProcess(t, server, c.token);
  try {
    await agent.start();
    await bindErpToAgent(t, c.token, agent.agentId);
    const result = await ordersThroughKilledAgent(t, c, agent, scenario);
    console.info(
      `${scenario.label} kill test: ${scenario.count} orders, kills at ${result.kills.join(" and ")} documents, ${result.documents} ${scenario.where}, ${result.confirmed} confirmed in the ledger`,
    );
    await scenario.check?.();
  } finally {
    await agent.kill();
    await c.close();
  }
}

/** Mikro's orders table: our order number → the ERP documents (series-number) holding it. */
export function mikroDocumentsByOrder(c: ConnectedCompany) {
  const out = new Map<string, Set<string>>();
  for (const row of c.erp.state.table("SIPARISLER").rows) {
    const docs = out.get(String(row.sip_belgeno)) ?? new Set<string>();
    docs.add(`${row.sip_evrakno_seri}-${row.sip_evrakno_sira}`);
    out.set(String(row.sip_belgeno), docs);
  }
  return out;
}

/**
 * Nothing lost, nothing doubled: each of `orders` in the ERP in exactly one document (`docs`, from the
 * emulator) and confirmed once in the company's ledger. Answers the ledger's count.
 */
export async function expectEachOrderOnce(
  t: TestApp,
  c: ConnectedCompany<unknown>,
  orders: { orderNumber: string }[],
  docs: Map<string, Set<string>>,
): Promise<number> {
  expect([...docs].filter(([, d]) => d.size !== 1)).toEqual([]);
  for (const o of orders) expect(docs.has(o.orderNumber), o.orderNumber).toBe(true);
  expect(docs.size).toBe(orders.length);
  const ledger = await t.ctx.database.db
    .select()
    .from(engineSchema.orderLedger)
    .where(eq(engineSchema.orderLedger.companyId, c.companyId));
  expect(ledger).toHaveLength(orders.length);
  expect(ledger.filter((r) => r.state !== "confirmed")).toEqual([]);
  return ledger.length;
}
