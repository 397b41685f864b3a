import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentClient, AgentStore, pair } from "@ep/agent";
import {
  ConnectorError,
  createMikroConnector,
  InMemoryRateLimitStore,
  type MikroEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents } from "../src/modules/agents/schema.ts";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../agent/src/cli.ts");

let t: TestApp;
let server: string;
let emu: MikroEmulator;
let owner: { token: string };
let other: { token: string };

const tempHome = () => mkdtempSync(join(tmpdir(), "ep-agent-"));

async function pairingCode(token: string): Promise<string> {
  const res = await call(t.app, "POST", "/api/agents/pairing-code", { token });
  expect(res.status).toBe(200);
  return res.body.data.code as string;
}

/** The Mikro connector of a company whose ERP is reached only through agent `agentId`. */
function mikroThroughAgent(agentId: number, companyId = "1") {
  return createMikroConnector(emu.credentials, {
    companyId,
    rateLimitStore: new InMemoryRateLimitStore(),
    retry: { maxRetries: 0 },
    timeoutMs: 8000,
    fetch: agentHubOf(t.ctx).fetchFor(agentId),
  });
}

beforeAll(async () => {
  t = await startTestApp({ CONNECTOR_TIMEOUT_SECONDS: "5", AGENT_OFFLINE_WAIT_SECONDS: "5" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
  emu = await startMikroEmulator({ seed: 14, productCount: 30 });
  owner = await registerAndLogin(t.app);
  other = await registerAndLogin(t.app);
});

afterAll(async () => {
  await emu?.close();
  await t?.close();
});

describe("pairing", () => {
  it("spends a code once and stores only a hash of the credential", async () => {
    const code = await pairingCode(owner.token);
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    const first = await call(t.app, "POST", "/api/agents/pair", {
      body: { code, machineName: "MUHASEBE-PC" },
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toContain("eşleştirildi");
    const credential = first.body.data.credential as string;
    const again = await call(t.app, "POST", "/api/agents/pair", { body: { code } });
    expect(again.status).toBe(400);
    expect(again.body.message).toContain("yeni bir kod");
    const [stored] = await t.ctx.database.db
      .select({ hash: agents.credentialHash })
      .from(agents)
      .where(eq(agents.id, first.body.data.agentId as number));
    expect(stored!.hash).not.toContain(credential);
    expect(stored!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses an expired code and a made-up one", async () => {
    const code = await pairingCode(owner.token);
    t.clock.advance(11 * 60_000);
    const expired = await call(t.app, "POST", "/api/agents/pair", { body: { code } });
    expect(expired.status).toBe(400);
    const madeUp = await call(t.app, "POST", "/api/agents/pair", { body: { code: "AAAAA-BBBBB" } });
    expect(madeUp.status).toBe(400);
    const unsigned = await call(t.app, "POST", "/api/agents/pairing-code");
    expect(unsigned.status).toBe(401);
  });

  it("keeps each company's agents to itself", async () => {
    const code = await pairingCode(owner.token);
    const paired = await call(t.app, "POST", "/api/agents/pair", {
      body: { code, machineName: "ERP-SUNUCU" },
    });
    const agentId = paired.body.data.agentId as number;
    const theirs = await call(t.app, "GET", "/api/agents", { token: other.token });
    expect(theirs.body.data.map((a: { id: number }) => a.id)).not.toContain(agentId);
    const revokeOthers = await call(t.app, "DELETE", `/api/agents/${agentId}`, { token: other.token });
    expect(revokeOthers.status).toBe(404);
    const mine = await call(t.app, "GET", "/api/agents", { token: owner.token });
    expect(mine.body.data.find((a: { id: number }) => a.id === agentId)).toMatchObject({
      machineName: "ERP-SUNUCU",
      online: false,
      statusText: expect.stringContaining("Yerel bağlantı aracı çevrimdışı (son görülme: -)"),
    });
  });
});

describe("the agent relays the ERP's API", () => {
  it("runs the Mikro connector through the agent, then is refused once revoked", async () => {
    const home = tempHome();
    const store = new AgentStore(home);
    const config = await pair(server, await pairingCode(owner.token), "DEPO-PC");
    store.saveConfig(config);
    expect(statSync(join(home, "config.json")).mode & 0o777).toBe(0o600);
    const client = new AgentClient(store.loadConfig()!, store, { machineName: "DEPO-PC", minBackoffMs: 50 });
    const finished = client.run();
    await client.waitFor("online");

    const conn = mikroThroughAgent(config.agentId);
    const info = await conn.testConnection();
    expect(info.ok).toBe(true);
    const page = await conn.listProducts({ pageSize: 10 });
    expect(page.items).toHaveLength(10);
    expect(page.items[0]!.sku).toBeTruthy();

    const listed = await call(t.app, "GET", "/api/agents", { token: owner.token });
    const me = listed.body.data.find((a: { id: number }) => a.id === config.agentId);
    expect(me).toMatchObject({ online: true, version: "0.1.0", machineName: "DEPO-PC", statusText: null });
    expect(me.lastSeenAt).not.toBeNull();
    // Measured by a WebSocket ping at the agent's hello; the relayed calls above gave its pong time.
    expect(me.roundTripMs).toEqual(expect.any(Number));
    expect(store.loadStatus()?.state).toBe("online");

    // A network cut: the server drops the socket. A call made meanwhile waits (within a bound) for the
    // agent's reconnect, and goes through.
    agentHubOf(t.ctx).disconnect(config.agentId, "network cut");
    const offline = client.waitFor("offline");
    const duringCut = conn.listProducts({ pageSize: 5 });
    await offline;
    expect((await duringCut).items).toHaveLength(5);
    expect(client.state).toBe("online");

    const revoked = await call(t.app, "DELETE", `/api/agents/${config.agentId}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    // The socket is closed; the agent's reconnect is refused and its loop ends.
    await expect(finished).resolves.toBe("refused");
    expect(store.loadStatus()?.state).toBe("refused");
    const after = await conn.testConnection().catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ConnectorError);
    expect(after).toMatchObject({ kind: "transient", reason: "unavailable" });
  });

  it("fails a call as transient when the agent process is killed mid-call", async () => {
    const home = tempHome();
    const config = await pair(server, await pairingCode(owner.token), "KASA-PC");
    new AgentStore(home).saveConfig(config);
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", agentCli, "run"], {
      env: { ...process.env, ENTEGRASYON_AGENT_HOME: home },
      stdio: "ignore",
    });
    try {
      const hub = agentHubOf(t.ctx);
      for (let i = 0; i < 200 && !hub.isOnline(config.agentId); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(hub.isOnline(config.agentId)).toBe(true);
      const conn = mikroThroughAgent(config.agentId);
      expect((await conn.testConnection()).ok).toBe(true);

      emu.setFaults({ latencyMs: 3000 });
      const before = emu.counters.requests;
      const pending = conn.listProducts({ pageSize: 5 }).catch((e: unknown) => e);
      for (let i = 0; i < 100 && emu.counters.requests === before; i++)
        await new Promise((r) => setTimeout(r, 20));
      child.kill("SIGKILL");
      const error = await pending;
      expect(error).toBeInstanceOf(ConnectorError);
      expect(error).toMatchObject({ kind: "transient", reason: "unavailable" });
    } finally {
      emu.setFaults({});
      child.kill("SIGKILL");
    }
  }, 30_000);
});
