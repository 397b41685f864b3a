import { type NetsisEmulator, startNetsisEmulator } from "@ep/connectors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { agentProcess, killScenario, RELAYED_CONNECTOR_TIMEOUT } from "./agent-harness.ts";
import { type ConnectedCompany, connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";
import { freePort } from "./support/free-port.ts";

let t: TestApp;
let server: string;

beforeAll(async () => {
  const port = await freePort();
  t = await startTestApp({
    ...RELAYED_CONNECTOR_TIMEOUT,
    CAPTCHA: "off",
    AGENT_OFFLINE_WAIT_SECONDS: "1.5",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  server = await t.app.listen({ port, host: "127.0.0.1" });
});
afterAll(() => t.close());

/** A company wired to its own Netsis emulator (ERP type 2) and IKAS emulator. */
async function netsisCompany(seed: number, productCount = 60) {
  const erp = await startNetsisEmulator({ host: "127.0.0.1", seed, productCount });
  return connectedCompanyWithErp(t, Object.assign(erp, { systemType: 2 }), { seed });
}

const shopVariant = (c: ConnectedCompany<NetsisEmulator>, sku: string) => {
  const ids = c.shop.state.skuIndex.get(sku);
  return ids ? c.shop.state.findVariant(ids[0], ids[1]) : undefined;
};

describe("Netsis through the on-site agent", () => {
  it("connects Netsis through the agent, tests it, and syncs products, stock and prices into IKAS", async () => {
    const c = await netsisCompany(61);
    const agent = await agentProcess(t, server, c.token);
    const other = await registerAndLogin(t.app);
    try {
      await agent.start();
      const hub = agentHubOf(t.ctx);
      const before = hub.relayedCalls(agent.agentId);
      const saved = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/2", {
        token: c.token,
        body: { fields: { ...c.erp.credentials }, agentId: agent.agentId },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.connection.lastTest).toMatchObject({ ok: true });
      // The connection check ran beside the test, through the agent: every read "uyumlu".
      const check = await call(t.app, "GET", "/api/settings/connection-check", { token: c.token });
      const statuses = (check.body.data.erp.operations as Array<{ status: string }>).map((o) => o.status);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== "ok")).toEqual([]);
      const tested = await call(t.app, "POST", "/api/APIConnection/erp/2", {
        token: c.token,
        body: { fields: {} },
      });
      expect(tested.body.data.ok, JSON.stringify(tested.body)).toBe(true);
      expect(tested.body.data.message).toContain("Netsis: DEMO2026 (şube 0), 2 depo");
      expect(hub.relayedCalls(agent.agentId)).toBeGreaterThan(before);
      expect(c.erp.counters.logins).toBeGreaterThan(0);

      // Another company can neither test through this agent nor bind it.
      const foreignTest = await call(t.app, "POST", "/api/APIConnection/erp/2", {
        token: other.token,
        body: { fields: { ...c.erp.credentials }, agentId: agent.agentId },
      });
      expect(foreignTest.status).toBe(400);
      const foreignBind = await call(t.app, "PUT", "/api/agents/connection", {
        token: other.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      expect(foreignBind.status).toBe(404);

      const relayedBefore = hub.relayedCalls(agent.agentId);
      expect((await runJob(t, c, "CategoryIntegration")).status).toBe("Succeeded");
      const products = await runJob(t, c, "ProductIntegration");
      const errors = await call(t.app, "GET", "/api/JobErrorReport/1/50/ProductIntegration", {
        token: c.token,
      });
      expect(products.status, JSON.stringify(errors.body)).toBe("Succeeded");
      for (const item of c.erp.items) {
        const sku = (item.StokTemelBilgi as { Stok_Kodu: string }).Stok_Kodu;
        expect(shopVariant(c, sku), sku).toBeDefined();
      }
      const stock = await runJob(t, c, "StockIntegration");
      expect(stock.status, JSON.stringify(stock)).toBe("Succeeded");
      const location = c.shop.state.stockLocations[0]!.id;
      for (const item of c.erp.items.slice(0, 20)) {
        const sku = (item.StokTemelBilgi as { Stok_Kodu: string }).Stok_Kodu;
        const expected = Math.max(0, c.erp.quantity(sku, 1) + c.erp.quantity(sku, 2));
        const got = shopVariant(c, sku)!.stocks.find((s) => s.stockLocationId === location)?.stockCount ?? 0;
        expect(got, sku).toBe(expected);
      }
      const prices = await runJob(t, c, "PriceIntegration");
      expect(prices.status, JSON.stringify(prices)).toBe("Succeeded");
      // Every ERP call of these runs went through the agent.
      const erpCalls = [products, stock, prices].reduce(
        (n, r) => n + r.calls.erp.read + r.calls.erp.write,
        0,
      );
      expect(hub.relayedCalls(agent.agentId) - relayedBefore).toBeGreaterThanOrEqual(erpCalls);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 120_000);

  it("a company registered with Netsis connects to its own Netsis sandbox in one call", async () => {
    const { token } = await registerAndLogin(t.app, { erpType: 2 });
    const res = await call(t.app, "POST", "/api/sandbox/connect", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.erp, JSON.stringify(res.body.data.erp)).toMatchObject({
      productType: 2,
      isEmulated: true,
      lastTest: { ok: true },
    });
    expect(res.body.data.erp.lastTest.message).toContain("Netsis");
    expect(JSON.stringify(res.body.data.erp.values)).toContain("/sandbox/netsis/");
  }, 60_000);

  // CI runs 40 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-netsis.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 40);
  it(`loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`, async () => {
    const c = await netsisCompany(67, 60);
    await killScenario(t, server, c, {
      count: ORDERS,
      erpDocumentsByOrder: () => c.erp.documentsByOrder(),
      slowWrites: (on) => c.erp.setFaults(on ? { latencyMs: 15 } : {}),
      label: "Netsis agent",
      where: "in Netsis",
    });
  }, 600_000);
});
