import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ConnectorError } from "./errors";
import {
  HttpClient,
  type HttpClientOptions,
  OUTBOUND_REFUSED,
  OutboundGuard,
  OutboundRefusedError,
  parseOutboundAllow,
  TRANSPORT_LOST,
  TRANSPORT_OFFLINE,
  type TransportFetch,
} from "./http";
import { CallCounter, type HttpLogEntry } from "./logging";
import type { RateLimiter } from "./rate-limit";

/**
 * The HTTP client's decisions, one by one (issue 41): when a write "may already have been applied",
 * what is retried and what is not (an offline agent, a long Retry-After), a 429 pausing the shared
 * limiter, what is sent and what is logged.
 */

/** The ConnectorError a request fails with (imported from nowhere heavier than the SDK). */
async function caught(p: Promise<unknown>): Promise<ConnectorError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (e instanceof ConnectorError) return e;
  throw e ?? new Error("expected a ConnectorError");
}

type Step =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { error: unknown }
  | { hang: true };

const codeError = (code: string, depth = 1): Error => {
  let e: Error = Object.assign(new Error(`low ${code}`), { code });
  for (let i = 1; i < depth; i++) e = new Error(`wrap ${i}`, { cause: e });
  return new TypeError("fetch failed", { cause: e });
};

function setup(steps: Step[], options: Partial<HttpClientOptions> = {}) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
    if ("error" in step) throw step.error;
    if ("hang" in step)
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    return new Response(step.status === 204 ? null : (step.body ?? ""), {
      status: step.status,
      headers: step.headers,
    });
  }) as TransportFetch;
  const sleeps: number[] = [];
  const logs: HttpLogEntry[] = [];
  const counter = new CallCounter();
  const limiter = { acquired: [] as unknown[][], released: [] as unknown[], paused: [] as number[] };
  const rateLimiter = {
    acquire: async (...args: unknown[]) => {
      limiter.acquired.push(args);
      return `ticket-${limiter.acquired.length}`;
    },
    release: async (ticket: unknown) => {
      limiter.released.push(ticket);
    },
    pause: async (ms: number) => {
      limiter.paused.push(ms);
    },
  } as unknown as RateLimiter;
  const http = new HttpClient({
    system: "sys",
    baseUrl: "http://example.test/api/",
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    logger: (e) => logs.push(e),
    counter,
    rateLimiter,
    retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 10_000 },
    ...options,
  });
  return { http, calls, sleeps, logs, counter, limiter };
}
const write = { url: "orders", operation: "create", kind: "write" as const };
const read = { url: "orders", operation: "list", kind: "read" as const };

describe("a write that may already have been applied", () => {
  it("an answer a write may have been taken before: 5xx, 408, 503, timeout, a dropped or lost connection", async () => {
    for (const step of [
      { status: 500 },
      { status: 502 },
      { status: 503 },
      { status: 408 },
      { error: codeError("ECONNRESET") },
      { error: new Error("socket hang up") },
      { error: Object.assign(new Error("agent went away"), { code: TRANSPORT_LOST }) },
    ]) {
      const c = setup([step]);
      const e = await caught(c.http.request(write));
      expect([e.maybeApplied, e.kind, c.calls.length], JSON.stringify(step)).toEqual([true, "transient", 1]);
    }
    const t = setup([{ hang: true }], { timeoutMs: 5 });
    const e = await caught(t.http.request(write));
    expect(e).toMatchObject({
      reason: "timeout",
      maybeApplied: true,
      message: "sys create: no answer within 5 ms",
    });
    expect(t.calls).toHaveLength(1);
  });

  it("a refusal is not: 429, 423, connection refused, name not found, no route, agent offline", async () => {
    for (const step of [
      { status: 429 },
      { status: 423 },
      ...["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].map((code) => ({
        error: codeError(code),
      })),
      { error: Object.assign(new Error("agent offline"), { code: TRANSPORT_OFFLINE }) },
    ]) {
      const c = setup([step], { retry: { maxRetries: 0 } });
      const e = await caught(c.http.request(write));
      expect([e.maybeApplied, e.kind], JSON.stringify(step)).toEqual([false, "transient"]);
    }
  });

  it("a classified failure keeps what the connector said about it; blocked is a refusal", async () => {
    const classify = (reason: "blocked" | "server_error", maybeApplied?: boolean) => () =>
      new ConnectorError("x", { reason, maybeApplied });
    const blocked = setup([{ status: 200 }], { retry: { maxRetries: 0 } });
    expect(
      (await caught(blocked.http.request({ ...write, classify: classify("blocked") }))).maybeApplied,
    ).toBe(false);
    const said = setup([{ status: 200 }], { retry: { maxRetries: 0 } });
    expect(
      (await caught(said.http.request({ ...write, classify: classify("server_error", true) }))).maybeApplied,
    ).toBe(true);
    const unsaid = setup([{ status: 200 }], { retry: { maxRetries: 0 } });
    expect(
      (await caught(unsaid.http.request({ ...write, classify: classify("server_error") }))).maybeApplied,
    ).toBe(true);
  });

  it("never for a read or an idempotent write, which are retried instead", async () => {
    for (const req of [read, { ...write, idempotent: true }]) {
      for (const step of [{ status: 502 }, { error: codeError("ECONNRESET") }]) {
        const c = setup([step, { status: 200, body: "{}" }]);
        await c.http.request(req);
        expect(c.calls).toHaveLength(2);
        const once = setup([step], { retry: { maxRetries: 0 } });
        expect((await caught(once.http.request(req))).maybeApplied).toBe(false);
      }
    }
    // A write that is not idempotent is not re-sent when its outcome is unknown; a refused one is.
    const unknown = setup([{ status: 502 }, { status: 200 }]);
    await caught(unknown.http.request(write));
    expect(unknown.calls).toHaveLength(1);
    const refused = setup([{ error: codeError("ECONNREFUSED") }, { status: 200 }]);
    await refused.http.request(write);
    expect(refused.calls).toHaveLength(2);
  });
});

describe("retries", () => {
  it("a 429 with Retry-After pauses the shared limiter for that long, then tries again", async () => {
    const c = setup([
      { status: 429, headers: { "retry-after": "2" } },
      { status: 200, body: "{}" },
    ]);
    await c.http.request(read);
    expect(c.limiter.paused).toEqual([2000]);
    expect(c.sleeps).toEqual([2000]);
    expect(c.counter.get("sys")).toEqual({ read: 2, write: 0, failed: 1, retried: 1 });
  });

  it("a 503 with Retry-After waits without pausing the others; a 429 without it pauses nobody", async () => {
    const c = setup([{ status: 503, headers: { "retry-after": "1" } }, { status: 429 }, { status: 200 }]);
    await c.http.request(read);
    expect(c.limiter.paused).toEqual([]);
    // Backoff with random 0: half of base × 2^attempt.
    expect(c.sleeps).toEqual([1000, 100]);
  });

  it("a body-level 429 takes its Retry-After from the header", async () => {
    const c = setup([{ status: 200, headers: { "retry-after": "3" } }, { status: 200 }]);
    let first = true;
    await c.http.request({
      ...read,
      classify: () => {
        if (!first) return undefined;
        first = false;
        return new ConnectorError("slow down", { reason: "rate_limited" });
      },
    });
    expect(c.limiter.paused).toEqual([3000]);
    const own = setup([{ status: 200, headers: { "retry-after": "3" } }], { retry: { maxRetries: 0 } });
    const e = await caught(
      own.http.request({
        ...read,
        classify: () => new ConnectorError("x", { reason: "rate_limited", retryAfterMs: 5 }),
      }),
    );
    expect(e.retryAfterMs).toBe(5);
  });

  it("a Retry-After longer than the client may wait goes up at once; exactly that long is waited", async () => {
    const long = setup([{ status: 429, headers: { "retry-after": "11" } }]);
    expect((await caught(long.http.request(read))).retryAfterMs).toBe(11_000);
    expect(long.calls).toHaveLength(1);
    expect(long.limiter.paused).toEqual([]);
    const edge = setup([{ status: 429, headers: { "retry-after": "10" } }, { status: 200 }]);
    await edge.http.request(read);
    expect(edge.sleeps).toEqual([10_000]);
  });

  it("backs off base × 2^attempt with jitter, capped, then gives up after maxRetries", async () => {
    const c = setup([{ status: 500 }], {
      random: () => 1,
      retry: { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 500 },
    });
    const e = await caught(c.http.request(read));
    expect(e.reason).toBe("server_error");
    expect(c.calls).toHaveLength(6);
    expect(c.sleeps).toEqual([100, 200, 400, 500, 500]);
    const half = setup([{ status: 500 }], { random: () => 0.5, retry: { maxRetries: 1, baseDelayMs: 101 } });
    await caught(half.http.request(read));
    expect(half.sleeps).toEqual([76]);
    expect(half.counter.get("sys")).toEqual({ read: 2, write: 0, failed: 2, retried: 1 });
  });

  it("the defaults: three retries from 300 ms, 30 s timeout", async () => {
    const c = setup([{ status: 500 }], { retry: undefined, random: () => 0 });
    await caught(c.http.request(read));
    expect(c.sleeps).toEqual([150, 300, 600]);
    expect(c.http.timeoutMs).toBe(30_000);
    expect(c.http.retry).toEqual({
      maxRetries: 3,
      baseDelayMs: 300,
      maxDelayMs: 10_000,
      maxRetryAfterMs: 60_000,
    });
  });

  it("permanent failures and errors of our own are not retried", async () => {
    const c = setup([{ status: 404, body: "no such order" }]);
    expect(await caught(c.http.request(read))).toMatchObject({
      reason: "not_found",
      kind: "permanent",
      httpStatus: 404,
      systemMessage: "no such order",
      message: "sys list: HTTP 404",
      system: "sys",
      operation: "list",
    });
    expect(c.calls).toHaveLength(1);
    const bug = new RangeError("a bug of ours");
    const b = setup([{ status: 200 }]);
    await expect(
      b.http.request({
        ...read,
        classify: () => {
          throw bug;
        },
      }),
    ).rejects.toBe(bug);
  });

  it("says when its final answer came to a repeat: a refused duplicate may mean the first arrived", async () => {
    const repeated = setup([{ status: 503 }, { status: 400, body: "duplicate" }]);
    const e = await caught(repeated.http.request({ ...write, idempotent: true }));
    expect([e.reason, e.afterRetry, repeated.calls.length]).toEqual(["validation", true, 2]);
    const first = setup([{ status: 400, body: "duplicate" }]);
    expect((await caught(first.http.request({ ...write, idempotent: true }))).afterRetry).toBe(false);
    // A re-send after a refreshed token is not a repeat: the first was refused.
    const auth = setup([{ status: 401 }, { status: 400 }]);
    expect((await caught(auth.http.request({ ...write, onAuthFailure: async () => true }))).afterRetry).toBe(
      false,
    );
  });

  it("an auth failure is re-sent once, only when the token was refreshed", async () => {
    let refreshes = 0;
    const refreshed = setup([{ status: 401 }, { status: 401 }, { status: 200 }]);
    const e = await caught(
      refreshed.http.request({
        ...write,
        onAuthFailure: async () => {
          refreshes++;
          return true;
        },
      }),
    );
    expect([e.reason, refreshes, refreshed.calls.length]).toEqual(["auth", 1, 2]);
    expect(refreshed.counter.get("sys").retried).toBe(1);
    const notRefreshed = setup([{ status: 403 }, { status: 200 }]);
    await caught(notRefreshed.http.request({ ...write, onAuthFailure: async () => false }));
    expect(notRefreshed.calls).toHaveLength(1);
    // The refreshed try does not use up a retry.
    const r = setup([{ status: 401 }, { status: 500 }, { status: 200 }], { retry: { maxRetries: 1 } });
    await r.http.request({ ...read, onAuthFailure: async () => true });
    expect(r.calls).toHaveLength(3);
  });
});

describe("an on-site agent that is offline", () => {
  it("is not retried in the client: the transport already waited its bound", async () => {
    const offline = setup([
      { error: Object.assign(new Error("agent offline"), { code: TRANSPORT_OFFLINE }) },
    ]);
    const e = await caught(offline.http.request(read));
    expect(e).toMatchObject({ reason: "unavailable", systemCode: TRANSPORT_OFFLINE });
    expect(offline.calls).toHaveLength(1);
    expect(offline.sleeps).toEqual([]);
    // A lost peer is retried when the call may be sent again.
    const lost = setup([
      { error: Object.assign(new Error("gone"), { code: TRANSPORT_LOST }) },
      { status: 200 },
    ]);
    await lost.http.request(read);
    expect(lost.calls).toHaveLength(2);
  });

  it("a transport whose peer stays away fails before anything is sent or any rate-limit place is taken", async () => {
    const c = setup([{ status: 200 }]);
    const ready = async () => {
      throw Object.assign(new Error("agent offline"), { merchantMessage: "Yerel bağlantı aracı çevrimdışı" });
    };
    const fetch = Object.assign((async () => new Response("")) as typeof globalThis.fetch, { ready });
    let sent = 0;
    const counted = Object.assign(
      (async (...args: Parameters<typeof globalThis.fetch>) => {
        sent++;
        return fetch(...args);
      }) as typeof globalThis.fetch,
      { ready },
    );
    const http = new HttpClient({
      system: "sys",
      baseUrl: "http://example.test",
      fetch: counted,
      logger: (e) => c.logs.push(e),
      counter: c.counter,
      rateLimiter: (c.http as unknown as { rateLimiter: RateLimiter }).rateLimiter,
      sleep: async (ms) => {
        c.sleeps.push(ms);
      },
    });
    const e = await caught(http.request({ ...write, body: { text: "payload" } }));
    expect(e).toMatchObject({
      reason: "unavailable",
      systemCode: TRANSPORT_OFFLINE,
      systemMessage: "agent offline",
      merchantMessage: "Yerel bağlantı aracı çevrimdışı",
      maybeApplied: false,
      message: "sys create: transport offline",
    });
    expect([sent, c.limiter.acquired.length, c.sleeps.length]).toEqual([0, 0, 0]);
    expect(c.counter.get("sys")).toEqual({ read: 0, write: 0, failed: 1, retried: 0 });
    expect(c.logs[0]).toMatchObject({
      attempt: 0,
      status: undefined,
      requestBody: "payload",
      method: "POST",
    });
    // A stop while waiting is the caller's own abort, not a failure of the system.
    const stop = new AbortController();
    stop.abort(new Error("stopped"));
    await expect(http.request({ ...read, signal: stop.signal })).rejects.toThrow("stopped");
    // A ready transport sends.
    const up = new HttpClient({
      system: "s",
      baseUrl: "http://x.test",
      fetch: Object.assign(fetch, { ready: async () => {} }),
    });
    expect((await up.request(read)).status).toBe(200);
  });
});

describe("rate limits", () => {
  it("takes a place of the cost given for the request's timeout plus a second, and gives it back", async () => {
    const c = setup([{ status: 200 }], { timeoutMs: 2000 });
    await c.http.request({ ...read, cost: 5 });
    await c.http.request({ ...read, timeoutMs: 100 });
    expect(c.limiter.acquired.map(([cost, , hold]) => [cost, hold])).toEqual([
      [5, 3000],
      [1, 1100],
    ]);
    expect(c.limiter.released).toEqual(["ticket-1", "ticket-2"]);
    // Given back on failure too; nothing taken when the request skips the limiter.
    const f = setup([{ status: 400 }]);
    await caught(f.http.request(read));
    expect(f.limiter.released).toEqual(["ticket-1"]);
    const s = setup([{ status: 200 }]);
    await s.http.request({ ...read, skipRateLimit: true });
    expect([s.limiter.acquired.length, s.limiter.released]).toEqual([0, [undefined]]);
  });

  it("a second, narrower limit is taken first, one unit, and given back", async () => {
    const c = setup([{ status: 200 }], { timeoutMs: 1000 });
    const order: string[] = [];
    const extra = {
      acquire: async (...args: unknown[]) => {
        order.push(`extra ${JSON.stringify([args[0], args[2]])}`);
        return "extra-ticket";
      },
      release: async (t: unknown) => {
        order.push(`extra release ${t}`);
      },
    } as unknown as RateLimiter;
    await c.http.request({ ...read, cost: 3, extraLimiter: extra });
    expect(order).toEqual(["extra [1,2000]", "extra release extra-ticket"]);
    expect(c.limiter.acquired[0]?.[0]).toBe(3);
  });
});

describe("requests and answers", () => {
  it("joins paths to the base URL and takes absolute URLs as they are", async () => {
    const c = setup([{ status: 200 }]);
    await c.http.request({ ...read, url: "//v1/orders" });
    await c.http.request({ ...read, url: "HTTPS://other.test/x" });
    await c.http.request({ ...read, url: "http://plain.test/y" });
    expect(c.calls.map((x) => x.url)).toEqual([
      "http://example.test/api/v1/orders",
      "HTTPS://other.test/x",
      "http://plain.test/y",
    ]);
    const none = new HttpClient({ system: "s", fetch: c.http as never });
    expect(await caught(none.request(read))).toMatchObject({
      reason: "config",
      message: "No base URL for orders",
    });
  });

  it("encodes JSON, form and text bodies with their content types, default headers first", async () => {
    const c = setup([{ status: 200 }], { defaultHeaders: { "x-app": "ep", accept: "text/xml" } });
    await c.http.request({ ...write, body: { json: { a: [1] } } });
    await c.http.request({ ...write, method: "PUT", body: { form: { a: "1 2", b: "ç" } } });
    await c.http.request({ ...write, body: { text: "<x/>", contentType: "text/xml" } });
    await c.http.request({
      ...write,
      body: { text: "plain" },
      headers: async () => ({ "x-app": "override" }),
    });
    await c.http.request({ ...read, method: "GET" });
    expect(c.calls.map((x) => [x.init.method, x.init.body, x.init.headers])).toEqual([
      ["POST", '{"a":[1]}', { accept: "text/xml", "x-app": "ep", "content-type": "application/json" }],
      [
        "PUT",
        "a=1+2&b=%C3%A7",
        { accept: "text/xml", "x-app": "ep", "content-type": "application/x-www-form-urlencoded" },
      ],
      ["POST", "<x/>", { accept: "text/xml", "x-app": "ep", "content-type": "text/xml" }],
      ["POST", "plain", { accept: "text/xml", "x-app": "override", "content-type": "text/plain" }],
      ["GET", undefined, { accept: "text/xml", "x-app": "ep" }],
    ]);
    const plain = setup([{ status: 200 }]);
    await plain.http.request(read);
    expect(plain.calls[0]?.init.headers).toEqual({ accept: "application/json" });
  });

  it("parses JSON answers, keeps others as text, binary as bytes", async () => {
    const c = setup([{ status: 200, body: '{"a":1}' }]);
    expect(await c.http.request(read)).toMatchObject({ status: 200, text: '{"a":1}', json: { a: 1 } });
    const text = setup([{ status: 200, body: "<ok/>" }]);
    expect(await text.http.request(read)).toMatchObject({ text: "<ok/>", json: undefined });
    const empty = setup([{ status: 204 }]);
    expect(await empty.http.request(read)).toMatchObject({ text: "", json: undefined });
    const bin = setup([{ status: 200, body: "%PDF" }]);
    const res = await bin.http.request({ ...read, binary: true });
    expect([res.text, res.json, [...(res.bytes ?? [])]]).toEqual(["", undefined, [37, 80, 68, 70]]);
  });

  it("a failed connection says what failed, from the error's causes", async () => {
    const c = setup([{ error: codeError("EPROTO", 3) }], { retry: { maxRetries: 0 } });
    const e = await caught(c.http.request(read));
    expect(e).toMatchObject({
      reason: "network",
      systemCode: "EPROTO",
      message: "sys list: connection failed (EPROTO)",
      systemMessage: "fetch failed: wrap 2: wrap 1: low EPROTO",
    });
    const deep = setup([{ error: codeError("EPROTO", 4) }], { retry: { maxRetries: 0 } });
    expect(await caught(deep.http.request(read))).toMatchObject({
      systemCode: undefined,
      message: "sys list: connection failed (network)",
      systemMessage: "fetch failed: wrap 3: wrap 2: wrap 1",
    });
    const odd = setup([{ error: "a string" }], { retry: { maxRetries: 0 } });
    expect(await caught(odd.http.request(read))).toMatchObject({ systemMessage: "a string" });
    const numeric = setup([{ error: Object.assign(new Error("n"), { code: 7 }) }], {
      retry: { maxRetries: 0 },
    });
    expect((await caught(numeric.http.request(read))).systemCode).toBeUndefined();
    const merchant = setup([{ error: Object.assign(new Error("m"), { merchantMessage: "Türkçe" }) }], {
      retry: { maxRetries: 0 },
    });
    expect((await caught(merchant.http.request(read))).merchantMessage).toBe("Türkçe");
  });

  it("the caller's abort is the caller's, not a failure", async () => {
    const stop = new AbortController();
    const c = setup([{ hang: true }]);
    const pending = c.http.request({ ...read, signal: stop.signal });
    await new Promise((r) => setTimeout(r, 5));
    stop.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(c.counter.get("sys").failed).toBe(0);
  });
});

describe("logs", () => {
  it("one entry per attempt: method, masked URL, status, bodies cut at 4,000 characters", async () => {
    const long = "x".repeat(4001);
    const c = setup(
      [
        { status: 500, body: long },
        { status: 200, body: "ok" },
      ],
      { secrets: ["s3cr3t-key", ""] },
    );
    c.http.addSecret(undefined);
    await c.http.request({
      ...write,
      idempotent: true,
      url: "orders?key=s3cr3t-key",
      body: { text: "s3cr3t-key" },
    });
    expect(c.logs.map((l) => [l.attempt, l.status, l.method, l.url, l.kind, l.operation, l.system])).toEqual([
      [0, 500, "POST", "http://example.test/api/orders?key=***", "write", "create", "sys"],
      [1, 200, "POST", "http://example.test/api/orders?key=***", "write", "create", "sys"],
    ]);
    expect(c.logs[0]?.responseBody).toBe(`${"x".repeat(4000)}…`);
    expect(c.logs[0]?.requestBody).toBe("***");
    expect(c.logs[0]?.error).toEqual({
      kind: "transient",
      reason: "server_error",
      message: "sys create: HTTP 500",
    });
    expect(c.logs[1]).toMatchObject({ responseBody: "ok", error: undefined });
    expect(c.logs[1]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(c.logs[1]?.durationMs).toBeLessThan(60_000);
    const exact = setup([{ status: 200, body: "y".repeat(4000) }]);
    await exact.http.request(read);
    expect(exact.logs[0]?.responseBody).toBe("y".repeat(4000));
    const quiet = setup([{ status: 200, body: "secret-ish" }], { logBodies: false });
    await quiet.http.request({ ...write, body: { text: "b" } });
    expect([quiet.logs[0]?.requestBody, quiet.logs[0]?.responseBody]).toEqual([undefined, undefined]);
  });

  it("the system's message is masked and cut at 500 characters", async () => {
    const c = setup([{ status: 400, body: `s3cr3t-key ${"z".repeat(600)}` }], { secrets: ["s3cr3t-key"] });
    const e = await caught(c.http.request(read));
    expect(e.systemMessage).toBe(`*** ${"z".repeat(489)}`);
    const empty = setup([{ status: 400 }]);
    expect((await caught(empty.http.request(read))).systemMessage).toBeUndefined();
  });
});

describe("outbound allow-list", () => {
  it("takes addresses, networks and ports in their usual forms", () => {
    const show = (entry: string) => {
      const r = parseOutboundAllow(entry);
      return `${r.net[0].toString()}/${r.net[1]}${r.port === undefined ? "" : `:${r.port}`}`;
    };
    expect(
      [
        "127.0.0.1",
        " 10.0.0.0/8 ",
        "10.1.2.3:65535",
        "192.168.0.0/16:1",
        "::1",
        "[::1]:4010",
        "fd00::/8",
        "[fd00::1]",
        "::ffff:127.0.0.1",
      ].map(show),
    ).toEqual([
      "127.0.0.1/32",
      "10.0.0.0/8",
      "10.1.2.3/32:65535",
      "192.168.0.0/16:1",
      "::1/128",
      "::1/128:4010",
      "fd00::/8",
      "fd00::1/128",
      "127.0.0.1/32",
    ]);
  });

  it("refuses entries that are not addresses: short, hexadecimal, octal or integer IPv4 forms", () => {
    for (const bad of [
      "127.1",
      "0x7f.0.0.1",
      "017.0.0.1",
      "4294967295",
      "10.0.0.0/33",
      "::1/129",
      "127.0.0.1:0",
      "127.0.0.1:65536",
      "1.2.3.4/",
      "::1/8:80",
      "[::1]:x",
      "",
    ])
      expect(() => parseOutboundAllow(bad), bad).toThrow();
    expect(() => parseOutboundAllow("127.1")).toThrow("not an IP address or network: 127.1");
    expect(() => parseOutboundAllow("127.0.0.1:0")).toThrow("bad port: 127.0.0.1:0");
  });

  it("public unicast addresses are always allowed; others by family, network and port", () => {
    const guard = new OutboundGuard({ allow: ["10.0.0.0/8", "[::1]:8080"] });
    try {
      expect(guard.isAllowed("8.8.8.8", 1)).toBe(true);
      expect(guard.isAllowed("2a00:1450::1", 1)).toBe(true);
      expect(guard.isAllowed("not an address", 80)).toBe(false);
      expect(guard.isAllowed("10.9.9.9", 1)).toBe(true);
      expect(guard.isAllowed("11.0.0.1", 1)).toBe(true);
      expect(guard.isAllowed("127.0.0.1", 1)).toBe(false);
      expect(guard.isAllowed("::1", 8080)).toBe(true);
      expect(guard.isAllowed("::1", 1)).toBe(false);
      // A rule of the other family is skipped, not matched (ipaddr throws on a mixed match).
      expect(guard.isAllowed("fd00::1", 8080)).toBe(false);
      expect(guard.isAllowed("::ffff:10.1.1.1", 8080)).toBe(true);
    } finally {
      void guard.close();
    }
  });
});

describe("defaults", () => {
  it("Node's fetch, a real pause with jitter between half and all of the backoff", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(hits === 1 ? 500 : 200, { "content-type": "application/json" });
      res.end(hits === 1 ? "" : '{"ok":1}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const http = new HttpClient({ system: "s", baseUrl: base, retry: { baseDelayMs: 60 } });
      const started = Date.now();
      expect((await http.request({ ...read, method: "GET" })).json).toEqual({ ok: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(29);
      expect(hits).toBe(2);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("the guard checks a URL without a port against port 80, or 443 for https", async () => {
    const code = async (guard: OutboundGuard, url: string) => {
      try {
        await guard.fetch(url);
        return "answered";
      } catch (error) {
        let cur: unknown = error;
        for (let i = 0; i < 4 && cur; i++) {
          const c = (cur as { code?: unknown }).code;
          if (typeof c === "string") return c;
          cur = (cur as { cause?: unknown }).cause;
        }
        return "no code";
      }
    };
    const at80 = new OutboundGuard({ allow: ["127.0.0.1:80"] });
    const at443 = new OutboundGuard({ allow: ["127.0.0.1:443"] });
    try {
      // Allowed: whatever the loopback answers (usually nothing listens), the guard did not refuse it.
      expect(await code(at80, "http://127.0.0.1/")).not.toBe(OUTBOUND_REFUSED);
      expect(await code(at80, "https://127.0.0.1/")).toBe(OUTBOUND_REFUSED);
      expect(await code(at443, "https://127.0.0.1/")).not.toBe(OUTBOUND_REFUSED);
      expect(await code(at443, "http://127.0.0.1/")).toBe(OUTBOUND_REFUSED);
    } finally {
      await at80.close();
      await at443.close();
    }
  });
});

describe("more decisions", () => {
  it("wire codes and the guard's error, as the agent and the logs carry them", () => {
    expect([TRANSPORT_OFFLINE, TRANSPORT_LOST, OUTBOUND_REFUSED]).toEqual([
      "ETRANSPORTOFFLINE",
      "ETRANSPORTLOST",
      "EOUTBOUNDREFUSED",
    ]);
    expect(new OutboundRefusedError()).toMatchObject({
      code: "EOUTBOUNDREFUSED",
      name: "OutboundRefusedError",
      message: "outbound connection refused: the address is not a public one",
    });
  });

  it("a transport failing with nothing, or with a merchant message that is no text", async () => {
    const c = setup([{ error: undefined }], { retry: { maxRetries: 0 } });
    expect(await caught(c.http.request(read))).toMatchObject({
      reason: "network",
      merchantMessage: undefined,
    });
    const n = setup([{ error: Object.assign(new Error("x"), { merchantMessage: 42 }) }], {
      retry: { maxRetries: 0 },
    });
    expect((await caught(n.http.request(read))).merchantMessage).toBeUndefined();
  });

  it("a read a connector calls maybe applied is still retried: reading twice is safe", async () => {
    const c = setup([{ status: 200 }, { status: 200, body: "{}" }]);
    let first = true;
    await c.http.request({
      ...read,
      classify: () => {
        if (!first) return undefined;
        first = false;
        return new ConnectorError("odd", { reason: "server_error", maybeApplied: true });
      },
    });
    expect(c.calls).toHaveLength(2);
  });

  it("only an auth failure calls the token refresh", async () => {
    let refreshes = 0;
    const c = setup([{ status: 500 }, { status: 200 }]);
    await c.http.request({
      ...read,
      onAuthFailure: async () => {
        refreshes++;
        return true;
      },
    });
    expect([refreshes, c.calls.length]).toEqual([0, 2]);
  });

  it("works without a counter, a limiter or a logger", async () => {
    const bare = (steps: Step[]) =>
      setup(steps, { counter: undefined, rateLimiter: undefined, logger: undefined });
    await bare([{ status: 401 }, { status: 200 }]).http.request({ ...read, onAuthFailure: async () => true });
    await bare([{ status: 429, headers: { "retry-after": "1" } }, { status: 200 }]).http.request(read);
    await caught(bare([{ status: 400 }]).http.request(read));
    await caught(bare([{ error: codeError("ECONNRESET") }]).http.request(write));
    const offline = bare([{ status: 200 }]);
    const http = new HttpClient({
      system: "s",
      baseUrl: "http://x.test",
      fetch: Object.assign((async () => new Response("")) as typeof fetch, {
        ready: async () => {
          throw new Error("away");
        },
      }),
    });
    expect((await caught(http.request(read))).reason).toBe("unavailable");
    expect(offline.calls).toHaveLength(0);
  });

  it("the caller's abort wins over what the transport failed with", async () => {
    const stop = new AbortController();
    const fetch = (async (_u: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new Error("transport's own error"))),
      )) as typeof globalThis.fetch;
    const http = new HttpClient({ system: "s", baseUrl: "http://x.test", fetch });
    const pending = http.request({ ...read, signal: stop.signal });
    await new Promise((r) => setTimeout(r, 5));
    stop.abort(new Error("the caller stopped"));
    await expect(pending).rejects.toThrow("the caller stopped");
  });

  it("URLs: only a leading scheme is absolute; every slash between base and path but one is dropped", async () => {
    const c = setup([{ status: 200 }], { baseUrl: "http://example.test/api//" });
    await c.http.request({ ...read, url: "v1//orders?next=http://other.test/" });
    expect(c.calls[0]?.url).toBe("http://example.test/api/v1//orders?next=http://other.test/");
  });
});

describe("the guard's connections", () => {
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
      return "answered";
    } catch (error) {
      let cur: unknown = error;
      for (let i = 0; i < 4 && cur; i++) {
        const c = (cur as { code?: unknown; message?: unknown }).code;
        if (typeof c === "string") return c;
        if (!(cur as { cause?: unknown }).cause) return String((cur as { message?: unknown }).message);
        cur = (cur as { cause?: unknown }).cause;
      }
      return "no code";
    }
  };

  it("resolves names with the system resolver, brackets IPv6 literals, passes resolver failures on", async () => {
    const server = createServer((_req, res) => res.end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const system = new OutboundGuard({ allow: [`127.0.0.1:${port}`] });
    const v6 = new OutboundGuard({ allow: [`[::1]:${port}`], resolve: async () => [] });
    const broken = new OutboundGuard({
      resolve: async () => {
        throw new Error("resolver down");
      },
    });
    const publicOnly = new OutboundGuard();
    try {
      expect(await failure(system.fetch(`http://localhost:${port}/`))).toBe("answered");
      // Nothing may listen on ::1 here: what matters is that the guard let it through.
      expect(await failure(v6.fetch(`http://[::1]:${port}/`))).not.toBe(OUTBOUND_REFUSED);
      expect(await failure(broken.fetch("http://erp.example.com/"))).toContain("resolver down");
      expect(publicOnly.isAllowed("8.8.8.8", 443)).toBe(true);
      expect(publicOnly.isAllowed("10.0.0.1", 443)).toBe(false);
    } finally {
      await Promise.all([system.close(), v6.close(), broken.close(), publicOnly.close()]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // A closed guard opens no more connections.
    expect(await failure(system.fetch(`http://127.0.0.1:${port}/`))).not.toBe("answered");
  });

  it("a refused address is a settings problem for the client, said once", async () => {
    const guard = new OutboundGuard();
    try {
      const http = new HttpClient({ system: "sys", baseUrl: "http://127.0.0.1:8081", fetch: guard.fetch });
      expect(await caught(http.request(read))).toMatchObject({
        reason: "config",
        systemCode: OUTBOUND_REFUSED,
        message: "sys list: address not allowed",
      });
    } finally {
      await guard.close();
    }
  });

  it("allow-list forms: only a whole bracketed entry, any IPv6 prefix length", () => {
    expect(() => parseOutboundAllow("x[::1]")).toThrow();
    expect(parseOutboundAllow("fd00::/16").net[1]).toBe(16);
  });
});
