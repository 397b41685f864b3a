import type { RateLimitDecision, RateLimitStore } from "@ep/connectors";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { rateLimitWindows } from "../store/schema.ts";

/**
 * The connectors' rate limiter, kept in the database so every worker process shares one window per
 * (company, external system). One row per key, locked for the decision: exact, never over the limit.
 *
 * A request in flight counts until it is answered (`holdMs`, then `settle`), as in the in-memory
 * store: the system counts the request when it gets to it, which can be later than our stamp (our
 * commit and send, its queue behind a large batch), so a stamp taken only at sending could free the
 * place before the system's own window does, and the next request would meet a 429.
 */
export class PgRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Db) {}

  async take(
    key: string,
    cost: number,
    limit: number,
    windowMs: number,
    calledAt: number,
    holdMs?: number,
  ): Promise<RateLimitDecision> {
    const started = Date.now();
    return this.db.transaction(async (tx) => {
      await tx.insert(rateLimitWindows).values({ key }).onConflictDoNothing();
      const [row] = await tx
        .select()
        .from(rateLimitWindows)
        .where(eq(rateLimitWindows.key, key))
        .for("update");
      // Decide and stamp at the moment the row is ours, not when we asked: under contention the wait for
      // the lock would otherwise date the stamp early, and the window would free its place too soon.
      const now = calledAt + (Date.now() - started);
      if (row && row.blockedUntil > now) return { allowed: false, retryAfterMs: row.blockedUntil - now };
      const stamps = (row?.stamps ?? []).filter((t) => t > now - windowMs);
      if (stamps.length + cost > limit) {
        // Held stamps lie in the future, so the stamps are not in order: the place that frees first.
        // A place still held frees a window after its answer at the earliest: look again then.
        const times = [...stamps].sort((a, b) => a - b);
        const oldest = Math.min(times[stamps.length + cost - limit - 1] ?? now, now);
        return { allowed: false, retryAfterMs: Math.max(1, oldest + windowMs - now + 1) };
      }
      // A held stamp is its own ticket: unique by a fraction of a millisecond, exact through jsonb.
      const stamp = holdMs === undefined ? now : now + holdMs + Math.random();
      for (let i = 0; i < cost; i++) stamps.push(stamp);
      await tx.update(rateLimitWindows).set({ stamps }).where(eq(rateLimitWindows.key, key));
      return { allowed: true, retryAfterMs: 0, ticket: holdMs === undefined ? undefined : String(stamp) };
    });
  }

  /** The request of `ticket` was answered at `at`: its units count from then on. */
  async settle(key: string, ticket: string, at: number): Promise<void> {
    const held = Number(ticket);
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(rateLimitWindows)
        .where(eq(rateLimitWindows.key, key))
        .for("update");
      if (!row?.stamps.includes(held)) return;
      const stamps = row.stamps.map((t) => (t === held ? at : t));
      await tx.update(rateLimitWindows).set({ stamps }).where(eq(rateLimitWindows.key, key));
    });
  }

  async blockUntil(key: string, until: number): Promise<void> {
    await this.db
      .insert(rateLimitWindows)
      .values({ key, blockedUntil: until })
      .onConflictDoUpdate({
        target: rateLimitWindows.key,
        set: { blockedUntil: sql`greatest(${rateLimitWindows.blockedUntil}, ${until})` },
      });
  }
}
