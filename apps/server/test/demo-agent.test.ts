import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { type DemoAgent, startDemoAgent } from "../src/modules/demo/demo-agent.ts";
import { startDemoCompany } from "../src/modules/demo/demo-company.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";

const DEMO = { email: "demo-agent@example.com", password: "Demo.Panel2026" };
// This suite's own port (the sandbox URLs the agent calls carry it).
const PORT = 41_700 + (process.pid % 90);

let t: TestApp;
let companyId: number;
let token: string;
let demoAgent: DemoAgent | undefined;
const home = mkdtempSync(join(tmpdir(), "ep-demo-agent-"));

beforeAll(async () => {
  t = await startTestApp({
    CAPTCHA: "off",
    PORT: String(PORT),
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    AGENT_OFFLINE_WAIT_SECONDS: "20",
  });
  await t.app.listen({ port: PORT, host: "127.0.0.1" });
  ({ companyId } = await startDemoCompany(t.ctx, DEMO));
  const login = await call(t.app, "POST", "/api/account/login", { body: DEMO, ip: "10.31.0.2" });
  token = login.body.data.token;
}, 120_000);
afterAll(async () => {
  await demoAgent?.stop();
  await t.close();
});

const waitOnline = async (agentId: number, online: boolean) => {
  for (let i = 0; i < 1200 && agentHubOf(t.ctx).isOnline(agentId) !== online; i++)
    await new Promise((r) => setTimeout(r, 50));
  return agentHubOf(t.ctx).isOnline(agentId);
};

describe("the demo through a real agent process", () => {
  it("pairs the demo's agent, routes its ERP through it, restarts it after a kill, stops it with the server", async () => {
    demoAgent = await startDemoAgent(t.ctx, companyId, { home, minBackoffMs: 200 });
    const agentId = demoAgent.agentId;
    expect(await waitOnline(agentId, true)).toBe(true);
    const [erp] = await t.ctx.database.db
      .select()
      .from(engineSchema.connections)
      .where(
        and(eq(engineSchema.connections.companyId, companyId), eq(engineSchema.connections.kind, "erp")),
      );
    expect(erp!.agentId).toBe(agentId);

    // The card: online, the machine it runs on (its own report), its version.
    const listed = await call(t.app, "GET", "/api/agents", { token });
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: agentId, online: true, machineName: hostname(), version: "0.1.0" }),
    ]);

    // The demo's ERP test goes through the agent process.
    const before = agentHubOf(t.ctx).relayedCalls(agentId);
    const tested = await call(t.app, "POST", "/api/APIConnection/erp/9", { token, body: { fields: {} } });
    expect(tested.body.data.ok, JSON.stringify(tested.body)).toBe(true);
    expect(agentHubOf(t.ctx).relayedCalls(agentId)).toBeGreaterThan(before);

    // Killed: offline on the card meanwhile, started again by the server.
    const first = demoAgent.child!;
    first.kill("SIGKILL");
    expect(await waitOnline(agentId, false)).toBe(false);
    const offline = await call(t.app, "GET", "/api/agents", { token });
    expect(offline.body.data[0].online).toBe(false);
    expect(await waitOnline(agentId, true)).toBe(true);
    expect(demoAgent.starts).toBe(2);
    expect(demoAgent.child).not.toBe(first);
    const again = await call(t.app, "POST", "/api/APIConnection/erp/9", { token, body: { fields: {} } });
    expect(again.body.data.ok, JSON.stringify(again.body)).toBe(true);

    // Stopped with the server: the process ends and is not started again.
    const last = demoAgent.child!;
    await demoAgent.stop();
    expect(last.exitCode !== null || last.signalCode !== null).toBe(true);
    expect(await waitOnline(agentId, false)).toBe(false);
    await new Promise((r) => setTimeout(r, 600));
    expect(demoAgent.child).toBeUndefined();

    // The next start reuses the pairing kept in the data directory.
    demoAgent = await startDemoAgent(t.ctx, companyId, { home, minBackoffMs: 200 });
    expect(demoAgent.agentId).toBe(agentId);
    expect(await waitOnline(agentId, true)).toBe(true);
    const still = await call(t.app, "GET", "/api/agents", { token });
    expect(still.body.data).toHaveLength(1);
  }, 180_000);
});
