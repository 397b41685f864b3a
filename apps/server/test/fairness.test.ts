import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { HEAVY_ROUTES, WAITING_ROUTES } from "../src/app.ts";
import { forgetSessions, resolveAuth } from "../src/platform/http/auth.ts";
import { installErrorHandling } from "../src/platform/http/error-handler.ts";
import { type FairnessOptions, fairness } from "../src/platform/http/fairness.ts";
import type { ServerContext } from "../src/server-context.ts";
import { call, registerAndLogin, startTestApp } from "./harness.ts";

/**
 * The fairness plugin on a small app of its own: the caller's company comes from a header (as the
 * app's gate reads it from the token's signature), the routes' own onRequest hook (the session
 * lookup's place) is counted, `/api/slow` answers when the test opens its gate.
 */
async function appWith(limits: Partial<FairnessOptions>) {
  const app: FastifyInstance = Fastify({ forceCloseConnections: true });
  installErrorHandling(app);
  await app.register(fairness, {
    api: { concurrent: 2, queue: 2, maxWaitMs: 5_000 },
    heavy: { concurrent: 1, queue: 1, maxWaitMs: 5_000 },
    heavyRoutes: ["/api/Export"],
    exemptRoutes: ["/api/poll"],
    companyOf: async (request) => {
      const company = request.headers["x-company"];
      return company ? Number(company) : undefined;
    },
    ...limits,
  });
  let sessionChecks = 0;
  app.addHook("onRequest", async () => {
    sessionChecks++;
  });
  let open!: () => void;
  let gate = new Promise<void>((r) => {
    open = r;
  });
  let started = 0;
  app.get("/api/slow", async () => {
    started++;
    await gate;
    return { ok: true };
  });
  app.get("/api/fast", async () => ({ ok: true }));
  app.get("/api/poll", async () => {
    await gate;
    return { ok: true };
  });
  app.get("/api/export", async () => {
    started++;
    await gate;
    return { ok: true };
  });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    app,
    started: () => started,
    sessionChecks: () => sessionChecks,
    openGate: () => {
      open();
      gate = new Promise<void>((r) => {
        open = r;
      });
    },
    call: (path: string, company?: number, signal?: AbortSignal) =>
      fetch(`${url}${path}`, { headers: company ? { "x-company": String(company) } : {}, signal }),
  };
}

/** Records the statements sent until the returned function is called. */
const observeDuring = (t: { ctx: ServerContext }, seen: string[]) =>
  t.ctx.database.observeQueries((q) => seen.push(q));

const settle = () => new Promise((r) => setTimeout(r, 100));

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("fairness between companies", () => {
  it("queues a company's calls past its slots, then refuses with 429, Turkish and Retry-After", async () => {
    const t = await appWith({});
    close = () => t.app.close();
    const calls = Array.from({ length: 4 }, () => t.call("/api/slow", 1));
    await settle();
    expect(t.started()).toBe(2);
    const refused = await t.call("/api/slow", 1);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Şirketinizin şu anda çok sayıda isteği işleniyor. Lütfen birkaç saniye sonra tekrar deneyiniz.",
    );
    t.openGate();
    await settle();
    // The two queued ones took the freed slots; they wait at the new gate.
    expect(t.started()).toBe(4);
    t.openGate();
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it("scopes slots and queues per company; heavy work has its own", async () => {
    const t = await appWith({});
    close = () => t.app.close();
    const busy = Array.from({ length: 4 }, () => t.call("/api/slow", 1));
    await settle();
    expect((await t.call("/api/slow", 1)).status).toBe(429);
    // Another company, and calls without one, go straight through.
    expect((await t.call("/api/fast", 2)).status).toBe(200);
    expect((await t.call("/api/fast")).status).toBe(200);
    // A waiting call (the long poll) takes no slot: it starts though the company's queue is full.
    const poll = t.call("/api/poll", 1);
    busy.push(poll);
    // The same company's heavy lane: one at a time, one waiting, then 429.
    const exports = [t.call("/api/export", 1), t.call("/api/export", 1)];
    await settle();
    expect(t.started()).toBe(3);
    expect((await t.call("/api/export", 1)).status).toBe(429);
    // Company 2's export starts at once.
    exports.push(t.call("/api/export", 2));
    await settle();
    expect(t.started()).toBe(4);
    for (let i = 0; i < 3; i++) {
      t.openGate();
      await settle();
    }
    expect((await Promise.all([...busy, ...exports])).every((r) => r.status === 200)).toBe(true);
  });

  it("admits a company's call before the routes' hooks (the session lookup) run for it", async () => {
    const t = await appWith({ api: { concurrent: 1, queue: 5, maxWaitMs: 5_000 } });
    close = () => t.app.close();
    const first = t.call("/api/slow", 1);
    await settle();
    const queued = [t.call("/api/slow", 1), t.call("/api/fast", 1)];
    await settle();
    // The two waiting calls have cost no session lookup yet; another company's call goes through.
    expect(t.sessionChecks()).toBe(1);
    expect((await t.call("/api/fast", 2)).status).toBe(200);
    expect(t.sessionChecks()).toBe(2);
    t.openGate();
    await settle();
    expect(t.sessionChecks()).toBe(3);
    t.openGate();
    expect((await Promise.all([first, ...queued])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(t.sessionChecks()).toBe(4);
  });

  it("refuses a call whose turn does not come in time", async () => {
    const t = await appWith({ api: { concurrent: 1, queue: 5, maxWaitMs: 200 } });
    close = () => t.app.close();
    const first = t.call("/api/slow", 1);
    await settle();
    const started = performance.now();
    const late = await t.call("/api/slow", 1);
    expect(late.status).toBe(429);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    t.openGate();
    expect((await first).status).toBe(200);
  });

  it("gives back the place of a caller who left the queue, and the slot of one who left mid-call", async () => {
    const t = await appWith({ api: { concurrent: 1, queue: 1, maxWaitMs: 5_000 } });
    close = () => t.app.close();
    const running = new AbortController();
    const first = t.call("/api/slow", 1, running.signal).catch(() => "aborted");
    await settle();
    const leaving = new AbortController();
    const queued = t.call("/api/slow", 1, leaving.signal).catch(() => "aborted");
    await settle();
    expect((await t.call("/api/fast", 1)).status).toBe(429);
    leaving.abort();
    expect(await queued).toBe("aborted");
    await settle();
    // Its place in the queue is free again…
    const next = t.call("/api/fast", 1);
    await settle();
    // …and the running caller leaving frees the slot: the queued call runs without the gate opening.
    running.abort();
    expect(await first).toBe("aborted");
    expect((await next).status).toBe(200);
    t.openGate();
  });
});

describe("fairness in the app", () => {
  it("checks a session once for the calls of a company that arrive together", async () => {
    const t = await startTestApp();
    try {
      const { token } = await registerAndLogin(t.app);
      const seen: string[] = [];
      const stop = observeDuring(t, seen);
      try {
        // Signed in, the session not yet checked (as when its check has lapsed): eight calls at once.
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => call(t.app, "GET", "/api/Notification/1/10", { token })),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      } finally {
        stop();
      }
      expect(seen.filter((q) => /from "sessions"/i.test(q))).toHaveLength(1);
      // Without the gate in the way (support screens, calls without a company slot): one lookup too.
      forgetSessions(t.ctx, { companyId: (await t.ctx.tokens.verify(token))?.companyId ?? -1 });
      seen.length = 0;
      const again = observeDuring(t, seen);
      const request = { headers: { authorization: `Bearer ${token}` } } as FastifyRequest;
      const claims = await Promise.all(Array.from({ length: 8 }, () => resolveAuth(t.ctx, request)));
      again();
      expect(claims.every((c) => c !== null && c.sessionId === claims[0]?.sessionId)).toBe(true);
      expect(seen.filter((q) => /from "sessions"/i.test(q))).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it("names routes that exist as heavy work", async () => {
    const t = await startTestApp();
    try {
      for (const url of [...HEAVY_ROUTES, ...WAITING_ROUTES]) {
        const found = ["GET", "POST"].some((method) => t.app.hasRoute({ method: method as "GET", url }));
        expect(found, url).toBe(true);
      }
    } finally {
      await t.close();
    }
  });
});
