/**
 * The server's side of the agents' self-update: the release frame after each hello and heartbeat (version,
 * the merchant's hours, busy while a run uses the agent), the update frames behind "Güncelleniyor", the
 * hours set per agent (scoped to the company) and the agents' own download route.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectUrl, pair } from "@ep/agent";
import { RUN_TRIGGERS } from "@ep/contracts";
import type { AgentReleaseFrame } from "@ep/contracts/agent-update";
import { engineSchema } from "@ep/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
const dir = mkdtempSync(join(tmpdir(), "ep-agent-release-"));
const file = Buffer.from("the new agent");
const sha256 = createHash("sha256").update(file).digest("hex");

beforeAll(async () => {
  writeFileSync(join(dir, "entegrasyon-agent-linux-x64"), file);
  writeFileSync(
    join(dir, "manifest.json"),
    JSON.stringify({
      version: "9.9.9",
      builtAt: new Date().toISOString(),
      files: [
        {
          platform: "linux",
          file: "entegrasyon-agent-linux-x64",
          size: file.length,
          sha256,
          signature: "c2ln",
        },
      ],
    }),
  );
  process.env.AGENT_DOWNLOADS_DIR = dir;
  t = await startTestApp({ CAPTCHA: "off" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  delete process.env.AGENT_DOWNLOADS_DIR;
  await t.close();
});

/** A paired agent's socket: frames it receives are queued for `next`. */
async function agentSocket(token: string) {
  const code = (await call(t.app, "POST", "/api/agents/pairing-code", { token })).body.data.code as string;
  const config = await pair(server, code, "OFIS-PC");
  const socket = new WebSocket(connectUrl(server), {
    headers: { authorization: `Bearer ${config.credential}` },
  });
  const frames: AgentReleaseFrame[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(String(data))));
  await new Promise((r) => socket.once("open", r));
  const send = (frame: object) => socket.send(JSON.stringify(frame));
  const hello = (type: "hello" | "heartbeat", version = "1.0.0") =>
    send({ type, version, machineName: "OFIS-PC", protocol: 3, updates: true });
  const next = async () => {
    for (let i = 0; i < 200 && frames.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    return frames.shift();
  };
  return { config, socket, send, hello, next };
}

const view = async (token: string, id: number) =>
  (await call(t.app, "GET", "/api/agents", { token })).body.data.find((a: { id: number }) => a.id === id);

describe("the server's side of the agents' self-update", () => {
  it("announces the release after the hello and each heartbeat, with the merchant's hours and busy during a run", async () => {
    const owner = await registerAndLogin(t.app);
    const other = await registerAndLogin(t.app);
    const a = await agentSocket(owner.token);
    try {
      // An agent whose hello does not say it reads release frames (before 0.1.1) gets none.
      a.send({ type: "hello", version: "0.1.0", machineName: "OFIS-PC", protocol: 3 });
      expect(await a.next()).toBeUndefined();
      a.hello("hello");
      expect(await a.next()).toEqual({
        type: "release",
        version: "9.9.9",
        window: { from: 2, to: 5 },
        busy: false,
      });

      // The hours, per agent, by its own company only.
      const path = `/api/agents/${a.config.agentId}/update-window`;
      expect((await call(t.app, "PUT", path, { token: other.token, body: { from: 0, to: 0 } })).status).toBe(
        404,
      );
      expect((await call(t.app, "PUT", path, { token: owner.token, body: { from: 24, to: 0 } })).status).toBe(
        400,
      );
      const saved = await call(t.app, "PUT", path, { token: owner.token, body: { from: 22, to: 4 } });
      expect(saved.status).toBe(200);
      expect(saved.body.message).toContain("Güncelleme saatleri kaydedildi");
      expect((await view(owner.token, a.config.agentId)).updateWindow).toEqual({ from: 22, to: 4 });
      a.hello("heartbeat");
      expect(await a.next()).toMatchObject({ window: { from: 22, to: 4 }, busy: false });

      // A run of the company whose ERP goes through this agent: busy (no update now).
      const { connections, jobs, jobRuns } = engineSchema;
      const db = t.ctx.database.db;
      const companyId = owner.account.company.id as number;
      await db.insert(connections).values({
        companyId,
        kind: "erp",
        systemType: 9,
        credentialsSealed: "x",
        agentId: a.config.agentId,
      });
      const [job] = await db
        .insert(jobs)
        .values({
          companyId,
          type: "OrderIntegration",
          name: "Sipariş",
          schedule: { kind: "interval", minutes: 5 },
        })
        .returning();
      await db.insert(jobRuns).values({
        jobId: job!.id,
        companyId,
        jobType: "OrderIntegration",
        jobName: "Sipariş",
        trigger: RUN_TRIGGERS[0],
        status: "Running",
      });
      a.hello("heartbeat");
      expect(await a.next()).toMatchObject({ busy: true });

      // "Güncelleniyor" from the agent's started frame until it greets the server on the new version.
      expect((await view(owner.token, a.config.agentId)).updating).toBe(false);
      a.send({ type: "update", state: "started", version: "9.9.9" });
      await expect.poll(async () => (await view(owner.token, a.config.agentId)).updating).toBe(true);
      a.hello("hello", "9.9.9");
      expect(await a.next()).toMatchObject({ version: "9.9.9" });
      expect(await view(owner.token, a.config.agentId)).toMatchObject({ updating: false, version: "9.9.9" });
      // A failed update stops showing at once.
      a.send({ type: "update", state: "started", version: "9.9.10" });
      await expect.poll(async () => (await view(owner.token, a.config.agentId)).updating).toBe(true);
      a.send({ type: "update", state: "failed", version: "9.9.10", reason: "signature" });
      await expect.poll(async () => (await view(owner.token, a.config.agentId)).updating).toBe(false);
    } finally {
      a.socket.close();
    }
  });

  it("gives the file to an agent's credential only, with version, SHA-256 and signature", async () => {
    const owner = await registerAndLogin(t.app);
    const a = await agentSocket(owner.token);
    a.socket.close();
    const url = `${server}/api/agent/update/linux`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer epa_wrong" } })).status).toBe(401);
    // A panel user's session is not an agent's credential.
    expect((await fetch(url, { headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${a.config.credential}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-agent-version")).toBe("9.9.9");
    expect(res.headers.get("x-agent-sha256")).toBe(sha256);
    expect(res.headers.get("x-agent-signature")).toBe("c2ln");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(file);
    // A revoked agent gets nothing.
    await call(t.app, "DELETE", `/api/agents/${a.config.agentId}`, { token: owner.token });
    expect((await fetch(url, { headers: { authorization: `Bearer ${a.config.credential}` } })).status).toBe(
      401,
    );
  });
});
