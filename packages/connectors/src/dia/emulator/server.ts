/**
 * DİA emulator on the kit: `POST /api/v3/{module}/json` with one-key bodies, answers `{ code, msg }` /
 * `{ code, result }` in HTTP 200 (the doc's codes), sessions that idle out (419) and log in again,
 * kontör charged per call (login free; 406 when none is left), `_listele` with the doc's filters,
 * sorts, limit (0 = all) and offset, `selectedcolumns` (an unknown column is HTTP 500, as a live client
 * found), change dates (`_date`) for delta reads, and the services of the judge (../judge/shapes.ts).
 */

import { randomBytes } from "node:crypto";
import { turkishDate, turkishDateTime } from "../../sdk/turkish-time";
import { generateCatalog, generateCustomers } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { DIA_SERVICES } from "../judge/shapes";

type Row = Record<string, unknown>;

export interface DiaEmulatorOptions extends EmulatorOptions {
  /** Address the tenant is served at when `listen: false` (the credentials' `apiUrl` is `${baseUrl}/api/v3`). */
  baseUrl?: string;
  productCount?: number;
  username?: string;
  password?: string;
  apiKey?: string;
  firmCode?: number;
  periodCode?: number;
  /** Kontör left; every call but login costs 0.0125. Default plenty. */
  credits?: number;
  /** Idle session timeout (doc: one hour). */
  sessionIdleMs?: number;
}

export type DiaEmulatorCredentials = {
  serverCode: string;
  apiUrl: string;
  username: string;
  password: string;
  apiKey: string;
  firmCode: string;
  periodCode: string;
};

export interface DiaEmulator
  extends Emulator<EmulatorCounters & { credits: number; billed: number; logins: number }> {
  credentials: DiaEmulatorCredentials;
  tables: Record<string, Row[]>;
  /** Mark a stock card changed now (its `_date`), optionally renaming it. */
  touchProduct(sku: string, patch?: Row): void;
  setPrice(sku: string, group: string, amount: number): void;
  setStock(sku: string, depotKey: number, qty: number): void;
  /** Issue an invoice for an order (by `belgeno`), as the accountant does in DİA. */
  invoiceOrder(belgeno: string): boolean;
  /** Every session idles out now (the next service call answers 419). */
  expireSessions(): void;
}

const CREDIT_PER_CALL = 0.0125;
/** "yyyy-MM-dd HH:mm:ss", Turkish time. */
export function diaDateTime(ms: number): string {
  return turkishDateTime(ms).slice(0, 19);
}

class DiaFail extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly http = 200,
  ) {
    super(msg);
  }
}

const s = (v: unknown) => (v === undefined || v === null ? "" : String(v));
function compare(a: unknown, b: unknown): number {
  const x = s(a);
  const y = s(b);
  if (x !== "" && y !== "" && !Number.isNaN(Number(x)) && !Number.isNaN(Number(y)))
    return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}

function matches(row: Row, f: Row): boolean {
  const v = row[s(f.field)];
  const value = s(f.value);
  switch (f.operator) {
    case "=":
      return compare(v, value) === 0;
    case "!":
      return compare(v, value) !== 0;
    case "<":
      return compare(v, value) < 0;
    case ">":
      return compare(v, value) > 0;
    case "<=":
      return compare(v, value) <= 0;
    case ">=":
      return compare(v, value) >= 0;
    case "IN":
      return value.split(",").some((x) => compare(v, x.trim()) === 0);
    case "NOT IN":
      return !value.split(",").some((x) => compare(v, x.trim()) === 0);
    default:
      throw new DiaFail("400", `Geçersiz operatör: ${s(f.operator)}`);
  }
}

export async function startDiaEmulator(opts: DiaEmulatorOptions = {}): Promise<DiaEmulator> {
  const seed = opts.seed ?? 1;
  const cred = {
    username: opts.username ?? "ws",
    password: opts.password ?? "Dia-Emu-Parola1",
    apiKey: opts.apiKey ?? "dia-emulator-api-key-0001",
    firm: opts.firmCode ?? 1,
    period: opts.periodCode ?? 1,
  };
  const server = createEmulatorServer<EmulatorCounters & { credits: number; billed: number; logins: number }>(
    {
      ...opts,
      answers: {
        serverError: {
          status: 500,
          contentType: "text/html",
          body: "<html><body>Internal Server Error</body></html>",
        },
        tooManyRequests: () => ({ code: "429", msg: "TOO_MANY_REQUESTS" }),
        lock: {
          status: 200,
          body: { code: "501", msg: "Kayıt başka bir kullanıcı tarafından kilitlenmiş." },
        },
        unauthorized: { status: 200, body: { code: "419", msg: "LOGIN_TIMEOUT" } },
      },
    },
    { credits: opts.credits ?? 1_000_000, billed: 0, logins: 0 },
  );
  const now = server.now;
  const { counters } = server;
  const idleMs = opts.sessionIdleMs ?? 3600_000;
  const sessions = new Map<string, number>();

  // Seeded data: stock cards with change dates spread over the last 90 days.
  const items = generateCatalog({ seed, count: opts.productCount ?? 0, now: now() });
  const categories = new Map<string, Row>();
  const catCode = (name: string) =>
    name
      .toLocaleUpperCase("tr-TR")
      .replace(/[^A-Z0-9ÇĞİÖŞÜ]/g, "")
      .slice(0, 6);
  const stokkart: Row[] = [];
  const fiyatkart: Row[] = [];
  const stock = new Map<string, number>(); // `${sku}|${depotKey}`
  let nextKey = 1000;
  for (const it of items) {
    const root = catCode(it.categoryRoot);
    const child = `${root}.${catCode(it.categoryChild)}`;
    if (!categories.has(root))
      categories.set(root, { _key: nextKey++, kod: root, aciklama: it.categoryRoot, ustkod: "" });
    if (!categories.has(child))
      categories.set(child, { _key: nextKey++, kod: child, aciklama: it.categoryChild, ustkod: root });
    const date = diaDateTime(it.updatedAt);
    stokkart.push({
      _key: nextKey++,
      _date: date,
      stokkartkodu: it.sku,
      aciklama: it.name,
      durum: "A",
      birimkodu: it.unit,
      kdvorani: it.vatRate,
      barkod: it.barcode,
      markaadi: it.brand,
      kategorikodu: child,
      modelkodu: it.modelCode,
    });
    fiyatkart.push(
      {
        _key: nextKey++,
        _date: date,
        stokkartkodu: it.sku,
        fiyatgrubu: "PSF",
        fiyat: it.retailPrice,
        dovizkodu: "TL",
        kdvdahil: "E",
      },
      {
        _key: nextKey++,
        _date: date,
        stokkartkodu: it.sku,
        fiyatgrubu: "TOPTAN",
        fiyat: it.wholesalePrice,
        dovizkodu: "TL",
        kdvdahil: "H",
      },
    );
    stock.set(`${it.sku}|101`, it.stock1);
    stock.set(`${it.sku}|102`, it.stock2);
  }
  stokkart.sort((a, b) => compare(a.stokkartkodu, b.stokkartkodu));
  const customers = generateCustomers(seed, 3);
  const tables: Record<string, Row[]> = {
    scf_stokkart_listele: stokkart,
    scf_stokkartkategorisi_listele: [...categories.values()],
    scf_fiyatgrup_listele: [
      { _key: 1, kod: "PSF", aciklama: "Perakende Satış Fiyatı", dovizkodu: "TL", kdvdahil: "E" },
      { _key: 2, kod: "TOPTAN", aciklama: "Bayi Fiyatı", dovizkodu: "TL", kdvdahil: "H" },
    ],
    scf_fiyatkart_listele: fiyatkart,
    scf_carikart_listele: customers.map((c, i) => ({
      _key: 500 + i,
      _date: diaDateTime(now() - 86_400_000),
      carikartkodu: `120.${String(i + 1).padStart(3, "0")}`,
      unvan: c.companyName ?? `${c.firstName} ${c.lastName}`,
      carikarttipi: "AL",
    })),
    scf_siparis_listele: [],
    scf_fatura_listele: [],
  };
  const orderLines = new Map<number, Row[]>();
  const invoiceLines = new Map<number, Row[]>();
  const depots = [
    { _key: 101, depokodu: "MERKEZ", depoadi: "Merkez Depo" },
    { _key: 102, depokodu: "SUBE", depoadi: "Şube Deposu" },
  ];
  let fisno = 0;

  function session(b: Row, scoped: boolean): void {
    const id = s(b.session_id);
    const last = sessions.get(id);
    if (last === undefined) throw new DiaFail("401", "INVALID_SESSION");
    if (now() - last > idleMs) {
      sessions.delete(id);
      throw new DiaFail("419", "LOGIN_TIMEOUT");
    }
    sessions.set(id, now());
    if (scoped && (b.firma_kodu !== cred.firm || b.donem_kodu !== cred.period))
      throw new DiaFail("401", "Firma ya da dönem için yetkiniz yok.");
  }

  function list(service: string, b: Row): Row[] {
    const columns = DIA_SERVICES[service]?.columns ?? [];
    const params = (b.params ?? {}) as Row;
    let rows = tables[service] ?? [];
    if (
      service === "scf_stokkart_listele" &&
      s(params.miktarhesapla) !== "" &&
      s(params.miktarhesapla) !== "False" &&
      s(params.miktarhesapla) !== "0"
    ) {
      const depot = Number(params._key_sis_depo_filtre ?? 0);
      rows = rows.map((r) => ({
        ...r,
        gercek_stok: depot
          ? (stock.get(`${s(r.stokkartkodu)}|${depot}`) ?? 0).toFixed(3)
          : (
              (stock.get(`${s(r.stokkartkodu)}|101`) ?? 0) + (stock.get(`${s(r.stokkartkodu)}|102`) ?? 0)
            ).toFixed(3),
      }));
    }
    for (const f of (b.filters ?? []) as Row[]) rows = rows.filter((r) => matches(r, f));
    const sorts = (b.sorts ?? []) as Row[];
    if (sorts.length > 0) {
      rows = [...rows].sort((x, y) => {
        for (const so of sorts) {
          const c = compare(x[s(so.field)], y[s(so.field)]);
          if (c !== 0) return so.sorttype === "DESC" ? -c : c;
        }
        return 0;
      });
    }
    const offset = Math.max(0, Number(b.offset ?? 0));
    const limit = Number(b.limit ?? 0);
    rows = limit > 0 ? rows.slice(offset, offset + limit) : rows.slice(offset);
    const sel = params.selectedcolumns;
    if (Array.isArray(sel)) {
      const missing = sel.filter(
        (c) => !columns.includes(String(c)) && !(c === "gercek_stok" && service === "scf_stokkart_listele"),
      );
      // A live client found: asking for a column the tenant lacks is an HTTP 500.
      if (missing.length > 0) throw new DiaFail("500", `column "${missing.join(",")}" does not exist`, 500);
      rows = rows.map((r) => Object.fromEntries(sel.map((c) => [c, r[String(c)]])));
    }
    return rows;
  }

  function ekle(service: string, kart: Row): Row {
    if (service === "scf_carikart_ekle") {
      const code = s(kart.carikartkodu);
      if (tables.scf_carikart_listele?.some((c) => c.carikartkodu === code))
        throw new DiaFail("400", `${code} kodlu cari kart zaten var.`);
      const key = nextKey++;
      tables.scf_carikart_listele?.push({
        _key: key,
        _date: diaDateTime(now()),
        carikartkodu: code,
        unvan: kart.unvan,
        carikarttipi: kart.carikarttipi,
      });
      return { code: "200", key, msg: "" };
    }
    // scf_siparis_ekle
    const cari = s((kart._key_scf_carikart as Row | undefined)?.carikodu);
    if (!tables.scf_carikart_listele?.some((c) => c.carikartkodu === cari))
      throw new DiaFail("400", `Cari kart bulunamadı: ${cari}`);
    const lines = (kart.m_kalemler ?? []) as Row[];
    for (const l of lines) {
      const sku = s((l._key_scf_stokkart as Row | undefined)?.stokkodu);
      if (!stokkart.some((r) => r.stokkartkodu === sku))
        throw new DiaFail("400", `Stok kartı bulunamadı: ${sku}`);
    }
    const key = nextKey++;
    fisno++;
    tables.scf_siparis_listele?.push({
      _key: key,
      _date: diaDateTime(now()),
      fisno: `SIP${String(fisno).padStart(6, "0")}`,
      belgeno: s(kart.belgeno),
      tarih: s(kart.tarih),
    });
    orderLines.set(
      key,
      lines.map((l) => ({
        stokkartkodu: s((l._key_scf_stokkart as Row).stokkodu),
        miktar: Number(l.miktar),
        birimfiyati: Number(l.birimfiyati ?? 0),
        kdv: Number(l.kdv ?? 20),
      })),
    );
    return { code: "200", key, msg: "" };
  }

  server.app.post("/api/v3/:module/json", async (req, reply) => {
    const { module } = req.params as { module: string };
    const body = (req.body ?? {}) as Row;
    const service = Object.keys(body)[0] ?? "";
    const shape = DIA_SERVICES[service];
    const write = shape?.kind === "ekle";
    const gate = await server.gate(req, reply, { kind: write ? "write" : "read", operation: service });
    if (gate === "handled") return reply;
    let answer: Row;
    let http = 200;
    try {
      if (!shape || shape.module !== module)
        throw new DiaFail("400", `${service} servisi ${module} modülünde yok.`);
      const b = (body[service] ?? {}) as Row;
      if (shape.kind === "login") {
        counters.logins++;
        const p = (b.params ?? {}) as Row;
        if (s(p.apikey) !== cred.apiKey) throw new DiaFail("401", "INVALID_APIKEY");
        if (s(b.username) !== cred.username || s(b.password) !== cred.password)
          throw new DiaFail("401", "NOUSER");
        const id = randomBytes(16).toString("hex");
        sessions.set(id, now());
        answer = { code: "200", msg: id };
      } else {
        session(b, shape.scoped);
        if (counters.credits < CREDIT_PER_CALL) throw new DiaFail("406", "CREDIT_ERROR");
        counters.credits -= CREDIT_PER_CALL;
        counters.billed++;
        if (shape.kind === "session") {
          answer = {
            code: "200",
            result: [
              {
                firmakodu: cred.firm,
                firmaadi: "Demo Ticaret A.Ş.",
                donemler: [
                  { donemkodu: cred.period, baslangictarihi: "2026-01-01", bitistarihi: "2026-12-31" },
                ],
                subeler: [{ subekodu: "MRK", subeadi: "Merkez", depolar: depots }],
              },
            ],
          };
        } else if (shape.kind === "list") answer = { code: "200", result: list(service, b) };
        else if (shape.kind === "getir") {
          const key = Number(b.key);
          const head = tables.scf_fatura_listele?.find((f) => f._key === key);
          if (!head) throw new DiaFail("400", "Kayıt bulunamadı.");
          answer = { code: "200", result: { ...head, m_kalemler: invoiceLines.get(key) ?? [] } };
        } else answer = ekle(service, (b.kart ?? {}) as Row);
      }
    } catch (e) {
      if (!(e instanceof DiaFail)) throw e;
      server.noteOutcome(true);
      if (e.code === "401" || e.code === "419") counters.authFailures++;
      answer = { code: e.code, msg: e.message };
      http = e.http;
    }
    if (gate === "drop") return server.drop(req, reply);
    return reply.code(http).send(answer);
  });

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    credentials: {
      serverCode: "emulator",
      apiUrl: `${url}/api/v3`,
      username: cred.username,
      password: cred.password,
      apiKey: cred.apiKey,
      firmCode: String(cred.firm),
      periodCode: String(cred.period),
    },
    tables,
    touchProduct(sku, patch = {}) {
      const r = stokkart.find((x) => x.stokkartkodu === sku);
      if (r) Object.assign(r, patch, { _date: diaDateTime(now()) });
    },
    setPrice(sku, group, amount) {
      const r = fiyatkart.find((x) => x.stokkartkodu === sku && x.fiyatgrubu === group);
      if (r) Object.assign(r, { fiyat: amount, _date: diaDateTime(now()) });
    },
    setStock(sku, depotKey, qty) {
      stock.set(`${sku}|${depotKey}`, qty);
    },
    invoiceOrder(belgeno) {
      const order = tables.scf_siparis_listele?.find((o) => o.belgeno === belgeno);
      if (!order) return false;
      const lines = (orderLines.get(Number(order._key)) ?? []).map(
        (l): Row => ({
          ...l,
          tutari: Math.round(Number(l.miktar) * Number(l.birimfiyati) * 100) / 100,
        }),
      );
      const net = lines.reduce((a, l) => a + Number(l.tutari), 0);
      const tax = lines.reduce((a, l) => a + (Number(l.tutari) * Number(l.kdv)) / 100, 0);
      const key = nextKey++;
      tables.scf_fatura_listele?.push({
        _key: key,
        _date: diaDateTime(now()),
        fisno: `EFA2026${String(key).padStart(9, "0")}`,
        belgeno,
        tarih: turkishDate(now()),
        ettn: randomBytes(16)
          .toString("hex")
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5")
          .toUpperCase(),
        dovizkodu: "TL",
        toplam: Math.round(net * 100) / 100,
        toplamkdv: Math.round(tax * 100) / 100,
        net: Math.round((net + tax) * 100) / 100,
      });
      invoiceLines.set(key, lines);
      return true;
    },
    expireSessions() {
      for (const k of sessions.keys()) sessions.set(k, 0);
    },
  };
}
