import { judgeNebimRequest, type NebimEmulator, startNebimEmulator } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { agentProcess, bindErpToAgent, killScenario, useAgentTestApp } from "./agent-harness.ts";
import { connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
useAgentTestApp("1.5", (app) => ({ t, server } = app));

const nebim = (seed: number, mode: "session" | "token" = "session") =>
  startNebimEmulator({ seed, productCount: 60, mode, rateLimit: { requests: 500, windowMs: 1000 } });

/** Every request the Nebim emulator saw, judged by the schema derived from the published samples. */
function expectJudged(erp: NebimEmulator) {
  const report = erp.recorder.list().map((r) => ({ r, v: judgeNebimRequest(r) }));
  const unknown = report.filter((x) => !x.v).map((x) => `${x.r.method} ${x.r.path}`);
  const rejected = report.filter((x) => x.v && x.v.problems.length > 0).map((x) => x.v);
  expect(unknown).toEqual([]);
  expect(rejected).toEqual([]);
  return report.length;
}

describe("Nebim V3 through the on-site agent", () => {
  it("a company installs the agent, connects Nebim V3, tests it and syncs with IKAS, every call through the agent", async () => {
    const c = await connectedCompanyWithErp(t, await nebim(61), { seed: 61 });
    const agent = await agentProcess(t, server, c.token);
    const hub = agentHubOf(t.ctx);
    try {
      await agent.start();
      const relayed = hub.relayedCalls(agent.agentId);
      // Save the form with the agent chosen: the save tests through the agent (Connect + GetUserInfo).
      const saved = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/1", {
        token: c.token,
        body: { fields: { ...c.erp.credentials }, agentId: agent.agentId },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.connection.lastTest.ok, JSON.stringify(saved.body)).toBe(true);
      const tested = await call(t.app, "POST", "/api/APIConnection/erp/1", {
        token: c.token,
        body: { fields: {} },
      });
      expect(tested.body.data.ok, JSON.stringify(tested.body)).toBe(true);
      expect(tested.body.data.message).toContain("NEBIMV3");
      expect(hub.relayedCalls(agent.agentId)).toBeGreaterThan(relayed);

      // A wrong password: Connect "succeeds", GetUserInfo tells; the panel says the test failed.
      const wrong = await call(t.app, "POST", "/api/APIConnection/erp/1", {
        token: c.token,
        body: { fields: { ...c.erp.credentials, password: "yanlis" } },
      });
      expect(wrong.body.data.ok).toBe(false);

      // Another company cannot test through this company's agent.
      const other = await registerAndLogin(t.app);
      const foreign = await call(t.app, "POST", "/api/APIConnection/erp/1", {
        token: other.token,
        body: { fields: { ...c.erp.credentials }, agentId: agent.agentId },
      });
      expect(foreign.status).toBe(400);

      const before = hub.relayedCalls(agent.agentId);
      const products = await runJob(t, c, "ProductIntegration");
      expect(products.status, JSON.stringify(products)).toBe("Succeeded");
      const stock = await runJob(t, c, "StockIntegration");
      expect(stock.status, JSON.stringify(stock)).toBe("Succeeded");
      const erpCalls =
        products.calls.erp.read + products.calls.erp.write + stock.calls.erp.read + stock.calls.erp.write;
      expect(erpCalls).toBeGreaterThan(0);
      expect(hub.relayedCalls(agent.agentId) - before).toBe(erpCalls);
      // Every Nebim item is in the shop now, the sample's colour/size variants included.
      for (const sku of ["STK-000001", "STK-000060", "K001/04/40", "K001/04/42"])
        expect(c.shop.state.skuIndex.has(sku), sku).toBe(true);

      c.shop.generateOrders(3);
      const orders = await runJob(t, c, "OrderIntegration");
      expect(orders.status, JSON.stringify(orders)).toBe("Succeeded");
      expect(orders.counts.written).toBe(3);
      expect([...c.erp.documentsByOrder().values()].every((d) => d.size === 1)).toBe(true);
      const judged = expectJudged(c.erp);
      console.info(`agent nebim sync: ${judged} Integrator requests judged, 0 rejected`);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 180_000);

  it("works the same in token mode (Token header) through the agent", async () => {
    const c = await connectedCompanyWithErp(t, await nebim(63, "token"), { seed: 63 });
    const agent = await agentProcess(t, server, c.token);
    try {
      await agent.start();
      await bindErpToAgent(t, c.token, agent.agentId);
      const tested = await call(t.app, "POST", "/api/APIConnection/erp/1", {
        token: c.token,
        body: { fields: {} },
      });
      expect(tested.body.data.ok, JSON.stringify(tested.body)).toBe(true);
      expect(tested.body.data.message).toContain("token");
      c.shop.generateOrders(2);
      const run = await runJob(t, c, "OrderIntegration");
      expect(run.status, JSON.stringify(run)).toBe("Succeeded");
      expect(c.erp.documentsByOrder().size).toBe(2);
      expect(c.erp.recorder.list().some((r) => r.path.includes("(S("))).toBe(false);
      expectJudged(c.erp);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 120_000);

  // CI runs 40 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-nebim.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 40);
  it(`loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`, async () => {
    const c = await connectedCompanyWithErp(t, await nebim(67), { seed: 67 });
    await killScenario(t, server, c, {
      count: ORDERS,
      erpDocumentsByOrder: () => c.erp.documentsByOrder(),
      // Slow enough writes that each kill lands while orders are being written.
      slowWrites: (on) => c.erp.faults.set(on ? { latencyMs: 15 } : {}),
      label: "agent nebim",
      where: "in Nebim",
      check: () => {
        expect(c.erp.orders).toHaveLength(ORDERS);
        expectJudged(c.erp);
      },
    });
  }, 600_000);
});
