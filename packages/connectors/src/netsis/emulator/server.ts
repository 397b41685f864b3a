/**
 * Netsis NetOpenX REST emulator on the kit, built from the judge (../judge): `POST /api/v2/token`
 * (form, password grant with branch and company database; tokens that expire), then bearer calls that
 * answer the DLL's envelopes — `TResult { IsSuccessful, ErrorCode, ErrorDesc, Message, Data }` and
 * `TSelectData` (+ `Offset`, `Limit`, `TotalCount`) — in HTTP 200 even on failure. Every request is
 * judged first: an unknown field, a missing required one or a SELECT over an unknown table is refused
 * as the server refuses (IsSuccessful false). Lists take the DLL's `limit`/`offset`/`sort`/`q`;
 * `Queries` runs one SELECT over TBLSTOKPH / TBLSTOKDP / TBLSTGRUP. Faults: 429, 5xx, timeouts,
 * dropped writes, expired tokens. Seeded Turkish data from the kit.
 */

import type { FastifyRequest } from "fastify";
import { runSelect, SqlError, type Table } from "../../mikro/emulator/sql";
import { turkishDateTime } from "../../sdk/turkish-time";
import { bearerToken, TokenStore } from "../../testing/auth";
import { generateCatalog, generateCustomers } from "../../testing/catalog";
import type { EmulatorCounters, FaultConfig } from "../../testing/faults";
import { Prng } from "../../testing/prng";
import { type RecordedRequest, recordedFrom } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { ENUMS, FATURA_TIP, MODELS, NETSIS_SQL_TABLES } from "../judge/models";
import { judgeNetsisRequest, netsisRoute } from "../judge/requests";
import { NETSIS_RULES, type NetsisTokenSide } from "../judge/rules";

type Row = Record<string, unknown>;
type SqlRow = Record<string, string | number | boolean | null>;

export interface NetsisEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  netsisUser?: string;
  netsisPassword?: string;
  dbName?: string;
  dbUser?: string;
  dbPassword?: string;
  branchCode?: number;
  /** Token lifetime (inferred; the 3P answer shows `expires_in` ≈ 20 minutes). */
  tokenTtlMs?: number;
  /**
   * Which side of the `dbtype` disagreement the server plays (judge/rules.ts): "dll" (default) takes the
   * vendor client's form; "server-9.0.67" fails a token request that carries dbtype with HTTP 500.
   */
  tokenSide?: NetsisTokenSide;
}

export type NetsisEmulatorCredentials = {
  apiUrl: string;
  netsisUser: string;
  netsisPassword: string;
  dbName: string;
  dbType: string;
  dbUser: string;
  dbPassword: string;
  branchCode: string;
  depotCode: string;
  orderSeries: string;
  customerPrefix: string;
};

/** A stored slip: the ItemSlips body as accepted, with its number and totals filled in. */
export interface NetsisSlip {
  FaturaTip: number;
  FatUst: Row;
  Kalems: Row[];
}

export interface NetsisEmulator extends Emulator<EmulatorCounters & { logins: number }> {
  credentials: NetsisEmulatorCredentials;
  setFaults(config: FaultConfig): void;
  /** Items rows ({ StokTemelBilgi, StokEkBilgi }), accounts (ARPs rows) and slips. */
  items: Row[];
  accounts: Row[];
  slips: NetsisSlip[];
  /** Customer orders by our reference (EKACK1) → their FATIRS_NO values. */
  documentsByOrder(): Map<string, Set<string>>;
  setStock(sku: string, depot: number, qty: number): void;
  /** In − out of an item in a depot (TBLSTOKPH). */
  quantity(sku: string, depot: number): number;
  /** Issue a sales invoice for an order (by EKACK1), as the accountant does in Netsis. */
  invoiceOrder(ref: string): boolean;
  /** Every token expires now (the next call answers 401). */
  expireTokens(): void;
  /** The runtime rules' gate (judge/rules.ts): how many requests it refused. */
  rules: RuleGate<RecordedRequest, Row>;
}

const DENIED = { Message: "Authorization has been denied for this request." };
const fail = (desc: string, code = "0"): Row => ({
  IsSuccessful: false,
  ErrorCode: code,
  ErrorDesc: desc,
  Message: null,
  Data: null,
});
const ok = (data: unknown, extra: Row = {}): Row => ({
  IsSuccessful: true,
  ErrorCode: null,
  ErrorDesc: null,
  Message: null,
  Data: data,
  ...extra,
});
const s = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const round2 = (n: number) => Math.round(n * 100) / 100;
/** Newtonsoft DateTime text, Turkish wall clock: "yyyy-MM-ddTHH:mm:ss". */
export function netsisDateTime(ms: number): string {
  return turkishDateTime(ms).slice(0, 19).replace(" ", "T");
}

/** A table the list filters run on: one row per model instance, every model property a column. */
function modelTable(model: string): Table {
  return { columns: Object.keys(MODELS[model]?.properties ?? {}), rows: [], version: 0 };
}

export async function startNetsisEmulator(opts: NetsisEmulatorOptions = {}): Promise<NetsisEmulator> {
  const seed = opts.seed ?? 1;
  const cred = {
    user: opts.netsisUser ?? "NETSIS",
    password: opts.netsisPassword ?? "Netsis-Emu-Parola1",
    db: opts.dbName ?? "DEMO2026",
    dbUser: opts.dbUser ?? "TEMELSET",
    dbPassword: opts.dbPassword ?? "",
    branch: opts.branchCode ?? 0,
  };
  const server = createEmulatorServer<EmulatorCounters & { logins: number }>(
    {
      ...opts,
      formBodies: true,
      answers: {
        // ASP.NET Web API's own 500 body (inferred: NetOpenX REST is hosted on it; see the 401 text).
        serverError: { status: 500, body: { Message: "An error has occurred." } },
        tooManyRequests: () => ({ Message: "Too many requests." }),
        lock: { status: 200, body: fail("Kayıt başka bir kullanıcı tarafından kilitlenmiş.") },
        unauthorized: { status: 401, body: DENIED },
      },
    },
    { logins: 0 },
  );
  const now = server.now;
  const { counters } = server;
  const tokens = new TokenStore(opts.tokenTtlMs ?? 20 * 60_000, now);
  const rng = new Prng(`${seed}:netsis`);
  // What the runtime rules refuse, refused as the server refuses a request (HTTP 200, IsSuccessful false).
  // (The token route answers a refusal with HTTP 500 instead: see there.)
  const rules = new RuleGate<RecordedRequest, Row>(NETSIS_RULES, (v) => fail(v.problems.join("; "), "400"), {
    side: opts.tokenSide ?? "dll",
  });

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

  const recorded = (req: FastifyRequest): RecordedRequest => recordedFrom(req, now());

  server.app.post("/api/v2/token", async (req, reply) => {
    const gate = await server.gate(req, reply, { kind: "read", operation: "token" });
    if (gate === "handled") return reply;
    counters.logins++;
    const verdict = judgeNetsisRequest(recorded(req));
    const b = (req.body ?? {}) as Row;
    // ASP.NET Web API's generic answer to an unhandled exception (inferred: the 3P note says "crashed").
    if (rules.check(recorded(req))) {
      server.noteOutcome(true);
      return reply.code(500).send({ Message: "An error has occurred." });
    }
    if (verdict && verdict.problems.length > 0) {
      server.noteOutcome(true);
      return reply
        .code(400)
        .send({ error: "invalid_request", error_description: verdict.problems.join("; ") });
    }
    if (s(b.username) !== cred.user || s(b.password) !== cred.password) {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply
        .code(400)
        .send({ error: "invalid_grant", error_description: "Kullanıcı adı veya şifre hatalı." });
    }
    if (
      s(b.dbname).toUpperCase() !== cred.db ||
      s(b.dbuser) !== cred.dbUser ||
      s(b.dbpassword) !== cred.dbPassword
    ) {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply
        .code(400)
        .send({ error: "invalid_grant", error_description: `${s(b.dbname)} şirketine bağlanılamadı.` });
    }
    if (Number(s(b.branchcode)) !== cred.branch) {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply.code(400).send({
        error: "invalid_grant",
        error_description: `${s(b.branchcode)} kodlu şube için yetkiniz yok.`,
      });
    }
    const t = tokens.issue();
    return reply.send({ access_token: t.token, token_type: "bearer", expires_in: t.expiresIn });
  });

  function operationOf(method: string, path: string): { op: string; write: boolean } {
    const p = path.slice("/api/v2/".length);
    if (p === "ItemSlips/MainInfo/") return { op: "ItemSlips:MainInfo", write: false };
    if (p === "ItemSlips/" && method === "POST") return { op: "ItemSlips:post", write: true };
    if (p.startsWith("ItemSlips/")) return { op: "ItemSlips:get", write: false };
    if (p === "ARPs/" && method === "POST") return { op: "ARPs:post", write: true };
    if (p === "ARPs/") return { op: "ARPs", write: false };
    if (p === "Items/") return { op: "Items", write: false };
    if (p === "Queries/") return { op: "Queries", write: false };
    return { op: p, write: method !== "GET" };
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

  async function handle(req: FastifyRequest, reply: import("fastify").FastifyReply) {
    const path = netsisRoute(req.url.split("?")[0] ?? req.url);
    const { op, write } = operationOf(req.method, path);
    const gate = await server.gate(req, reply, { kind: write ? "write" : "read", operation: op });
    if (gate === "handled") return reply;
    if (tokens.check(bearerToken(req.headers.authorization)) !== "ok") {
      counters.authFailures++;
      server.noteOutcome(true);
      return reply.code(401).send(DENIED);
    }
    const verdict = judgeNetsisRequest(recorded(req));
    if (!verdict || verdict.problems.some((p) => p.startsWith("route not in"))) {
      server.noteOutcome(true);
      return reply
        .code(404)
        .send({ Message: `No HTTP resource was found that matches the request URI '${path}'.` });
    }
    let answer: Row;
    const broken = verdict.problems.length > 0 ? undefined : rules.check(recorded(req));
    if (verdict.problems.length > 0) answer = fail(verdict.problems.join("; "), "400");
    else if (broken) answer = broken;
    else {
      const query = (req.query ?? {}) as Row;
      const body = (req.body ?? {}) as Row;
      try {
        switch (op) {
          case "Items": {
            const page = listRows(itemsTable, query, "Stok_Kodu");
            answer = ok(
              page.rows.map((p) => ({ StokTemelBilgi: p, StokEkBilgi: supp.get(s(p.Stok_Kodu)) ?? null })),
              { Offset: page.offset, Limit: page.limit, TotalCount: page.total },
            );
            break;
          }
          case "ARPs": {
            const page = listRows(arpsTable, query, "CARI_KOD");
            const byCode = new Map(accounts.map((a) => [s((a.CariTemelBilgi as Row).CARI_KOD), a]));
            answer = ok(
              page.rows.map((p) => byCode.get(s(p.CARI_KOD))),
              { Offset: page.offset, Limit: page.limit, TotalCount: page.total },
            );
            break;
          }
          case "ItemSlips:MainInfo": {
            const page = listRows(headsTable, query, "FATIRS_NO");
            answer = ok(page.rows, { Offset: page.offset, Limit: page.limit, TotalCount: page.total });
            break;
          }
          case "ItemSlips:get": {
            const id = decodeURIComponent(path.slice("/api/v2/ItemSlips/".length).replace(/\/$/, ""));
            const [tipName, no, cari] = id.split(";");
            const tip = ENUMS.JTFaturaTip?.[tipName ?? ""];
            const slip = slips.find(
              (x) => x.FaturaTip === tip && x.FatUst.FATIRS_NO === no && x.FatUst.CariKod === cari,
            );
            answer = slip ? ok(slip) : fail("Kayıt bulunamadı.");
            break;
          }
          case "ARPs:post":
            answer = postAccount(body);
            break;
          case "ItemSlips:post":
            answer = postSlip(body);
            break;
          default: {
            // Queries
            const rows = runSelect(String(body.TSql), sql);
            answer = ok(rows);
          }
        }
      } catch (e) {
        if (!(e instanceof SqlError)) throw e;
        answer = fail(e.message, "400");
      }
    }
    if (answer.IsSuccessful === false) server.noteOutcome(true);
    if (gate === "drop") return server.drop(req, reply);
    return reply.send(answer);
  }

  server.app.get("/api/v2/*", handle);
  server.app.post("/api/v2/*", handle);

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    credentials: {
      apiUrl: url,
      netsisUser: cred.user,
      netsisPassword: cred.password,
      dbName: cred.db,
      dbType: "0",
      dbUser: cred.dbUser,
      dbPassword: cred.dbPassword,
      branchCode: String(cred.branch),
      depotCode: "1",
      orderSeries: "W",
      customerPrefix: "120.W.",
    },
    setFaults: (c) => server.faults.set(c),
    items,
    accounts,
    slips,
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
    setStock(sku, depot, qty) {
      const t = sql.TBLSTOKPH as Table;
      const row = t.rows.find((r) => r.STOK_KODU === sku && r.DEPO_KODU === depot);
      if (row) {
        row.TOP_GIRIS_MIK = qty + Number(row.TOP_CIKIS_MIK);
        t.version = (t.version ?? 0) + 1;
      } else t.rows.push({ STOK_KODU: sku, DEPO_KODU: depot, TOP_GIRIS_MIK: qty, TOP_CIKIS_MIK: 0 });
      totalRow(sku);
    },
    quantity(sku, depot) {
      const row = sql.TBLSTOKPH?.rows.find((r) => r.STOK_KODU === sku && r.DEPO_KODU === depot);
      return row ? Number(row.TOP_GIRIS_MIK) - Number(row.TOP_CIKIS_MIK) : 0;
    },
    invoiceOrder(ref) {
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
    expireTokens() {
      tokens.expireAll();
    },
    rules,
  };
}
