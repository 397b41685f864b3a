import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentClient, AgentStore, pair } from "@ep/agent";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_OUTAGE_NOTICE_MS, sweepAgentOutages } from "../src/modules/agents/outage.ts";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { type ConnectedCompany, connectedCompany, notificationsLike } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off", AGENT_OFFLINE_WAIT_SECONDS: "5" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

/** A real agent (the client the CLI runs) paired for the company, connected in this process. */
async function agentFor(token: string, machineName: string) {
  const code = await call(t.app, "POST", "/api/agents/pairing-code", { token });
  const config = await pair(server, code.body.data.code as string, machineName);
  const store = new AgentStore(mkdtempSync(join(tmpdir(), "ep-agent-")));
  let client: AgentClient | undefined;
  return {
    agentId: config.agentId,
    async start() {
      client = new AgentClient(config, store, { machineName, minBackoffMs: 50 });
      void client.run();
      await client.waitFor("online");
      for (let i = 0; i < 200 && !agentHubOf(t.ctx).isOnline(config.agentId); i++)
        await new Promise((r) => setTimeout(r, 10));
    },
    async stop() {
      client?.stop();
      for (let i = 0; i < 200 && agentHubOf(t.ctx).isOnline(config.agentId); i++)
        await new Promise((r) => setTimeout(r, 10));
    },
  };
}

const erpForm = (c: ConnectedCompany) => ({ ...c.erp.credentials });

describe("agent picker on the ERP connection", () => {
  it("saves the chosen agent, tests through it, goes back to direct; refuses another company's agent", async () => {
    const c = await connectedCompany(t, { seed: 51 });
    const agent = await agentFor(c.token, "MIKRO-SUNUCU");
    const other = await registerAndLogin(t.app);
    const foreign = await agentFor(other.token, "BASKA-FIRMA");
    try {
      await agent.start();
      const hub = agentHubOf(t.ctx);
      const before = hub.relayedCalls(agent.agentId);
      const saved = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/9", {
        token: c.token,
        body: { fields: erpForm(c), agentId: agent.agentId },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.connection.agentId).toBe(agent.agentId);
      expect(saved.body.data.connection.lastTest.ok).toBe(true);
      // The save's test went through the agent.
      expect(hub.relayedCalls(agent.agentId)).toBeGreaterThan(before);

      const overview = await call(t.app, "GET", "/api/settings/connections", { token: c.token });
      expect(overview.body.data.erp.agentId).toBe(agent.agentId);
      const dashboard = await call(t.app, "GET", "/api/Dashboard", { token: c.token });
      expect(dashboard.body.data.erpAgentId).toBe(agent.agentId);

      // A test without a choice keeps the stored one: through the agent.
      const relayed = hub.relayedCalls(agent.agentId);
      const tested = await call(t.app, "POST", "/api/APIConnection/erp/9", {
        token: c.token,
        body: { fields: {} },
      });
      expect(tested.body.data.ok, JSON.stringify(tested.body)).toBe(true);
      expect(hub.relayedCalls(agent.agentId)).toBeGreaterThan(relayed);

      // Stopped agent: the test says so at once, in the agent's words, without waiting out the bound.
      await agent.stop();
      const startedAt = Date.now();
      const offline = await call(t.app, "POST", "/api/APIConnection/erp/9", {
        token: c.token,
        body: { fields: {}, agentId: agent.agentId },
      });
      expect(Date.now() - startedAt).toBeLessThan(4000);
      expect(offline.body.data.ok).toBe(false);
      expect(offline.body.data.message).toContain("Yerel bağlantı aracı çevrimdışı (son görülme: ");

      // Another company's agent is refused, and nothing changes.
      const refused = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/9", {
        token: c.token,
        body: { fields: erpForm(c), agentId: foreign.agentId },
      });
      expect(refused.status).toBe(400);
      const refusedTest = await call(t.app, "POST", "/api/APIConnection/erp/9", {
        token: c.token,
        body: { fields: {}, agentId: foreign.agentId },
      });
      expect(refusedTest.status).toBe(400);
      const still = await call(t.app, "GET", "/api/settings/connections", { token: c.token });
      expect(still.body.data.erp.agentId).toBe(agent.agentId);

      // "Doğrudan": the calls go straight out again, the agent untouched.
      const direct = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/9", {
        token: c.token,
        body: { fields: erpForm(c), agentId: null },
      });
      expect(direct.status).toBe(200);
      expect(direct.body.data.connection.agentId).toBeNull();
      expect(direct.body.data.connection.lastTest.ok).toBe(true);
      const [row] = await t.ctx.database.db
        .select()
        .from(engineSchema.connections)
        .where(
          and(eq(engineSchema.connections.companyId, c.companyId), eq(engineSchema.connections.kind, "erp")),
        );
      expect(row!.agentId).toBeNull();
    } finally {
      await agent.stop();
      await c.close();
    }
  }, 60_000);
});

describe("agent outage notification", () => {
  const outageNotices = (companyId: number) => notificationsLike(t, companyId, "agent-%");

  it("notifies once per outage past 10 minutes while jobs are due, and says when the agent is back", async () => {
    const c = await connectedCompany(t, { seed: 53 });
    const agent = await agentFor(c.token, "ERP-PC");
    const db = t.ctx.database.db;
    try {
      await agent.start();
      await call(t.app, "PUT", "/api/agents/connection", {
        token: c.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      await db
        .update(engineSchema.jobs)
        .set({ isEnabled: false })
        .where(eq(engineSchema.jobs.companyId, c.companyId));
      await agent.stop();

      // Just under 10 minutes: nothing yet.
      t.clock.advance(AGENT_OUTAGE_NOTICE_MS - 30_000);
      await sweepAgentOutages(t.ctx, t.clock.now());
      expect(await outageNotices(c.companyId)).toEqual([]);
      // Past 10 minutes, but no job is due: nothing.
      t.clock.advance(60_000);
      await sweepAgentOutages(t.ctx, t.clock.now());
      expect(await outageNotices(c.companyId)).toEqual([]);

      await db
        .update(engineSchema.jobs)
        .set({ isEnabled: true, nextRunAt: t.clock.now() })
        .where(eq(engineSchema.jobs.companyId, c.companyId));
      // Every minute of the outage the scheduler looks again: one notification, not one per minute.
      for (let minute = 0; minute < 5; minute++) {
        await sweepAgentOutages(t.ctx, t.clock.now());
        t.clock.advance(60_000);
      }
      const raised = await outageNotices(c.companyId);
      expect(raised).toHaveLength(1);
      expect(raised[0]).toMatchObject({ type: "Error", isRead: false });
      expect(raised[0]!.text).toContain("ERP-PC");
      expect(raised[0]!.text).toContain("10 dakikadan uzun");
      // It is in the company's list, and not in another company's.
      const mine = await call(t.app, "GET", "/api/Notification/1/50", { token: c.token });
      expect(JSON.stringify(mine.body.data)).toContain("ERP-PC");
      const stranger = await registerAndLogin(t.app);
      const theirs = await call(t.app, "GET", "/api/Notification/1/50", {
        token: stranger.token,
      });
      expect(JSON.stringify(theirs.body.data)).not.toContain("ERP-PC");

      // Back online: the notice is cleared and "tekrar çevrimiçi" said once.
      await agent.start();
      for (let i = 0; i < 3; i++) await sweepAgentOutages(t.ctx, t.clock.now());
      const back = await outageNotices(c.companyId);
      expect(back).toHaveLength(2);
      expect(back[0]!.isRead).toBe(true);
      expect(back[1]).toMatchObject({ type: "Info" });
      expect(back[1]!.text).toContain("tekrar çevrimiçi");

      // A second outage is a new one: one more notice.
      await agent.stop();
      for (let minute = 0; minute < 15; minute++) {
        t.clock.advance(60_000);
        await sweepAgentOutages(t.ctx, t.clock.now());
      }
      const second = await outageNotices(c.companyId);
      expect(second.map((n) => n.type)).toEqual(["Error", "Info", "Error"]);
    } finally {
      await agent.stop();
      await c.close();
    }
  }, 60_000);
});
