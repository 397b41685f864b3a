/**
 * Paging as systems do it, for emulator handlers: page-number/offset (`Index`+`Size`, `page`+`limit`),
 * keyset (rows after the last key seen) and opaque cursors. Page sizes are clamped the way a server
 * clamps them, so a connector asking for more than the limit gets the limit, not an error.
 */

export interface PageSizeRule {
  /** Used when the request names no size (or 0 / not a number). */
  fallback: number;
  /** The server's maximum. */
  max: number;
  min?: number;
}

/** Page size from a request value (number or numeric string, as MikroAPI's `Size: "500"`). */
export function clampPageSize(raw: unknown, rule: PageSizeRule): number {
  const n = typeof raw === "number" ? raw : Number(String(raw ?? "").trim());
  if (!Number.isFinite(n) || n <= 0) return rule.fallback;
  return Math.min(Math.max(rule.min ?? 1, Math.floor(n)), rule.max);
}

export interface SlicedPage<T> {
  items: T[];
  /** More rows follow this page. */
  hasMore: boolean;
  total: number;
}

/** Zero-based page `index` of `size` rows. */
export function offsetPage<T>(rows: readonly T[], index: number, size: number): SlicedPage<T> {
  const start = Math.max(0, Math.floor(index)) * size;
  const items = rows.slice(start, start + size);
  return { items, hasMore: start + size < rows.length, total: rows.length };
}

/** Rows (sorted ascending by `keyOf`) strictly after `after`, at most `size`. */
export function keysetPage<T, K extends string | number>(
  rows: readonly T[],
  keyOf: (row: T) => K,
  after: K | undefined,
  size: number,
): SlicedPage<T> & { lastKey?: K } {
  let lo = 0;
  if (after !== undefined) {
    // binary search for the first row whose key > after
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const row = rows[mid] as T;
      if (keyOf(row) <= after) lo = mid + 1;
      else hi = mid;
    }
  }
  const items = rows.slice(lo, lo + size);
  const last = items[items.length - 1];
  return {
    items,
    hasMore: lo + size < rows.length,
    total: rows.length,
    lastKey: last === undefined ? undefined : keyOf(last),
  };
}

/** Opaque cursor a server hands out (base64url JSON); a broken one reads as `undefined`. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

export function decodeCursor<T>(cursor: string | undefined | null): T | undefined {
  if (!cursor) return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as T;
  } catch {
    return undefined;
  }
}
