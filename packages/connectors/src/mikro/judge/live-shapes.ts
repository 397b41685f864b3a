/**
 * The judge for Mikro, part 1: answer shapes seen on a live MikroAPI, as fixtures written by us.
 *
 * Mikro publishes no OpenAPI file. The best evidence is public code that ran against a live Mikro and
 * dates each finding in its comments (orcncetin-sys/cetpa). Each fixture below names that source and the
 * dated finding it encodes; the row values are ours (SKUs of our seeded catalogue, invented firm names),
 * only the shape — keys, nesting, types, quirks — comes from the source. Parsing tests run the connector
 * against these answers (./judge.test.ts), never against answers our emulator invented.
 */

export interface LiveSource {
  repository: string;
  path: string;
  /** Commit of the file the finding was read from. */
  commit: string;
  /** The dated finding, in our words. */
  finding: string;
}

export interface LiveAnswerFixture {
  id: string;
  method: string;
  source: LiveSource;
  /** The HTTP 200 body, as the live service sends it. */
  answer: unknown;
}

const CETPA = "orcncetin-sys/cetpa";
const CLIENT = "src/server/mikroClient.ts";
const CLIENT_COMMIT = "553c6a5f5ab7cea13ac363e2fff2c01952c7fb9b";
const ORDER_BODY = "src/server/mikro/govdeSiparis.ts";
const ORDER_COMMIT = "f43e46c1860a4ed5e7c588169ebf4385d90dca9a";

const ok = (data: unknown) => ({
  result: [{ StatusCode: 200, Data: data, IsError: false, ErrorMessage: null }],
});

/** STOKLAR columns as StokListesiV2 returns them (no quantity column, no price column on this install). */
const stockCard = (kod: string, isim: string, vergi: number, lastup: string) => ({
  sto_Guid: `5D0C3A1E-0000-4000-8000-${kod.replace(/\D/g, "").padStart(12, "0")}`,
  sto_kod: kod,
  sto_isim: isim,
  sto_kisa_ismi: isim.slice(0, 24),
  sto_birim1_ad: "ADET",
  sto_anagrup_kod: "AG01",
  sto_altgrup_kod: "AG01.001",
  sto_marka_kodu: "M001",
  sto_model_kodu: "",
  sto_perakende_vergi: vergi,
  sto_toptan_vergi: vergi,
  sto_pasif_fl: 0,
  sto_webe_gonderilecek_fl: 1,
  sto_create_date: "2024-03-01 09:00:00.000",
  sto_lastup_date: lastup,
});

export const LIVE_ANSWERS: LiveAnswerFixture[] = [
  {
    id: "stok-listesi",
    method: "StokListesiV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding:
        "2026-07-30, mikroSatirlar: list methods answer Data = { StokListesi: [...] }; rows are raw STOKLAR " +
        "columns; there is no on-hand quantity column (reading one as 0 zeroed every product), and price " +
        "columns exist on some installs only.",
    },
    answer: ok({
      StokListesi: [
        stockCard("STK-000001", "Pamuklu Tişört Beyaz M", 4, "2026-11-20 10:15:00.000"),
        stockCard("STK-000002", "Kahve Fincanı 2'li", 3, "2026-11-21 16:40:12.345"),
        stockCard("STK-000003", "Çocuk Kitabı: Masallar", 2, "2026-11-22 08:05:59.000"),
      ],
    }),
  },
  {
    id: "vergi-listesi",
    method: "VergiListesiV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding:
        "2026-07-31, mikroVergiOranlari: rows { vergiSiraNo, vergiAdi, vergiOrani }; sto_perakende_vergi and " +
        "sip_vergi_pntr point at vergiSiraNo (1 YOK 0 %, 2 1 %, 3 10 %, 4 20 %); rates come as floats " +
        "(20 % as 19.999999999, per the later vergiIsaretci note) and uninitialised rows with an empty name " +
        "or a denormal rate such as 4.6e-322 must be dropped. The source does not name the wrapper key; its " +
        "generic row reader takes Data as a row list or an object holding one, so both forms are fixtures " +
        "(the key `VergiListesi` is our inference).",
    },
    answer: ok({
      VergiListesi: [
        { vergiSiraNo: 0, vergiAdi: "", vergiOrani: 4.6e-322 },
        { vergiSiraNo: 1, vergiAdi: "YOK", vergiOrani: 0 },
        { vergiSiraNo: 2, vergiAdi: "KDV %1", vergiOrani: 1.0000000000000002 },
        { vergiSiraNo: 3, vergiAdi: "KDV %10", vergiOrani: 10 },
        { vergiSiraNo: 4, vergiAdi: "KDV %20", vergiOrani: 19.999999999 },
        { vergiSiraNo: 5, vergiAdi: "", vergiOrani: 0 },
        { vergiSiraNo: 6, vergiAdi: " ", vergiOrani: 1e308 },
      ],
    }),
  },
  {
    id: "vergi-listesi-plain",
    method: "VergiListesiV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding: "Same finding (2026-07-31), Data as a plain row list, which the live parser accepts too.",
    },
    answer: ok([
      { vergiSiraNo: 1, vergiAdi: "YOK", vergiOrani: 0 },
      { vergiSiraNo: 3, vergiAdi: "KDV %10", vergiOrani: 9.9999999999 },
      { vergiSiraNo: 4, vergiAdi: "KDV %20", vergiOrani: 19.999999999 },
      { vergiSiraNo: 9, vergiAdi: "", vergiOrani: 4.6e-322 },
    ]),
  },
  {
    id: "sql-array-wrapper",
    method: "SqlVeriOkuV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding:
        "2026-07-30, mikroSatirlar: SqlVeriOkuV2 answers Data = [ { SQLResult1: [rows] } ] (array wrapper); " +
        "a parser that only looks for an array among Data's values returned 0 rows silently.",
    },
    answer: ok([{ SQLResult1: [{ fir_unvan: "Deneme Yapı Malzemeleri Ltd. Şti." }] }]),
  },
  {
    id: "sql-object-wrapper",
    method: "SqlVeriOkuV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding:
        "2026-07-30, mikroSatirlar: the object wrapper Data = { SQLResult1: [rows] } was also seen live.",
    },
    answer: ok({ SQLResult1: [{ fir_unvan: "Deneme Yapı Malzemeleri Ltd. Şti." }] }),
  },
  {
    id: "siparis-kaydet-evrakNo",
    method: "SiparisKaydetV2",
    source: {
      repository: CETPA,
      path: ORDER_BODY,
      commit: ORDER_COMMIT,
      finding:
        "2026-09-19 (body moved from the route, live-checked 2026-08-22): the order goes inside the Mikro " +
        "block as evraklar[].satirlar[]; success is HTTP 200 with result[0] and IsError false. The reply key " +
        "of the new document number is not pinned down (evrakNo | EvrakNo | id): find the order by our own " +
        "reference instead.",
    },
    answer: ok({ evrakNo: "T-000123" }),
  },
  {
    id: "siparis-kaydet-id",
    method: "SiparisKaydetV2",
    source: {
      repository: CETPA,
      path: ORDER_BODY,
      commit: ORDER_COMMIT,
      finding: "Same finding: the other key seen for the new document is `id` (and the shape may be a list).",
    },
    answer: ok([{ id: 123 }]),
  },
  {
    id: "error-inside-200",
    method: "SqlVeriOkuV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding:
        "mikroSql / mikroHata: errors arrive inside HTTP 200 as result[0].IsError with ErrorMessage; IsError " +
        "must be checked on every call (the message, not the StatusCode, says what went wrong).",
    },
    answer: {
      result: [
        { StatusCode: 500, Data: null, IsError: true, ErrorMessage: "Invalid column name 'sto_mevcut_mik'." },
      ],
    },
  },
  {
    id: "stub-without-result",
    method: "StokListesiV2",
    source: {
      repository: CETPA,
      path: CLIENT,
      commit: CLIENT_COMMIT,
      finding:
        "mikroPost: a 200 without `result` ({ Method: ... }, a 'stub' seen when a session was killed) is a " +
        "failure, never an empty list.",
    },
    answer: { Method: "StokListesiV2" },
  },
];

export function liveAnswer(id: string): unknown {
  const f = LIVE_ANSWERS.find((x) => x.id === id);
  if (!f) throw new Error(`no live-shape fixture ${id}`);
  return structuredClone(f.answer);
}
