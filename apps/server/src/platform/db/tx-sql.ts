import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./database.ts";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** What the `pg` driver would send: undefined as null, plain objects as JSON text. */
function asParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === "object" && !(value instanceof Date) && !Array.isArray(value)) {
    return JSON.stringify(value);
  }
  return value;
}

/** Turns `$1`-style SQL text into a Drizzle query, so pg-boss can enqueue inside our transaction. */
function toDrizzle(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${sql.param(asParam(values[Number(part) - 1]))}`);
  });
  return sql.join(chunks, sql.raw(""));
}

/** pg-boss's `db` option bound to an open transaction. */
export function txExecutor(tx: Tx) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await tx.execute(toDrizzle(text, values));
      return { rows: (result as unknown as { rows: Record<string, unknown>[] }).rows };
    },
  };
}
