/**
 * The judge for DİA, part 1: the services we call, what each one is, and answer shapes — each naming its
 * source. DİA publishes its WS v3 rules as public doc pages (doc.dia.com.tr, "gelistirici:wsapi:*"); the
 * per-service JSON catalogue sits in a desktop test tool we cannot obtain, so service names and columns
 * come from live third-party clients where the pages are silent, and are marked "inferred" where nobody
 * shows them. Row values are ours (SKUs of the seeded catalogue); only shapes come from the sources.
 */

export interface ShapeSource {
  /** Doc page URL, or a public code id / repository + path. */
  ref: string;
  /** What the source shows, in our words. */
  finding: string;
}

export const DOC_HOME = "https://doc.dia.com.tr/doku.php?id=gelistirici:wsapi:anasayfa";
export const DOC_SESSION = "https://doc.dia.com.tr/doku.php?id=gelistirici:wsapi:session";
export const DOC_LIST = "https://doc.dia.com.tr/doku.php?id=gelistirici:wsapi:servis_turu_listeleme";
/** A crawl of the doc pages above (2025-08-21), public code id 38003910331. */
export const DOC_CRAWL = "code id 38003910331 (crawl of doc.dia.com.tr wsapi pages, 2025-08-21)";

const S = {
  session: { ref: `${DOC_SESSION}; ${DOC_CRAWL} §3`, finding: "login body and {code,msg} answer" },
  list: {
    ref: `${DOC_LIST}; ${DOC_CRAWL} §5.1`,
    finding:
      "filters {field, operator <,>,<=,>=,!,=,IN,NOT IN, value}, sorts {field, sorttype}, params, limit, offset; _date = change date",
  },
  errors: {
    ref: `${DOC_HOME} (Hata Takibi); ${DOC_CRAWL} §6`,
    finding: "codes 200,400,401,402,405,406,419,500,501",
  },
  firmPeriod: {
    ref: `${DOC_HOME} (Yetkili Firma, Dönem); ${DOC_CRAWL} §4`,
    finding:
      "sis_yetkili_firma_donem_sube_depo with session_id only → firmakodu, firmaadi, donemler[donemkodu], subeler",
  },
  stokkart: {
    ref: "code ids 53802801748, 26540760283, 52790094528 (live clients)",
    finding:
      "scf_stokkart_listele on module scf; rows carry stokkartkodu, aciklama, durum, gercek_stok; params miktarhesapla, _key_sis_depo_filtre; answer rows in result",
  },
  categories: {
    ref: "code id 52790094528",
    finding: "scf_stokkartkategorisi_listele exists (columns inferred)",
  },
  cari: {
    ref: "../shared/partner-apis/erps.md §6 (3P); code id 52790094528",
    finding: "scf_carikart_listele/_ekle with kart {carikartkodu, unvan, carikarttipi AL/SA/AS}",
  },
  siparis: {
    ref: "../shared/partner-apis/erps.md §6 citing wshelp deep-insert",
    finding:
      "scf_siparis_ekle kart with m_kalemler, _key_scf_carikart {carikodu}, _key_scf_stokkart {stokkodu}, _key_sis_depo_source {depokodu}",
  },
  fiyat: {
    ref: "../shared/partner-apis/erps.md §6",
    finding: "scf_fiyatkart_listele, scf_fiyatgrup_listele exist (columns inferred)",
  },
  fatura: {
    ref: "code ids 53802801748, 52790094528",
    finding: "scf_fatura_listele on scf; _getir by key (doc §5.2)",
  },
} satisfies Record<string, ShapeSource>;

export type ServiceKind = "login" | "session" | "list" | "getir" | "ekle";

export interface ServiceShape {
  module: string;
  kind: ServiceKind;
  /** Carries firma_kodu and donem_kodu (all but the session-level services). */
  scoped: boolean;
  /** Columns a row may have (selectedcolumns must name only these: a missing column is HTTP 500). */
  columns?: string[];
  /** Required `kart` fields of an `_ekle`. */
  required?: string[];
  source: ShapeSource;
  /** Parts no source shows. */
  inferred?: string;
}

export const DIA_SERVICES: Record<string, ServiceShape> = {
  login: { module: "sis", kind: "login", scoped: false, source: S.session },
  sis_yetkili_firma_donem_sube_depo: {
    module: "sis",
    kind: "session",
    scoped: false,
    source: S.firmPeriod,
    inferred: "depolar[{_key, depokodu, depoadi}] under each şube",
  },
  scf_stokkart_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: [
      "_key",
      "_date",
      "stokkartkodu",
      "aciklama",
      "durum",
      "gercek_stok",
      "birimkodu",
      "kdvorani",
      "barkod",
      "markaadi",
      "kategorikodu",
      "modelkodu",
    ],
    source: S.stokkart,
    inferred: "birimkodu, kdvorani, barkod, markaadi, kategorikodu, modelkodu column names",
  },
  scf_stokkartkategorisi_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: ["_key", "kod", "aciklama", "ustkod"],
    source: S.categories,
    inferred: "kod, aciklama, ustkod",
  },
  scf_fiyatgrup_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: ["_key", "kod", "aciklama", "dovizkodu", "kdvdahil"],
    source: S.fiyat,
    inferred: "all columns",
  },
  scf_fiyatkart_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: ["_key", "_date", "stokkartkodu", "fiyatgrubu", "fiyat", "dovizkodu", "kdvdahil"],
    source: S.fiyat,
    inferred: "all columns",
  },
  scf_carikart_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: ["_key", "_date", "carikartkodu", "unvan", "carikarttipi"],
    source: S.cari,
  },
  scf_carikart_ekle: {
    module: "scf",
    kind: "ekle",
    scoped: true,
    required: ["carikartkodu", "unvan", "carikarttipi"],
    source: S.cari,
    inferred: "eposta, tckimlikno, verginumarasi, m_adresler field names",
  },
  scf_siparis_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: ["_key", "_date", "fisno", "belgeno", "tarih"],
    source: S.siparis,
    inferred: "belgeno as the field carrying our reference",
  },
  scf_siparis_ekle: {
    module: "scf",
    kind: "ekle",
    scoped: true,
    required: ["tarih", "_key_scf_carikart", "m_kalemler"],
    source: S.siparis,
    inferred: "belgeno, tarih, miktar, birimfiyati, kdv field names; the answer's key",
  },
  scf_fatura_listele: {
    module: "scf",
    kind: "list",
    scoped: true,
    columns: [
      "_key",
      "_date",
      "fisno",
      "belgeno",
      "tarih",
      "ettn",
      "dovizkodu",
      "toplam",
      "toplamkdv",
      "net",
    ],
    source: S.fatura,
    inferred: "all columns; belgeno copied from the order",
  },
  scf_fatura_getir: {
    module: "scf",
    kind: "getir",
    scoped: true,
    source: S.fatura,
    inferred: "m_kalemler rows {stokkartkodu, miktar, tutari, kdv}",
  },
};

export const DIA_OPERATORS = ["<", ">", "<=", ">=", "!", "=", "IN", "NOT IN"] as const;

export interface AnswerFixture {
  id: string;
  service: string;
  source: ShapeSource;
  answer: unknown;
}

/** Answers as the sources show them (HTTP 200 in every case; the outcome is the body's `code`). */
export const DIA_ANSWERS: AnswerFixture[] = [
  {
    id: "login-ok",
    service: "login",
    source: S.session,
    answer: { code: "200", msg: "b2d4820cc43f4d98a8c6698686b6d386" },
  },
  { id: "login-nouser", service: "login", source: S.session, answer: { code: "401", msg: "NOUSER" } },
  {
    id: "stokkart-page",
    service: "scf_stokkart_listele",
    source: S.stokkart,
    answer: {
      code: "200",
      result: [
        {
          _key: 1001,
          _date: "2026-11-20 10:15:00",
          stokkartkodu: "STK-000001",
          aciklama: "Pamuklu Tişört Beyaz M",
          durum: "A",
          birimkodu: "AD",
          kdvorani: 20,
          barkod: "8690000000017",
          markaadi: "Koton",
          kategorikodu: "GIY.UST",
        },
      ],
    },
  },
  {
    id: "stock-page",
    service: "scf_stokkart_listele",
    source: S.stokkart,
    answer: { code: "200", result: [{ stokkartkodu: "STK-000001", gercek_stok: "12.000" }] },
  },
  {
    id: "credit-out",
    service: "scf_stokkart_listele",
    source: S.errors,
    answer: { code: "406", msg: "CREDIT_ERROR" },
  },
  {
    id: "timeout",
    service: "scf_stokkart_listele",
    source: S.errors,
    answer: { code: "419", msg: "LOGIN_TIMEOUT" },
  },
];
