/**
 * The database rate limiter every worker shares (PgRateLimitStore): a request in flight counts until
 * it is answered, so a system that counts requests when it gets to them never sees more than its limit.
 */
import { RateLimiter } from "@ep/connectors";
import { engineSchema, PgRateLimitStore } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(async () => {
  await t.close();
});

const { rateLimitWindows } = engineSchema;
const WINDOW = 10_000;
const T0 = 1_800_000_000_000;
/** One unit of `key`'s window of `limit`, at `now`, held `holdMs` when given. */
const takeOne = (store: PgRateLimitStore, key: string, limit: number, now: number, holdMs?: number) =>
  store.take({ key, cost: 1, limit, windowMs: WINDOW, now, holdMs });

describe("the database rate limiter", () => {
  it("counts a request from the moment it is answered, not from when it was sent", async () => {
    const store = new PgRateLimitStore(t.ctx.database.db);
    const key = "rl-test:held";
    const sent = await takeOne(store, key, 1, T0, 30_000);
    expect(sent.allowed).toBe(true);
    expect(sent.ticket).toBeDefined();
    // While in flight the place stays taken, whatever the window says.
    const during = await takeOne(store, key, 1, T0 + WINDOW + 5_000, 30_000);
    expect(during.allowed).toBe(false);
    // Answered 2 s after it left: the place frees a whole window after the answer.
    await store.settle(key, sent.ticket as string, T0 + 2_000);
    const early = await takeOne(store, key, 1, T0 + 2_000 + WINDOW - 500, 30_000);
    expect(early.allowed).toBe(false);
    expect(early.retryAfterMs).toBeGreaterThan(0);
    expect(early.retryAfterMs).toBeLessThanOrEqual(600);
    const after = await takeOne(store, key, 1, T0 + 2_000 + WINDOW + 50, 30_000);
    expect(after.allowed).toBe(true);
  });

  it("frees a held place that is never settled (a worker died) once its hold and a window have passed", async () => {
    const store = new PgRateLimitStore(t.ctx.database.db);
    const key = "rl-test:lost";
    expect((await takeOne(store, key, 1, T0, 5_000)).allowed).toBe(true);
    expect((await takeOne(store, key, 1, T0 + 5_000 + WINDOW - 200)).allowed).toBe(false);
    expect((await takeOne(store, key, 1, T0 + 5_000 + WINDOW + 50)).allowed).toBe(true);
  });

  it("keeps only the stamps inside the window, and refuses once the window is full, with when to look again", async () => {
    const store = new PgRateLimitStore(t.ctx.database.db);
    const key = "rl-test:pruned";
    // One request per window for 20 windows: each is let through, and the old stamps are dropped.
    for (let i = 0; i < 20; i++) expect((await takeOne(store, key, 3, T0 + i * WINDOW)).allowed).toBe(true);
    const stampsOf = async () =>
      (await t.ctx.database.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key)))[0]
        ?.stamps;
    expect(await stampsOf()).toEqual([T0 + 19 * WINDOW]);
    // Two more fill the window; the fourth waits until the first of the three leaves it.
    const at = T0 + 19 * WINDOW;
    expect((await takeOne(store, key, 3, at + 100)).allowed).toBe(true);
    expect((await takeOne(store, key, 3, at + 200)).allowed).toBe(true);
    const refused = await takeOne(store, key, 3, at + 300);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: WINDOW - 300 + 1 });
    expect(await stampsOf()).toEqual([at, at + 100, at + 200]);
    // A block (a 429's Retry-After) refuses until it ends.
    await store.blockUntil(key, at + 2 * WINDOW);
    expect(await takeOne(store, key, 3, at + WINDOW + 500)).toMatchObject({
      allowed: false,
      retryAfterMs: WINDOW - 500,
    });
    expect((await takeOne(store, key, 3, at + 2 * WINDOW)).allowed).toBe(true);
  });

  it("a limiter on it settles each request: two limiters on one key never have more than the limit out", async () => {
    const store = new PgRateLimitStore(t.ctx.database.db);
    const budget = { requests: 3, windowMs: 400, safetyMarginMs: 0 };
    const limiters = [0, 1].map(() => new RateLimiter({ store, key: "rl-test:shared", budget }));
    const answeredAt: number[] = [];
    const sentAt: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const limiter = limiters[i % 2] as RateLimiter;
        const ticket = await limiter.acquire(1, undefined, 5_000);
        sentAt.push(Date.now());
        await new Promise((r) => setTimeout(r, 30));
        answeredAt.push(Date.now());
        await limiter.release(ticket);
      }),
    );
    // Never more than 3 requests sent within 400 ms of an earlier one's answer.
    const events = [...answeredAt].sort((a, b) => a - b);
    for (const s of sentAt) {
      const stillCounting = events.filter((a) => a <= s && a > s - budget.windowMs).length;
      expect(stillCounting).toBeLessThan(budget.requests);
    }
  });
});
