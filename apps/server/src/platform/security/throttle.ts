import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { throttleEvents } from "../db/schema.ts";
import type { Tx } from "../db/tx-sql.ts";

type Executor = Db | Tx;

/**
 * Sliding-window counters in the database, so every API process shares them: one row per request
 * in a bucket ("recover:address", "login:address"...), counted over the window.
 */
export async function recordHit(db: Executor, bucket: string, key: string, now: Date): Promise<void> {
  await db.insert(throttleEvents).values({ bucket, key, createdAt: now });
}

/** The bucket's hits for `key` since `since`. */
const inWindow = (bucket: string, key: string, since: Date) =>
  and(eq(throttleEvents.bucket, bucket), eq(throttleEvents.key, key), gt(throttleEvents.createdAt, since));

export async function countHits(db: Executor, bucket: string, key: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(throttleEvents)
    .where(inWindow(bucket, key, since));
  return row?.n ?? 0;
}

/** Records one hit and answers how many the window now holds (this one included). */
export async function hit(db: Executor, bucket: string, key: string, now: Date, windowMs: number) {
  await recordHit(db, bucket, key, now);
  return countHits(db, bucket, key, new Date(now.getTime() - windowMs));
}

/** Drops hits older than every window (housekeeping). */
export async function pruneHits(db: Executor, before: Date): Promise<void> {
  await db.delete(throttleEvents).where(lt(throttleEvents.createdAt, before));
}

/**
 * Seconds until the window holds `limit` hits again: the oldest hits must age out first. Sent as
 * Retry-After with a 429, so a client (or a person) knows how long to wait instead of guessing.
 */
export async function secondsUntilBelow(
  db: Executor,
  bucket: string,
  key: string,
  now: Date,
  windowMs: number,
  limit: number,
): Promise<number> {
  const since = new Date(now.getTime() - windowMs);
  const over = (await countHits(db, bucket, key, since)) - limit;
  if (over <= 0) return 1;
  // The hit whose expiry brings the count back to the limit.
  const [row] = await db
    .select({ at: throttleEvents.createdAt })
    .from(throttleEvents)
    .where(inWindow(bucket, key, since))
    .orderBy(asc(throttleEvents.createdAt))
    .offset(over - 1)
    .limit(1);
  const expiresAt = (row?.at ?? now).getTime() + windowMs;
  return Math.max(1, Math.ceil((expiresAt - now.getTime()) / 1000));
}
