import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type MikroEmulator, OutboundGuard, startMikroEmulator } from "@ep/connectors";
import { message } from "@ep/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { sandboxOutboundAllow } from "../src/modules/sandbox/hub.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

/**
 * The connection test must not be a way to reach the server's own network (SSRF). Every address
 * used here is loopback or one the guard refuses before a packet leaves; a loopback listener
 * counts the connections that would betray a call.
 */
let erp: MikroEmulator;
let listener: Server;
let listenerPort: number;
let listenerConnections = 0;

beforeAll(async () => {
  erp = await startMikroEmulator({ host: "127.0.0.1", seed: 5, productCount: 5 });
  listener = createServer((_req, res) => res.end("{}"));
  listener.on("connection", () => {
    listenerConnections++;
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerPort = (listener.address() as AddressInfo).port;
});
afterAll(async () => {
  await erp?.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

const unreachable = message("connectionSettings.testUnreachable", { system: "Mikro" });

describe("connection test without OUTBOUND_ALLOW (the default)", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_ALLOW: "" });
    token = (await registerAndLogin(t.app)).token;
  });
  afterAll(() => t.close());

  const probe = (apiUrl: string) =>
    call(t.app, "POST", "/api/APIConnection/erp/9", {
      token,
      body: { fields: { ...erp.credentials, apiUrl } },
    });

  it("refuses loopback, link-local, private, CGNAT and multicast addresses with one message and no call", async () => {
    const before = erp.counters.requests;
    listenerConnections = 0;
    const targets = [
      erp.credentials.apiUrl,
      `http://127.0.0.1:${listenerPort}`,
      "http://127.0.0.1:9",
      `http://localhost:${erp.port}`,
      `http://[::1]:${erp.port}`,
      `http://[::ffff:127.0.0.1]:${erp.port}`,
      `http://0.0.0.0:${erp.port}`,
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]:8080",
      "http://10.0.0.1:8080",
      "http://172.16.5.4",
      "http://192.168.1.1:3000",
      "http://100.64.0.1",
      "http://[fd00::1]:443",
      "http://224.0.0.1",
    ];
    const answers = [];
    for (const url of targets) {
      const res = await probe(url);
      expect(res.status).toBe(200);
      answers.push(res.body.data.message);
      expect(res.body.data.ok).toBe(false);
    }
    // The same words for an open port, a closed one and an address that was never tried.
    expect(new Set(answers)).toEqual(new Set([unreachable]));
    expect(erp.counters.requests).toBe(before);
    expect(listenerConnections).toBe(0);
  });

  it("tells the log why, without the address", async () => {
    await probe("http://169.254.169.254");
    const line = t.logs.findLast((l) => l.includes("connection tested"));
    expect(line).toContain('"reason":"address_refused"');
    expect(line).not.toContain("169.254");
  });
});

describe("connection test with OUTBOUND_ALLOW", () => {
  it("reaches exactly the allowed address and port", async () => {
    const t = await startTestApp({ OUTBOUND_ALLOW: `127.0.0.1:${erp.port}` });
    try {
      const { token } = await registerAndLogin(t.app);
      const test = (apiUrl: string) =>
        call(t.app, "POST", "/api/APIConnection/erp/9", {
          token,
          body: { fields: { ...erp.credentials, apiUrl } },
        });
      const allowed = await test(erp.credentials.apiUrl);
      expect(allowed.body.data.ok).toBe(true);
      listenerConnections = 0;
      const other = await test(`http://127.0.0.1:${listenerPort}`);
      expect(other.body.data.message).toBe(unreachable);
      expect(listenerConnections).toBe(0);
    } finally {
      await t.close();
    }
  }, 90_000);

  it("names a bad entry at start", () => {
    expect(() => loadConfig({ OUTBOUND_ALLOW: "localhost" })).toThrow(/OUTBOUND_ALLOW/);
    expect(loadConfig({ OUTBOUND_ALLOW: "127.0.0.1, 10.0.0.0/8" }).outboundAllow).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
    ]);
    expect(loadConfig({}).outboundAllow).toEqual([]);
  });
});

describe("the built-in sandboxes", () => {
  it("are reached with no OUTBOUND_ALLOW, at exactly their address, and nothing else on loopback", async () => {
    // The sandboxes (the demo's systems too) are served by this server at config.sandboxUrl.
    const guardFor = (url: string) => new OutboundGuard({ allow: sandboxOutboundAllow(url) });
    const own = guardFor(loadConfig({ PORT: "3456" }).sandboxUrl);
    try {
      expect(own.isAllowed("127.0.0.1", 3456)).toBe(true);
      expect(own.isAllowed("127.0.0.1", 3457)).toBe(false);
      expect(own.isAllowed("10.0.0.5", 3456)).toBe(false);
    } finally {
      await own.close();
    }
    const local = guardFor("http://localhost:4000/sandbox");
    try {
      expect(local.isAllowed("::1", 4000)).toBe(true);
      expect(local.isAllowed("127.0.0.1", 4000)).toBe(true);
      expect(local.isAllowed("127.0.0.1", 5432)).toBe(false);
    } finally {
      await local.close();
    }
    // A public PUBLIC_URL needs no exception: the guard lets public addresses through anyway.
    expect(sandboxOutboundAllow("https://panel.example.com/sandbox")).toEqual([]);
    // An ephemeral port (PORT=0) names no address yet: no rule, and no start-up failure.
    expect(sandboxOutboundAllow("http://localhost:0/sandbox")).toEqual([]);
  });
});
