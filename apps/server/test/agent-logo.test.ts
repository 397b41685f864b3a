/**
 * Logo (ERP type 4) through a real on-site agent: orders and customer cards go to the Logo REST service
 * emulator by the agent's HTTP relay, with the agent SIGKILLed twice mid-writes — nothing lost, nothing
 * doubled. Reads over SQL go the real way too: the agent's mssql driver to a canned TDS responder serving
 * the Logo SQL emulator (`answerSql`, also used at connector level by src/logo/logo.contract.test.ts).
 */
import { AgentStore } from "@ep/agent";
import {
  generateCatalog,
  type LogoRestEmulator,
  LogoSqlEmulator,
  startLogoRestEmulator,
  startTdsServer,
} from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { agentProcess, bindErpToAgent, killScenario, useAgentTestApp } from "./agent-harness.ts";
import { type ConnectedCompany, connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
useAgentTestApp("1.5", (app) => ({ t, server } = app));

type LogoErp = LogoRestEmulator & { systemType: number; credentials: Record<string, string> };

/** A Logo REST emulator knowing the shop's item codes (both seeded from the same catalogue). */
async function logoCompany(
  seed: number,
  extra: Record<string, string> = {},
  shop: { productCount?: number } = {},
): Promise<ConnectedCompany<LogoErp>> {
  const itemCodes = generateCatalog({ seed, count: 60 }).map((c) => c.sku);
  const rest = await startLogoRestEmulator({ host: "127.0.0.1", seed, itemCodes });
  const erp = Object.assign(rest, {
    systemType: 4,
    credentials: { ...rest.credentials, firmNo: "1", ...extra },
  });
  return connectedCompanyWithErp(t, erp, { seed, shop });
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

  it("reads items and stock over SQL through the agent: mssql driver → TDS responder → the Logo SQL emulator", async () => {
    // The same `answerSql` the connector-level contract test uses, now behind SQL Server's wire: the
    // agent's mssql/tedious driver talks TDS to the canned responder, which judges every statement
    // in the TransactSQL dialect before the Logo emulator (judge, then PGlite) answers it.
    const sql = await LogoSqlEmulator.start({ seed: 71, productCount: 60 });
    const login = { user: "logo_okur", password: "yerel-parola", database: "LOGO" };
    const tds = await startTdsServer({ ...login, answer: (text, params) => sql.answerSql(text, params) });
    // An empty shop: the product run creates every Logo item there.
    const c = await logoCompany(71, { sqlAlias: "logo" }, { productCount: 0 });
    // The password stays on the agent's machine; the server names the database by its alias only.
    const agent = await agentProcess(t, server, c.token, (home) =>
      new AgentStore(home).saveDatabases({
        logo: { dialect: "mssql", host: "127.0.0.1", port: tds.port, ...login },
      }),
    );
    try {
      await agent.start();
      await bindErpToAgent(t, c.token, agent.agentId);
      const before = agentHubOf(t.ctx).relayedCalls(agent.agentId);
      const products = await runJob(t, c, "ProductIntegration");
      expect(products.status, JSON.stringify(products)).toBe("Succeeded");
      const stock = await runJob(t, c, "StockIntegration");
      expect(stock.status, JSON.stringify(stock)).toBe("Succeeded");
      expect(agentHubOf(t.ctx).relayedCalls(agent.agentId) - before).toBeGreaterThan(0);
      expect(tds.statements.length).toBeGreaterThan(0);
      expect(tds.judgeFailures).toEqual([]);
      // Every Logo warehouse maps to the shop's first location: the item's warehouses summed.
      const location = c.shop.state.stockLocations[0]!.id;
      for (const item of sql.items) {
        const ids = c.shop.state.skuIndex.get(item.code);
        expect(ids, item.code).toBeDefined();
        const qty = c.shop.state
          .findVariant(ids![0], ids![1])!
          .stocks.find((s) => s.stockLocationId === location)?.stockCount;
        const expected = [0, 1, 2].reduce((sum, wh) => sum + ((item.ref * 7 + wh * 3) % 23), 0);
        expect(qty ?? 0, item.code).toBe(expected);
      }
    } finally {
      await agent.kill();
      await c.close();
      await tds.close();
      await sql.close();
    }
  }, 180_000);

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
      await killScenario(t, server, c, {
        count: ORDERS,
        erpDocumentsByOrder: () => documentsByOrder(c),
        slowWrites: (on) => c.erp.faults.set(on ? { latencyMs: 15 } : {}),
        label: "logo agent",
        where: "in Logo",
      });
    },
    Math.max(600_000, ORDERS * 3_000),
  );
});
