/**
 * Issue 39: the agent's downloads from the panel, the limits on pairing, and the bound on what one agent
 * may send (a 64 MiB frame was JSON.parse'd whole; twenty of them took the server to 2.6 GB).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentClient, AgentStore, connectUrl, pair } from "@ep/agent";
import { AGENT_MAX_PAYLOAD, AGENT_PART_BYTES } from "@ep/contracts/agent-wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AGENTS_PER_COMPANY, agentHubOf, PAIRING_CODES_PER_HOUR } from "../src/modules/agents/service.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
const downloads = mkdtempSync(join(tmpdir(), "ep-agent-downloads-"));

const pairingCode = async (token: string) => {
  const res = await call(t.app, "POST", "/api/agents/pairing-code", { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.code as string;
};

beforeAll(async () => {
  process.env.AGENT_DOWNLOADS_DIR = downloads;
  t = await startTestApp({ CAPTCHA: "off", CONNECTOR_TIMEOUT_SECONDS: "20" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  delete process.env.AGENT_DOWNLOADS_DIR;
  await t.close();
  rmSync(downloads, { recursive: true, force: true });
});

describe("downloads from the panel", () => {
  it("says in Turkish that the files are not built, then serves each with its version and SHA-256", async () => {
    const { token } = await registerAndLogin(t.app);
    const none = await call(t.app, "GET", "/api/agents/downloads", { token });
    expect(none.status).toBe(200);
    expect(none.body.data).toBeNull();
    expect(none.body.message).toContain("henüz hazırlanmamış");
    expect(none.body.message).toContain("npm run build:agent");
    const missing = await call(t.app, "GET", "/api/agents/download/windows", { token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain("henüz hazırlanmamış");

    const exe = Buffer.from("MZ fake windows build");
    const elf = Buffer.from("\x7fELF fake linux build");
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    writeFileSync(join(downloads, "entegrasyon-agent-windows-x64.exe"), exe);
    writeFileSync(join(downloads, "entegrasyon-agent-linux-x64"), elf);
    const manifest = {
      version: "0.2.0",
      builtAt: "2026-11-28T07:00:00.000Z",
      files: [
        {
          platform: "windows",
          file: "entegrasyon-agent-windows-x64.exe",
          size: exe.length,
          sha256: sha(exe),
        },
        { platform: "linux", file: "entegrasyon-agent-linux-x64", size: elf.length, sha256: sha(elf) },
        // A path out of the folder is never served.
        { platform: "linux", file: "../../etc/passwd", size: 1, sha256: "x" },
      ],
    };
    writeFileSync(join(downloads, "manifest.json"), JSON.stringify(manifest));
    const listed = await call(t.app, "GET", "/api/agents/downloads", { token });
    expect(listed.body.data).toMatchObject({
      version: "0.2.0",
      files: [
        {
          platform: "windows",
          fileName: "entegrasyon-agent-windows-x64.exe",
          size: exe.length,
          sha256: sha(exe),
        },
        { platform: "linux", fileName: "entegrasyon-agent-linux-x64", size: elf.length, sha256: sha(elf) },
      ],
    });
    // An agent running another version is shown the one offered here.
    const config = await pair(server, await pairingCode(token), "ESKI-SURUM-PC");
    const home = mkdtempSync(join(tmpdir(), "ep-agent-version-"));
    const client = new AgentClient(config, new AgentStore(home), { machineName: "ESKI-SURUM-PC" });
    const finished = client.run();
    try {
      await client.waitFor("online");
      let agentsNow = await call(t.app, "GET", "/api/agents", { token });
      for (let i = 0; i < 50 && agentsNow.body.data[0].version === ""; i++) {
        await new Promise((r) => setTimeout(r, 50));
        agentsNow = await call(t.app, "GET", "/api/agents", { token });
      }
      expect(agentsNow.body.data[0]).toMatchObject({ version: "0.1.0", newerVersion: "0.2.0" });
      // An agent ahead of the server's file (0.1.0 against 0.0.9), or on it, is not offered "Yeni sürüm".
      for (const version of ["0.0.9", "0.1.0"]) {
        writeFileSync(join(downloads, "manifest.json"), JSON.stringify({ ...manifest, version }));
        const listed = await call(t.app, "GET", "/api/agents", { token });
        expect(listed.body.data[0]).toMatchObject({ version: "0.1.0", newerVersion: null });
      }
      writeFileSync(join(downloads, "manifest.json"), JSON.stringify(manifest));
    } finally {
      client.stop();
      await finished;
    }
    const got = await t.app.inject({
      method: "GET",
      url: "/api/agents/download/windows",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload).toEqual(exe);
    expect(got.headers["content-disposition"]).toBe(
      'attachment; filename="entegrasyon-agent-windows-x64.exe"',
    );
    expect(got.headers["x-agent-version"]).toBe("0.2.0");
    expect(got.headers["x-agent-sha256"]).toBe(sha(exe));

    // Signed-in users only; an unknown platform is refused.
    expect((await call(t.app, "GET", "/api/agents/download/linux")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/agents/downloads")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/agents/download/macos", { token })).status).toBe(400);
    // A file cut short (still copying) is not offered.
    writeFileSync(join(downloads, "entegrasyon-agent-linux-x64"), elf.subarray(0, 3));
    const partial = await call(t.app, "GET", "/api/agents/downloads", { token });
    expect(partial.body.data.files.map((f: { platform: string }) => f.platform)).toEqual(["windows"]);
  });
});

describe("pairing limits", () => {
  it("spends one code once however many requests race for it", async () => {
    const { token } = await registerAndLogin(t.app);
    const code = await pairingCode(token);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(t.app, "POST", "/api/agents/pair", { body: { code, machineName: `YARIS-${i}` } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(11);
    const list = await call(t.app, "GET", "/api/agents", { token });
    expect(list.body.data).toHaveLength(1);
  });

  it(`issues at most ${PAIRING_CODES_PER_HOUR} codes an hour and pairs at most ${AGENTS_PER_COMPANY} agents per company`, async () => {
    const { token } = await registerAndLogin(t.app);
    const other = await registerAndLogin(t.app);
    const codes: string[] = [];
    for (let i = 0; i < PAIRING_CODES_PER_HOUR; i++) codes.push(await pairingCode(token));
    const refused = await call(t.app, "POST", "/api/agents/pairing-code", { token });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toContain("çok fazla eşleştirme kodu");
    // Another company's quota is its own.
    await pairingCode(other.token);

    // Racing pairings with different codes cannot pass the limit together.
    const paired = await Promise.all(
      codes
        .slice(0, AGENTS_PER_COMPANY + 3)
        .map((code, i) =>
          call(t.app, "POST", "/api/agents/pair", { body: { code, machineName: `PC-${i}` } }),
        ),
    );
    expect(paired.filter((a) => a.status === 200)).toHaveLength(AGENTS_PER_COMPANY);
    const over = paired.filter((a) => a.status === 409);
    expect(over).toHaveLength(3);
    expect(over[0]!.body.message).toContain("en fazla 10 yerel bağlantı aracı");
    // A refused pairing keeps its code: after a revocation the same code pairs.
    const list = await call(t.app, "GET", "/api/agents", { token });
    expect(list.body.data).toHaveLength(AGENTS_PER_COMPANY);
    const revoked = await call(t.app, "DELETE", `/api/agents/${list.body.data[0].id}`, { token });
    expect(revoked.status).toBe(200);
    const retryIndex = paired.findIndex((a) => a.status === 409);
    const again = await call(t.app, "POST", "/api/agents/pair", {
      body: { code: codes[retryIndex], machineName: "YENI" },
    });
    expect(again.status).toBe(200);
  });
});

describe("bounded frames from an agent", () => {
  it("closes a socket that sends a message above the bound, and /health keeps answering", async () => {
    const { token } = await registerAndLogin(t.app);
    const config = await pair(server, await pairingCode(token), "BUYUK-PC");
    const rssBefore = process.memoryUsage().rss;
    const big = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const closes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = new WebSocket(connectUrl(server), {
        headers: { authorization: `Bearer ${config.credential}` },
      });
      await new Promise((r) => socket.once("open", r));
      socket.send(JSON.stringify({ type: "hello", version: "9.9.9", machineName: "BUYUK-PC", protocol: 3 }));
      socket.send(big);
      closes.push(await new Promise<number>((r) => socket.once("close", (code) => r(code))));
    }
    expect(closes).toEqual([1009, 1009, 1009]);
    // The server read none of those messages whole (the test's own 64 MiB buffer is most of this).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * 1024 * 1024);
    const health = await fetch(new URL("/health", server));
    expect(health.status).toBe(200);
  });

  it("carries a 10 MiB answer in parts, and refuses a parted message above 48 MiB", async () => {
    const { token } = await registerAndLogin(t.app);
    const body = Buffer.alloc(10 * 1024 * 1024);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31) & 0xff;
    const erp = createServer((_req, res) => res.end(body));
    await new Promise<void>((r) => erp.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(erp.address() as AddressInfo).port}/big`;
    const home = mkdtempSync(join(tmpdir(), "ep-agent-parts-"));
    const store = new AgentStore(home);
    const config = await pair(server, await pairingCode(token), "PARCA-PC");
    store.saveConfig(config);
    expect(body.length).toBeGreaterThan(AGENT_MAX_PAYLOAD);
    for (const protocol of [3, 1]) {
      // Protocol 1 (JSON text only) sends its parts as text, base64.
      const client = new AgentClient(config, store, { machineName: "PARCA-PC", protocol });
      const finished = client.run();
      try {
        await client.waitFor("online");
        for (let i = 0; i < 100 && !agentHubOf(t.ctx).isOnline(config.agentId); i++)
          await new Promise((r) => setTimeout(r, 20));
        // The welcome comes right after the hello; give it a moment to land.
        await new Promise((r) => setTimeout(r, 100));
        const res = await agentHubOf(t.ctx).fetchFor(config.agentId)(url);
        expect(Buffer.from(await res.arrayBuffer()).equals(body), `protocol ${protocol}`).toBe(true);
      } finally {
        client.stop();
        await finished;
      }
    }
    erp.close();

    // A hand-made agent sending parts past the per-message bound is cut off.
    const socket = new WebSocket(connectUrl(server), {
      headers: { authorization: `Bearer ${config.credential}` },
    });
    await new Promise((r) => socket.once("open", r));
    socket.send(
      JSON.stringify({ type: "hello", version: "9.9.9", machineName: "PARCA-PC", protocol: 3, parts: true }),
    );
    const slice = Buffer.alloc(AGENT_PART_BYTES);
    const closed = new Promise<number>((r) => socket.once("close", (code) => r(code)));
    for (let seq = 0; seq < 60 && socket.readyState === WebSocket.OPEN; seq++) {
      const h = Buffer.from(JSON.stringify({ type: "part", id: "p1", seq, last: false, text: true }));
      const frame = Buffer.alloc(4 + h.length + slice.length);
      frame.writeUInt32BE(h.length, 0);
      h.copy(frame, 4);
      slice.copy(frame, 4 + h.length);
      socket.send(frame);
      await new Promise((r) => setImmediate(r));
    }
    expect(await closed).toBe(1009);
  });
});
