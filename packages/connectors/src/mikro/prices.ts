/** Mikro price lists: definitions from STOK_SATIS_FIYAT_LISTE_TANIMLARI, prices keyset-paged by change. */

import type { Page, PageQuery, Price, PriceGroup } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import { type MikroApi, num, rangeBoundaries, sqlString, str } from "./api";

const CURRENCIES: Record<number, string> = { 0: "TRY", 1: "USD", 2: "EUR", 3: "GBP" };

/** After (change time a, guid g); up to and including (ea, eg) when the read is one range of a split. */
type PriceTok = { a: string; g: string; ea?: string; eg?: string };

const listFilterOf = (priceGroups: string[] | undefined) =>
  priceGroups && priceGroups.length > 0
    ? ` AND sfiyat_listesirano IN (${priceGroups.map((g) => Number(g)).join(", ")})`
    : "";

export class MikroPrices {
  private groupCache?: Promise<Map<string, PriceGroup>>;

  constructor(private readonly api: MikroApi) {}

  /** The price lists; the answer is kept for this connector's price pages (one ERP read, not two). */
  async listPriceGroups(): Promise<PriceGroup[]> {
    const groups = await this.readPriceGroups();
    this.groupCache = Promise.resolve(new Map(groups.map((g) => [g.id, g])));
    return groups;
  }

  private async readPriceGroups(): Promise<PriceGroup[]> {
    const rows = await this.api.sql(
      "SELECT sfl_sirano, sfl_aciklama, sfl_kdvdahil, sfl_doviz FROM STOK_SATIS_FIYAT_LISTE_TANIMLARI ORDER BY sfl_sirano",
    );
    return rows.map((r) => ({
      id: str(r.sfl_sirano),
      name: str(r.sfl_aciklama),
      vatIncluded: num(r.sfl_kdvdahil) === 1,
      currency: CURRENCIES[num(r.sfl_doviz)] ?? "TRY",
      isDefault: num(r.sfl_sirano) === 1,
    }));
  }

  private groups(): Promise<Map<string, PriceGroup>> {
    this.groupCache ??= this.readPriceGroups().then((g) => new Map(g.map((x) => [x.id, x])));
    this.groupCache.catch(() => {
      this.groupCache = undefined;
    });
    return this.groupCache;
  }

  /**
   * A full price read split into up to `parts` ranges of (change time, guid) of about the same size: one
   * COUNT, then the row at each boundary's offset (read at once). Range i ends with its boundary row.
   */
  async splitPrices(parts: number, q: { priceGroups?: string[] } = {}): Promise<string[]> {
    const filter = listFilterOf(q.priceGroups);
    const where = filter ? `WHERE ${filter.slice(" AND ".length)}` : "";
    const found = await rangeBoundaries(
      this.api,
      `STOK_SATIS_FIYAT_LISTELERI WITH (NOLOCK) ${where}`,
      "sfiyat_lastup_date, sfiyat_Guid",
      "sfiyat_lastup_date, sfiyat_Guid",
      parts,
    );
    const bounds = found.map((r) => ({ a: str(r.sfiyat_lastup_date), g: str(r.sfiyat_Guid) }));
    const starts = [{ a: "", g: "" }, ...bounds];
    return starts.map((start, i) => {
      const end = bounds[i];
      return encodeToken({ ...start, ...(end ? { ea: end.a, eg: end.g } : {}) } satisfies PriceTok);
    });
  }

  async listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    const size = Math.min(5000, q.pageSize ?? this.api.pageSize);
    const groups = await this.groups();
    const tok = decodeToken<PriceTok>(q.pageToken, "mikro") ?? { a: q.since ?? "", g: "" };
    const listFilter = listFilterOf(q.priceGroups);
    // A range of a split read ends with its boundary row (the next range starts after it).
    const before =
      tok.ea !== undefined
        ? ` AND (sfiyat_lastup_date < ${sqlString(tok.ea)} OR (sfiyat_lastup_date = ${sqlString(tok.ea)} AND sfiyat_Guid <= ${sqlString(tok.eg ?? "")}))`
        : "";
    const rows = await this.api.sql(
      `SELECT sfiyat_Guid, sfiyat_stokkod, sfiyat_listesirano, sfiyat_deposirano, sfiyat_fiyati, sfiyat_doviz, sfiyat_lastup_date FROM STOK_SATIS_FIYAT_LISTELERI WITH (NOLOCK) WHERE (sfiyat_lastup_date > ${sqlString(tok.a)} OR (sfiyat_lastup_date = ${sqlString(tok.a)} AND sfiyat_Guid > ${sqlString(tok.g)}))${before}${listFilter} ORDER BY sfiyat_lastup_date, sfiyat_Guid OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
    );
    const items: Price[] = rows
      .filter((r) => num(r.sfiyat_deposirano) === 0)
      .map((r) => ({
        sku: str(r.sfiyat_stokkod),
        priceGroup: str(r.sfiyat_listesirano),
        amount: num(r.sfiyat_fiyati),
        currency: CURRENCIES[num(r.sfiyat_doviz)] ?? "TRY",
        vatIncluded: groups.get(str(r.sfiyat_listesirano))?.vatIncluded ?? true,
      }));
    const last = rows[rows.length - 1];
    const nextPageToken =
      rows.length === size && last
        ? encodeToken({
            a: str(last.sfiyat_lastup_date),
            g: str(last.sfiyat_Guid),
            ...(tok.ea !== undefined ? { ea: tok.ea, eg: tok.eg } : {}),
          } satisfies PriceTok)
        : undefined;
    return { items, nextPageToken, cursor: last ? str(last.sfiyat_lastup_date) : q.since };
  }
}
