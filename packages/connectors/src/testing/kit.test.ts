import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { bearerToken, TokenStore } from "./auth";
import { clampPageSize, decodeCursor, encodeCursor, keysetPage, offsetPage } from "./paging";
import { describeFailures, judgeRequests, type RequestJudge, RequestRecorder } from "./recorder";
import {
  createEmulatorServer,
  type EmulatorServer,
  type EmulatorServerOptions,
  mountEmulators,
} from "./server";

/** A toy system built only from the kit: a token endpoint and one guarded list. */
async function toyEmulator(opts: Partial<EmulatorServerOptions>) {
  let clock = 1_000_000;
  const server = createEmulatorServer({
    answers: {
      serverError: { status: 503, contentType: "text/html", body: "<h1>503</h1>" },
      tooManyRequests: (cause) => ({ error: cause === "limit" ? "RATE_LIMIT" : "BURST" }),
      lock: { status: 200, body: { error: "LOCKED" } },
      blocked: (until) => ({ error: "BLOCKED", until }),
      unauthorized: { status: 200, body: { errors: [{ extensions: { code: "UNAUTHENTICATED" } }] } },
    },
    formBodies: true,
    now: () => clock,
    ...opts,
  });
  const tokens = new TokenStore(60_000, () => clock);
  const items = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));
  server.app.post("/token", async (req, reply) => {
    const g = await server.gate(req, reply, { kind: "read", operation: "token" });
    if (g === "handled") return reply;
    const body = req.body as Record<string, string>;
    if (body.client_secret !== "s3cret") {
      server.noteOutcome(true);
      return reply.code(401).send({ error: "invalid_client" });
    }
    server.noteOutcome(false);
    const t = tokens.issue();
    return { access_token: t.token, expires_in: t.expiresIn };
  });
  server.app.post("/items", async (req, reply) => {
    if (await server.blocked(reply)) return reply;
    const g = await server.gate(req, reply, { kind: "write", operation: "items" });
    if (g === "handled") return reply;
    const check = tokens.check(bearerToken(req.headers.authorization));
    if (check !== "ok") return reply.code(401).send({ error: check });
    const size = clampPageSize((req.body as { size?: unknown }).size, { fallback: 10, max: 20 });
    const page = offsetPage(items, Number((req.body as { page?: unknown }).page ?? 0), size);
    if (g === "drop") return server.drop(req, reply);
    server.noteOutcome(false);
    return page;
  });
  const { url } = await server.listen();
  return { server, url, tokens, tick: (ms: number) => (clock += ms) };
}

let open: EmulatorServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&client_secret=s3cret",
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const postItems = (url: string, tok: string, body: unknown = {}) =>
  fetch(`${url}/items`, {
    method: "POST",
    headers: { authorization: `Bearer ${tok}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("emulator kit", () => {
  it("issues tokens that expire after their lifetime", async () => {
    const toy = await toyEmulator({});
    open = toy.server;
    const tok = await token(toy.url);
    expect((await postItems(toy.url, tok)).status).toBe(200);
    toy.tick(60_001);
    const res = await postItems(toy.url, tok);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "expired" });
    expect((await postItems(toy.url, "forged")).status).toBe(401);
    expect(toy.tokens.issued()).toEqual([tok]);
  });

  it("answers 429 over the rate limit with Retry-After, in the system's shape", async () => {
    const toy = await toyEmulator({ rateLimit: { requests: 2, windowMs: 10_000 } });
    open = toy.server;
    const tok = await token(toy.url);
    expect((await postItems(toy.url, tok)).status).toBe(200);
    const res = await postItems(toy.url, tok);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("10");
    expect(await res.json()).toEqual({ error: "RATE_LIMIT" });
    expect(toy.server.counters.rateLimitViolations).toBe(1);
    toy.tick(10_001);
    expect((await postItems(toy.url, tok)).status).toBe(200);
  });

  it("injects queued faults in the system's shapes and counts them", async () => {
    const toy = await toyEmulator({});
    open = toy.server;
    const tok = await token(toy.url);
    toy.server.faults.enqueue(
      { kind: "5xx", operation: "items" },
      { kind: "lock", operation: "items" },
      { kind: "429", operation: "items" },
      { kind: "dropAfterWrite", operation: "items" },
      { kind: "auth", operation: "items" },
    );
    const a = await postItems(toy.url, tok);
    expect([a.status, await a.text()]).toEqual([503, "<h1>503</h1>"]);
    expect(await (await postItems(toy.url, tok)).json()).toEqual({ error: "LOCKED" });
    expect(await (await postItems(toy.url, tok)).json()).toEqual({ error: "BURST" });
    await expect(postItems(toy.url, tok)).rejects.toThrow();
    // a valid token refused, in the system's shape (here: a GraphQL-style error inside HTTP 200)
    const refused = await postItems(toy.url, tok);
    expect([refused.status, await refused.json()]).toEqual([
      200,
      { errors: [{ extensions: { code: "UNAUTHENTICATED" } }] },
    ]);
    expect((await postItems(toy.url, tok)).status).toBe(200);
    expect(toy.server.counters.faults).toMatchObject({
      "5xx": 1,
      lock: 1,
      "429": 1,
      dropAfterWrite: 1,
      auth: 1,
    });
    expect(toy.server.counters.authFailures).toBe(1);
    expect(toy.server.counters.byOperation.items).toBe(6);
  });

  it("records every request, and the judge's verdict fails a non-conforming one", async () => {
    const toy = await toyEmulator({});
    open = toy.server;
    const tok = await token(toy.url);
    await postItems(toy.url, tok, { page: 1, size: 5 });
    await postItems(toy.url, tok, { page: "x" });
    await fetch(`${toy.url}/nowhere`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    const judge: RequestJudge = (r) => {
      if (r.path === "/token") return { operation: "token", problems: [] };
      if (r.path !== "/items") return undefined;
      const b = r.body as { page?: unknown };
      return { operation: "items", problems: typeof b.page === "number" ? [] : ["page must be a number"] };
    };
    const recorded = toy.server.recorder.list();
    // a request to a path the system lacks is recorded too: the judge must know every call
    expect(recorded.map((r) => r.path)).toEqual(["/token", "/items", "/items", "/nowhere"]);
    const report = judgeRequests(recorded, judge);
    expect(report.operations).toEqual({
      token: { requests: 1, failed: 0 },
      items: { requests: 2, failed: 1 },
      "POST /nowhere": { requests: 1, failed: 1 },
    });
    expect(describeFailures(report)).toContain("page must be a number");
    expect(describeFailures(report)).toContain("unknown to the judge");
  });

  it("keeps the recorder bounded for long-running emulators, and says how many it dropped", () => {
    const r = new RequestRecorder(2);
    for (const path of ["/a", "/b", "/c"])
      r.record({ at: 0, method: "GET", path, query: {}, headers: {}, body: null });
    expect(r.list().map((x) => x.path)).toEqual(["/b", "/c"]);
    expect(r.dropped).toBe(1);
    r.clear();
    expect([r.size, r.dropped]).toEqual([0, 0]);
  });

  it("blocks a client whose error share is too high, for the block's length, in the system's shape", async () => {
    const toy = await toyEmulator({
      errorBlock: { windowMs: 60_000, minRequests: 4, errorRatio: 0.25, blockMs: 30_000 },
    });
    open = toy.server;
    const tok = await token(toy.url);
    const badToken = () =>
      fetch(`${toy.url}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_secret=wrong",
      });
    // 1 failure in 3 answers: too few to count; 1 in 4 (25 %) is not over the ratio
    expect((await badToken()).status).toBe(401);
    await token(toy.url);
    expect((await postItems(toy.url, tok)).status).toBe(200);
    expect(toy.server.blockedUntil()).toBe(0);
    // 2 in 5 (40 %): blocked
    expect((await badToken()).status).toBe(401);
    const until = toy.server.blockedUntil();
    expect(until).toBeGreaterThan(0);
    const res = await postItems(toy.url, tok);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await res.json()).toEqual({ error: "BLOCKED", until });
    expect(toy.server.counters.blockedResponses).toBe(1);
    toy.tick(30_000);
    expect((await postItems(toy.url, tok)).status).toBe(200);
  });

  it("pages by offset, keyset and cursor", () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ k: (i + 1) * 10 }));
    expect(clampPageSize("500", { fallback: 100, max: 200 })).toBe(200);
    expect(clampPageSize("abc", { fallback: 100, max: 200 })).toBe(100);
    expect(offsetPage(rows, 2, 3)).toEqual({ items: [{ k: 70 }], hasMore: false, total: 7 });
    const p = keysetPage(rows, (r) => r.k, 25, 2);
    expect(p.items).toEqual([{ k: 30 }, { k: 40 }]);
    expect([p.hasMore, p.lastKey]).toEqual([true, 40]);
    expect(keysetPage(rows, (r) => r.k, 70, 2).items).toEqual([]);
    expect(decodeCursor<{ a: number }>(encodeCursor({ a: 1 }))).toEqual({ a: 1 });
    expect(decodeCursor("%%%")).toBeUndefined();
  });
});

describe("emulators mounted in a host app", () => {
  it("serves one emulator per tenant under a prefix, bodies and headers as sent, unknown tenants 404", async () => {
    const host = Fastify();
    // The host parses JSON its own way; the mount must hand the emulator the untouched body.
    const tenants = new Map<string, EmulatorServer>();
    for (const name of ["alpha", "beta"]) {
      const server = createEmulatorServer({
        answers: {
          serverError: { body: "x" },
          tooManyRequests: () => ({}),
          lock: { body: {} },
        },
        formBodies: true,
      });
      server.app.post("/api/echo", async (req) => ({
        tenant: name,
        body: req.body,
        query: req.query,
        auth: req.headers.authorization ?? null,
      }));
      tenants.set(name, server);
    }
    await mountEmulators(host, {
      prefix: "/sandbox/toy",
      resolve: async (tenant) => tenants.get(tenant)?.app,
    });
    const url = await host.listen({ port: 0, host: "127.0.0.1" });
    try {
      const json = await fetch(`${url}/sandbox/toy/beta/api/echo?x=1`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({ a: [1, 2] }),
      });
      expect(await json.json()).toEqual({
        tenant: "beta",
        body: { a: [1, 2] },
        query: { x: "1" },
        auth: "Bearer t",
      });
      const form = await fetch(`${url}/sandbox/toy/alpha/api/echo`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
      });
      expect(((await form.json()) as { body: unknown }).body).toEqual({ grant_type: "client_credentials" });
      expect(tenants.get("alpha")!.recorder.list()).toHaveLength(1);
      const unknown = await fetch(`${url}/sandbox/toy/gamma/api/echo`, { method: "POST" });
      expect(unknown.status).toBe(404);
      const missingRoute = await fetch(`${url}/sandbox/toy/alpha/api/nothing`);
      expect(missingRoute.status).toBe(404);
    } finally {
      await host.close();
      for (const t of tenants.values()) await t.close();
    }
  });
});
