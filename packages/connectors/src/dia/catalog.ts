/** DİA products (stock cards, `scf_stokkart_listele`) and their categories (`scf_stokkartkategorisi_listele`). */

import { ConnectorError } from "../sdk/errors";
import type { Category, Page, PageQuery, Product, RejectedRecord } from "../sdk/model";
import { type DiaApi, type DiaRow, num, str } from "./api";
import { scanList } from "./paging";

/** Columns a product read needs (`params.selectedcolumns`: smaller answers, same kontör). */
export const PRODUCT_COLUMNS = [
  "_key",
  "_date",
  "stokkartkodu",
  "aciklama",
  "durum",
  "birimkodu",
  "kdvorani",
  "barkod",
  "markaadi",
  "kategorikodu",
  "modelkodu",
];

const VAT_RATES = new Set([0, 1, 10, 20]);

export class DiaCatalog {
  private categories?: Promise<Map<string, Category>>;

  constructor(private readonly api: DiaApi) {}

  /** The category tree, read whole once per connector (a small list; one call). */
  categoryMap(): Promise<Map<string, Category>> {
    this.categories ??= (async () => {
      const rows = await this.api.list("scf", "scf_stokkartkategorisi_listele", {
        sorts: [{ field: "kod", sorttype: "ASC" }],
        limit: 0,
        offset: 0,
      });
      const raw = new Map(rows.map((r) => [str(r.kod), { name: str(r.aciklama), parent: str(r.ustkod) }]));
      const out = new Map<string, Category>();
      for (const [id, c] of raw) {
        const path: string[] = [c.name];
        let p = c.parent;
        for (let depth = 0; p && depth < 10; depth++) {
          const up = raw.get(p);
          if (!up) break;
          path.unshift(up.name);
          p = up.parent;
        }
        out.set(id, { id, name: c.name, parentId: c.parent || undefined, path });
      }
      return out;
    })();
    this.categories.catch(() => {
      this.categories = undefined;
    });
    return this.categories;
  }

  async listCategories(): Promise<Page<Category>> {
    return { items: [...(await this.categoryMap()).values()] };
  }

  async listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    const scan = await scanList(this.api, "scf", "scf_stokkart_listele", "stokkartkodu", q, {
      params: { selectedcolumns: PRODUCT_COLUMNS },
    });
    // Categories only when there is something to name: a delta read of nothing costs one call.
    const cats = scan.rows.length > 0 ? await this.categoryMap() : new Map<string, Category>();
    const rejected: RejectedRecord[] = [];
    const items: Product[] = [];
    for (const r of scan.rows) {
      const sku = str(r.stokkartkodu);
      const vat = num(r.kdvorani);
      if (!VAT_RATES.has(vat)) {
        rejected.push({
          key: sku,
          error: new ConnectorError(
            `dia scf_stokkart_listele: VAT ${str(r.kdvorani)} of ${sku} is not a rate`,
            {
              reason: "validation",
              system: "dia",
              operation: "scf_stokkart_listele",
              itemKeys: [sku],
              merchantMessage: `DİA stok kartı ${sku}: KDV oranı (${str(r.kdvorani)}) geçerli bir oran değil. Kartı DİA'da düzeltin.`,
            },
          ),
        });
        continue;
      }
      const active = str(r.durum) !== "P";
      const date = str(r._date);
      items.push({
        sku,
        name: str(r.aciklama),
        brand: str(r.markaadi) || undefined,
        categoryPath: cats.get(str(r.kategorikodu))?.path ?? [],
        vatRate: vat,
        unit: str(r.birimkodu) || "Adet",
        variants: [{ sku, barcodes: str(r.barkod) ? [str(r.barkod)] : [], options: {}, isActive: active }],
        images: [],
        isActive: active,
        groupKey: str(r.modelkodu) || undefined,
        updatedAt: date ? `${date.replace(" ", "T")}+03:00` : undefined,
      });
    }
    return { items, nextPageToken: scan.nextPageToken, cursor: scan.cursor, rejected };
  }
}

export type { DiaRow };
