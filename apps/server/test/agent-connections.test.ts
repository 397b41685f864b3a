import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentStore, pair } from "@ep/agent";
import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { type ConnectedCompany, connectedCompany, runJob, waitForRun } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../agent/src/cli.ts");

let t: TestApp;
let server: string;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off", AGENT_OFFLINE_WAIT_SECONDS: "1.5" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

/** A real agent process (the CLI), paired once; `start` again after a kill runs it with the same credential. */
async function agentProcess(token: string) {
  const code = await call(t.app, "POST", "/api/agents/pairing-code", { token });
  const config = await pair(server, code.body.data.code as string, "ERP-SUNUCU");
  const home = mkdtempSync(join(tmpdir(), "ep-agent-"));
  new AgentStore(home).saveConfig(config);
  const hub = agentHubOf(t.ctx);
  let child: ChildProcess | undefined;
  return {
    agentId: config.agentId,
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

const erpDocumentsByOrder = (c: ConnectedCompany) => {
  const out = new Map<string, Set<string>>();
  for (const row of c.erp.state.table("SIPARISLER").rows) {
    const docs = out.get(String(row.sip_belgeno)) ?? new Set<string>();
    docs.add(`${row.sip_evrakno_seri}-${row.sip_evrakno_sira}`);
    out.set(String(row.sip_belgeno), docs);
  }
  return out;
};

describe("agent-backed connections", () => {
  it("runs through the agent, fails as transient with the agent's words when it is stopped", async () => {
    const c = await connectedCompany(t, { seed: 41 });
    const agent = await agentProcess(c.token);
    try {
      await agent.start();
      const bound = await call(t.app, "PUT", "/api/agents/connection", {
        token: c.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      expect(bound.status).toBe(200);
      const rows = await t.ctx.database.db
        .select()
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.companyId, c.companyId));
      expect(Object.fromEntries(rows.map((r) => [r.kind, r.agentId]))).toEqual({
        erp: agent.agentId,
        shop: null,
      });

      const relayedBefore = agentHubOf(t.ctx).relayedCalls(agent.agentId);
      c.shop.generateOrders(5);
      const run = await runJob(t, c, "OrderIntegration");
      expect(run.status, JSON.stringify(run)).toBe("Succeeded");
      expect(run.counts.written, JSON.stringify(run)).toBe(5);
      // Every ERP call of the run went through the agent.
      const erpCalls = run.calls.erp.read + run.calls.erp.write;
      expect(erpCalls).toBeGreaterThan(0);
      expect(agentHubOf(t.ctx).relayedCalls(agent.agentId) - relayedBefore).toBe(erpCalls);

      await agent.kill();
      c.shop.generateOrders(2);
      const offline = await runJob(t, c, "OrderIntegration");
      // Transient: the run leaves the orders for the next one and says why, in the agent's words.
      expect(offline.counts.written).toBe(0);
      expect(offline.calls.erp).toEqual({ read: 0, write: 0 });
      expect(offline.report).toContain("Yerel bağlantı aracı çevrimdışı (son görülme: ");
      const waiting = await t.ctx.database.db
        .select()
        .from(engineSchema.orderLedger)
        .where(eq(engineSchema.orderLedger.companyId, c.companyId));
      const left = waiting.filter((r) => r.state !== "confirmed");
      expect(left).toHaveLength(2);
      for (const r of left) expect(r.lastError).toMatch(/^Yerel bağlantı aracı çevrimdışı \(son görülme: \d/);
      const failed = await call(t.app, "GET", "/api/agents", { token: c.token });
      expect(failed.body.data[0]).toMatchObject({ online: false });

      await agent.start();
      const back = await runJob(t, c, "OrderIntegration");
      expect(back.status, JSON.stringify(back)).toBe("Succeeded");
      expect([...erpDocumentsByOrder(c).values()].every((d) => d.size === 1)).toBe(true);
      expect(erpDocumentsByOrder(c).size).toBe(7);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 120_000);

  it("refuses another company's agent and connection", async () => {
    const c = await connectedCompany(t, { seed: 43 });
    const other = await registerAndLogin(t.app);
    const agent = await agentProcess(c.token);
    try {
      const foreign = await call(t.app, "PUT", "/api/agents/connection", {
        token: other.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      expect(foreign.status).toBe(404);
      const rows = await t.ctx.database.db
        .select()
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.companyId, c.companyId));
      expect(rows.map((r) => r.agentId)).toEqual([null, null]);
      const unknown = await call(t.app, "PUT", "/api/agents/connection", {
        token: c.token,
        body: { kind: "erp", agentId: agent.agentId + 1000 },
      });
      expect(unknown.status).toBe(404);
    } finally {
      await c.close();
    }
  });

  // CI runs 150 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-connections.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 150);
  it(`loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`, async () => {
    const c = await connectedCompany(t, { seed: 47 });
    const agent = await agentProcess(c.token);
    try {
      await agent.start();
      await call(t.app, "PUT", "/api/agents/connection", {
        token: c.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      const orders = c.shop.generateOrders(ORDERS);
      // Slow enough writes that each kill lands while orders are being written.
      c.erp.setFaults({ latencyMs: 15 });
      let runId: number | undefined;
      const runFinished = async () => {
        if (runId === undefined) return true;
        const res = await call(t.app, "GET", `/api/JobHistory/report/${runId}`, { token: c.token });
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
      // Two kills, at about a quarter and at about two thirds of the orders, each while a run is writing.
      for (const share of [0.25, 0.65]) {
        const target = Math.ceil(ORDERS * share);
        for (let i = 0; i < 12_000 && erpDocumentsByOrder(c).size < target; i++) {
          if (i % 20 === 0 && (await runFinished())) await startRun();
          await new Promise((r) => setTimeout(r, 10));
        }
        await agent.kill();
        kills.push(erpDocumentsByOrder(c).size);
        await agent.start();
      }
      expect(kills[0]).toBeGreaterThan(0);
      expect(kills[1]).toBeGreaterThan(kills[0]!);
      expect(kills[1]).toBeLessThan(ORDERS);
      c.erp.setFaults({});
      if (runId !== undefined) await waitForRun(t, c.token, runId, 300_000);
      for (let i = 0; i < 5 && erpDocumentsByOrder(c).size < ORDERS; i++)
        await runJob(t, c, "OrderIntegration", 300_000);
      const last = await runJob(t, c, "OrderIntegration");
      expect(last.status, JSON.stringify(last)).toBe("Succeeded");

      const docs = erpDocumentsByOrder(c);
      expect([...docs].filter(([, d]) => d.size !== 1)).toEqual([]);
      for (const o of orders) expect(docs.has(o.orderNumber), o.orderNumber).toBe(true);
      expect(docs.size).toBe(ORDERS);
      const ledger = await t.ctx.database.db
        .select()
        .from(engineSchema.orderLedger)
        .where(eq(engineSchema.orderLedger.companyId, c.companyId));
      expect(ledger).toHaveLength(ORDERS);
      expect(ledger.filter((r) => r.state !== "confirmed")).toEqual([]);
      // The note quotes these: orders, the documents at each kill.
      console.info(
        `agent kill test: ${ORDERS} orders, kills at ${kills.join(" and ")} documents, ${docs.size} in the ERP, ${ledger.length} confirmed in the ledger`,
      );
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 600_000);
});
