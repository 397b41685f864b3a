import { type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./database.ts";

/** Lists count exactly up to this many rows; past it the planner's estimate stands in. */
export const EXACT_COUNT_LIMIT = 1000;

type Plan = { Plan?: { "Plan Rows"?: number } }[];

/** Estimates change slowly: one per query and parameters is reused for a minute (paging asks again and again). */
const ESTIMATE_TTL_MS = 60_000;
const ESTIMATES_KEPT = 500;
const estimates = new Map<string, { value: number; at: number }>();
const dialect = new PgDialect();

/**
 * The number of rows matching `where`, without scanning a long history: counted exactly up to
 * EXACT_COUNT_LIMIT, estimated by the planner (from the table's statistics) past it, and then
 * never below the limit. The estimate is kept a minute, so paging costs the capped count only.
 */
export async function countRows(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const condition = where ?? sql`true`;
  const capped = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${table} where ${condition} limit ${EXACT_COUNT_LIMIT + 1}) as capped`,
  );
  const n = Number(capped.rows[0]?.n ?? 0);
  if (n <= EXACT_COUNT_LIMIT) return n;
  const query = sql`explain (format json) select 1 from ${table} where ${condition}`;
  const { sql: text, params } = dialect.sqlToQuery(query);
  const key = `${text}\u0000${JSON.stringify(params)}`;
  const now = Date.now();
  const cached = estimates.get(key);
  if (cached && now - cached.at < ESTIMATE_TTL_MS) return Math.max(EXACT_COUNT_LIMIT + 1, cached.value);
  const explained = await db.execute<{ "QUERY PLAN": Plan | string }>(query);
  const raw = explained.rows[0]?.["QUERY PLAN"];
  const plan: Plan = typeof raw === "string" ? JSON.parse(raw) : (raw ?? []);
  const estimate = Math.round(Number(plan[0]?.Plan?.["Plan Rows"] ?? 0));
  const value = Number.isFinite(estimate) ? estimate : 0;
  if (estimates.size >= ESTIMATES_KEPT) estimates.clear();
  estimates.set(key, { value, at: now });
  return Math.max(EXACT_COUNT_LIMIT + 1, value);
}
