import { type RateLimitDecision, type RateLimitStore, type RateLimitTake, refusal } from "@ep/connectors";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { rateLimitWindows } from "../store/schema.ts";

/**
 * The connectors' rate limiter, kept in the database so every worker process shares one window per
 * (company, external system). One row per key, locked for the decision: exact, never over the limit.
 * Each decision is one statement (a connector call costs a round trip to take and one to settle): on
 * a small box every statement also wakes the database, so their number is the limiter's cost.
 *
 * A request in flight counts until it is answered (`holdMs`, then `settle`), as in the in-memory
 * store: the system counts the request when it gets to it, which can be later than our stamp (our
 * commit and send, its queue behind a large batch), so a stamp taken only at sending could free the
 * place before the system's own window does, and the next request would meet a 429.
 */
export class PgRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Db) {}

  async take(request: RateLimitTake): Promise<RateLimitDecision> {
    const { key, cost, limit, windowMs, now, holdMs } = request;
    // More than the window holds never fits.
    if (cost > limit) return { allowed: false, retryAfterMs: windowMs };
    // A held stamp is its own ticket: unique by a fraction of a millisecond, exact through jsonb.
    const stamp = holdMs === undefined ? now : now + holdMs + Math.random();
    const added = JSON.stringify(Array.from({ length: cost }, () => stamp));
    const cutoff = now - windowMs;
    // One statement decides and stamps: the row is locked only while it runs (the insert's conflict
    // takes the row lock), not across a transaction's round trips, and a request costs one round
    // trip to take and one to settle. Stamps older than the window are dropped as it writes. `now` is
    // the caller's: a wait for the lock only keeps more stamps inside the window (stricter), and a
    // held stamp is replaced by the answer time in `settle`.
    const taken = await this.db.execute(sql`
      insert into rate_limit_windows as w (key, stamps) values (${key}::text, ${added}::jsonb)
      on conflict (key) do update set stamps = (
          select coalesce(jsonb_agg(s), '[]'::jsonb) from jsonb_array_elements(w.stamps) s
          where (s #>> '{}')::float8 > ${cutoff}::float8
        ) || ${added}::jsonb
        where w.blocked_until <= ${now}::float8 and (
          select count(*) from jsonb_array_elements(w.stamps) s where (s #>> '{}')::float8 > ${cutoff}::float8
        ) + ${cost}::integer <= ${limit}::integer
      returning 1 as taken`);
    if (taken.rows.length > 0)
      return { allowed: true, retryAfterMs: 0, ticket: holdMs === undefined ? undefined : String(stamp) };

    // Refused: when to look again, from the row as it is now.
    const [row] = await this.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    if (row && row.blockedUntil > now) return { allowed: false, retryAfterMs: row.blockedUntil - now };
    const stamps = (row?.stamps ?? []).filter((t) => t > cutoff);
    // A place freed (settled, or the window moved) since the statement: look again at once.
    if (stamps.length + cost <= limit) return { allowed: false, retryAfterMs: 1 };
    return refusal(stamps, request);
  }

  /** The request of `ticket` was answered at `at`: its units count from then on (one statement). */
  async settle(key: string, ticket: string, at: number): Promise<void> {
    await this.db.execute(sql`
      update rate_limit_windows set stamps = (
          select jsonb_agg(case when (s #>> '{}')::numeric = ${ticket}::numeric then to_jsonb(${at}::float8) else s end)
          from jsonb_array_elements(stamps) s
        )
      where key = ${key}::text and stamps @> jsonb_build_array(${ticket}::numeric)`);
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
