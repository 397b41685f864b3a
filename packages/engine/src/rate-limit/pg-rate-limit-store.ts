import type { RateLimitDecision, RateLimitStore } from "@ep/connectors";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { rateLimitWindows } from "../store/schema.ts";

/**
 * The connectors' rate limiter, kept in the database so every worker process shares one window per
 * (company, external system). One row per key, locked for the decision: exact, never over the limit.
 */
export class PgRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Db) {}

  async take(
    key: string,
    cost: number,
    limit: number,
    windowMs: number,
    now: number,
  ): Promise<RateLimitDecision> {
    return this.db.transaction(async (tx) => {
      await tx.insert(rateLimitWindows).values({ key }).onConflictDoNothing();
      const [row] = await tx
        .select()
        .from(rateLimitWindows)
        .where(eq(rateLimitWindows.key, key))
        .for("update");
      if (row && row.blockedUntil > now) return { allowed: false, retryAfterMs: row.blockedUntil - now };
      const stamps = (row?.stamps ?? []).filter((t) => t > now - windowMs);
      if (stamps.length + cost > limit) {
        const oldest = stamps[stamps.length + cost - limit - 1] ?? now;
        return { allowed: false, retryAfterMs: Math.max(1, oldest + windowMs - now + 1) };
      }
      for (let i = 0; i < cost; i++) stamps.push(now);
      await tx.update(rateLimitWindows).set({ stamps }).where(eq(rateLimitWindows.key, key));
      return { allowed: true, retryAfterMs: 0 };
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
