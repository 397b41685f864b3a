/**
 * Logo (ERP type 4) through a real on-site agent: orders and customer cards go to the Logo REST service
 * emulator by the agent's HTTP relay, with the agent SIGKILLed twice mid-writes — nothing lost, nothing
 * doubled. Reads over SQL are tested at connector level (src/logo/logo.contract.test.ts): the agent has
 * no mssql driver yet and no SQL Server runs here; a TDS responder (another helper's work) will serve the
 * same `answerSql` handler. Here the reads are shown to reach the agent by the database's alias.
 */
import { AgentStore } from "@ep/agent";
import { generateCatalog, type LogoRestEmulator, startLogoRestEmulator } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { agentProcess, bindErpToAgent, ordersThroughKilledAgent } from "./agent-harness.ts";
import { type ConnectedCompany, connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off", AGENT_OFFLINE_WAIT_SECONDS: "1.5" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

type LogoErp = LogoRestEmulator & { systemType: number; credentials: Record<string, string> };

/** A Logo REST emulator knowing the shop's item codes (both seeded from the same catalogue). */
async function logoCompany(
  seed: number,
  extra: Record<string, string> = {},
): Promise<ConnectedCompany<LogoErp>> {
  const itemCodes = generateCatalog({ seed, count: 60 }).map((c) => c.sku);
  const rest = await startLogoRestEmulator({ host: "127.0.0.1", seed, itemCodes });
  const erp = Object.assign(rest, {
    systemType: 4,
    credentials: { ...rest.credentials, firmNo: "1", ...extra },
  });
  return connectedCompanyWithErp(t, erp, { seed });
}

const documentsByOrder = (c: ConnectedCompany<LogoErp>) => {
  const out = new Map<string, Set<string>>();
  for (const row of c.erp.orders) {
    const docs = out.get(String(row.DOC_TRACK_NR)) ?? new Set<string>();
    docs.add(String(row.NUMBER));
    out.set(String(row.DOC_TRACK_NR), docs);
  }
  return out;
};

describe("Logo through the on-site agent", () => {
  it("writes customer cards and orders by the agent's relay; another company cannot take the agent", async () => {
    const c = await logoCompany(61);
    const agent = await agentProcess(t, server, c.token);
    const other = await registerAndLogin(t.app);
    try {
      await agent.start();
      const foreign = await call(t.app, "PUT", "/api/agents/connection", {
        token: other.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      expect(foreign.status).toBe(404);
      await bindErpToAgent(t, c.token, agent.agentId);
      const relayedBefore = agentHubOf(t.ctx).relayedCalls(agent.agentId);
      c.shop.generateOrders(4);
      const run = await runJob(t, c, "OrderIntegration");
      expect(run.status, JSON.stringify(run)).toBe("Succeeded");
      expect(run.counts.written, JSON.stringify(run)).toBe(4);
      const erpCalls = run.calls.erp.read + run.calls.erp.write;
      expect(agentHubOf(t.ctx).relayedCalls(agent.agentId) - relayedBefore).toBe(erpCalls);
      expect(c.erp.counters.grants).toBeGreaterThan(0);
      expect([...documentsByOrder(c).values()].every((d) => d.size === 1)).toBe(true);
      expect(c.erp.arps.length).toBeGreaterThan(0);
      const rows = await t.ctx.database.db
        .select()
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.companyId, other.account.company.id as number));
      expect(rows.filter((r) => r.agentId === agent.agentId)).toEqual([]);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 120_000);

  it("sends its SQL reads to the agent by the database's alias (the real path; no SQL Server driver there yet)", async () => {
    const c = await logoCompany(71, { sqlAlias: "logo" });
    // The password stays on the agent's machine; the server names the database by its alias only.
    const agent = await agentProcess(t, server, c.token, (home) =>
      new AgentStore(home).saveDatabases({
        logo: {
          dialect: "mssql",
          host: "127.0.0.1",
          port: 41399,
          database: "LOGO",
          user: "sa",
          password: "yerelde",
        },
      }),
    );
    try {
      await agent.start();
      await bindErpToAgent(t, c.token, agent.agentId);
      const before = agentHubOf(t.ctx).relayedCalls(agent.agentId);
      const run = await runJob(t, c, "StockIntegration");
      expect(run.status, JSON.stringify(run)).not.toBe("Succeeded");
      expect(agentHubOf(t.ctx).relayedCalls(agent.agentId) - before).toBeGreaterThan(0);
      expect(JSON.stringify(run)).toMatch(/mssql/);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 120_000);

  it("says in the connection test that the REST service is not licensed, offering the generic route", async () => {
    const rest = await startLogoRestEmulator({ host: "127.0.0.1", seed: 73, notLicensed: 403 });
    try {
      const { token } = await registerAndLogin(t.app);
      const tested = await call(t.app, "POST", "/api/APIConnection/erp/4", {
        token,
        body: { fields: { ...rest.credentials } },
      });
      expect(tested.body.data.ok).toBe(false);
      expect(tested.body.data.message).toContain("Logo REST servisi bu sunucuda kullanılamıyor");
      expect(tested.body.data.message).toContain("genel SQL / dosya yolunu");
      rest.setNotLicensed(false);
      const ok = await call(t.app, "POST", "/api/APIConnection/erp/4", {
        token,
        body: { fields: { ...rest.credentials } },
      });
      expect(ok.body.data.ok, JSON.stringify(ok.body)).toBe(true);
      expect(ok.body.data.message).toContain("REST servisi: giriş başarılı");
    } finally {
      await rest.close();
    }
  });

  // CI runs 40 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-logo.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 40);
  it(
    `loses and doubles none of ${ORDERS} Logo orders when the agent is SIGKILLed twice mid-writes`,
    async () => {
      const c = await logoCompany(67);
      const agent = await agentProcess(t, server, c.token);
      try {
        await agent.start();
        await bindErpToAgent(t, c.token, agent.agentId);
        const result = await ordersThroughKilledAgent(t, c, agent, {
          count: ORDERS,
          erpDocumentsByOrder: () => documentsByOrder(c),
          slowWrites: (on) => c.erp.faults.set(on ? { latencyMs: 15 } : {}),
        });
        console.info(
          `logo agent kill test: ${ORDERS} orders, kills at ${result.kills.join(" and ")} documents, ${result.documents} in Logo, ${result.confirmed} confirmed in the ledger`,
        );
      } finally {
        await agent.kill();
        await c.close();
      }
    },
    Math.max(600_000, ORDERS * 3_000),
  );
});
