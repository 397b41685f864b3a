/**
 * What a SQL statement does, as the agent (its transaction mode) and the server (a run's call counts)
 * both need to tell it.
 */

/** A statement that only reads: SELECT or WITH … SELECT, not locking rows (`WITH LOCK`). */
export function isReadOnlyStatement(sql: string): boolean {
  const text = sql.replace(/^(?:\s+|--[^\n]*|\/\*[\s\S]*?\*\/)*/, "");
  return /^(SELECT|WITH)\b/i.test(text) && !/\bWITH\s+LOCK\b/i.test(text);
}
