import { describe, expect, it } from "vitest";
import { createErpConnector, createShopConnector, getDescriptor, listConnectors } from "../registry";
import { generateCatalog, generateCustomers } from "../testing/catalog";
import { caught } from "../testing/contract";
import { isValidEan13, isValidTckn } from "../testing/prng";
import { ConnectorError, parseRetryAfter } from "./errors";
import { HttpClient, TRANSPORT_LOST, TRANSPORT_OFFLINE } from "./http";
import { CallCounter, type HttpLogEntry, maskText } from "./logging";
import { InMemoryRateLimitStore, RateLimiter } from "./rate-limit";
import { chunkGroups } from "./util";

type FetchStep =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { error: { code: string } };

function fakeFetch(steps: FetchStep[]) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fn = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)];
    if (!step) throw new Error("no step");
    if ("error" in step) {
      const err = new TypeError("fetch failed");
      (err as { cause?: unknown }).cause = Object.assign(new Error(step.error.code), {
        code: step.error.code,
      });
      throw err;
    }
    return new Response(step.body ?? "{}", { status: step.status, headers: step.headers });
  }) as typeof fetch;
  return { fn, calls };
}

function client(steps: FetchStep[], extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  const f = fakeFetch(steps);
  const sleeps: number[] = [];
  const logs: HttpLogEntry[] = [];
  const counter = new CallCounter();
  const http = new HttpClient({
    system: "test",
    baseUrl: "http://example.test/api",
    fetch: f.fn,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    logger: (e) => logs.push(e),
    counter,
    retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 10_000 },
    ...extra,
  });
  return { http, calls: f.calls, sleeps, logs, counter };
}

describe("rate limiter", () => {
  it("allows at most `limit` units in any sliding window and says how long to wait", async () => {
    const s = new InMemoryRateLimitStore();
    for (let i = 0; i < 3; i++)
      expect((await s.take({ key: "k", cost: 1, limit: 3, windowMs: 1000, now: i })).allowed).toBe(true);
    const d = await s.take({ key: "k", cost: 1, limit: 3, windowMs: 1000, now: 500 });
    expect(d.allowed).toBe(false);
    expect(d.retryAfterMs).toBe(501);
    expect((await s.take({ key: "k", cost: 1, limit: 3, windowMs: 1000, now: 1001 })).allowed).toBe(true);
    expect((await s.take({ key: "other", cost: 1, limit: 3, windowMs: 1000, now: 500 })).allowed).toBe(true);
  });

  it("waits in acquire() and honours a pause shared through the store", async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new RateLimiter({
      store: new InMemoryRateLimitStore(),
      key: "c1:ikas",
      budget: { requests: 2, windowMs: 1000, safetyMarginMs: 0 },
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    await limiter.acquire();
    await limiter.acquire();
    await limiter.acquire();
    expect(waits).toEqual([1001]);
    await limiter.pause(5000);
    await limiter.acquire();
    expect(waits[1]).toBe(5000);
  });
});

describe("HttpClient", () => {
  it("holds a place until the answer for a system's own limit, and from the send only for a pace of our own", async () => {
    const sentAt = async (ownPace: boolean) => {
      let now = 0;
      const rateLimiter = new RateLimiter({
        store: new InMemoryRateLimitStore(),
        key: "c1:erp",
        budget: { requests: 2, windowMs: 1000, safetyMarginMs: 0, ownPace },
        now: () => now,
        sleep: async (ms) => {
          now += ms;
        },
      });
      const sent: number[] = [];
      // Every answer takes 400 ms.
      const fetch = (async () => {
        sent.push(now);
        now += 400;
        return new Response("{}");
      }) as typeof globalThis.fetch;
      const http = new HttpClient({ system: "test", baseUrl: "http://example.test/api", fetch, rateLimiter });
      for (let i = 0; i < 3; i++) await http.request({ url: "x", operation: "op", kind: "read" });
      return sent;
    };
    // The third request waits for the first's place: a window after its answer (400 ms) when held.
    expect(await sentAt(false)).toEqual([0, 400, 1401]);
    expect(await sentAt(true)).toEqual([0, 400, 1001]);
  });

  it("retries a 503 honouring Retry-After, then succeeds", async () => {
    const c = client([
      { status: 503, headers: { "retry-after": "2" } },
      { status: 200, body: '{"ok":true}' },
    ]);
    const res = await c.http.request({ url: "x", operation: "op", kind: "read" });
    expect(res.json).toEqual({ ok: true });
    expect(c.calls).toHaveLength(2);
    expect(c.sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(c.counter.get("test")).toEqual({ read: 2, write: 0, failed: 1, retried: 1 });
  });

  it("backs off exponentially and gives up after the bounded retries", async () => {
    const c = client([{ status: 500 }]);
    const e = await caught(c.http.request({ url: "x", operation: "op", kind: "read" }));
    expect(e.kind).toBe("transient");
    expect(e.reason).toBe("server_error");
    expect(c.calls).toHaveLength(4);
    expect(c.sleeps).toEqual([75, 150, 300]);
  });

  it("never re-sends a write whose outcome is unknown", async () => {
    const c = client([{ status: 502 }]);
    const e = await caught(
      c.http.request({ url: "x", operation: "create", kind: "write", body: { json: { a: 1 } } }),
    );
    expect(e.maybeApplied).toBe(true);
    expect(c.calls).toHaveLength(1);
    const r = client([{ error: { code: "ECONNRESET" } }]);
    const e2 = await caught(r.http.request({ url: "x", operation: "create", kind: "write" }));
    expect(e2.reason).toBe("network");
    expect(e2.maybeApplied).toBe(true);
    expect(r.calls).toHaveLength(1);
  });

  it("re-sends a write the system refused (429, connection refused) and idempotent writes", async () => {
    const a = client([{ status: 429, headers: { "retry-after": "1" } }, { status: 200 }]);
    await a.http.request({ url: "x", operation: "create", kind: "write" });
    expect(a.calls).toHaveLength(2);
    const b = client([{ error: { code: "ECONNREFUSED" } }, { status: 200 }]);
    await b.http.request({ url: "x", operation: "create", kind: "write" });
    expect(b.calls).toHaveLength(2);
    const c = client([{ status: 504 }, { status: 200 }]);
    await c.http.request({ url: "x", operation: "setStock", kind: "write", idempotent: true });
    expect(c.calls).toHaveLength(2);
  });

  it("does not retry permanent failures and keeps the system's message", async () => {
    const c = client([{ status: 400, body: '{"error":"bad sku"}' }]);
    const e = await caught(c.http.request({ url: "x", operation: "op", kind: "read" }));
    expect(e.kind).toBe("permanent");
    expect(e.reason).toBe("validation");
    expect(e.systemMessage).toContain("bad sku");
    expect(c.calls).toHaveLength(1);
  });

  it("re-sends once after an auth failure when the token was refreshed", async () => {
    let token = "old";
    const c = client([{ status: 401 }, { status: 200 }]);
    await c.http.request({
      url: "x",
      operation: "op",
      kind: "write",
      headers: () => ({ authorization: `Bearer ${token}` }),
      onAuthFailure: async () => {
        token = "new";
        return true;
      },
    });
    expect(c.calls).toHaveLength(2);
    expect(((c.calls[1]?.init.headers ?? {}) as Record<string, string>).authorization).toBe("Bearer new");
  });

  it("gives up at once when Retry-After is longer than it may wait", async () => {
    const c = client([{ status: 429, headers: { "retry-after": "3600" } }]);
    const e = await caught(c.http.request({ url: "x", operation: "op", kind: "read" }));
    expect(e.reason).toBe("rate_limited");
    expect(e.retryAfterMs).toBe(3_600_000);
    expect(c.calls).toHaveLength(1);
  });

  it("times out with AbortSignal and classifies it transient", async () => {
    const hang = (async (_u: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      })) as typeof fetch;
    const http = new HttpClient({ system: "t", fetch: hang, timeoutMs: 20, retry: { maxRetries: 0 } });
    const e = await caught(http.request({ url: "http://x.test/a", operation: "op", kind: "read" }));
    expect(e.reason).toBe("timeout");
    expect(e.kind).toBe("transient");
  });

  it("reports a relaying transport's offline and lost peers as unavailable, a lost write as maybe applied", async () => {
    const failing = (code: string) =>
      (async () => {
        throw Object.assign(new Error("agent"), { code });
      }) as typeof fetch;
    const offline = new HttpClient({
      system: "t",
      fetch: failing(TRANSPORT_OFFLINE),
      retry: { maxRetries: 0 },
    });
    const notSent = await caught(
      offline.request({ method: "POST", url: "http://x.test/a", operation: "op", kind: "write" }),
    );
    expect(notSent).toMatchObject({ kind: "transient", reason: "unavailable", maybeApplied: false });
    const lost = new HttpClient({ system: "t", fetch: failing(TRANSPORT_LOST), retry: { maxRetries: 0 } });
    const unknown = await caught(
      lost.request({ method: "POST", url: "http://x.test/a", operation: "op", kind: "write" }),
    );
    expect(unknown).toMatchObject({ kind: "transient", reason: "unavailable", maybeApplied: true });
  });

  it("uses body-level classification (errors inside HTTP 200)", async () => {
    const c = client([
      { status: 200, body: '{"errors":[{"message":"locked"}]}' },
      { status: 200, body: "{}" },
    ]);
    await c.http.request({
      url: "x",
      operation: "op",
      kind: "read",
      classify: (r) =>
        (r.json as { errors?: unknown[] }).errors
          ? new ConnectorError("locked", { reason: "lock" })
          : undefined,
    });
    expect(c.calls).toHaveLength(2);
  });

  it("masks secrets in logged bodies and URLs and never logs headers", async () => {
    const c = client([{ status: 200, body: '{"access_token":"tok-abcdef123","name":"x"}' }], {
      secrets: ["s3cr3t-value"],
    });
    await c.http.request({
      url: "http://example.test/token?key=s3cr3t-value",
      operation: "token",
      kind: "read",
      body: { form: { client_id: "id", client_secret: "s3cr3t-value", grant_type: "client_credentials" } },
      headers: () => ({ authorization: "Bearer hidden-token" }),
    });
    const text = JSON.stringify(c.logs);
    expect(text).not.toContain("s3cr3t-value");
    expect(text).not.toContain("tok-abcdef123");
    expect(text).not.toContain("hidden-token");
    expect(c.logs[0]?.requestBody).toContain("client_id=id");
  });

  it("parses Retry-After and masks JSON secrets by key", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(maskText('{"Mikro":{"Sifre":"abc","ApiKey":"k","FirmaKodu":"01"}}', [])).toBe(
      '{"Mikro":{"Sifre":"***","ApiKey":"***","FirmaKodu":"01"}}',
    );
  });
});

describe("registry", () => {
  it("lists every ERP (24) and shop (7) type of the spec with its number", () => {
    const erp = listConnectors("erp");
    const shop = listConnectors("shop");
    // The spec's ERP list runs 1..24 without a 3: 23 entries.
    expect(erp).toHaveLength(23);
    expect(shop.map((d) => [d.type, d.name])).toEqual([
      [1, "IKAS"],
      [2, "Ideasoft"],
      [3, "Sentos"],
      [4, "Tsoft"],
      [5, "Shopify"],
      [6, "Sopyo"],
      [7, "JetStok"],
    ]);
    expect(erp.map((d) => d.type).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 24 }, (_, i) => i + 1).filter((n) => n !== 3),
    );
    expect(erp.find((d) => d.type === 17)?.name).toBe("Microsoft Dynamics AX Rest API");
    expect(
      listConnectors()
        .filter((d) => d.implemented)
        .map((d) => `${d.kind}:${d.type}`)
        .sort(),
    ).toEqual([
      "erp:1",
      "erp:10",
      "erp:11",
      "erp:12",
      "erp:13",
      "erp:14",
      "erp:15",
      "erp:16",
      "erp:17",
      "erp:18",
      "erp:19",
      "erp:2",
      "erp:20",
      "erp:21",
      "erp:22",
      "erp:23",
      "erp:24",
      "erp:4",
      "erp:5",
      "erp:6",
      "erp:7",
      "erp:8",
      "erp:9",
      "shop:1",
      "shop:2",
      "shop:3",
      "shop:4",
      "shop:5",
      "shop:6",
      "shop:7",
    ]);
    expect(getDescriptor("erp", 9)?.onPremOnly).toBe(true);
    expect(getDescriptor("erp", 9)?.credentials.find((f) => f.name === "password")?.secret).toBe(true);
    expect(getDescriptor("shop", 1)?.credentials.find((f) => f.name === "clientSecret")?.label).toBe(
      "Client Secret",
    );
  });

  // Every listed system has a connector now (JetStok, the last one, through its files): the refusal is
  // met by a type outside the spec's lists.
  it("builds implemented connectors and refuses a type without one as unsupported", () => {
    const ctx = { companyId: "c", rateLimitStore: new InMemoryRateLimitStore() };
    expect(
      createShopConnector(1, { storeName: "s", clientId: "i", clientSecret: "x" }, ctx).descriptor.type,
    ).toBe(1);
    expect(createShopConnector(7, {}, ctx).descriptor).toMatchObject({ name: "JetStok", fileShop: true });
    const e = (() => {
      try {
        createShopConnector(99, {}, ctx);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ConnectorError);
    expect((e as ConnectorError).reason).toBe("unsupported");
    expect(() => createErpConnector(9, { apiUrl: "http://x" }, ctx)).toThrow(/missing connection settings/);
  });
});

describe("seeded Turkish data", () => {
  it("is deterministic, exact in size, with valid EAN-13 barcodes and T.C. numbers", () => {
    const a = generateCatalog({ seed: 11, count: 500 });
    const b = generateCatalog({ seed: 11, count: 500 });
    expect(a).toHaveLength(500);
    expect(a).toEqual(b);
    expect(new Set(a.map((i) => i.sku)).size).toBe(500);
    expect(new Set(a.map((i) => i.barcode)).size).toBe(500);
    expect(a.every((i) => isValidEan13(i.barcode))).toBe(true);
    expect(a.every((i) => [0, 1, 10, 20].includes(i.vatRate))).toBe(true);
    const customers = generateCustomers(11, 50);
    expect(customers.every((c) => isValidTckn(c.tckn))).toBe(true);
    expect(customers.every((c) => /^05\d{9}$/.test(c.phone))).toBe(true);
  });
});

describe("chunkGroups", () => {
  const key = (s: string) => s[0]!;
  it("keeps a group in one chunk, starting a new chunk rather than splitting it", () => {
    expect(chunkGroups(["a1", "a2", "b1", "b2", "b3", "c1"], 4, key)).toEqual([
      ["a1", "a2"],
      ["b1", "b2", "b3", "c1"],
    ]);
  });
  it("splits only a group larger than a chunk", () => {
    expect(chunkGroups(["a1", "b1", "b2", "b3", "b4", "b5"], 2, key)).toEqual([
      ["a1"],
      ["b1", "b2"],
      ["b3", "b4"],
      ["b5"],
    ]);
    expect(chunkGroups([], 3, key)).toEqual([]);
  });
});
