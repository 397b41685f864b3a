import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectorError } from "./errors";
import { HttpClient, OUTBOUND_REFUSED, OutboundGuard, parseOutboundAllow } from "./http";

/**
 * Every connection these tests open goes to 127.0.0.1; the refused addresses are refused before any
 * packet is sent, which the loopback server's connection count proves.
 */
let server: Server;
let port: number;
let connections = 0;
let requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/", connection: "close" });
      res.end();
      return;
    }
    // A new connection for every request, so each one goes through the guard again.
    res.writeHead(200, { "content-type": "application/json", connection: "close" });
    res.end('{"ok":true}');
  });
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function reset() {
  connections = 0;
  requests = [];
}

/** The code of a failed fetch's cause chain. */
async function failureCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    let cur: unknown = error;
    for (let i = 0; i < 4 && cur; i++) {
      const code = (cur as { code?: unknown }).code;
      if (typeof code === "string") return code;
      cur = (cur as { cause?: unknown }).cause;
    }
    return "no code";
  }
}

describe("OutboundGuard.isAllowed", () => {
  const guard = new OutboundGuard();
  afterAll(() => guard.close());

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.10.0.1", "loopback"],
    ["0.0.0.0", "unspecified (reaches the host itself)"],
    ["10.1.2.3", "private 10/8"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.254", "private 172.16/12"],
    ["192.168.1.1", "private 192.168/16"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "CGNAT 100.64/10"],
    ["100.127.255.254", "CGNAT 100.64/10"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["fc00::1", "IPv6 unique local"],
    ["fd12:3456::1", "IPv6 unique local"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ])("refuses %s (%s)", (address) => {
    expect(guard.isAllowed(address, 443)).toBe(false);
  });

  it.each([["8.8.8.8"], ["172.32.0.1"], ["100.128.0.1"], ["2606:4700:4700::1111"]])(
    "allows the public address %s",
    (address) => {
      expect(guard.isAllowed(address, 443)).toBe(true);
    },
  );

  it("allows configured addresses, networks and ports only", () => {
    const allowed = new OutboundGuard({ allow: ["127.0.0.1:4010", "10.0.0.0/8", "[::1]:80"] });
    try {
      expect(allowed.isAllowed("127.0.0.1", 4010)).toBe(true);
      expect(allowed.isAllowed("127.0.0.1", 4011)).toBe(false);
      expect(allowed.isAllowed("::ffff:127.0.0.1", 4010)).toBe(true);
      expect(allowed.isAllowed("10.200.1.1", 22)).toBe(true);
      expect(allowed.isAllowed("192.168.1.1", 80)).toBe(false);
      expect(allowed.isAllowed("::1", 80)).toBe(true);
      expect(allowed.isAllowed("169.254.169.254", 80)).toBe(false);
    } finally {
      void allowed.close();
    }
  });

  it("rejects allow entries that are not addresses", () => {
    for (const bad of ["localhost", "10.0.0.0/8:x", "http://127.0.0.1", "*", "127.0.0.1:99999"]) {
      expect(() => parseOutboundAllow(bad), bad).toThrow();
    }
    expect(parseOutboundAllow("fd00::/8").net[1]).toBe(8);
  });
});

describe("OutboundGuard.fetch", () => {
  it("refuses loopback by default before any packet is sent", async () => {
    reset();
    const guard = new OutboundGuard();
    try {
      expect(await failureCode(guard.fetch(`http://127.0.0.1:${port}/x`))).toBe(OUTBOUND_REFUSED);
      expect(await failureCode(guard.fetch(`http://[::ffff:127.0.0.1]:${port}/x`))).toBe(OUTBOUND_REFUSED);
      expect(connections).toBe(0);
    } finally {
      await guard.close();
    }
  });

  it("refuses a host name that resolves to a non-public address, whatever the port", async () => {
    reset();
    const guard = new OutboundGuard({ resolve: async () => ["127.0.0.1"] });
    try {
      // (fetch itself blocks a few ports such as 22; these are ones it would call)
      for (const p of [port, 80, 8080, 9200]) {
        expect(await failureCode(guard.fetch(`http://erp.example.com:${p}/`))).toBe(OUTBOUND_REFUSED);
      }
      expect(connections).toBe(0);
    } finally {
      await guard.close();
    }
  });

  it("reaches an allowed address and port, and nothing else", async () => {
    reset();
    const guard = new OutboundGuard({ allow: [`127.0.0.1:${port}`] });
    try {
      const res = await guard.fetch(`http://127.0.0.1:${port}/hello`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(await failureCode(guard.fetch(`http://127.0.0.1:${port + 1}/`))).toBe(OUTBOUND_REFUSED);
      expect(requests).toEqual(["/hello"]);
    } finally {
      await guard.close();
    }
  });

  it("checks every connection at connect time: a name that re-resolves to a refused address is refused", async () => {
    reset();
    let answer = "127.0.0.1";
    const guard = new OutboundGuard({ allow: [`127.0.0.1:${port}`], resolve: async () => [answer] });
    try {
      expect((await guard.fetch(`http://shop.example.com:${port}/first`)).status).toBe(200);
      answer = "169.254.169.254";
      expect(await failureCode(guard.fetch(`http://shop.example.com:${port}/second`))).toBe(OUTBOUND_REFUSED);
      expect(requests).toEqual(["/first"]);
    } finally {
      await guard.close();
    }
  });

  it("connects only to the allowed one of several resolved addresses", async () => {
    reset();
    const guard = new OutboundGuard({
      allow: [`127.0.0.1:${port}`],
      resolve: async () => ["169.254.169.254", "10.0.0.5", "127.0.0.1"],
    });
    try {
      expect((await guard.fetch(`http://mixed.example.com:${port}/mixed`)).status).toBe(200);
      expect(requests).toEqual(["/mixed"]);
    } finally {
      await guard.close();
    }
  });

  it("refuses a redirect to a refused address", async () => {
    reset();
    const guard = new OutboundGuard({ allow: [`127.0.0.1:${port}`] });
    try {
      expect(await failureCode(guard.fetch(`http://127.0.0.1:${port}/redirect`))).toBe(OUTBOUND_REFUSED);
      expect(requests).toEqual(["/redirect"]);
    } finally {
      await guard.close();
    }
  });
});

describe("HttpClient behind the guard", () => {
  it("fails a refused address once, as a settings problem, without retrying", async () => {
    reset();
    const guard = new OutboundGuard();
    let resolutions = 0;
    const counting = new OutboundGuard({
      resolve: async () => {
        resolutions++;
        return ["10.0.0.1"];
      },
    });
    try {
      const http = new HttpClient({
        system: "t",
        baseUrl: "http://erp.example.com",
        fetch: counting.fetch,
        retry: { maxRetries: 3, baseDelayMs: 1 },
      });
      const error = await http
        .request({ method: "GET", url: "/x", operation: "read", kind: "read" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).reason).toBe("config");
      expect((error as ConnectorError).kind).toBe("permanent");
      expect((error as ConnectorError).systemCode).toBe(OUTBOUND_REFUSED);
      expect((error as ConnectorError).maybeApplied).toBe(false);
      expect(resolutions).toBe(1);
      expect(connections).toBe(0);
    } finally {
      await guard.close();
      await counting.close();
    }
  });
});
