import { and, eq, gt, lt, sql } from "drizzle-orm";
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

export async function countHits(db: Executor, bucket: string, key: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(throttleEvents)
    .where(
      and(
        eq(throttleEvents.bucket, bucket),
        eq(throttleEvents.key, key),
        gt(throttleEvents.createdAt, since),
      ),
    );
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
