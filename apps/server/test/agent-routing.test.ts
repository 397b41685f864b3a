import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentClient, AgentStore, pair } from "@ep/agent";
import {
  ConnectorError,
  createMikroConnector,
  InMemoryRateLimitStore,
  type MikroEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeContext, createContext } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { agentHubOf } from "../src/modules/agents/service.ts";
import type { ServerContext } from "../src/server-context.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

/**
 * Two server processes' worth of state on one PostgreSQL database: the agent's socket is held by A,
 * the connector runs in B; B's calls reach the agent through LISTEN/NOTIFY and `agent_relay_calls`.
 * Runs in CI's PostgreSQL pass (DATABASE_URL set); the embedded database has one process only.
 */
describe.skipIf(!process.env.DATABASE_URL)("agent calls routed across processes (PostgreSQL)", () => {
  let a: TestApp;
  let b: ServerContext;
  let emu: MikroEmulator;

  beforeAll(async () => {
    a = await startTestApp({ AGENT_OFFLINE_WAIT_SECONDS: "1" });
    b = await createContext(
      loadConfig({
        DATABASE_URL: a.ctx.config.databaseUrl!,
        DATA_DIR: mkdtempSync(join(tmpdir(), "ep-b-")),
        LOG_LEVEL: "warn",
        CONNECTOR_TIMEOUT_SECONDS: "5",
        AGENT_OFFLINE_WAIT_SECONDS: "1",
        DEMO: "0",
      }),
      { workers: false, scheduler: false },
    );
    emu = await startMikroEmulator({ host: "127.0.0.1", seed: 14, productCount: 30 });
  });
  afterAll(async () => {
    await agentHubOf(b).close();
    await closeContext(b);
    await emu?.close();
    await a?.close();
  });

  it("reaches the agent whose socket another process holds, and says offline when it is gone", async () => {
    const server = await a.app.listen({ port: 0, host: "127.0.0.1" });
    const owner = await registerAndLogin(a.app);
    const code = await call(a.app, "POST", "/api/agents/pairing-code", { token: owner.token });
    const config = await pair(server, code.body.data.code as string, "ERP-SUNUCU");
    const home = mkdtempSync(join(tmpdir(), "ep-agent-"));
    const store = new AgentStore(home);
    const client = new AgentClient(config, store, { machineName: "ERP-SUNUCU", minBackoffMs: 50 });
    void client.run();
    await client.waitFor("online");
    for (let i = 0; i < 100 && !agentHubOf(a.ctx).isOnline(config.agentId); i++)
      await new Promise((r) => setTimeout(r, 20));

    const hubB = agentHubOf(b);
    await hubB.start();
    expect(hubB.isOnline(config.agentId)).toBe(false);
    const conn = createMikroConnector(emu.credentials, {
      companyId: "1",
      rateLimitStore: new InMemoryRateLimitStore(),
      retry: { maxRetries: 0 },
      timeoutMs: 5000,
      fetch: hubB.fetchFor(config.agentId),
    });
    const before = emu.counters.requests;
    const page = await conn.listProducts({ pageSize: 7 });
    expect(page.items).toHaveLength(7);
    expect(emu.counters.requests).toBeGreaterThan(before);
    expect(hubB.relayedCalls(config.agentId)).toBeGreaterThan(0);
    // A large body crosses too (the NOTIFY payload only names the row).
    const big = await conn.listProducts({ pageSize: 30 });
    expect(big.items).toHaveLength(30);

    client.stop();
    for (let i = 0; i < 100 && agentHubOf(a.ctx).isOnline(config.agentId); i++)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    const error = await conn.listProducts({ pageSize: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ kind: "transient", reason: "unavailable" });
    expect((error as ConnectorError).merchantMessage).toMatch(
      /^Yerel bağlantı aracı çevrimdışı \(son görülme: \d/,
    );
  }, 60_000);
});
