/**
 * Mikro stock per depot from the summary table STOK_HAREKETLERI_OZET (sho_*). The table is keyed by
 * firm, branch, code, cost centre, project, depot, fiscal year, period and movement kind, so a
 * (code, depot) has several rows: the quantity is their sum, without the value-difference kinds 9 and 15.
 * A page never ends inside a (code, depot) group — a group cut by the page limit is read again whole on
 * the next page. A full read can be split into ranges of stock codes read at once (`splitMikroStock`).
 *
 * Sources disagree on the return columns (VERIFIED.md, "Where sources disagree"): some public code that
 * runs against live Mikro databases counts `GirisNormal + CikisIade − CikisNormal − GirisIade` (a return
 * reverses the movement it cancels), other code `GirisNormal + GirisIade − CikisNormal − CikisIade` (a
 * return counts in its own direction). Nothing public settles it, so the connection form says which the
 * merchant's Mikro does (`returnColumns`: "ters", the default, or "yon"); the emulator plays both.
 */

import { ConnectorError } from "../sdk/errors";
import type { Page, PageQuery, StockLevel } from "../sdk/model";
import { chunk, decodeToken, encodeToken } from "../sdk/util";
import { type MikroApi, num, rangeBoundaries, type SqlRow, sqlString, str } from "./api";

const COLS = "sho_StokKodu, sho_Depo, sho_GirisNormal, sho_GirisIade, sho_CikisNormal, sho_CikisIade";
/** Movement kinds that carry value differences, not quantities (excluded by several live integrations). */
const QUANTITY_ROWS = "sho_HareketCins NOT IN (9, 15)";

const groupKey = (r: SqlRow) => `${str(r.sho_StokKodu)}|${num(r.sho_Depo)}`;

/** Which return column adds to stock (customer returns) and which subtracts (returns to the supplier). */
export type ReturnColumns = {
  back: "sho_CikisIade" | "sho_GirisIade";
  sent: "sho_CikisIade" | "sho_GirisIade";
};

/** The form's `returnColumns`: "ters" (default) — a return reverses its movement; "yon" — its own direction. */
export function returnColumnsOf(setting: string | undefined): ReturnColumns {
  const v = (setting ?? "").trim().toLocaleLowerCase("tr-TR");
  if (v === "" || v === "ters") return { back: "sho_CikisIade", sent: "sho_GirisIade" };
  if (v === "yon" || v === "yön") return { back: "sho_GirisIade", sent: "sho_CikisIade" };
  throw new ConnectorError(`mikro: returnColumns must be ters or yon, not ${setting}`, {
    reason: "config",
    system: "mikro",
    merchantMessage: "Mikro iade sütunları ayarı 'ters' ya da 'yon' olmalı.",
  });
}

/** Sum summary rows per (code, depot). */
export function stockLevels(
  rows: SqlRow[],
  returns: ReturnColumns = returnColumnsOf(undefined),
): StockLevel[] {
  const sums = new Map<string, StockLevel>();
  for (const r of rows) {
    const qty = num(r.sho_GirisNormal) + num(r[returns.back]) - num(r.sho_CikisNormal) - num(r[returns.sent]);
    const key = groupKey(r);
    const cur = sums.get(key);
    if (cur) cur.qty += qty;
    else sums.set(key, { sku: str(r.sho_StokKodu), location: String(num(r.sho_Depo)), qty });
  }
  return [...sums.values()];
}

/**
 * A stock "since" mark: `time|guid` of the last movement read (delta reads), or a bare time (a full
 * read's start), which lists every movement of that millisecond again.
 */
function sinceMark(since: string): { a: string; g: string } {
  const bar = since.indexOf("|");
  return bar < 0 ? { a: since, g: "" } : { a: since.slice(0, bar), g: since.slice(bar + 1) };
}

/** A full read's page token: after (code k, depot d), before code `e` when the read is one range of a split. */
type FullTok = { k: string; d: number; cursor: string; e?: string };

const depotFilterOf = (locations: string[] | undefined) =>
  locations && locations.length > 0 ? ` AND sho_Depo IN (${locations.map((l) => Number(l)).join(", ")})` : "";

/** The newest stock movement when a full read starts: the mark the next delta read starts from. */
async function newestMovement(api: MikroApi): Promise<string> {
  const last = await api.sql(
    "SELECT TOP 1 sth_lastup_date FROM STOK_HAREKETLERI ORDER BY sth_lastup_date DESC",
  );
  return str(last[0]?.sth_lastup_date) || "1900-01-01 00:00:00.000";
}

/**
 * A full stock read split into up to `parts` ranges of stock codes of about the same number of summary
 * rows: one COUNT, then the code at each boundary's offset (read at once). A code is never split, so a
 * SKU's depots stay in one range.
 */
export async function splitMikroStock(
  api: MikroApi,
  parts: number,
  q: { locations?: string[] } = {},
): Promise<string[]> {
  const from = `STOK_HAREKETLERI_OZET WITH (NOLOCK) WHERE ${QUANTITY_ROWS}${depotFilterOf(q.locations)}`;
  const [cursor, found] = await Promise.all([
    newestMovement(api),
    rangeBoundaries(api, from, "sho_StokKodu, sho_Depo", "sho_StokKodu", parts),
  ]);
  const bounds = [...new Set(found.map((r) => str(r.sho_StokKodu)).filter((c) => c !== ""))].sort();
  // Range i starts at (before) code bounds[i − 1] and ends before bounds[i].
  const starts = ["", ...bounds];
  return starts.map((k, i) => encodeToken({ k, d: -1, cursor, e: bounds[i] } satisfies FullTok));
}

export async function listMikroStock(
  api: MikroApi,
  q: PageQuery & { locations?: string[] } = {},
): Promise<Page<StockLevel>> {
  const size = Math.min(5000, q.pageSize ?? api.pageSize);
  const depotFilter = depotFilterOf(q.locations);

  if (!q.since) {
    // Full read, keyset on (code, depot); the cursor is the newest movement at the start.
    const tok = decodeToken<FullTok>(q.pageToken, "mikro") ?? {
      k: "",
      d: -1,
      cursor: await newestMovement(api),
    };
    const after = `(sho_StokKodu > ${sqlString(tok.k)} OR (sho_StokKodu = ${sqlString(tok.k)} AND sho_Depo > ${tok.d}))`;
    const before = tok.e !== undefined ? ` AND sho_StokKodu < ${sqlString(tok.e)}` : "";
    let rows = await api.sql(
      `SELECT ${COLS} FROM STOK_HAREKETLERI_OZET WITH (NOLOCK) WHERE ${after}${before} AND ${QUANTITY_ROWS}${depotFilter} ORDER BY sho_StokKodu, sho_Depo OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
    );
    const full = rows.length === size;
    if (full) {
      // The last group may go on past the limit: leave it for the next page, which reads it whole.
      const lastKey = groupKey(rows[rows.length - 1] as SqlRow);
      const kept = rows.filter((r) => groupKey(r) !== lastKey);
      if (kept.length > 0) rows = kept;
      else {
        // One group fills the page: read exactly that group, without a limit.
        const r0 = rows[0] as SqlRow;
        rows = await api.sql(
          `SELECT ${COLS} FROM STOK_HAREKETLERI_OZET WITH (NOLOCK) WHERE sho_StokKodu = ${sqlString(str(r0.sho_StokKodu))} AND sho_Depo = ${num(r0.sho_Depo)} AND ${QUANTITY_ROWS}`,
        );
      }
    }
    const last = rows[rows.length - 1];
    const nextPageToken =
      full && last
        ? encodeToken({
            k: str(last.sho_StokKodu),
            d: num(last.sho_Depo),
            cursor: tok.cursor,
            e: tok.e,
          } satisfies FullTok)
        : undefined;
    return {
      items: stockLevels(rows, returnColumnsOf(api.cfg.returnColumns)),
      nextPageToken,
      cursor: tok.cursor,
    };
  }

  // Changed since: stock movements after the cursor name the stock codes; read their whole summaries.
  type Tok = { a: string; g: string };
  const tok = decodeToken<Tok>(q.pageToken, "mikro") ?? sinceMark(q.since);
  const moves = await api.sql(
    `SELECT sth_Guid, sth_stok_kod, sth_lastup_date FROM STOK_HAREKETLERI WITH (NOLOCK) WHERE (sth_lastup_date > ${sqlString(tok.a)} OR (sth_lastup_date = ${sqlString(tok.a)} AND sth_Guid > ${sqlString(tok.g)})) ORDER BY sth_lastup_date, sth_Guid OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
  );
  const codes = [...new Set(moves.map((m) => str(m.sth_stok_kod)))];
  const rows: SqlRow[] = [];
  for (const part of chunk(codes, 500)) {
    rows.push(
      ...(await api.sql(
        `SELECT ${COLS} FROM STOK_HAREKETLERI_OZET WITH (NOLOCK) WHERE sho_StokKodu IN (${part.map(sqlString).join(", ")}) AND ${QUANTITY_ROWS}${depotFilter}`,
      )),
    );
  }
  const last = moves[moves.length - 1];
  // The mark names the last movement itself (time and guid), so asking again from it lists nothing.
  const cursor = last ? `${str(last.sth_lastup_date)}|${str(last.sth_Guid)}` : q.since;
  const nextPageToken =
    moves.length === size && last
      ? encodeToken({ a: str(last.sth_lastup_date), g: str(last.sth_Guid) } satisfies Tok)
      : undefined;
  return { items: stockLevels(rows, returnColumnsOf(api.cfg.returnColumns)), nextPageToken, cursor };
}
