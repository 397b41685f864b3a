/**
 * DİA stock per depot: `scf_stokkart_listele` with quantities computed (`miktarhesapla`) for one depot
 * (`_key_sis_depo_filtre`), only the code and `gercek_stok` columns. A quantity changes through documents,
 * not through the card, so the card's `_date` says nothing about it: stock is read whole (big pages,
 * two columns) and the engine compares. The doc names no change filter for quantities.
 */

import type { Page, PageQuery, StockLevel, StockLocation } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import { type DiaApi, type DiaRow, num, str } from "./api";

export async function listDiaDepots(api: DiaApi): Promise<Array<StockLocation & { key: string }>> {
  const answer = await api.call("sis", "sis_yetkili_firma_donem_sube_depo", "read", {}, { scoped: false });
  const firms = Array.isArray(answer.result) ? (answer.result as DiaRow[]) : [];
  const firm = firms.find((f) => num(f.firmakodu) === api.firm);
  const out: Array<StockLocation & { key: string }> = [];
  for (const branch of (firm?.subeler as DiaRow[] | undefined) ?? []) {
    for (const d of (branch.depolar as DiaRow[] | undefined) ?? []) {
      out.push({ id: str(d.depokodu), name: str(d.depoadi), key: str(d._key) });
    }
  }
  return out;
}

export class DiaStock {
  private depots?: Promise<Array<StockLocation & { key: string }>>;

  constructor(private readonly api: DiaApi) {}

  depotList(): Promise<Array<StockLocation & { key: string }>> {
    this.depots ??= listDiaDepots(this.api);
    this.depots.catch(() => {
      this.depots = undefined;
    });
    return this.depots;
  }

  async listStock(q: PageQuery & { locations?: string[] } = {}): Promise<Page<StockLevel>> {
    type Tok = { i: number; after: string };
    const all = await this.depotList();
    const depots = q.locations?.length ? all.filter((d) => q.locations?.includes(d.id)) : all;
    const tok = decodeToken<Tok>(q.pageToken, "dia") ?? { i: 0, after: "" };
    const depot = depots[tok.i];
    if (!depot) return { items: [] };
    const size = Math.max(1, Math.min(q.pageSize ?? this.api.pageSize * 2, 2000));
    const rows = await this.api.list("scf", "scf_stokkart_listele", {
      filters: tok.after ? [{ field: "stokkartkodu", operator: ">", value: tok.after }] : [],
      sorts: [{ field: "stokkartkodu", sorttype: "ASC" }],
      params: {
        miktarhesapla: "True",
        _key_sis_depo_filtre: Number(depot.key),
        selectedcolumns: ["stokkartkodu", "gercek_stok"],
      },
      limit: size,
      offset: 0,
    });
    const items = rows.map((r) => ({
      sku: str(r.stokkartkodu),
      location: depot.id,
      qty: num(r.gercek_stok),
    }));
    const last = rows[rows.length - 1];
    const next: Tok | undefined =
      rows.length === size && last
        ? { i: tok.i, after: str(last.stokkartkodu) }
        : tok.i + 1 < depots.length
          ? { i: tok.i + 1, after: "" }
          : undefined;
    return { items, nextPageToken: next ? encodeToken(next) : undefined };
  }
}
