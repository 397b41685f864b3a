/**
 * Issue 39, item 7: two agents on two machines for one ERP connection (as an integration runtime has
 * nodes). Calls go to an online one; when one is killed (a real agent process, SIGKILL) the other carries
 * on. In-flight calls on the killed one: a read moves to the other agent at once; a write that may have
 * been applied is not sent again (it fails as lost, and the engine's ledger looks it up next run).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import {
  agentProcess as agentHarnessProcess,
  bindErpToAgent,
  mikroDocumentsByOrder as erpDocumentsByOrder,
  expectEachOrderOnce,
  useAgentTestApp,
} from "./agent-harness.ts";
import { type ConnectedCompany, connectedCompany, runJob, waitForRun } from "./engine/engine-harness.ts";
import { call, registerAndLogin, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
useAgentTestApp("1.5", (app) => ({ t, server } = app));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const erpConnectionId = async (companyId: number) => {
  const [row] = await t.ctx.database.db
    .select({ id: engineSchema.connections.id })
    .from(engineSchema.connections)
    .where(and(eq(engineSchema.connections.companyId, companyId), eq(engineSchema.connections.kind, "erp")));
  return row!.id;
};

/** Two agent processes of the company, both serving its ERP connection (A its own, B the second). */
async function twoAgents(c: ConnectedCompany) {
  const a = await agentHarnessProcess(t, server, c.token);
  const b = await agentHarnessProcess(t, server, c.token);
  await a.start();
  await b.start();
  await bindErpToAgent(t, c.token, a.agentId);
  const joined = await call(t.app, "PUT", `/api/agents/${b.agentId}/serves`, {
    token: c.token,
    body: { kind: "erp", serves: true },
  });
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  expect(joined.body.message).toContain("bu bağlantıya eklendi");
  return {
    a,
    b,
    byId: (id: number) => (id === a.agentId ? a : b),
    connectionId: await erpConnectionId(c.companyId),
  };
}

const agentsView = async (token: string) =>
  (await call(t.app, "GET", "/api/agents", { token })).body.data as {
    id: number;
    online: boolean;
    serves: { kind: string; active: boolean }[];
  }[];

/** A system inside the "network" that holds each request until told to answer, counting what it got. */
async function slowTarget() {
  const got: { method: string; url: string }[] = [];
  const held: (() => void)[] = [];
  const target: Server = createServer((req: IncomingMessage, res) => {
    got.push({ method: req.method ?? "", url: req.url ?? "" });
    req.resume();
    held.push(() => res.writeHead(200, { "content-type": "text/plain" }).end(`ok ${got.length}`));
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  return {
    url,
    got,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    waitFor: async (n: number) => {
      for (let i = 0; i < 400 && got.length < n; i++) await sleep(10);
      expect(got.length).toBe(n);
    },
    close: () => new Promise((r) => target.close(r)),
  };
}

describe("two agents for one connection", () => {
  it("shows both with the connection each serves and the active one; another company's agent is refused", async () => {
    const c = await connectedCompany(t, { seed: 61 });
    const { a, b } = await twoAgents(c);
    const other = await registerAndLogin(t.app);
    try {
      const list = await agentsView(c.token);
      const mine = list.filter((x) => x.id === a.agentId || x.id === b.agentId);
      expect(mine).toHaveLength(2);
      for (const x of mine) {
        expect(x.online).toBe(true);
        expect(x.serves.map((s) => s.kind)).toEqual(["erp"]);
      }
      expect(mine.filter((x) => x.serves[0]!.active)).toHaveLength(1);

      // Another company can neither add nor remove this company's agent.
      for (const serves of [true, false]) {
        const foreign = await call(t.app, "PUT", `/api/agents/${b.agentId}/serves`, {
          token: other.token,
          body: { kind: "erp", serves },
        });
        expect(foreign.status).toBe(404);
      }
      // Its own agent joins neither this company's connection nor one it has not saved.
      const foreignAgent = await agentHarnessProcess(t, server, other.token);
      const across = await call(t.app, "PUT", `/api/agents/${foreignAgent.agentId}/serves`, {
        token: c.token,
        body: { kind: "erp", serves: true },
      });
      expect(across.status).toBe(404);
      const unsaved = await call(t.app, "PUT", `/api/agents/${foreignAgent.agentId}/serves`, {
        token: other.token,
        body: { kind: "erp", serves: true },
      });
      expect(unsaved.status).toBe(409);
      expect((await agentsView(c.token)).find((x) => x.id === b.agentId)?.serves).toHaveLength(1);

      // A leaves: B becomes the connection's own agent; B leaves too: the connection goes direct.
      const left = await call(t.app, "PUT", `/api/agents/${a.agentId}/serves`, {
        token: c.token,
        body: { kind: "erp", serves: false },
      });
      expect(left.status).toBe(200);
      const [own] = await t.ctx.database.db
        .select({ agentId: engineSchema.connections.agentId })
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.id, await erpConnectionId(c.companyId)));
      expect(own!.agentId).toBe(b.agentId);
      const after = await agentsView(c.token);
      expect(after.find((x) => x.id === a.agentId)?.serves).toEqual([]);
      expect(after.find((x) => x.id === b.agentId)?.serves).toEqual([{ kind: "erp", active: true }]);
    } finally {
      await a.kill();
      await b.kill();
      await c.close();
    }
  }, 120_000);

  it("moves an in-flight read to the other agent when its agent is killed, and never sends a write twice", async () => {
    const c = await connectedCompany(t, { seed: 62 });
    const { a, b, byId, connectionId } = await twoAgents(c);
    const target = await slowTarget();
    const hub = agentHubOf(t.ctx);
    const relay = hub.fetchFor(a.agentId, connectionId);
    try {
      // A read: its agent dies while the target holds the answer; the other agent sends it again.
      const movedBefore = hub.movedCalls();
      const read = relay(`${target.url}/stok`, { method: "GET" });
      await target.waitFor(1);
      const first = hub.carrierOf(connectionId)!;
      await byId(first).kill();
      await target.waitFor(2);
      expect(hub.carrierOf(connectionId)).not.toBe(first);
      target.release();
      const answer = await read;
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe("ok 2");
      expect(hub.movedCalls() - movedBefore).toBe(1);

      // A write on the survivor while it is killed too would be lost; with the first agent back, a
      // write whose agent dies mid-call fails as lost and is NOT sent through the other one.
      await byId(first).start();
      const survivor = hub.carrierOf(connectionId)!;
      const write = relay(`${target.url}/siparis`, { method: "POST", body: "{}" }).then(
        () => "answered",
        (e: { code?: string }) => e.code,
      );
      await target.waitFor(3);
      expect(hub.carrierOf(connectionId)).toBe(survivor);
      await byId(survivor).kill();
      expect(await write).toBe("ETRANSPORTLOST");
      await sleep(300);
      expect(target.got.filter((g) => g.method === "POST")).toHaveLength(1);
      expect(hub.movedCalls() - movedBefore).toBe(1);
      // The next write goes through the agent still online.
      const next = relay(`${target.url}/siparis`, { method: "POST", body: "{}" });
      await target.waitFor(4);
      target.release();
      expect((await next).status).toBe(200);
      expect(hub.carrierOf(connectionId)).toBe(first);
    } finally {
      target.release();
      await a.kill();
      await b.kill();
      await target.close();
      await c.close();
    }
  }, 120_000);

  // `AGENT_FAILOVER_ORDERS=500 npx vitest run test/agent-failover.test.ts` runs the size.
  const ORDERS = Number(process.env.AGENT_FAILOVER_ORDERS ?? 80);
  it(`syncs ${ORDERS} orders through the other agent when the active one is SIGKILLed mid-run: none lost, none doubled`, async () => {
    const c = await connectedCompany(t, { seed: 63 });
    const { a, b, byId, connectionId } = await twoAgents(c);
    const hub = agentHubOf(t.ctx);
    try {
      const orders = c.shop.generateOrders(ORDERS);
      c.erp.setFaults({ latencyMs: 15 });
      const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${c.jobId("OrderIntegration")}`, {
        token: c.token,
      });
      expect(started.status).toBe(200);
      const runId = started.body.data.runId as number;
      const until = Date.now() + 120_000;
      while (erpDocumentsByOrder(c).size < Math.ceil(ORDERS * 0.25) && Date.now() < until) await sleep(10);
      const killed = hub.carrierOf(connectionId)!;
      const survivor = killed === a.agentId ? b.agentId : a.agentId;
      const survivorBefore = hub.relayedCalls(survivor);
      const movedBefore = hub.movedCalls();
      const atKill = erpDocumentsByOrder(c).size;
      const killedAt = Date.now();
      await byId(killed).kill();
      // Failover time: from the kill to the next order written to the ERP (through the survivor).
      while (erpDocumentsByOrder(c).size <= atKill && Date.now() < until) await sleep(5);
      const failoverMs = Date.now() - killedAt;
      expect(erpDocumentsByOrder(c).size).toBeGreaterThan(atKill);
      c.erp.setFaults({});
      // The same run goes on through the survivor: it ends without waiting for the killed agent.
      const run = await waitForRun(t, c.token, runId, 300_000);
      const writtenInRun = run.counts?.written as number;
      expect(hub.relayedCalls(survivor)).toBeGreaterThan(survivorBefore);
      // A write in flight on the killed agent may have been applied: the next run looks it up.
      let extraRuns = 0;
      for (; extraRuns < 5 && erpDocumentsByOrder(c).size < ORDERS; extraRuns++)
        await runJob(t, c, "OrderIntegration", 300_000);
      const last = await runJob(t, c, "OrderIntegration");
      expect(last.status, JSON.stringify(last)).toBe("Succeeded");

      const docs = erpDocumentsByOrder(c);
      const confirmed = await expectEachOrderOnce(t, c, orders, docs);
      // The killed agent stayed down the whole time: everything after the kill went through the survivor.
      expect(hub.isOnline(killed)).toBe(false);
      const view = await agentsView(c.token);
      expect(view.find((x) => x.id === killed)).toMatchObject({
        online: false,
        serves: [{ kind: "erp", active: false }],
      });
      expect(view.find((x) => x.id === survivor)).toMatchObject({
        online: true,
        serves: [{ kind: "erp", active: true }],
      });
      console.info(
        `agent failover test: ${ORDERS} orders, ${atKill} in the ERP at the kill, next order written ${failoverMs} ms after it, ` +
          `${writtenInRun} written by the interrupted run (status ${run.status}), ${extraRuns} further run(s) before the final one, ` +
          `${hub.movedCalls() - movedBefore} calls moved to the survivor, ${docs.size} in the ERP, ${confirmed} confirmed`,
      );
    } finally {
      await a.kill();
      await b.kill();
      await c.close();
    }
  }, 600_000);
});
