/**
 * Netsis reads: stock cards through `Items/` (TSelectData<Items>, each row `StokTemelBilgi` =
 * ItemsPrimInfo and `StokEkBilgi` = ItemsSuppInfo), their sales prices (`Satis_Fiat1..4` of the card),
 * stock per depot, depots and item groups through `Queries/` (one SELECT each). NetOpenX names no
 * change filter for cards the DLL shows, so reads are whole (big pages); the engine compares.
 */

import { ConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import { isObj, type NetsisApi, type NetsisRow, num, str } from "./api";

const VAT_RATES = new Set([0, 1, 10, 20]);
/** The card's four sales prices (ItemsPrimInfo.Satis_Fiat1..4) are the price groups "1".."4". */
const PRICE_GROUPS = ["1", "2", "3", "4"];

type OffsetTok = { o: number };

/** Netsis DateTime text (no offset: the server's Istanbul time) → ISO. */
const isoOf = (v: unknown): string | undefined => {
  const s = str(v);
  if (!s) return undefined;
  return /[zZ]|[+-]\d{2}:\d{2}$/.test(s) ? s : `${s}+03:00`;
};

export class NetsisCatalog {
  private groups?: Promise<Map<string, M.Category>>;
  private depots?: Promise<M.StockLocation[]>;

  constructor(private readonly api: NetsisApi) {}

  /** One page of cards in code order. */
  private async cards(q: M.PageQuery): Promise<{ rows: NetsisRow[]; next?: string }> {
    const tok = decodeToken<OffsetTok>(q.pageToken, "netsis") ?? { o: 0 };
    const size = Math.max(1, Math.min(q.pageSize ?? this.api.pageSize, 2000));
    const rows = await this.api.list("Items/", "Items", {
      limit: size,
      offset: tok.o,
      sort: "Stok_Kodu ASC",
    });
    return { rows, next: rows.length === size ? encodeToken({ o: tok.o + size }) : undefined };
  }

  /** Item groups (TBLSTGRUP), read once per connector; Netsis groups are one level deep. */
  categoryMap(): Promise<Map<string, M.Category>> {
    this.groups ??= (async () => {
      const rows = await this.api.query(
        "SELECT GRUP_KOD, GRUP_ISIM FROM TBLSTGRUP ORDER BY GRUP_KOD",
        "Queries:TBLSTGRUP",
      );
      return new Map(
        rows.map((r) => {
          const id = str(r.GRUP_KOD);
          const name = str(r.GRUP_ISIM) || id;
          return [id, { id, name, path: [name] }];
        }),
      );
    })();
    this.groups.catch(() => {
      this.groups = undefined;
    });
    return this.groups;
  }

  async listCategories(): Promise<M.Page<M.Category>> {
    return { items: [...(await this.categoryMap()).values()] };
  }

  async listProducts(q: M.PageQuery = {}): Promise<M.Page<M.Product>> {
    const page = await this.cards(q);
    const groups = page.rows.length > 0 ? await this.categoryMap() : new Map<string, M.Category>();
    const items: M.Product[] = [];
    const rejected: M.RejectedRecord[] = [];
    for (const row of page.rows) {
      const p = isObj(row.StokTemelBilgi) ? row.StokTemelBilgi : {};
      const e = isObj(row.StokEkBilgi) ? row.StokEkBilgi : {};
      const sku = str(p.Stok_Kodu);
      if (!sku) continue;
      const vat = num(p.KDV_Orani);
      if (!VAT_RATES.has(vat)) {
        rejected.push({
          key: sku,
          error: new ConnectorError(`netsis Items: VAT ${str(p.KDV_Orani)} of ${sku} is not a rate`, {
            reason: "validation",
            system: "netsis",
            operation: "Items",
            itemKeys: [sku],
            merchantMessage: `Netsis stok kartı ${sku}: KDV oranı (${str(p.KDV_Orani)}) geçerli bir oran değil. Kartı Netsis'te düzeltin.`,
          }),
        });
        continue;
      }
      // Inferred: a card locked for sales (Kilit / SatisKilit = "E") is not for sale in the shop.
      const active = str(p.Kilit) !== "E" && str(p.SatisKilit) !== "E";
      const barcodes = [p.Barkod1, p.Barkod2, p.Barkod3].map(str).filter(Boolean);
      const group = groups.get(str(p.Grup_Kodu));
      items.push({
        sku,
        name: str(p.Stok_Adi),
        // Inferred: the manufacturer code (Uretici_Kodu) is where shops keep the brand.
        brand: str(p.Uretici_Kodu) || undefined,
        categoryPath: group ? group.path : [],
        vatRate: vat,
        unit: str(p.Olcu_Br1) || "Adet",
        variants: [{ sku, barcodes, options: {}, isActive: active }],
        images: [],
        isActive: active,
        // Inferred: report code 1 (Kod_1) holds the model code that groups variants, a common Netsis
        // convention (the card has no model field of its own in the DLL's ItemsPrimInfo).
        groupKey: str(p.Kod_1) || undefined,
        updatedAt: isoOf(e.DuzeltmeTarihi) ?? isoOf(e.KayitTarihi),
      });
    }
    return { items, nextPageToken: page.next, rejected };
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    // Inferred: card prices are kept VAT included (the card has no per-price flag in the DLL's model).
    return PRICE_GROUPS.map((id, i) => ({
      id,
      name: `Satış fiyatı ${id}`,
      currency: "TRY",
      vatIncluded: true,
      isDefault: i === 0,
    }));
  }

  async listPrices(q: M.PageQuery & { priceGroups?: string[] } = {}): Promise<M.Page<M.Price>> {
    const page = await this.cards(q);
    const wanted = q.priceGroups?.length
      ? PRICE_GROUPS.filter((g) => q.priceGroups?.includes(g))
      : PRICE_GROUPS;
    const items: M.Price[] = [];
    for (const row of page.rows) {
      const p = isObj(row.StokTemelBilgi) ? row.StokTemelBilgi : {};
      const sku = str(p.Stok_Kodu);
      for (const g of wanted) {
        const amount = num(p[`Satis_Fiat${g}`]);
        if (!sku || amount <= 0) continue;
        items.push({ sku, priceGroup: g, amount, currency: "TRY", vatIncluded: true });
      }
    }
    return { items, nextPageToken: page.next };
  }

  listStockLocations(): Promise<M.StockLocation[]> {
    this.depots ??= this.api
      .query("SELECT DEPO_KODU, DEPO_ISMI FROM TBLSTOKDP ORDER BY DEPO_KODU", "Queries:TBLSTOKDP")
      .then((rows) => rows.map((r) => ({ id: str(r.DEPO_KODU), name: str(r.DEPO_ISMI) })));
    this.depots.catch(() => {
      this.depots = undefined;
    });
    return this.depots;
  }

  /**
   * Running totals per item and depot (TBLSTOKPH): quantity = in − out. The DEPO_KODU 0 row is the item's
   * total over all depots, not a depot (judge/rules.ts, netsis.stock-total-row): always kept out.
   */
  async listStock(q: M.PageQuery & { locations?: string[] } = {}): Promise<M.Page<M.StockLevel>> {
    const tok = decodeToken<OffsetTok>(q.pageToken, "netsis") ?? { o: 0 };
    const size = Math.max(1, Math.min(q.pageSize ?? this.api.pageSize * 2, 5000));
    const depots = (q.locations ?? []).filter((d) => /^\d+$/.test(d) && Number(d) !== 0);
    const where = ` WHERE DEPO_KODU <> 0${depots.length ? ` AND DEPO_KODU IN (${depots.join(", ")})` : ""}`;
    const sql =
      `SELECT STOK_KODU, DEPO_KODU, TOP_GIRIS_MIK, TOP_CIKIS_MIK FROM TBLSTOKPH${where} ` +
      `ORDER BY STOK_KODU, DEPO_KODU OFFSET ${tok.o} ROWS FETCH NEXT ${size} ROWS ONLY`;
    const rows = await this.api.query(sql, "Queries:TBLSTOKPH");
    const items = rows.map((r) => ({
      sku: str(r.STOK_KODU),
      location: str(r.DEPO_KODU),
      qty: Math.round((num(r.TOP_GIRIS_MIK) - num(r.TOP_CIKIS_MIK)) * 1000) / 1000,
    }));
    return { items, nextPageToken: rows.length === size ? encodeToken({ o: tok.o + size }) : undefined };
  }
}
