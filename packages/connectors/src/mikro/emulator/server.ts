/**
 * Mikro emulator: a Fastify server (on the emulator kit) that answers like a live MikroAPI V2 — the shapes
 * of its judge (../judge/live-shapes.ts): login block with the daily-hashed password in every body,
 * `POST /Api/APIMethods/<Method>`, `{ result: [{ StatusCode, IsError, ErrorMessage, Data }] }` with errors
 * inside HTTP 200, `StokListesiV2` rows in `Data.StokListesi`, `VergiListesiV2` rows `{ vergiSiraNo,
 * vergiAdi, vergiOrani }` with junk rows, `SqlVeriOkuV2` in either wrapper form over Mikro-named tables,
 * and the version differences: V16 has no `SqlVeriOkuV2`, V17 lacks ten list methods.
 */

import { createHash } from "node:crypto";
import { turkishDate, turkishDateTime } from "../../sdk/turkish-time";
import type { FaultConfig } from "../../testing/faults";
import { clampPageSize } from "../../testing/paging";
import type { RecordedRequest } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { MIKRO_RULES } from "../judge/rules";
import { type Row, runSelect, SqlError } from "./sql";
import { type MikroReturnColumns, MikroState } from "./state";
import { MIKRO_VAT_LIST } from "./tables";

/** Methods a V17 server no longer has (lists go through SqlVeriOkuV2 there). */
export const MIKRO_V17_REMOVED = [
  "BankaListesiV2",
  "BarkodListesiV2",
  "CariHareketKaydetV2",
  "FaturaListesiV2",
  "KasaListesiV2",
  "KdvOzetV2",
  "MizanV2",
  "OdemePlanListesiV2",
  "SiparisListesiV2",
  "StokHareketListesiV2",
];

export interface MikroEmulatorOptions extends EmulatorOptions {
  /**
   * `false`: open no port; the app is served by a host (`mountEmulators`) at `baseUrl`, which the
   * credentials then name. Default: listen on `host:port`.
   */
  listen?: boolean;
  productCount?: number;
  apiKey?: string;
  firmCode?: string;
  period?: string;
  userCode?: string;
  password?: string;
  firmName?: string;
  /** Mikro Jump major version: 16 has no SqlVeriOkuV2; 17 (default) lacks the ten removed list methods. */
  version?: 16 | 17;
  /** SqlVeriOkuV2 wrapper: `[{ SQLResult1 }]` (default) or `{ SQLResult1 }` — both were seen live. */
  sqlWrapper?: "array" | "object";
  /** Key of the new document in the SiparisKaydetV2 answer — not pinned down live, so it varies. */
  orderAnswer?: "evrakNo" | "EvrakNo" | "id";
  /** Mikro documents no limit; `false` (default) = unlimited. */
  rateLimit?: { requests: number; windowMs: number } | false;
  /** Max rows one SqlVeriOkuV2 answer carries. */
  maxSqlRows?: number;
  /** Which return column holds customer returns (sources disagree; ../stock.ts). Default "reverses". */
  returnColumns?: MikroReturnColumns;
}

export type MikroEmulatorCredentials = {
  apiUrl: string;
  apiKey: string;
  firmCode: string;
  period: string;
  userCode: string;
  password: string;
};

export interface MikroEmulator extends Emulator {
  credentials: MikroEmulatorCredentials;
  state: MikroState;
  /** The runtime rules' gate (judge/rules.ts): how many requests it refused. */
  rules: RuleGate<RecordedRequest, { result: MikroResult[] }>;
  setFaults(config: FaultConfig): void;
  /** Invoice the open orders every `intervalMs` (the accountant's round in the demo). */
  startAutoInvoicing(intervalMs: number): () => void;
  resetCounters(): void;
}

export function mikroPasswordHash(password: string, date: string): string {
  return createHash("md5").update(`${date} ${password}`, "utf8").digest("hex");
}

interface MikroResult {
  StatusCode: number;
  IsError: boolean;
  ErrorMessage: string | null;
  Data: unknown;
}

const ok = (data: unknown): { result: MikroResult[] } => ({
  result: [{ StatusCode: 200, IsError: false, ErrorMessage: null, Data: data }],
});
const fail = (status: number, message: string): { result: MikroResult[] } => ({
  result: [{ StatusCode: status, IsError: true, ErrorMessage: message, Data: null }],
});

class MikroApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : Number(str(v).replace(",", ".")));

function isWrite(method: string): boolean {
  return /kaydet|guncelle|sil|olustur/i.test(method);
}

const DEADLOCK =
  "Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.";

export async function startMikroEmulator(opts: MikroEmulatorOptions = {}): Promise<MikroEmulator> {
  const seed = opts.seed ?? 1;
  const version = opts.version ?? 17;
  const cred = {
    apiKey: opts.apiKey ?? "mikro-emulator-api-key-0001",
    firmCode: opts.firmCode ?? "01",
    period: opts.period ?? "2025",
    userCode: opts.userCode ?? "SRV",
    password: opts.password ?? "Mikro-Emu-Parola1",
  };
  const server = createEmulatorServer({
    ...opts,
    caseInsensitiveRoutes: true,
    answers: {
      // ASP.NET Web API's own bodies.
      serverError: { status: 500, body: { Message: "An error has occurred." } },
      tooManyRequests: () => ({ Message: "Too many requests." }),
      lock: { status: 200, body: fail(500, DEADLOCK) },
    },
  });
  const now = server.now;
  const { counters } = server;
  const state = new MikroState({
    seed,
    productCount: opts.productCount ?? 0,
    firmName: opts.firmName ?? "Demo Ticaret A.Ş.",
    now,
    returnColumns: opts.returnColumns,
  });
  const maxSqlRows = opts.maxSqlRows ?? 50_000;
  // What the runtime rules refuse, refused in Mikro's own envelope (HTTP 200, IsError).
  const rules = new RuleGate<RecordedRequest, { result: MikroResult[] }>(MIKRO_RULES, (v) =>
    fail(400, v.problems.join("; ")),
  );
  let sortCache: { key: string; version: number; rows: Row[] } | undefined;
  /** STOKLAR sorted by a column, cached until the table changes. */
  function sortedStock(key: string): Row[] {
    if (sortCache && sortCache.key === key && sortCache.version === state.version) return sortCache.rows;
    const rows = [...state.table("STOKLAR").rows].sort((a, b) => {
      const x = str(a[key]);
      const y = str(b[key]);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    sortCache = { key, version: state.version, rows };
    return rows;
  }

  function authenticate(body: Record<string, unknown>): void {
    const m = (body.Mikro ?? {}) as Record<string, unknown>;
    if (!str(m.ApiKey)) throw new MikroApiError(401, "Json da ApiKey bilgisi eksik!");
    if (str(m.ApiKey) !== cred.apiKey) throw new MikroApiError(401, "ApiKey geçersiz.");
    if (str(m.FirmaKodu) !== cred.firmCode)
      throw new MikroApiError(401, `${str(m.FirmaKodu)} kodlu firma bulunamadı.`);
    if (str(m.CalismaYili) !== cred.period) {
      throw new MikroApiError(401, `${str(m.CalismaYili)} çalışma yılına ait veritabanı bulunamadı.`);
    }
    const expected = mikroPasswordHash(cred.password, turkishDate(now()));
    if (str(m.KullaniciKodu) !== cred.userCode || str(m.Sifre).toLowerCase() !== expected) {
      throw new MikroApiError(401, "Kullanıcı adı veya şifre hatalı.");
    }
  }

  /** Payload fields may sit beside the login block or inside it. */
  function payload(body: Record<string, unknown>): Record<string, unknown> {
    const inner = (body.Mikro ?? {}) as Record<string, unknown>;
    return { ...body, ...inner };
  }

  /** Each handler returns the answer's `Data`. */
  const methods: Record<string, (p: Record<string, unknown>) => unknown> = {
    StokListesiV2: (p) => {
      const prefix = str(p.StokKod);
      const dateCol = num(p.TarihTipi) === 1 ? "sto_create_date" : "sto_lastup_date";
      const from = str(p.IlkTarih);
      const to = str(p.SonTarih).slice(0, 10);
      const size = clampPageSize(p.Size, { fallback: 100, max: 5000 });
      const index = Math.max(0, num(p.Index) || 0);
      const sortCol = str(p.Sort) || "sto_kod";
      const key = state.table("STOKLAR").columns.find((c) => c.toLowerCase() === sortCol.toLowerCase());
      if (!key) throw new MikroApiError(400, `Invalid column name '${sortCol}'.`);
      const out: Row[] = [];
      let skip = index * size;
      for (const r of sortedStock(key)) {
        if (prefix && !str(r.sto_kod).startsWith(prefix)) continue;
        const d = str(r[dateCol]);
        if ((from && d < from) || (to && d.slice(0, 10) > to)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        out.push({ ...r });
        if (out.length >= size) break;
      }
      return { StokListesi: out };
    },
    SqlVeriOkuV2: (p) => {
      const sql = str(p.SQLSorgu);
      if (!sql.trim()) throw new MikroApiError(400, "SQLSorgu boş olamaz.");
      try {
        const rows = runSelect(sql, state.tables, maxSqlRows);
        return opts.sqlWrapper === "object" ? { SQLResult1: rows } : [{ SQLResult1: rows }];
      } catch (e) {
        if (e instanceof SqlError) throw new MikroApiError(400, e.message);
        throw e;
      }
    },
    VergiListesiV2: () => ({ VergiListesi: MIKRO_VAT_LIST.map((v) => ({ ...v })) }),
    CariKaydetV2: (p) => {
      const list = (p.cariler ?? []) as Array<Record<string, unknown>>;
      if (!Array.isArray(list) || list.length === 0) throw new MikroApiError(400, "cariler listesi boş.");
      for (const c of list) {
        const kod = str(c.cari_kod);
        if (!kod) throw new MikroApiError(400, "cari_kod zorunludur.");
        if (kod.length > 25) throw new MikroApiError(400, `cari_kod en fazla 25 karakter olabilir: ${kod}`);
        if (!str(c.cari_unvan1)) throw new MikroApiError(400, `${kod} için cari_unvan1 zorunludur.`);
        if (state.cariByKod.has(kod)) throw new MikroApiError(400, `${kod} kodlu cari zaten mevcut.`);
      }
      const out: unknown[] = [];
      for (const c of list) {
        const ts = turkishDateTime(state.tick());
        const row: Row = {
          cari_Guid: state.guid(),
          cari_kod: str(c.cari_kod),
          cari_unvan1: str(c.cari_unvan1),
          cari_unvan2: str(c.cari_unvan2),
          cari_vdaire_adi: str(c.cari_vdaire_adi),
          cari_vdaire_no: str(c.cari_vdaire_no),
          cari_EMail: str(c.cari_EMail),
          cari_CepTel: str(c.cari_CepTel),
          cari_create_date: ts,
          cari_lastup_date: ts,
        };
        state.table("CARI_HESAPLAR").rows.push(row);
        state.cariByKod.set(str(row.cari_kod), row);
        const addresses = (c.adres ?? []) as Array<Record<string, unknown>>;
        addresses.forEach((a, i) => {
          state.table("CARI_HESAP_ADRESLERI").rows.push({
            adr_Guid: state.guid(),
            adr_cari_kod: str(row.cari_kod),
            adr_adres_no: i + 1,
            adr_cadde: str(a.adr_cadde),
            adr_ilce: str(a.adr_ilce),
            adr_il: str(a.adr_il),
            adr_ulke: str(a.adr_ulke) || "Türkiye",
            adr_posta_kodu: str(a.adr_posta_kodu),
            adr_tel_no1: str(a.adr_tel_no1),
          });
        });
        out.push({ cari_kod: row.cari_kod, cari_Guid: row.cari_Guid });
      }
      state.touch("CARI_HESAPLAR", "CARI_HESAP_ADRESLERI");
      return out;
    },
    SiparisKaydetV2: (p) => {
      const docs = (p.evraklar ?? []) as Array<{ satirlar?: Array<Record<string, unknown>> }>;
      if (!Array.isArray(docs) || docs.length === 0) throw new MikroApiError(400, "evraklar listesi boş.");
      const depots = new Set(state.depots.map((d) => d.no));
      for (const d of docs) {
        const lines = d.satirlar ?? [];
        if (lines.length === 0) throw new MikroApiError(400, "satirlar listesi boş.");
        for (const l of lines) {
          if (!state.cariByKod.has(str(l.sip_musteri_kod))) {
            throw new MikroApiError(400, `${str(l.sip_musteri_kod)} kodlu cari bulunamadı.`);
          }
          if (!state.stokByKod.has(str(l.sip_stok_kod))) {
            throw new MikroApiError(400, `${str(l.sip_stok_kod)} kodlu stok bulunamadı.`);
          }
          if (!(num(l.sip_miktar) > 0)) throw new MikroApiError(400, "sip_miktar sıfırdan büyük olmalıdır.");
          if (!depots.has(num(l.sip_depono)))
            throw new MikroApiError(400, `${str(l.sip_depono)} numaralı depo bulunamadı.`);
        }
      }
      const out: Array<{ seri: string; sira: number }> = [];
      for (const d of docs) {
        const lines = d.satirlar ?? [];
        const first = lines[0] ?? {};
        const seri = str(first.sip_evrakno_seri);
        const sira = num(first.sip_evrakno_sira) > 0 ? num(first.sip_evrakno_sira) : state.nextSira(seri);
        lines.forEach((l, i) => {
          const ts = turkishDateTime(state.tick());
          const g = state.guid();
          state.table("SIPARISLER").rows.push({
            sip_Guid: g,
            sip_tarih: str(l.sip_tarih),
            sip_teslim_tarih: str(l.sip_teslim_tarih) || str(l.sip_tarih),
            sip_tip: num(l.sip_tip) || 0,
            sip_cins: num(l.sip_cins) || 0,
            sip_evrakno_seri: seri,
            sip_evrakno_sira: sira,
            sip_satirno: i,
            sip_belgeno: str(l.sip_belgeno),
            sip_belge_tarih: str(l.sip_belge_tarih) || str(l.sip_tarih),
            sip_musteri_kod: str(l.sip_musteri_kod),
            sip_stok_kod: str(l.sip_stok_kod),
            sip_b_fiyat: num(l.sip_b_fiyat),
            sip_miktar: num(l.sip_miktar),
            sip_birim_pntr: num(l.sip_birim_pntr) || 1,
            sip_teslim_miktar: 0,
            sip_tutar: num(l.sip_tutar),
            sip_vergi_pntr: num(l.sip_vergi_pntr),
            sip_vergi: num(l.sip_vergi),
            sip_depono: num(l.sip_depono),
            sip_aciklama: str(l.sip_aciklama),
            sip_create_date: ts,
            sip_lastup_date: ts,
          });
        });
        out.push({ seri, sira });
      }
      state.touch("SIPARISLER");
      // The live answer's key for the new document is uncertain; answer in one of the seen forms.
      const first = out[0] ?? { seri: "", sira: 0 };
      const no = first.seri ? `${first.seri}-${first.sira}` : String(first.sira);
      if (opts.orderAnswer === "id") return out.map((d) => ({ id: d.sira }));
      return opts.orderAnswer === "EvrakNo" ? { EvrakNo: no } : { evrakNo: no };
    },
    // Deletes whole documents named by series and number (the judge's SiparisSilV2 shape).
    SiparisSilV2: (p) => {
      const docs = (p.evraklar ?? []) as Array<{ satirlar?: Array<Record<string, unknown>> }>;
      if (!Array.isArray(docs) || docs.length === 0) throw new MikroApiError(400, "evraklar listesi boş.");
      const rows = state.table("SIPARISLER").rows;
      for (const d of docs) {
        const first = d.satirlar?.[0] ?? {};
        const seri = str(first.sip_evrakno_seri);
        const sira = num(first.sip_evrakno_sira);
        const before = rows.length;
        for (let i = rows.length - 1; i >= 0; i--) {
          const r = rows[i]!;
          if (str(r.sip_evrakno_seri) === seri && num(r.sip_evrakno_sira) === sira) rows.splice(i, 1);
        }
        if (rows.length === before)
          throw new MikroApiError(400, `${seri}-${sira} numaralı sipariş bulunamadı.`);
      }
      state.touch("SIPARISLER");
      return { ok: true };
    },
  };
  const methodByLower = new Map(Object.keys(methods).map((k) => [k.toLowerCase(), k]));

  const removed = new Set(MIKRO_V17_REMOVED.map((m) => m.toLowerCase()));
  const notFound = (url: string) => ({
    Message: `No HTTP resource was found that matches the request URI '${url}'.`,
  });

  server.app.get("/Api/APIMethods/:method", async (req, reply) => {
    const { method } = req.params as { method: string };
    if (!/^healthcheck2?$/i.test(method))
      return reply.code(405).send({ Message: "The requested resource does not support http method 'GET'." });
    if ((await server.gate(req, reply, { kind: "read", operation: "HealthCheck2" })) === "handled")
      return reply;
    return ok(["Mikro API çalışıyor"]);
  });

  server.app.post("/Api/APIMethods/:method", async (req, reply) => {
    const { method: raw } = req.params as { method: string };
    const lower = raw.toLowerCase();
    if (await server.rateLimit(reply)) return reply;
    const method = methodByLower.get(lower);
    // A V16 server has no SqlVeriOkuV2 at all: ASP.NET's unknown-route answer (inferred; not seen live).
    if (!method || (version === 16 && method === "SqlVeriOkuV2")) {
      counters.requests++;
      counters.errors++;
      if (version >= 17 && removed.has(lower)) {
        return reply.code(200).send(fail(501, `${raw} metodu Mikro Jump V17'de bulunmamaktadır.`));
      }
      return reply.code(404).send(notFound(req.url));
    }
    const pf = await server.gate(
      req,
      reply,
      { kind: isWrite(method) ? "write" : "read", operation: method },
      {
        skipRateLimit: true,
      },
    );
    if (pf === "handled") return reply;
    const body = (req.body ?? {}) as Record<string, unknown>;
    let answer: { result: MikroResult[] };
    try {
      authenticate(body);
      const handler = methods[method];
      const broken = rules.check({
        at: now(),
        method: req.method,
        path: req.url,
        query: {},
        headers: req.headers as Record<string, string | undefined>,
        body,
      });
      answer = broken ?? ok(handler ? handler(payload(body)) : []);
    } catch (e) {
      if (!(e instanceof MikroApiError)) throw e;
      counters.errors++;
      if (e.status === 401) counters.authFailures++;
      answer = fail(e.status, e.message);
    }
    if (pf === "drop") return server.drop(req, reply);
    return reply.code(200).send(answer);
  });

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    credentials: { apiUrl: url, ...cred },
    state,
    rules,
    setFaults: (c) => server.faults.set(c),
    startAutoInvoicing: (intervalMs) => server.every(intervalMs, () => state.invoiceOpenOrders()),
    resetCounters: () => server.resetCounters(),
  };
}
