import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentClient, AgentStore, connectUrl, pair } from "@ep/agent";
import {
  ConnectorError,
  createMikroConnector,
  InMemoryRateLimitStore,
  type MikroEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import type { AgentRequestFrame } from "@ep/contracts";
import { decodeAgentFrame, encodeAgentFrame } from "@ep/contracts/agent-wire";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
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

describe("the agent socket's wire protocols", () => {
  /** An HTTP system inside the merchant's network that answers the request's bytes back, plus bytes that are not UTF-8. */
  async function echoServer() {
    const tail = Buffer.from([0xff, 0x00, 0xc3, 0x28, 0x80]);
    const srv = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        res.setHeader("x-had-body", String(req.headers["content-length"] !== undefined));
        res.end(Buffer.concat([...chunks, tail]));
      });
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/echo`, tail, srv };
  }

  it("carries bodies byte for byte as binary frames to an agent of protocol 2", async () => {
    const echo = await echoServer();
    const home = tempHome();
    const store = new AgentStore(home);
    const config = await pair(server, await pairingCode(owner.token), "BINARY-PC");
    store.saveConfig(config);
    const client = new AgentClient(config, store, { machineName: "BINARY-PC" });
    const finished = client.run();
    try {
      await client.waitFor("online");
      const relayed = agentHubOf(t.ctx).fetchFor(config.agentId);
      const sent = Buffer.from([0x00, 0x01, 0xfe, 0xff, ...Buffer.from("ş€")]);
      const post = await relayed(echo.url, { method: "POST", body: sent });
      expect(Buffer.from(await post.arrayBuffer())).toEqual(Buffer.concat([sent, echo.tail]));
      const text = await relayed(echo.url, { method: "POST", body: "sipariş" });
      expect(Buffer.from(await text.arrayBuffer())).toEqual(
        Buffer.concat([Buffer.from("sipariş"), echo.tail]),
      );
      // A call without a body stays one (not an empty body).
      const get = await relayed(echo.url);
      expect(get.headers.get("x-had-body")).toBe("false");
      expect(Buffer.from(await get.arrayBuffer())).toEqual(echo.tail);
    } finally {
      client.stop();
      await finished;
      echo.srv.close();
    }
  });

  it("writes a call as one binary frame to a socket whose hello offers protocol 2, and reads a binary answer", async () => {
    const config = await pair(server, await pairingCode(owner.token), "IKILI-PC");
    const socket = new WebSocket(connectUrl(server), {
      headers: { authorization: `Bearer ${config.credential}` },
    });
    const kinds: boolean[] = [];
    const answer = Buffer.from([0xff, 0xfe, 0x00, 0x7b]);
    socket.on("message", (data, isBinary) => {
      kinds.push(isBinary);
      const frame = decodeAgentFrame<AgentRequestFrame>(data as Buffer, isBinary);
      if (frame?.type !== "http") return;
      expect(Buffer.from(frame.body!)).toEqual(Buffer.from("gövde"));
      socket.send(
        encodeAgentFrame({ type: "http-result", id: frame.id, status: 201, headers: {}, body: answer }, true),
      );
    });
    await new Promise((r) => socket.once("open", r));
    socket.send(JSON.stringify({ type: "hello", version: "0.2.0", machineName: "IKILI-PC", protocol: 2 }));
    const hub = agentHubOf(t.ctx);
    for (let i = 0; i < 100 && !hub.isOnline(config.agentId); i++)
      await new Promise((r) => setTimeout(r, 20));
    try {
      const res = await hub.fetchFor(config.agentId)("http://erp.local/api", {
        method: "POST",
        body: "gövde",
      });
      expect(res.status).toBe(201);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(answer);
      expect(kinds).toEqual([true]);
    } finally {
      socket.close();
    }
  });

  it("still serves an agent of protocol 1 (no `protocol` in its hello) in JSON frames with base64 bodies", async () => {
    const echo = await echoServer();
    const config = await pair(server, await pairingCode(owner.token), "ESKI-PC");
    // The wire behaviour of agent 0.1.0, spelled out: JSON text frames only.
    const socket = new WebSocket(connectUrl(server), {
      headers: { authorization: `Bearer ${config.credential}` },
    });
    const kinds: boolean[] = [];
    socket.on("message", async (data, isBinary) => {
      kinds.push(isBinary);
      const frame = JSON.parse(String(data)) as {
        type: string;
        id: string;
        method: string;
        url: string;
        headers: Record<string, string>;
        body?: string;
      };
      if (frame.type !== "http") return;
      const res = await fetch(frame.url, {
        method: frame.method,
        body: frame.body === undefined ? undefined : Buffer.from(frame.body, "base64"),
      });
      const body = Buffer.from(await res.arrayBuffer()).toString("base64");
      socket.send(
        JSON.stringify({ type: "http-result", id: frame.id, status: res.status, headers: {}, body }),
      );
    });
    await new Promise((r) => socket.once("open", r));
    socket.send(JSON.stringify({ type: "hello", version: "0.1.0", machineName: "ESKI-PC" }));
    const hub = agentHubOf(t.ctx);
    for (let i = 0; i < 100 && !hub.isOnline(config.agentId); i++)
      await new Promise((r) => setTimeout(r, 20));
    try {
      const sent = Buffer.from([0x00, 0xfe, 0xff, ...Buffer.from("ğüş")]);
      const res = await hub.fetchFor(config.agentId)(echo.url, { method: "POST", body: sent });
      expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.concat([sent, echo.tail]));
      expect(kinds).toEqual([false]);
    } finally {
      socket.close();
      echo.srv.close();
    }
  });
});
