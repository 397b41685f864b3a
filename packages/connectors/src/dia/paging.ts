/**
 * How DİA lists are read without wasting kontör: a full read walks the key (`field > last`), a delta read
 * walks the change date `_date` (filter `_date >= since`, sorted by `_date` then the key). A delta page
 * token keeps the last date and how many rows of that date were already taken, so a page never repeats
 * or skips rows however many share one date. Reads overlap the cursor's date; the engine dedupes.
 */

import type { PageQuery } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import type { DiaApi, DiaFilter, DiaRow } from "./api";
import { str } from "./api";

type Tok =
  | { mode: "full"; after: string; max: string }
  | { mode: "delta"; d: string; n: number; max: string };

export interface DiaScan {
  rows: DiaRow[];
  nextPageToken?: string;
  /** Newest `_date` seen (the next delta read starts there). */
  cursor?: string;
}

export async function scanList(
  api: DiaApi,
  module: string,
  service: string,
  keyField: string,
  q: PageQuery,
  extra: { filters?: DiaFilter[]; params?: Record<string, unknown> } = {},
): Promise<DiaScan> {
  const size = Math.max(1, Math.min(q.pageSize ?? api.pageSize, 2000));
  const tok: Tok =
    decodeToken<Tok>(q.pageToken, "dia") ??
    (q.since ? { mode: "delta", d: q.since, n: 0, max: q.since } : { mode: "full", after: "", max: "" });
  const base = extra.filters ?? [];
  let rows: DiaRow[];
  if (tok.mode === "full") {
    rows = await api.list(module, service, {
      filters: tok.after ? [...base, { field: keyField, operator: ">", value: tok.after }] : base,
      sorts: [{ field: keyField, sorttype: "ASC" }],
      params: extra.params,
      limit: size,
      offset: 0,
    });
  } else {
    rows = await api.list(module, service, {
      filters: [...base, { field: "_date", operator: ">=", value: tok.d }],
      sorts: [
        { field: "_date", sorttype: "ASC" },
        { field: keyField, sorttype: "ASC" },
      ],
      params: extra.params,
      limit: size,
      offset: tok.n,
    });
  }
  let max = tok.max;
  for (const r of rows) if (str(r._date) > max) max = str(r._date);
  let next: Tok | undefined;
  if (rows.length === size) {
    const last = rows[rows.length - 1] as DiaRow;
    if (tok.mode === "full") next = { mode: "full", after: str(last[keyField]), max };
    else {
      const d = str(last._date);
      const sameDate = rows.filter((r) => str(r._date) === d).length;
      next = { mode: "delta", d, n: d === tok.d ? tok.n + sameDate : sameDate, max };
    }
  }
  return { rows, nextPageToken: next ? encodeToken(next) : undefined, cursor: max || undefined };
}
