/**
 * Issue 39, item 5 (NTLM): the office's proxy wants Windows authentication. The agent (CLI) keeps the
 * proxy's Windows account on its machine (`http-auth add PROXY:PORT --ntlm …`, http-auth.json) and does
 * the NTLM handshake on the CONNECT for the pairing, the WebSocket and any download from the panel.
 * The loopback proxy checks each Type 3 answer with the emulator's NTLMv2 check (written from MS-NLMP,
 * independently of the client library the agent uses).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { get } from "node:http";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentStore, proxyAgentFor } from "@ep/agent";
import { ntlmMessage, type2Message, verifyType3, type WindowsAccount } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { agentCli, bindErpToAgent, useAgentTestApp } from "./agent-harness.ts";
import { connectedCompany, runJob } from "./engine/engine-harness.ts";
import { call, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
const children: ChildProcess[] = [];
useAgentTestApp("2", (app) => ({ t, server } = app), children);

type Seen = { target: string; type: number; header: string };

/**
 * A CONNECT proxy on loopback that wants NTLM, as a Windows domain's proxy does: a CONNECT without a
 * Type 1 gets 407 `Proxy-Authenticate: NTLM` (and the connection closed); Type 1 gets a fresh challenge on
 * the same connection; Type 3 must answer it for `account` (NTLMv2), then the tunnel opens.
 */
async function ntlmProxy(account: WindowsAccount) {
  const seen: Seen[] = [];
  let tunnels = 0;
  const proxy: Server = createServer((client: Socket) => {
    let buffered = Buffer.alloc(0);
    let challenge: Buffer | undefined;
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [requestLine = "", ...lines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
      const rest = buffered.subarray(end + 4);
      buffered = Buffer.alloc(0);
      const target = /^CONNECT (\S+) HTTP\/1\.1$/.exec(requestLine)?.[1] ?? "";
      const header =
        lines
          .find((l) => l.toLowerCase().startsWith("proxy-authorization:"))
          ?.slice(20)
          .trim() ?? "";
      const { type, raw } = ntlmMessage(header);
      seen.push({ target, type, header });
      if (type === 1) {
        const offer = type2Message(account.domain);
        challenge = offer.challenge;
        const body = "NTLM: devam";
        client.write(
          `HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${offer.header}\r\n` +
            `Content-Length: ${body.length}\r\nProxy-Connection: keep-alive\r\n\r\n${body}`,
        );
        return;
      }
      if (type === 3 && challenge && verifyType3(raw, challenge, account)) {
        client.off("data", onData);
        const [host, port] = target.split(":");
        const upstream = connect(Number(port), host, () => {
          tunnels++;
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          if (rest.length > 0) upstream.write(rest);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
        return;
      }
      client.end(
        "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
      );
    };
    client.on("data", onData);
    client.on("error", () => undefined);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const address = proxy.address() as { port: number };
  return {
    proxy,
    seen,
    tunnels: () => tunnels,
    url: `http://127.0.0.1:${address.port}`,
    host: `127.0.0.1:${address.port}`,
  };
}

describe("through the office's proxy with NTLM", () => {
  it("pairs, keeps its WebSocket and downloads through a CONNECT proxy that wants NTLM; a wrong password is refused", async () => {
    const account = { domain: "OFIS", user: "ali", password: "Gizli-Parola-1" };
    const p = await ntlmProxy(account);
    const c = await connectedCompany(t, { seed: 39 });
    const home = mkdtempSync(join(tmpdir(), "ep-agent-ntlm-"));
    const cli = (args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, ["--import", "tsx", agentCli, ...args, "--home", home], {
          env: { ...process.env, HTTPS_PROXY: "" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout?.on("data", (d) => {
          stdout += d;
        });
        child.stderr?.on("data", (d) => {
          stderr += d;
        });
        child.once("exit", (status) => done({ status, stdout, stderr }));
      });
    const pairingCode = async () =>
      (await call(t.app, "POST", "/api/agents/pairing-code", { token: c.token })).body.data.code as string;
    const addAccount = (password: string) =>
      cli([
        "http-auth",
        "add",
        p.host,
        "--ntlm",
        "--domain",
        "OFIS",
        "--user",
        "ali",
        "--password",
        password,
      ]);
    try {
      // No account for the proxy: it is treated as a Basic/no-auth proxy and refuses the CONNECT.
      const none = await cli(["pair", await pairingCode(), "--server", server, "--proxy", p.url]);
      expect(none.status).toBe(2);
      expect(p.tunnels()).toBe(0);

      expect((await addAccount("yanlis")).status).toBe(0);
      const wrong = await cli(["pair", await pairingCode(), "--server", server, "--proxy", p.url]);
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain("Eşleştirme yapılamadı");
      expect(wrong.stderr).toContain("NTLM");
      expect(wrong.stderr).toContain("http-auth list");
      expect(p.tunnels()).toBe(0);

      expect((await addAccount(account.password)).status).toBe(0);
      const paired = await cli(["pair", await pairingCode(), "--server", server, "--proxy", p.url]);
      expect(paired.status, paired.stderr).toBe(0);
      expect(p.tunnels()).toBe(1);
      const agentId = new AgentStore(home).loadConfig()!.agentId;

      const child = spawn(
        process.execPath,
        ["--import", "tsx", agentCli, "run", "--home", home, "--proxy", p.url],
        {
          stdio: "ignore",
          env: { ...process.env, HTTPS_PROXY: "" },
        },
      );
      children.push(child);
      const hub = agentHubOf(t.ctx);
      for (let i = 0; i < 1200 && !hub.isOnline(agentId); i++) await new Promise((r) => setTimeout(r, 50));
      expect(hub.isOnline(agentId)).toBe(true);
      // The WebSocket came through the proxy too, after its own NTLM handshake.
      expect(p.tunnels()).toBe(2);

      // A download from the panel (the update's file, say) takes the same way.
      const download = await new Promise<number>((done, fail) => {
        get(
          `${server}/health`,
          { agent: proxyAgentFor(p.url, new AgentStore(home).loadHttpAuth()) },
          (res) => {
            res.resume();
            done(res.statusCode ?? 0);
          },
        ).on("error", fail);
      });
      expect(download).toBe(200);
      expect(p.tunnels()).toBe(3);

      // Every tunnel was to the panel, each after Type 1 → challenge → Type 3; the password never crossed.
      const target = new URL(server).host;
      expect(p.seen.every((s) => s.target === target)).toBe(true);
      expect(p.seen.filter((s) => s.type === 3).length).toBeGreaterThanOrEqual(4);
      expect(p.seen.some((s) => s.header.startsWith("Basic"))).toBe(false);
      for (const s of p.seen) {
        const raw = Buffer.from(s.header.replace(/^NTLM\s+/i, ""), "base64");
        expect(raw.includes(Buffer.from(account.password, "utf16le"))).toBe(false);
        expect(raw.includes(Buffer.from(account.password, "latin1"))).toBe(false);
      }

      // And the ERP is reached through the agent behind the proxy.
      await bindErpToAgent(t, c.token, agentId);
      c.shop.generateOrders(3);
      const run = await runJob(t, c, "OrderIntegration");
      expect(run.status, JSON.stringify(run)).toBe("Succeeded");
      expect(run.counts.written).toBe(3);
      child.kill("SIGTERM");
    } finally {
      p.proxy.close();
      await c.close();
    }
  }, 180_000);
});
