/** Mikro products and categories: stock cards from StokListesiV2, groups, brands and barcodes via SQL. */

import { message } from "@ep/contracts";
import { ConnectorError } from "../sdk/errors";
import type { Category, Page, PageQuery, Product, RejectedRecord } from "../sdk/model";
import { turkishDate } from "../sdk/turkish-time";
import { chunk, decodeToken, encodeToken } from "../sdk/util";
import { DAY, type MikroApi, num, sqlString, str } from "./api";

export interface Lookups {
  groups: Map<string, string>;
  subgroups: Map<string, { name: string; parent: string }>;
  brands: Map<string, string>;
}

export class MikroCatalog {
  private lookups?: Promise<Lookups>;

  constructor(private readonly api: MikroApi) {}

  loadLookups(): Promise<Lookups> {
    this.lookups ??= (async () => {
      const groups = await this.api.sql("SELECT san_kod, san_isim FROM STOK_ANA_GRUPLARI");
      const subgroups = await this.api.sql(
        "SELECT sta_kod, sta_isim, sta_ana_grup_kod FROM STOK_ALT_GRUPLARI",
      );
      const brands = await this.api.sql("SELECT mrk_kod, mrk_ismi FROM STOK_MARKALARI");
      return {
        groups: new Map(groups.map((g) => [str(g.san_kod), str(g.san_isim)])),
        subgroups: new Map(
          subgroups.map((s) => [str(s.sta_kod), { name: str(s.sta_isim), parent: str(s.sta_ana_grup_kod) }]),
        ),
        brands: new Map(brands.map((b) => [str(b.mrk_kod), str(b.mrk_ismi)])),
      };
    })();
    this.lookups.catch(() => {
      this.lookups = undefined;
    });
    return this.lookups;
  }

  async listCategories(): Promise<Page<Category>> {
    const l = await this.loadLookups();
    const items: Category[] = [];
    for (const [id, name] of l.groups) items.push({ id, name, path: [name] });
    for (const [id, s] of l.subgroups) {
      const parent = l.groups.get(s.parent);
      items.push({
        id,
        name: s.name,
        parentId: s.parent || undefined,
        path: parent ? [parent, s.name] : [s.name],
      });
    }
    return { items };
  }

  async listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    type Tok = { index: number; from: string; max: string };
    const size = Math.min(5000, q.pageSize ?? this.api.pageSize);
    // "Changed since" is day-granular in StokListesiV2; read from the day before the cursor's day so a row
    // changed while the last scan ran is never missed (reads overlap; the engine dedupes).
    const from = q.since ? turkishDate(Date.parse(`${q.since.slice(0, 10)}T12:00:00Z`) - DAY) : "";
    const tok = decodeToken<Tok>(q.pageToken, "mikro") ?? { index: 0, from, max: q.since ?? "" };
    const vat = await this.api.vatTable();
    const l = await this.loadLookups();
    const rows = await this.api.rows("StokListesiV2", "StokListesi", {
      StokKod: "",
      TarihTipi: 2,
      IlkTarih: tok.from,
      SonTarih: turkishDate(this.api.now() + DAY),
      Sort: "sto_kod",
      Size: String(size),
      Index: tok.index,
    });
    // The VAT field is an index into VergiListesiV2; a card pointing outside it cannot be priced right.
    // Such a card is that record's failed task; the rest of the page goes on.
    const rejected: RejectedRecord[] = [];
    const readable = rows.filter((r) => {
      if (vat.has(num(r.sto_perakende_vergi))) return true;
      const sku = str(r.sto_kod);
      const text = message("connectors.mikroVatPointerUnknown", {
        pointer: str(r.sto_perakende_vergi),
        skus: sku,
      });
      rejected.push({
        key: sku,
        error: new ConnectorError("mikro StokListesiV2: VAT pointer not in VergiListesiV2", {
          reason: "config",
          system: "mikro",
          operation: "StokListesiV2",
          itemKeys: [sku],
          merchantMessage: text,
        }),
      });
      return false;
    });
    const barcodes = new Map<string, string[]>();
    for (const part of chunk(
      readable.map((r) => str(r.sto_kod)),
      500,
    )) {
      if (part.length === 0) continue;
      const bars = await this.api.sql(
        `SELECT bar_stokkodu, bar_kodu FROM BARKOD_TANIMLARI WHERE bar_stokkodu IN (${part.map(sqlString).join(", ")})`,
      );
      for (const b of bars) {
        const k = str(b.bar_stokkodu);
        const list = barcodes.get(k) ?? [];
        list.push(str(b.bar_kodu));
        barcodes.set(k, list);
      }
    }
    let max = tok.max;
    const items: Product[] = readable.map((r) => {
      const sku = str(r.sto_kod);
      const lastup = str(r.sto_lastup_date);
      if (lastup > max) max = lastup;
      const sub = l.subgroups.get(str(r.sto_altgrup_kod));
      const group = l.groups.get(str(r.sto_anagrup_kod));
      const path = [group, sub?.name].filter((x): x is string => Boolean(x));
      return {
        sku,
        name: str(r.sto_isim),
        brand: l.brands.get(str(r.sto_marka_kodu)) || undefined,
        categoryPath: path,
        vatRate: vat.get(num(r.sto_perakende_vergi)) ?? 0,
        unit: str(r.sto_birim1_ad) || "Adet",
        variants: [
          { sku, barcodes: barcodes.get(sku) ?? [], options: {}, isActive: num(r.sto_pasif_fl) !== 1 },
        ],
        images: [],
        isActive: num(r.sto_pasif_fl) !== 1 && num(r.sto_webe_gonderilecek_fl) !== 0,
        groupKey: str(r.sto_model_kodu) || undefined,
        updatedAt: lastup ? `${lastup.replace(" ", "T")}+03:00` : undefined,
      };
    });
    const nextPageToken =
      rows.length === size
        ? encodeToken({ index: tok.index + 1, from: tok.from, max } satisfies Tok)
        : undefined;
    return { items, nextPageToken, cursor: max || undefined, rejected };
  }
}
