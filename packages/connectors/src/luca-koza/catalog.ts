/**
 * Luca Koza reads: stock cards (`ListeleStkSkart.do`, all at once with `No-Paging: true`, paged here),
 * the stock category tree, depots, on-hand quantities per depot and each card's sales price lists. Field
 * names follow the document where it names them and katana's DTOs (`KozaStokKartiDtos.cs`,
 * `KozaDepoDtos.cs`) elsewhere, which accept several spellings — so do these parsers. Everything about the
 * answers is inferred (VERIFIED.md): the document shows requests, hardly any answers.
 */

import type * as M from "../sdk/model";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import { type KozaClient, num, type Row, str } from "./client";

const first = (r: Row, keys: readonly string[]): string => {
  for (const k of keys) if (str(r[k]) !== "") return str(r[k]);
  return "";
};

export const cardCode = (r: Row) => first(r, ["kartKodu", "kod", "stokKartKodu", "skartKod"]);
const cardName = (r: Row) => first(r, ["kartAdi", "tanim", "stokKartAdi", "adi"]);
const cardId = (r: Row) => num(first(r, ["skartId", "stokKartId", "id"]));
const cardCategory = (r: Row) => first(r, ["kategoriAgacKod", "kategoriKodu", "hiyerarsikKod"]);

/** KDV as katana meets it: a fraction (0.2) or a percent text ("%20"). */
export function kozaVatRate(v: unknown): number {
  const n = num(v);
  return Math.round(n > 0 && n <= 1 ? n * 100 : n);
}

const CARD_KEYS = ["list", "stokKartlari", "stkKartListesi", "stkSkart", "data"] as const;

export class KozaCatalog {
  private cards?: Promise<Row[]>;
  private tree?: Promise<Map<string, { name: string; parent?: string }>>;

  constructor(
    private readonly api: KozaClient,
    private readonly pageSize: number,
  ) {}

  /** All stock cards, read once per scan (the list method has no paging of its own). */
  private allCards(fresh: boolean): Promise<Row[]> {
    if (fresh || !this.cards) {
      this.cards = this.api.list("ListeleStkSkart.do", {}, CARD_KEYS);
      this.cards.catch(() => {
        this.cards = undefined;
      });
    }
    return this.cards;
  }

  private async cardPage(q: M.PageQuery): Promise<{ rows: Row[]; next?: string }> {
    const tok = decodeToken<{ i: number }>(q.pageToken, "luca-koza");
    const all = await this.allCards(!tok);
    const i = tok?.i ?? 0;
    const size = q.pageSize ?? this.pageSize;
    const rows = all.slice(i, i + size);
    return { rows, next: i + size < all.length ? encodeToken({ i: i + size }) : undefined };
  }

  private categoryTree() {
    this.tree ??= this.api
      .list("ListeleStkSkartKategoriAgac.do", { kartTuru: 1 }, ["list", "data"])
      .then((rows) => {
        const map = new Map<string, { name: string; parent?: string }>();
        for (const r of rows) {
          const code = first(r, ["kod", "kategoriAgacKod", "hiyerarsikKod"]);
          // Inferred: hierarchical codes ("01.02"): the parent is the code without its last part.
          const cut = code.lastIndexOf(".");
          map.set(code, {
            name: first(r, ["tanim", "ack", "adi"]),
            parent: cut > 0 ? code.slice(0, cut) : undefined,
          });
        }
        return map;
      });
    this.tree.catch(() => {
      this.tree = undefined;
    });
    return this.tree;
  }

  private pathOf(tree: Map<string, { name: string; parent?: string }>, code: string): string[] {
    const out: string[] = [];
    let cur: string | undefined = code;
    for (let i = 0; cur && i < 10; i++) {
      const node = tree.get(cur);
      if (!node) break;
      out.unshift(node.name);
      cur = node.parent;
    }
    return out;
  }

  async listCategories(): Promise<M.Page<M.Category>> {
    const tree = await this.categoryTree();
    return {
      items: [...tree.entries()].map(([id, c]) => ({
        id,
        name: c.name,
        parentId: c.parent && tree.has(c.parent) ? c.parent : undefined,
        path: this.pathOf(tree, id),
      })),
    };
  }

  async listProducts(q: M.PageQuery = {}): Promise<M.Page<M.Product>> {
    const { rows, next } = await this.cardPage(q);
    const tree = await this.categoryTree();
    const items = rows.map((r): M.Product => {
      const sku = cardCode(r);
      return {
        sku,
        name: cardName(r),
        categoryPath: this.pathOf(tree, cardCategory(r)),
        vatRate: kozaVatRate(r.kartSatisKdvOran ?? r.satisKdvOran),
        unit: first(r, ["olcumBirimi", "olcuBirimi"]) || "Adet",
        variants: [{ sku, barcodes: [str(r.barkod)].filter(Boolean), options: {} }],
        images: [],
        description: str(r.uzunAdi) || undefined,
        isActive: num(r.satilabilirFlag ?? 1) === 1,
      };
    });
    return { items, nextPageToken: next };
  }

  async listStockLocations(): Promise<M.StockLocation[]> {
    const rows = await this.api.list("ListeleStkDepo.do", {}, ["depolar", "stkDepoListesi", "list", "data"]);
    return rows.map((r) => ({ id: str(r.depoId), name: `${str(r.kod)} ${str(r.tanim)}`.trim() }));
  }

  /** On hand per depot; one call per depot (the method is depot-scoped). */
  async listStock(q: M.PageQuery & { locations?: string[] } = {}): Promise<M.Page<M.StockLevel>> {
    const depots =
      q.locations && q.locations.length > 0
        ? q.locations
        : (await this.listStockLocations()).map((d) => d.id);
    const tok = decodeToken<{ d: number }>(q.pageToken, "luca-koza");
    const index = tok?.d ?? 0;
    const depot = depots[index];
    if (depot === undefined) return { items: [] };
    const rows = await this.api.list(
      "ListeleStkSsEldekiMiktar.do",
      {},
      ["list", "data", "eldekiMiktarlar"],
      `?cagirilanKart=depo&stkDepo.depoId=${encodeURIComponent(depot)}`,
    );
    const items = rows
      .map((r) => ({ sku: cardCode(r), location: depot, qty: num(first(r, ["miktar", "eldekiMiktar"])) }))
      .filter((s) => s.sku !== "");
    return { items, nextPageToken: index + 1 < depots.length ? encodeToken({ d: index + 1 }) : undefined };
  }

  /** Each card's sales price lists (one call per card; the document has no bulk price list). */
  async listPrices(q: M.PageQuery & { priceGroups?: string[] } = {}): Promise<M.Page<M.Price>> {
    const { rows, next } = await this.cardPage(q);
    const items: M.Price[] = [];
    for (const r of rows) {
      const prices = await this.api.list(
        "ListeleStkSkartFiyatListeleri.do",
        { stkSkart: { skartId: cardId(r) }, tip: "satis" },
        ["list", "data"],
      );
      for (const p of prices) {
        const group = first(p, ["listeAdi", "tanim", "fiyatListesiAdi"]) || "satis";
        if (q.priceGroups && q.priceGroups.length > 0 && !q.priceGroups.includes(group)) continue;
        items.push({
          sku: cardCode(r),
          priceGroup: group,
          amount: round2(num(first(p, ["fiyat", "birimFiyat"]))),
          currency: first(p, ["paraBirimKod", "dovizKod"]) || "TRY",
          vatIncluded: num(p.kdvDahilFlag) === 1,
        });
      }
    }
    return { items, nextPageToken: next };
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    // Inferred: lists are named per card; the first page's names stand for the firm's lists.
    const page = await this.listPrices({ pageSize: 20 });
    const names = [...new Set(page.items.map((p) => p.priceGroup))];
    return names.map((n, i) => ({ id: n, name: n, isDefault: i === 0 }));
  }
}
