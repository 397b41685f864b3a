/**
 * The Netsis company behind the NetOpenX emulator: seeded stock cards, groups, depots with running totals
 * (TBLSTOKPH keeps the DEPO_KODU 0 sum row), accounts and slips; lists, SELECTs and the writes (ARPs,
 * ItemSlips) answer in the DLL's envelopes. The HTTP side (token route, judge, faults) is server.ts.
 */

import { runSelect, type Table } from "../../mikro/emulator/sql";
import { turkishDateTime } from "../../sdk/turkish-time";
import { generateCatalog, generateCustomers } from "../../testing/catalog";
import { Prng } from "../../testing/prng";
import { FATURA_TIP, MODELS, NETSIS_SQL_TABLES } from "../judge/models";

export type Row = Record<string, unknown>;
type SqlRow = Record<string, string | number | boolean | null>;
/** A stored slip: the ItemSlips body as accepted, with its number and totals filled in. */
export interface NetsisSlip {
  FaturaTip: number;
  FatUst: Row;
  Kalems: Row[];
}

export const fail = (desc: string, code = "0"): Row => ({
  IsSuccessful: false,
  ErrorCode: code,
  ErrorDesc: desc,
  Message: null,
  Data: null,
});
export const ok = (data: unknown, extra: Row = {}): Row => ({
  IsSuccessful: true,
  ErrorCode: null,
  ErrorDesc: null,
  Message: null,
  Data: data,
  ...extra,
});
export const s = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const round2 = (n: number) => Math.round(n * 100) / 100;
/** Newtonsoft DateTime text, Turkish wall clock: "yyyy-MM-ddTHH:mm:ss". */
export function netsisDateTime(ms: number): string {
  return turkishDateTime(ms).slice(0, 19).replace(" ", "T");
}

/** A table the list filters run on: one row per model instance, every model property a column. */
function modelTable(model: string): Table {
  return { columns: Object.keys(MODELS[model]?.properties ?? {}), rows: [], version: 0 };
}

export function createNetsisCompany(opts: {
  seed: number | string;
  productCount: number;
  branch: number;
  now: () => number;
}) {
  const { seed, now } = opts;
  const cred = { branch: opts.branch };
  const rng = new Prng(`${seed}:netsis`);
  // Seeded data: stock cards, groups, depots, running totals per item and depot.
  const catalog = generateCatalog({ seed, count: opts.productCount ?? 0, now: now() });
  const groupCode = (name: string) =>
    name
      .toLocaleUpperCase("tr-TR")
      .replace(/[ÇĞİÖŞÜ]/g, (c) => ({ Ç: "C", Ğ: "G", İ: "I", Ö: "O", Ş: "S", Ü: "U" })[c] ?? c)
      .replace(/[^A-Z0-9]/g, "")
      .slice(0, 8);
  const sql: Record<string, Table> = {
    TBLSTOKPH: { columns: NETSIS_SQL_TABLES.TBLSTOKPH ?? [], rows: [], version: 0 },
    TBLSTOKDP: {
      columns: NETSIS_SQL_TABLES.TBLSTOKDP ?? [],
      rows: [
        { DEPO_KODU: 1, DEPO_ISMI: "Merkez Depo" },
        { DEPO_KODU: 2, DEPO_ISMI: "Şube Deposu" },
      ],
      version: 0,
    },
    TBLSTGRUP: { columns: NETSIS_SQL_TABLES.TBLSTGRUP ?? [], rows: [], version: 0 },
  };
  /**
   * Netsis keeps a DEPO_KODU 0 row per item: the sum of its depots' running totals (judge/rules.ts,
   * netsis.stock-total-row). Kept in step whenever a depot row changes.
   */
  function totalRow(sku: string): void {
    const t = sql.TBLSTOKPH as Table;
    const depots = t.rows.filter((r) => r.STOK_KODU === sku && r.DEPO_KODU !== 0);
    const sum = (k: string) => depots.reduce((a, r) => a + Number(r[k]), 0);
    const total = t.rows.find((r) => r.STOK_KODU === sku && r.DEPO_KODU === 0);
    const values = { TOP_GIRIS_MIK: sum("TOP_GIRIS_MIK"), TOP_CIKIS_MIK: sum("TOP_CIKIS_MIK") };
    if (total) Object.assign(total, values);
    else t.rows.push({ STOK_KODU: sku, DEPO_KODU: 0, ...values });
  }
  const itemsTable = modelTable("ItemsPrimInfo");
  const arpsTable = modelTable("ARPsPrimInfo");
  const headsTable = modelTable("ItemSlipsHeader");
  const items: Row[] = [];
  const supp = new Map<string, Row>();
  const groups = new Map<string, string>();
  for (const it of catalog) {
    const g = groupCode(it.categoryChild);
    if (!groups.has(g)) groups.set(g, it.categoryChild);
    const prim: SqlRow = {
      Sube_Kodu: cred.branch,
      Stok_Kodu: it.sku,
      Stok_Adi: it.name,
      Grup_Kodu: g,
      Kod_1: it.modelCode,
      Uretici_Kodu: it.brand,
      KDV_Orani: it.vatRate,
      Olcu_Br1: it.unit,
      Barkod1: it.barcode,
      Satis_Fiat1: it.retailPrice,
      Satis_Fiat2: it.wholesalePrice,
      DEPO_KODU: 1,
      Kilit: "H",
    };
    const ek: Row = {
      Stok_Kodu: it.sku,
      KayitTarihi: netsisDateTime(it.updatedAt - 86_400_000 * 30),
      DuzeltmeTarihi: netsisDateTime(it.updatedAt),
    };
    supp.set(it.sku, ek);
    itemsTable.rows.push(prim);
    items.push({ StokTemelBilgi: prim, StokEkBilgi: ek });
    for (const [depot, qty] of [
      [1, it.stock1],
      [2, it.stock2],
    ] as const) {
      const out = rng.int(0, 40);
      sql.TBLSTOKPH?.rows.push({
        STOK_KODU: it.sku,
        DEPO_KODU: depot,
        TOP_GIRIS_MIK: qty + out,
        TOP_CIKIS_MIK: out,
      });
    }
    totalRow(it.sku);
  }
  for (const [code, name] of groups) sql.TBLSTGRUP?.rows.push({ GRUP_KOD: code, GRUP_ISIM: name });
  const accounts: Row[] = [];
  generateCustomers(seed, 3).forEach((c, i) => {
    const prim: SqlRow = {
      CARI_KOD: `120-01-${String(i + 1).padStart(3, "0")}`,
      CARI_ISIM: c.companyName ?? `${c.firstName} ${c.lastName}`,
      CARI_TIP: "A",
      CARI_IL: c.address.city,
      Sube_Kodu: cred.branch,
    };
    arpsTable.rows.push(prim);
    accounts.push({ CariTemelBilgi: prim, CariEkBilgi: { CARI_KOD: prim.CARI_KOD } });
  });
  const slips: NetsisSlip[] = [];
  const lastNumber = new Map<string, number>();

  function nextNumber(series: string): string {
    const n = (lastNumber.get(series) ?? 0) + 1;
    lastNumber.set(series, n);
    return `${series}${String(n).padStart(15 - series.length, "0")}`;
  }

  /** `SELECT * FROM T WHERE q ORDER BY sort OFFSET … FETCH …` over a model table. */
  function listRows(
    table: Table,
    query: Row,
    key: string,
  ): { rows: SqlRow[]; total: number; offset: number; limit: number } {
    const q = s(query.q);
    const sort = s(query.sort) || `${key} ASC`;
    const offset = Number(s(query.offset) || "0");
    const limit = Number(s(query.limit) || "50");
    const where = q ? ` WHERE ${q}` : "";
    const all = runSelect(`SELECT * FROM T${where} ORDER BY ${sort}`, { T: table });
    return { rows: all.slice(offset, offset + limit) as SqlRow[], total: all.length, offset, limit };
  }

  function postAccount(body: Row): Row {
    const prim = body.CariTemelBilgi as Row;
    const code = s(prim.CARI_KOD);
    if (arpsTable.rows.some((r) => r.CARI_KOD === code)) return fail(`${code} kodlu cari zaten kayıtlı.`);
    const row: SqlRow = { Sube_Kodu: cred.branch };
    for (const [k, v] of Object.entries(prim)) row[k] = v as SqlRow[string];
    arpsTable.rows.push(row);
    const rec = {
      CariTemelBilgi: row,
      CariEkBilgi: { ...((body.CariEkBilgi as Row | undefined) ?? {}), CARI_KOD: code },
    };
    accounts.push(rec);
    return ok(rec);
  }

  function postSlip(body: Row): Row {
    const head = body.FatUst as Row;
    const tip = Number(body.FaturaTip);
    if (!arpsTable.rows.some((r) => r.CARI_KOD === s(head.CariKod)))
      return fail(`Cari kod bulunamadı: ${s(head.CariKod)}`);
    const lines = body.Kalems as Row[];
    for (const l of lines) {
      if (!itemsTable.rows.some((r) => r.Stok_Kodu === s(l.StokKodu)))
        return fail(`Stok kodu bulunamadı: ${s(l.StokKodu)}`);
      if (l.DEPO_KODU !== undefined && !sql.TBLSTOKDP?.rows.some((d) => d.DEPO_KODU === l.DEPO_KODU))
        return fail(`Depo kodu bulunamadı: ${s(l.DEPO_KODU)}`);
    }
    let no = s(head.FATIRS_NO);
    if (no && headsTable.rows.some((h) => h.FATIRS_NO === no && h.Tip === tip))
      return fail(`${no} numaralı belge zaten kayıtlı.`);
    if (!no) no = nextNumber(s(body.Seri));
    const vatIncluded = head.KDV_DAHILMI === true;
    let gross = 0;
    let tax = 0;
    const kalems = lines.map((l, i) => {
      const qty = Number(l.STra_GCMIK);
      const price = Number(l.STra_BF ?? 0);
      const rate = Number(l.STra_KDV ?? 0);
      const line = round2(qty * price);
      const net = vatIncluded ? line / (1 + rate / 100) : line;
      gross += net;
      tax += (net * rate) / 100;
      return { ...l, Sira: i + 1, STra_FATIRSNO: no };
    });
    const stored: Row = {
      ...head,
      FATIRS_NO: no,
      Tip: tip,
      BRUTTUTAR: round2(gross),
      KDV: round2(tax),
      GENELTOPLAM: round2(gross + tax + Number(head.FAT_ALTM1 ?? 0)),
    };
    const slip: NetsisSlip = { FaturaTip: tip, FatUst: stored, Kalems: kalems };
    slips.push(slip);
    headsTable.rows.push(stored as SqlRow);
    return ok({ ...body, FatUst: stored, Kalems: kalems, KalemAdedi: kalems.length });
  }

  return {
    sql,
    items,
    accounts,
    slips,
    supp,
    itemsTable,
    arpsTable,
    headsTable,
    listRows,
    postAccount,
    postSlip,
    documentsByOrder() {
      const out = new Map<string, Set<string>>();
      for (const x of slips) {
        if (x.FaturaTip !== FATURA_TIP.customerOrder) continue;
        const ref = s(x.FatUst.EKACK1);
        const docs = out.get(ref) ?? new Set<string>();
        docs.add(s(x.FatUst.FATIRS_NO));
        out.set(ref, docs);
      }
      return out;
    },
    setStock(sku: string, depot: number, qty: number) {
      const t = sql.TBLSTOKPH as Table;
      const row = t.rows.find((r) => r.STOK_KODU === sku && r.DEPO_KODU === depot);
      if (row) {
        row.TOP_GIRIS_MIK = qty + Number(row.TOP_CIKIS_MIK);
        t.version = (t.version ?? 0) + 1;
      } else t.rows.push({ STOK_KODU: sku, DEPO_KODU: depot, TOP_GIRIS_MIK: qty, TOP_CIKIS_MIK: 0 });
      totalRow(sku);
    },
    quantity(sku: string, depot: number) {
      const row = sql.TBLSTOKPH?.rows.find((r) => r.STOK_KODU === sku && r.DEPO_KODU === depot);
      return row ? Number(row.TOP_GIRIS_MIK) - Number(row.TOP_CIKIS_MIK) : 0;
    },
    invoiceOrder(ref: string) {
      const order = slips.find((x) => x.FaturaTip === FATURA_TIP.customerOrder && x.FatUst.EKACK1 === ref);
      if (!order) return false;
      const no = nextNumber("E2026");
      const head: Row = {
        ...order.FatUst,
        FATIRS_NO: no,
        Tip: FATURA_TIP.salesInvoice,
        Tarih: netsisDateTime(now()),
      };
      const slip: NetsisSlip = {
        FaturaTip: FATURA_TIP.salesInvoice,
        FatUst: head,
        Kalems: order.Kalems.map((l) => ({ ...l, STra_FATIRSNO: no, STra_SIPNUM: order.FatUst.FATIRS_NO })),
      };
      slips.push(slip);
      headsTable.rows.push(head as SqlRow);
      return true;
    },
  };
}
