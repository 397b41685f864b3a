/**
 * The judge for Mikro, part 2: the request shapes the live-tested public code sends (orcncetin-sys/cetpa,
 * src/server/mikroClient.ts @553c6a5 `mikroPost`/`buildMikroContext`, src/server/mikro/govdeSiparis.ts
 * @f43e46c, src/server/mikro/govdeStokCari.ts @69d2b4f; request fields of StokListesiV2 as summarised in
 * ../shared/partner-apis/artifacts-by-system.md). Every request our connector sends in its contract tests
 * is checked here; a mismatch fails the suite. Where the source is silent a rule says so ("inferred").
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown) => typeof v === "number" && Number.isInteger(v);
const isNum = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const isDay = (v: unknown) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The login block every V2 call carries (local install: no Alias / OIDC token). */
function loginProblems(m: unknown): string[] {
  if (!isObj(m)) return ["body.Mikro (login block) missing"];
  const p: string[] = [];
  for (const k of ["FirmaKodu", "CalismaYili", "KullaniciKodu"]) {
    if (typeof m[k] !== "string" || m[k] === "") p.push(`Mikro.${k} must be a non-empty string`);
  }
  if (typeof m.Sifre !== "string" || !/^[0-9a-f]{32}$/.test(m.Sifre)) {
    p.push("Mikro.Sifre must be the daily MD5 hex of 'yyyy-MM-dd password'");
  }
  // cetpa leaves ApiKey out when empty ("some versions treat an empty field as invalid").
  if ("ApiKey" in m && (typeof m.ApiKey !== "string" || m.ApiKey === ""))
    p.push("Mikro.ApiKey, when sent, must be non-empty");
  return p;
}

function stokListesi(b: Obj): string[] {
  const p: string[] = [];
  if (typeof b.StokKod !== "string") p.push("StokKod must be a string ('' = all)");
  if (!isInt(b.TarihTipi)) p.push("TarihTipi must be an integer");
  for (const k of ["IlkTarih", "SonTarih"]) {
    if (!(b[k] === "" || isDay(b[k]))) p.push(`${k} must be '' or yyyy-MM-dd`);
  }
  if (typeof b.Sort !== "string" || b.Sort === "") p.push("Sort must name a column");
  // The live call sends Size as a string ("500") and Index as a number.
  if (typeof b.Size !== "string" || !/^\d+$/.test(b.Size)) p.push("Size must be a numeric string");
  if (!isInt(b.Index)) p.push("Index must be an integer");
  if (isObj(b.Mikro) && "StokKod" in b.Mikro)
    p.push("StokListesiV2 parameters sit beside the Mikro block, not inside");
  return p;
}

function sqlVeriOku(b: Obj): string[] {
  const q = b.SQLSorgu;
  if (typeof q !== "string") return ["SQLSorgu must be a string beside the Mikro block"];
  if (!/^\s*SELECT\b/i.test(q)) return ["SqlVeriOkuV2 runs SELECT only"];
  return [];
}

const ORDER_LINE: Array<[string, (v: unknown) => boolean, string]> = [
  ["sip_tarih", (v) => typeof v === "string" && /^\d{2}\.\d{2}\.\d{4}$/.test(v), "dd.MM.yyyy string"],
  ["sip_tip", (v) => v === "0", "'0' (sale; '1' is a purchase order)"],
  ["sip_cins", (v) => typeof v === "string" && /^\d+$/.test(v), "numeric string"],
  ["sip_evrakno_seri", (v) => typeof v === "string", "string"],
  ["sip_musteri_kod", (v) => typeof v === "string" && v !== "", "non-empty string"],
  ["sip_stok_kod", (v) => typeof v === "string" && v !== "", "non-empty string"],
  ["sip_b_fiyat", (v) => isNum(v) && (v as number) >= 0, "number ≥ 0"],
  ["sip_miktar", (v) => isNum(v) && (v as number) > 0, "number > 0"],
  ["sip_tutar", (v) => isNum(v), "number"],
  // A pointer into VergiListesiV2 (vergiSiraNo), never a percentage.
  [
    "sip_vergi_pntr",
    (v) => isInt(v) && (v as number) >= 1 && (v as number) <= 20,
    "VAT list index (vergiSiraNo)",
  ],
  ["sip_depono", (v) => isInt(v) && (v as number) > 0, "integer depot number > 0"],
  ["sip_vergisiz_fl", (v) => typeof v === "boolean", "boolean"],
];

function siparisKaydet(b: Obj): string[] {
  const m = b.Mikro;
  if (!isObj(m)) return [];
  if ("evraklar" in b) return ["evraklar must sit inside the Mikro block (V17 document pattern)"];
  if (!Array.isArray(m.evraklar) || m.evraklar.length === 0)
    return ["Mikro.evraklar must be a non-empty list"];
  const p: string[] = [];
  m.evraklar.forEach((d: unknown, i) => {
    const lines = isObj(d) ? d.satirlar : undefined;
    if (!Array.isArray(lines) || lines.length === 0) {
      p.push(`evraklar[${i}].satirlar must be a non-empty list`);
      return;
    }
    lines.forEach((l: unknown, j) => {
      if (!isObj(l)) {
        p.push(`evraklar[${i}].satirlar[${j}] must be an object`);
        return;
      }
      for (const [k, ok, what] of ORDER_LINE) {
        if (!ok(l[k])) p.push(`satirlar[${j}].${k} must be ${what} (got ${JSON.stringify(l[k])})`);
      }
    });
  });
  return p;
}

function cariKaydet(b: Obj): string[] {
  // cetpa's body builder (govdeStokCari.ts) does not show where `cariler` sits; the emulator accepts both,
  // this judge too (inferred). The field types are the live ones.
  const m = isObj(b.Mikro) ? b.Mikro : {};
  const list = (m.cariler ?? b.cariler) as unknown;
  if (!Array.isArray(list) || list.length === 0) return ["cariler must be a non-empty list"];
  const p: string[] = [];
  list.forEach((c: unknown, i) => {
    if (!isObj(c)) {
      p.push(`cariler[${i}] must be an object`);
      return;
    }
    if (typeof c.cari_kod !== "string" || c.cari_kod === "" || c.cari_kod.length > 25) {
      p.push(`cariler[${i}].cari_kod must be 1..25 characters`);
    }
    if (typeof c.cari_unvan1 !== "string" || c.cari_unvan1.trim() === "")
      p.push(`cariler[${i}].cari_unvan1 required`);
    for (const k of ["cari_unvan2", "cari_vdaire_no", "cari_vdaire_adi", "cari_EMail", "cari_CepTel"]) {
      if (k in c && typeof c[k] !== "string") p.push(`cariler[${i}].${k} must be a string`);
    }
    const adres = c.adres;
    if (adres !== undefined && !Array.isArray(adres)) p.push(`cariler[${i}].adres must be a list`);
    if (Array.isArray(adres)) {
      adres.forEach((a: unknown, j) => {
        if (!isObj(a)) return;
        for (const k of ["adr_cadde", "adr_ilce", "adr_il", "adr_ulke", "adr_tel_no1"]) {
          if (k in a && typeof a[k] !== "string") p.push(`adres[${j}].${k} must be a string`);
        }
        // A numeric column in Mikro (0 = empty).
        if ("adr_posta_kodu" in a && !isInt(a.adr_posta_kodu))
          p.push(`adres[${j}].adr_posta_kodu must be an integer`);
      });
    }
  });
  return p;
}

const METHODS: Record<string, (b: Obj) => string[]> = {
  StokListesiV2: stokListesi,
  SqlVeriOkuV2: sqlVeriOku,
  VergiListesiV2: () => [],
  SiparisKaydetV2: siparisKaydet,
  SiparisSilV2: siparisSil,
  CariKaydetV2: cariKaydet,
};

/** SiparisSilV2: the document to delete, by series and number, in `Mikro.evraklar[].satirlar[]` (cancel.ts). */
function siparisSil(b: Obj): string[] {
  const m = b.Mikro;
  if (!isObj(m)) return [];
  if ("evraklar" in b) return ["evraklar must sit inside the Mikro block"];
  if (!Array.isArray(m.evraklar) || m.evraklar.length === 0)
    return ["Mikro.evraklar must be a non-empty list"];
  const p: string[] = [];
  m.evraklar.forEach((d: unknown, i) => {
    const lines = isObj(d) ? d.satirlar : undefined;
    const first: unknown = Array.isArray(lines) ? lines[0] : undefined;
    if (!isObj(first)) {
      p.push(`evraklar[${i}].satirlar must be a non-empty list of objects`);
      return;
    }
    if (typeof first.sip_evrakno_seri !== "string")
      p.push(`evraklar[${i}] sip_evrakno_seri must be a string`);
    if (!(typeof first.sip_evrakno_sira === "number" && first.sip_evrakno_sira > 0))
      p.push(`evraklar[${i}] sip_evrakno_sira must be a positive number`);
  });
  return p;
}

/** Judge one recorded request against the live request shapes. */
export const judgeMikroRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const m = /^\/Api\/APIMethods\/([A-Za-z0-9]+)$/.exec(r.path);
  if (!m) return undefined;
  const method = m[1] ?? "";
  if (r.method === "GET") {
    return method === "HealthCheck2" ? { operation: method, problems: [] } : undefined;
  }
  const check = METHODS[method];
  if (!check) return undefined;
  if (r.method !== "POST") return { operation: method, problems: ["must be POST"] };
  const body = r.body;
  if (!isObj(body)) return { operation: method, problems: ["body must be a JSON object"] };
  return { operation: method, problems: [...loginProblems(body.Mikro), ...check(body)] };
};
