import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./database.ts";

/** Lists count exactly up to this many rows; past it the planner's estimate stands in. */
export const EXACT_COUNT_LIMIT = 1000;

type Plan = { Plan?: { "Plan Rows"?: number } }[];

/**
 * The number of rows matching `where`, without scanning a long history: counted exactly up to
 * EXACT_COUNT_LIMIT, estimated by the planner (from the table's statistics) past it, and then
 * never below the limit.
 */
export async function countRows(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const condition = where ?? sql`true`;
  const capped = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${table} where ${condition} limit ${EXACT_COUNT_LIMIT + 1}) as capped`,
  );
  const n = Number(capped.rows[0]?.n ?? 0);
  if (n <= EXACT_COUNT_LIMIT) return n;
  const explained = await db.execute<{ "QUERY PLAN": Plan | string }>(
    sql`explain (format json) select 1 from ${table} where ${condition}`,
  );
  const raw = explained.rows[0]?.["QUERY PLAN"];
  const plan: Plan = typeof raw === "string" ? JSON.parse(raw) : (raw ?? []);
  const estimate = Math.round(Number(plan[0]?.Plan?.["Plan Rows"] ?? 0));
  return Math.max(EXACT_COUNT_LIMIT + 1, Number.isFinite(estimate) ? estimate : 0);
}
