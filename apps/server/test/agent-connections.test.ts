import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { connectionChecks } from "../src/modules/connection-check/schema.ts";
import {
  agentProcess as agentHarnessProcess,
  bindErpToAgent,
  mikroDocumentsByOrder as erpDocumentsByOrder,
  ordersThroughKilledAgent,
  useAgentTestApp,
} from "./agent-harness.ts";
import { connectedCompany, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
useAgentTestApp("1.5", (app) => ({ t, server } = app));

const agentProcess = (token: string) => agentHarnessProcess(t, server, token);

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
      // Before this first sync the connection check read one page of each ERP read, through the agent too.
      const [checked] = await t.ctx.database.db
        .select()
        .from(connectionChecks)
        .where(and(eq(connectionChecks.companyId, c.companyId), eq(connectionChecks.kind, "erp")));
      expect(checked?.trigger).toBe("firstSync");
      expect(checked!.calls).toBeGreaterThan(0);
      expect(agentHubOf(t.ctx).relayedCalls(agent.agentId) - relayedBefore).toBe(erpCalls + checked!.calls);

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

  // CI runs 80 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-connections.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 80);
  it(`loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`, async () => {
    const c = await connectedCompany(t, { seed: 47 });
    const agent = await agentProcess(c.token);
    try {
      await agent.start();
      await bindErpToAgent(t, c.token, agent.agentId);
      const result = await ordersThroughKilledAgent(t, c, agent, {
        count: ORDERS,
        erpDocumentsByOrder: () => erpDocumentsByOrder(c),
        // Slow enough writes that each kill lands while orders are being written.
        slowWrites: (on) => c.erp.setFaults(on ? { latencyMs: 15 } : {}),
      });
      // The note quotes these: orders, the documents at each kill.
      console.info(
        `agent kill test: ${ORDERS} orders, kills at ${result.kills.join(" and ")} documents, ${result.documents} in the ERP, ${result.confirmed} confirmed in the ledger`,
      );
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 600_000);
});
