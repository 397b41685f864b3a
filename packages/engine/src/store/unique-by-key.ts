/**
 * The rows of a batch with one row per key, the last one read winning (it is the freshest), in the
 * order of first appearance. Every multi-row upsert in the engine goes through this: PostgreSQL
 * refuses an `ON CONFLICT DO UPDATE` that meets the same key twice in one statement ("cannot affect
 * row a second time"), and an ERP that pages while its data is edited lists an item twice.
 */
export function uniqueByKey<T>(rows: readonly T[], keyOf: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  // A Map keeps a key's first position when its value is replaced.
  for (const row of rows) byKey.set(keyOf(row), row);
  return [...byKey.values()];
}
