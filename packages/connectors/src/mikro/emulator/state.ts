/**
 * The Mikro emulator's database: the tables integrators read through `SqlVeriOkuV2` (STOKLAR,
 * BARKOD_TANIMLARI, STOK_SATIS_FIYAT_LISTELERI, DEPOLAR, STOK_HAREKETLERI(_OZET), SIPARISLER, CARI_HESAPLAR,
 * CARI_HESAP_HAREKETLERI …) as rows with Mikro's column names.
 */

import { randomUUID } from "node:crypto";
import { TURKEY_OFFSET_MS, turkishDate, turkishDateTime } from "../../sdk/turkish-time";
import { generateCatalog } from "../../testing/catalog";
import { Prng } from "../../testing/prng";
import type { Row, Table } from "./sql";
import { MIKRO_TABLES, VALUE_ONLY_KINDS, vatPointer } from "./tables";

/**
 * Where sources disagree on the return columns of STOK_HAREKETLERI_OZET (../stock.ts): "reverses" keeps a
 * customer return (goods back in) in sho_CikisIade and a return to the supplier in sho_GirisIade (the
 * return reverses the direction of the movement it cancels); "follows" keeps them by the direction of the
 * return itself (customer return in sho_GirisIade, supplier return in sho_CikisIade).
 */
export type MikroReturnColumns = "reverses" | "follows";

export interface MikroStateOptions {
  seed: number | string;
  productCount: number;
  firmName: string;
  now: () => number;
  /** The side of the return-column disagreement this database plays (default "reverses"). */
  returnColumns?: MikroReturnColumns;
}

export class MikroState {
  readonly tables: Record<string, Table>;
  readonly stokByKod = new Map<string, Row>();
  /** Summary rows per `code|depot`. */
  readonly ozet = new Map<string, Row[]>();
  readonly prices = new Map<string, Row>();
  readonly cariByKod = new Map<string, Row>();
  readonly depots = [
    { no: 1, name: "Merkez Depo" },
    { no: 2, name: "İstanbul Mağaza" },
  ];
  readonly priceLists = [
    { no: 1, name: "Perakende Satış Fiyatı", vatIncluded: true },
    { no: 2, name: "Bayi Satış Fiyatı", vatIncluded: false },
  ];
  readonly firmName: string;
  private readonly now: () => number;
  private lastTs = 0;
  private readonly seriesNext = new Map<string, number>();
  private readonly rng: Prng;
  private ozetRecNo = 0;

  /** The side of the return-column disagreement (see MikroReturnColumns). */
  readonly returnColumns: MikroReturnColumns;

  constructor(opts: MikroStateOptions) {
    this.returnColumns = opts.returnColumns ?? "reverses";
    this.now = opts.now;
    this.firmName = opts.firmName;
    this.rng = new Prng(`${opts.seed}:mikro`);
    this.tables = Object.fromEntries(
      Object.entries(MIKRO_TABLES).map(([k, columns]) => [k, { columns, rows: [] as Row[] }]),
    );
    this.table("FIRMALAR").rows.push({
      fir_sirano: 0,
      fir_unvan: opts.firmName,
      fir_vergi_daire: "Kadıköy",
      fir_vergi_no: "1234567890",
    });
    for (const d of this.depots)
      this.table("DEPOLAR").rows.push({ dep_no: d.no, dep_adi: d.name, dep_tipi: 0 });
    for (const l of this.priceLists) {
      this.table("STOK_SATIS_FIYAT_LISTE_TANIMLARI").rows.push({
        sfl_sirano: l.no,
        sfl_aciklama: l.name,
        sfl_kdvdahil: l.vatIncluded ? 1 : 0,
        sfl_doviz: 0,
      });
    }
    this.seed(opts.seed, opts.productCount);
  }

  /** Mark tables changed (sorted caches of the SQL engine depend on it). */
  touch(...names: string[]): void {
    for (const n of names) {
      const t = this.table(n);
      t.version = (t.version ?? 0) + 1;
    }
  }

  /** Bumped whenever STOKLAR changes. */
  get version(): number {
    return this.table("STOKLAR").version ?? 0;
  }

  table(name: string): Table {
    const t = this.tables[name];
    if (!t) throw new Error(`no table ${name}`);
    return t;
  }

  tick(): number {
    const t = Math.max(this.now(), this.lastTs + 1);
    this.lastTs = t;
    return t;
  }

  guid(): string {
    return randomUUID().toUpperCase();
  }

  private seed(seed: number | string, count: number): void {
    const items = generateCatalog({ seed, count });
    const groups = new Map<string, string>();
    const subgroups = new Map<string, string>();
    const brands = new Map<string, string>();
    const created = turkishDateTime(Date.UTC(2023, 0, 2, 6));
    const stok = this.table("STOKLAR").rows;
    const bar = this.table("BARKOD_TANIMLARI").rows;
    const fiyat = this.table("STOK_SATIS_FIYAT_LISTELERI").rows;
    for (const it of items) {
      let g = groups.get(it.categoryRoot);
      if (!g) {
        g = `AG${String(groups.size + 1).padStart(2, "0")}`;
        groups.set(it.categoryRoot, g);
        this.table("STOK_ANA_GRUPLARI").rows.push({
          san_kod: g,
          san_isim: it.categoryRoot,
          san_lastup_date: created,
        });
      }
      const subKey = `${it.categoryRoot}/${it.categoryChild}`;
      let s = subgroups.get(subKey);
      if (!s) {
        s = `${g}.${String(subgroups.size + 1).padStart(3, "0")}`;
        subgroups.set(subKey, s);
        this.table("STOK_ALT_GRUPLARI").rows.push({
          sta_kod: s,
          sta_isim: it.categoryChild,
          sta_ana_grup_kod: g,
          sta_lastup_date: created,
        });
      }
      let b = brands.get(it.brand);
      if (!b) {
        b = `M${String(brands.size + 1).padStart(3, "0")}`;
        brands.set(it.brand, b);
        this.table("STOK_MARKALARI").rows.push({ mrk_kod: b, mrk_ismi: it.brand });
      }
      const lastup = turkishDateTime(it.updatedAt);
      const row: Row = {
        sto_Guid: this.guid(),
        sto_kod: it.sku,
        sto_isim: it.name,
        sto_kisa_ismi: it.optionValue ?? null,
        sto_birim1_ad: it.unit,
        sto_anagrup_kod: g,
        sto_altgrup_kod: s,
        sto_marka_kodu: b,
        sto_model_kodu: it.modelCode,
        sto_perakende_vergi: vatPointer(it.vatRate),
        sto_toptan_vergi: vatPointer(it.vatRate),
        sto_pasif_fl: 0,
        sto_webe_gonderilecek_fl: 1,
        sto_create_date: created,
        sto_lastup_date: lastup,
      };
      stok.push(row);
      this.stokByKod.set(it.sku, row);
      bar.push({
        bar_Guid: this.guid(),
        bar_kodu: it.barcode,
        bar_stokkodu: it.sku,
        bar_birimpntr: 1,
        bar_lastup_date: lastup,
      });
      for (const [list, price] of [
        [1, it.retailPrice],
        [2, it.wholesalePrice],
      ] as const) {
        const p: Row = {
          sfiyat_Guid: this.guid(),
          sfiyat_stokkod: it.sku,
          sfiyat_listesirano: list,
          sfiyat_deposirano: 0,
          sfiyat_fiyati: price,
          sfiyat_doviz: 0,
          sfiyat_lastup_date: lastup,
        };
        fiyat.push(p);
        this.prices.set(`${it.sku}|${list}`, p);
      }
      for (const [depo, qty] of [
        [1, it.stock1],
        [2, it.stock2],
      ] as const) {
        // Last year's carry-over, this year's movements and, for some cards, a value-difference row whose
        // numbers are no quantity: the connector must sum the rest of the group.
        const opening = Math.floor(qty / 2);
        this.addOzet(it.sku, depo, { year: this.year - 1, period: 12, kind: 0 }, opening, 0);
        const current = this.addOzet(
          it.sku,
          depo,
          { year: this.year, period: 1, kind: 0 },
          qty - opening + 1,
          1,
        );
        // Every third card has returns this year: 3 back from customers, 1 sent back to the supplier, kept
        // in the columns of the side this database plays; the quantity stays `qty`.
        if (this.stokByKod.size % 3 === 0) {
          const [back, sent] = [3, 1];
          current.sho_GirisNormal = Number(current.sho_GirisNormal) - back + sent;
          current[this.returnColumns === "reverses" ? "sho_CikisIade" : "sho_GirisIade"] = back;
          current[this.returnColumns === "reverses" ? "sho_GirisIade" : "sho_CikisIade"] = sent;
        }
        if (this.rng.chance(0.3)) this.addOzet(it.sku, depo, { year: this.year, period: 1, kind: 9 }, 5, 0);
      }
    }
  }

  private get year(): number {
    return new Date(this.now() + TURKEY_OFFSET_MS).getUTCFullYear();
  }

  private addOzet(
    code: string,
    depot: number,
    key: { year: number; period: number; kind: number },
    giris: number,
    cikis: number,
  ): Row {
    const row: Row = {
      sho_RECno: ++this.ozetRecNo,
      sho_firmano: 0,
      sho_subeno: 0,
      sho_StokKodu: code,
      sho_SrmMerkezi: "",
      sho_ProjeKodu: "",
      sho_Depo: depot,
      sho_MaliYil: key.year,
      sho_Donem: key.period,
      sho_HareketCins: key.kind,
      sho_GirisNormal: giris,
      sho_GirisIade: 0,
      sho_CikisNormal: cikis,
      sho_CikisIade: 0,
    };
    this.table("STOK_HAREKETLERI_OZET").rows.push(row);
    const k = `${code}|${depot}`;
    const list = this.ozet.get(k);
    if (list) list.push(row);
    else this.ozet.set(k, [row]);
    return row;
  }

  /** The summary row this month's normal movements go to (created on first use). */
  private currentOzet(code: string, depot: number): Row {
    const ts = new Date(this.now() + TURKEY_OFFSET_MS);
    const key = { year: ts.getUTCFullYear(), period: ts.getUTCMonth() + 1, kind: 0 };
    const found = this.ozet
      .get(`${code}|${depot}`)
      ?.find((r) => r.sho_MaliYil === key.year && r.sho_Donem === key.period && r.sho_HareketCins === 0);
    return found ?? this.addOzet(code, depot, key, 0, 0);
  }

  /** Summary rows of a stock card in a depot (tests). */
  ozetRows(code: string, depot: number): Row[] {
    return this.ozet.get(`${code}|${depot}`) ?? [];
  }

  /** On-hand quantity: every summary row of (code, depot) except value-difference kinds. */
  quantity(code: string, depot: number): number {
    // Goods back from customers add, goods sent back to the supplier subtract: which column holds which
    // is the side this database plays.
    const [back, sent] =
      this.returnColumns === "reverses"
        ? ["sho_CikisIade", "sho_GirisIade"]
        : ["sho_GirisIade", "sho_CikisIade"];
    let q = 0;
    for (const o of this.ozetRows(code, depot)) {
      if (VALUE_ONLY_KINDS.has(Number(o.sho_HareketCins))) continue;
      q += Number(o.sho_GirisNormal) + Number(o[back]) - Number(o.sho_CikisNormal) - Number(o[sent]);
    }
    return q;
  }

  private movement(code: string, depot: number, delta: number, extra: Partial<Row> = {}): Row {
    const ts = this.tick();
    const row: Row = {
      sth_Guid: this.guid(),
      sth_stok_kod: code,
      sth_tarih: turkishDate(ts),
      sth_tip: delta >= 0 ? 0 : 1,
      sth_evraktip: 12,
      sth_evrakno_seri: "",
      sth_evrakno_sira: 0,
      sth_satirno: 0,
      sth_giris_depo_no: delta >= 0 ? depot : 0,
      sth_cikis_depo_no: delta < 0 ? depot : 0,
      sth_miktar: Math.abs(delta),
      sth_tutar: 0,
      sth_vergi: 0,
      sth_vergi_pntr: 0,
      sth_cari_kodu: "",
      sth_sip_uid: null,
      sth_fat_uid: null,
      sth_lastup_date: turkishDateTime(ts),
      ...extra,
    };
    this.table("STOK_HAREKETLERI").rows.push(row);
    return row;
  }

  /** Set the quantity of a stock card in a depot (as a stock count slip would): writes a movement. */
  setStock(code: string, depot: number, qty: number): void {
    if (!this.stokByKod.has(code)) throw new Error(`unknown stock code ${code}`);
    const delta = qty - this.quantity(code, depot);
    if (delta === 0) return;
    const o = this.currentOzet(code, depot);
    if (delta > 0) o.sho_GirisNormal = Number(o.sho_GirisNormal) + delta;
    else o.sho_CikisNormal = Number(o.sho_CikisNormal) - delta;
    this.movement(code, depot, delta);
    this.touch("STOK_HAREKETLERI_OZET", "STOK_HAREKETLERI");
  }

  setPrice(code: string, list: number, price: number): void {
    const p = this.prices.get(`${code}|${list}`);
    const lastup = turkishDateTime(this.tick());
    this.touch("STOK_SATIS_FIYAT_LISTELERI");
    if (p) {
      p.sfiyat_fiyati = price;
      p.sfiyat_lastup_date = lastup;
      return;
    }
    const row: Row = {
      sfiyat_Guid: this.guid(),
      sfiyat_stokkod: code,
      sfiyat_listesirano: list,
      sfiyat_deposirano: 0,
      sfiyat_fiyati: price,
      sfiyat_doviz: 0,
      sfiyat_lastup_date: lastup,
    };
    this.table("STOK_SATIS_FIYAT_LISTELERI").rows.push(row);
    this.prices.set(`${code}|${list}`, row);
  }

  updateProduct(code: string, patch: Partial<Row>): void {
    const row = this.stokByKod.get(code);
    if (!row) throw new Error(`unknown stock code ${code}`);
    Object.assign(row, patch, { sto_lastup_date: turkishDateTime(this.tick()) });
    this.touch("STOKLAR");
  }

  nextSira(seri: string): number {
    let max = this.seriesNext.get(seri);
    if (max === undefined) {
      max = 0;
      for (const r of this.table("SIPARISLER").rows) {
        if (r.sip_evrakno_seri === seri) max = Math.max(max, Number(r.sip_evrakno_sira));
      }
    }
    this.seriesNext.set(seri, max + 1);
    return max + 1;
  }

  /**
   * Invoice an order (what the accountant does in Mikro): a sales invoice with one line per order line,
   * stock going out of the order's depot. Returns the invoice Guid (its ETTN), or undefined if no order.
   */
  invoiceOrder(belgeno: string, seri = "EFT"): string | undefined {
    const lines = this.table("SIPARISLER").rows.filter((r) => r.sip_belgeno === belgeno);
    if (lines.length === 0) return undefined;
    const already = this.table("STOK_HAREKETLERI").rows.find(
      (r) => r.sth_evraktip === 4 && lines.some((l) => l.sip_Guid === r.sth_sip_uid),
    );
    if (already) return String(already.sth_fat_uid);
    const fat = this.guid();
    let sira = 0;
    for (const r of this.table("CARI_HESAP_HAREKETLERI").rows)
      if (r.cha_evrakno_seri === seri) sira = Math.max(sira, Number(r.cha_evrakno_sira));
    sira++;
    let net = 0;
    let tax = 0;
    lines.forEach((l, i) => {
      const code = String(l.sip_stok_kod);
      const depot = Number(l.sip_depono);
      const qty = Number(l.sip_miktar);
      net += Number(l.sip_tutar);
      tax += Number(l.sip_vergi);
      const o = this.currentOzet(code, depot);
      o.sho_CikisNormal = Number(o.sho_CikisNormal) + qty;
      l.sip_teslim_miktar = qty;
      this.movement(code, depot, -qty, {
        sth_evraktip: 4,
        sth_evrakno_seri: seri,
        sth_evrakno_sira: sira,
        sth_satirno: i,
        sth_tutar: Number(l.sip_tutar),
        sth_vergi: Number(l.sip_vergi),
        sth_vergi_pntr: Number(l.sip_vergi_pntr),
        sth_cari_kodu: String(l.sip_musteri_kod),
        sth_sip_uid: String(l.sip_Guid),
        sth_fat_uid: fat,
      });
    });
    this.touch("SIPARISLER", "STOK_HAREKETLERI", "STOK_HAREKETLERI_OZET", "CARI_HESAP_HAREKETLERI");
    const ts = this.tick();
    this.table("CARI_HESAP_HAREKETLERI").rows.push({
      cha_Guid: fat,
      cha_evrak_tip: 63,
      cha_evrakno_seri: seri,
      cha_evrakno_sira: sira,
      cha_tarihi: turkishDate(ts),
      cha_kod: String(lines[0]?.sip_musteri_kod ?? ""),
      cha_meblag: Math.round((net + tax) * 100) / 100,
      cha_aratoplam: Math.round(net * 100) / 100,
      cha_lastup_date: turkishDateTime(ts),
    });
    return fat;
  }

  /** Invoice every order not invoiced yet (demo: the accountant's daily round). */
  invoiceOpenOrders(): number {
    const done = new Set(
      this.table("STOK_HAREKETLERI")
        .rows.filter((r) => r.sth_evraktip === 4)
        .map((r) => r.sth_sip_uid),
    );
    const refs = new Set<string>();
    for (const r of this.table("SIPARISLER").rows)
      if (!done.has(r.sip_Guid ?? null)) refs.add(String(r.sip_belgeno));
    for (const ref of refs) this.invoiceOrder(ref);
    return refs.size;
  }

  /** A random existing stock code (tests / benchmarks). */
  randomCode(): string {
    const rows = this.table("STOKLAR").rows;
    return String(rows[this.rng.int(0, rows.length - 1)]?.sto_kod ?? "");
  }
}
