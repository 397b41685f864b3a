/** Mikro price lists: definitions from STOK_SATIS_FIYAT_LISTE_TANIMLARI, prices keyset-paged by change. */

import type { Page, PageQuery, Price, PriceGroup } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import { type MikroApi, num, sqlString, str } from "./api";

const CURRENCIES: Record<number, string> = { 0: "TRY", 1: "USD", 2: "EUR", 3: "GBP" };

export class MikroPrices {
  private groupCache?: Promise<Map<string, PriceGroup>>;

  constructor(private readonly api: MikroApi) {}

  async listPriceGroups(): Promise<PriceGroup[]> {
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
    this.groupCache ??= this.listPriceGroups().then((g) => new Map(g.map((x) => [x.id, x])));
    this.groupCache.catch(() => {
      this.groupCache = undefined;
    });
    return this.groupCache;
  }

  async listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    type Tok = { a: string; g: string };
    const size = Math.min(5000, q.pageSize ?? this.api.pageSize);
    const groups = await this.groups();
    const tok = decodeToken<Tok>(q.pageToken, "mikro") ?? { a: q.since ?? "", g: "" };
    const listFilter =
      q.priceGroups && q.priceGroups.length > 0
        ? ` AND sfiyat_listesirano IN (${q.priceGroups.map((g) => Number(g)).join(", ")})`
        : "";
    const rows = await this.api.sql(
      `SELECT sfiyat_Guid, sfiyat_stokkod, sfiyat_listesirano, sfiyat_deposirano, sfiyat_fiyati, sfiyat_doviz, sfiyat_lastup_date FROM STOK_SATIS_FIYAT_LISTELERI WITH (NOLOCK) WHERE (sfiyat_lastup_date > ${sqlString(tok.a)} OR (sfiyat_lastup_date = ${sqlString(tok.a)} AND sfiyat_Guid > ${sqlString(tok.g)}))${listFilter} ORDER BY sfiyat_lastup_date, sfiyat_Guid OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
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
        ? encodeToken({ a: str(last.sfiyat_lastup_date), g: str(last.sfiyat_Guid) } satisfies Tok)
        : undefined;
    return { items, nextPageToken, cursor: last ? str(last.sfiyat_lastup_date) : q.since };
  }
}
