/** Mikro ERP connector: MikroAPI V2 — items via StokListesiV2, the rest via the read-only SqlVeriOkuV2. */

import { createHash } from "node:crypto";
import type {
  ConnectionInfo,
  ConnectorContext,
  CreateSalesOrderInput,
  Credentials,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
} from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import type {
  Category,
  Customer,
  Invoice,
  Page,
  PageQuery,
  Price,
  PriceGroup,
  Product,
  StockLevel,
  StockLocation,
} from "../sdk/model";
import {
  chunk,
  createConnectorHttp,
  decodeToken,
  encodeToken,
  requireCredentials,
  round2,
} from "../sdk/util";
import { mikroDescriptor } from "./descriptor";

type SqlRow = Record<string, string | number | boolean | null>;

interface MikroResult {
  StatusCode?: number;
  IsError?: boolean;
  ErrorMessage?: string | null;
  Data?: unknown[];
}

const DAY = 86_400_000;
const TR_OFFSET = 3 * 3600_000;

/** Mikro server date (Europe/Istanbul) of an instant, "yyyy-MM-dd". */
export function istanbulDate(ms: number): string {
  return new Date(ms + TR_OFFSET).toISOString().slice(0, 10);
}

/** `Sifre` of the login block: MD5("yyyy-MM-dd " + password), changing every day. */
export function mikroDailyPassword(password: string, ms: number): string {
  return createHash("md5")
    .update(`${istanbulDate(ms)} ${password}`, "utf8")
    .digest("hex");
}

/** SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** Classify a MikroAPI answer: errors arrive inside HTTP 200 as `result[0].IsError`. */
export function classifyMikroResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const body = res.json as { result?: MikroResult[]; Message?: string } | undefined;
  const r = body?.result?.[0];
  if (!r) return undefined;
  const code = r.StatusCode ?? 200;
  if (!r.IsError && code < 400) return undefined;
  const msg = r.ErrorMessage ?? "";
  let reason: FailureReason;
  if (/deadlock|kilitl|locked|lock request time/i.test(msg)) reason = "lock";
  else if (/timeout expired|zaman aşımı/i.test(msg)) reason = "timeout";
  else if (code === 401 || code === 403 || /şifre|apikey|api key|yetki/i.test(msg)) reason = "auth";
  else if (/veritabanı bulunamadı|firma bulunamadı/i.test(msg)) reason = "auth";
  else if (/kodlu stok bulunamadı|kodlu cari bulunamadı|depo bulunamadı/i.test(msg)) reason = "unknown_item";
  else if (/zaten mevcut/i.test(msg)) reason = "conflict";
  else if (code >= 500) reason = "server_error";
  else reason = "validation";
  return new ConnectorError(`mikro ${operation}: ${msg || `StatusCode ${code}`}`, {
    reason,
    httpStatus: res.status,
    systemCode: String(code),
    systemMessage: msg,
    system: "mikro",
    operation,
  });
}

const CURRENCIES: Record<number, string> = { 0: "TRY", 1: "USD", 2: "EUR", 3: "GBP" };

function trDate(iso: string): string {
  const d = new Date(iso);
  const t = new Date(d.getTime() + TR_OFFSET);
  return `${String(t.getUTCDate()).padStart(2, "0")}.${String(t.getUTCMonth() + 1).padStart(2, "0")}.${t.getUTCFullYear()}`;
}

interface Lookups {
  groups: Map<string, string>;
  subgroups: Map<string, { name: string; parent: string }>;
  brands: Map<string, string>;
  vat: Map<number, number>;
}

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : Number(v ?? 0));

export class MikroConnector implements ErpConnector {
  readonly descriptor = mikroDescriptor;
  private readonly http: HttpClient;
  private readonly cfg: Record<string, string>;
  private readonly now: () => number;
  private readonly pageSize: number;
  private lookups?: Promise<Lookups>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("mikro", mikroDescriptor.credentials, credentials);
    this.now = ctx.now ?? Date.now;
    this.pageSize = ctx.batch?.page ?? mikroDescriptor.batch.page ?? 2000;
    this.http = createConnectorHttp(mikroDescriptor, ctx, {
      baseUrl: this.cfg.apiUrl,
      secrets: [this.cfg.password ?? "", this.cfg.apiKey ?? ""],
    });
  }

  private login(dayOffset: number): Record<string, string> {
    return {
      ApiKey: this.cfg.apiKey ?? "",
      FirmaKodu: this.cfg.firmCode ?? "",
      CalismaYili: this.cfg.period ?? "",
      KullaniciKodu: this.cfg.userCode ?? "",
      Sifre: mikroDailyPassword(this.cfg.password ?? "", this.now() + dayOffset * DAY),
    };
  }

  /**
   * Call a MikroAPI method. Read parameters sit beside the login block; write payloads inside it. Around
   * midnight our date and the server's may differ: an auth failure then is retried once with the other day.
   */
  private async call(
    method: string,
    kind: CallKind,
    params: Record<string, unknown>,
    opts: { inner?: boolean; idempotent?: boolean } = {},
  ): Promise<unknown[]> {
    const send = async (dayOffset: number) => {
      const login = this.login(dayOffset);
      const body = opts.inner ? { Mikro: { ...login, ...params } } : { Mikro: login, ...params };
      const res = await this.http.request({
        url: `Api/APIMethods/${method}`,
        operation: method,
        kind,
        idempotent: opts.idempotent,
        body: { json: body },
        classify: (r) => classifyMikroResponse(r, method),
      });
      const r = (res.json as { result?: MikroResult[] } | undefined)?.result?.[0];
      if (!r) {
        throw new ConnectorError(`mikro ${method}: unexpected answer`, {
          reason: "bad_response",
          system: "mikro",
          operation: method,
          systemMessage: res.text.slice(0, 300),
        });
      }
      return r.Data ?? [];
    };
    try {
      return await send(0);
    } catch (e) {
      if (!(e instanceof ConnectorError) || e.reason !== "auth") throw e;
      const local = (this.now() + TR_OFFSET) % DAY;
      const nearMidnight = local < 10 * 60_000 ? -1 : local > DAY - 10 * 60_000 ? 1 : 0;
      if (nearMidnight === 0) throw e;
      return send(nearMidnight);
    }
  }

  private async sql(query: string): Promise<SqlRow[]> {
    const data = await this.call("SqlVeriOkuV2", "read", { SQLSorgu: query });
    const first = data[0] as { SQLResult1?: SqlRow[] } | undefined;
    return first?.SQLResult1 ?? [];
  }

  private loadLookups(): Promise<Lookups> {
    this.lookups ??= (async () => {
      const [groups, subgroups, brands, vat] = [
        await this.sql("SELECT san_kod, san_isim FROM STOK_ANA_GRUPLARI"),
        await this.sql("SELECT sta_kod, sta_isim, sta_ana_grup_kod FROM STOK_ALT_GRUPLARI"),
        await this.sql("SELECT mrk_kod, mrk_ismi FROM STOK_MARKALARI"),
        (await this.call("VergiListesiV2", "read", {})) as Array<{ VergiNo?: number; VergiOrani?: number }>,
      ];
      return {
        groups: new Map(groups.map((g) => [str(g.san_kod), str(g.san_isim)])),
        subgroups: new Map(
          subgroups.map((s) => [str(s.sta_kod), { name: str(s.sta_isim), parent: str(s.sta_ana_grup_kod) }]),
        ),
        brands: new Map(brands.map((b) => [str(b.mrk_kod), str(b.mrk_ismi)])),
        vat: new Map(vat.map((v) => [num(v.VergiNo), num(v.VergiOrani)])),
      };
    })();
    this.lookups.catch(() => {
      this.lookups = undefined;
    });
    return this.lookups;
  }

  // ---- connection and lists ----

  async testConnection(): Promise<ConnectionInfo> {
    const rows = await this.sql("SELECT TOP 1 fir_unvan FROM FIRMALAR");
    const firm = str(rows[0]?.fir_unvan);
    return {
      ok: true,
      system: "mikro",
      firm: this.cfg.firmCode,
      period: this.cfg.period,
      description: `Mikro: ${firm || "firma"} (firma ${this.cfg.firmCode}, çalışma yılı ${this.cfg.period})`,
      details: { firmName: firm },
    };
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const rows = await this.sql("SELECT dep_no, dep_adi FROM DEPOLAR ORDER BY dep_no");
    return rows.map((r) => ({ id: str(r.dep_no), name: str(r.dep_adi) }));
  }

  async listPriceGroups(): Promise<PriceGroup[]> {
    const rows = await this.sql(
      "SELECT sfl_sirano, sfl_aciklama, sfl_kdvdahil, sfl_doviz FROM STOK_SATIS_FIYAT_LISTE_TANIMLARI ORDER BY sfl_sirano",
    );
    return rows.map((r) => ({
      id: str(r.sfl_sirano),
      name: str(r.sfl_aciklama),
      vatIncluded: num(r.sfl_kdvdahil) === 1,
      currency: CURRENCIES[num(r.sfl_doviz)] ?? "TRY",
      isDefault: num(r.sfl_sirano) === 1,
    }));
  }

  async listCategories(): Promise<Page<Category>> {
    const l = await this.loadLookups();
    const items: Category[] = [];
    for (const [id, name] of l.groups) items.push({ id, name, path: [name] });
    for (const [id, s] of l.subgroups) {
      const parent = l.groups.get(s.parent);
      items.push({
        id,
        name: s.name,
        parentId: s.parent || undefined,
        path: parent ? [parent, s.name] : [s.name],
      });
    }
    return { items };
  }

  // ---- products ----

  async listProducts(q: PageQuery = {}): Promise<Page<Product>> {
    type Tok = { index: number; from: string; max: string };
    const size = Math.min(5000, q.pageSize ?? this.pageSize);
    // "Changed since" is day-granular in StokListesiV2; read from the day before the cursor's day so a row
    // changed while the last scan ran is never missed (reads overlap; the engine dedupes).
    const from = q.since ? istanbulDate(Date.parse(`${q.since.slice(0, 10)}T12:00:00Z`) - DAY) : "";
    const tok = decodeToken<Tok>(q.pageToken, "mikro") ?? { index: 0, from, max: q.since ?? "" };
    const l = await this.loadLookups();
    const rows = (await this.call("StokListesiV2", "read", {
      StokKod: "",
      TarihTipi: 2,
      IlkTarih: tok.from,
      SonTarih: istanbulDate(this.now() + DAY),
      Sort: "sto_kod",
      Size: String(size),
      Index: tok.index,
    })) as SqlRow[];
    const barcodes = new Map<string, string[]>();
    for (const part of chunk(
      rows.map((r) => str(r.sto_kod)),
      500,
    )) {
      if (part.length === 0) continue;
      const bars = await this.sql(
        `SELECT bar_stokkodu, bar_kodu FROM BARKOD_TANIMLARI WHERE bar_stokkodu IN (${part.map(sqlString).join(", ")})`,
      );
      for (const b of bars) {
        const k = str(b.bar_stokkodu);
        const list = barcodes.get(k) ?? [];
        list.push(str(b.bar_kodu));
        barcodes.set(k, list);
      }
    }
    let max = tok.max;
    const items: Product[] = rows.map((r) => {
      const sku = str(r.sto_kod);
      const lastup = str(r.sto_lastup_date);
      if (lastup > max) max = lastup;
      const sub = l.subgroups.get(str(r.sto_altgrup_kod));
      const group = l.groups.get(str(r.sto_anagrup_kod));
      const path = [group, sub?.name].filter((x): x is string => Boolean(x));
      return {
        sku,
        name: str(r.sto_isim),
        brand: l.brands.get(str(r.sto_marka_kodu)) || undefined,
        categoryPath: path,
        vatRate: l.vat.get(num(r.sto_perakende_vergi)) ?? 20,
        unit: str(r.sto_birim1_ad) || "Adet",
        variants: [
          { sku, barcodes: barcodes.get(sku) ?? [], options: {}, isActive: num(r.sto_pasif_fl) !== 1 },
        ],
        images: [],
        isActive: num(r.sto_pasif_fl) !== 1 && num(r.sto_webe_gonderilecek_fl) !== 0,
        groupKey: str(r.sto_model_kodu) || undefined,
        updatedAt: lastup ? `${lastup.replace(" ", "T")}+03:00` : undefined,
      };
    });
    const nextPageToken =
      rows.length === size
        ? encodeToken({ index: tok.index + 1, from: tok.from, max } satisfies Tok)
        : undefined;
    return { items, nextPageToken, cursor: max || undefined };
  }

  // ---- stock ----

  async listStock(q: PageQuery & { locations?: string[] } = {}): Promise<Page<StockLevel>> {
    const size = Math.min(5000, q.pageSize ?? this.pageSize);
    const depotFilter =
      q.locations && q.locations.length > 0
        ? ` AND sho_Depo IN (${q.locations.map((l) => Number(l)).join(", ")})`
        : "";
    const ozetCols = "sho_StokKodu, sho_Depo, sho_GirisNormal, sho_GirisIade, sho_CikisNormal, sho_CikisIade";
    const toLevels = (rows: SqlRow[]): StockLevel[] => {
      const sums = new Map<string, StockLevel>();
      for (const r of rows) {
        const key = `${str(r.sho_StokKodu)}|${str(r.sho_Depo)}`;
        const qty =
          num(r.sho_GirisNormal) + num(r.sho_CikisIade) - num(r.sho_CikisNormal) - num(r.sho_GirisIade);
        const cur = sums.get(key);
        if (cur) cur.qty += qty;
        else sums.set(key, { sku: str(r.sho_StokKodu), location: str(r.sho_Depo), qty });
      }
      return [...sums.values()];
    };

    if (!q.since) {
      // Full read of the per-depot summary, keyset paged; the cursor is the newest movement at the start.
      type Tok = { k: string; d: number; cursor: string };
      let tok = decodeToken<Tok>(q.pageToken, "mikro");
      if (!tok) {
        const last = await this.sql(
          "SELECT TOP 1 sth_lastup_date FROM STOK_HAREKETLERI ORDER BY sth_lastup_date DESC",
        );
        tok = { k: "", d: -1, cursor: str(last[0]?.sth_lastup_date) || "1900-01-01 00:00:00.000" };
      }
      const rows = await this.sql(
        `SELECT ${ozetCols} FROM STOK_HAREKETLERI_OZET WITH (NOLOCK) WHERE (sho_StokKodu > ${sqlString(tok.k)} OR (sho_StokKodu = ${sqlString(tok.k)} AND sho_Depo > ${tok.d}))${depotFilter} ORDER BY sho_StokKodu, sho_Depo OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
      );
      const last = rows[rows.length - 1];
      const nextPageToken =
        rows.length === size && last
          ? encodeToken({
              k: str(last.sho_StokKodu),
              d: num(last.sho_Depo),
              cursor: tok.cursor,
            } satisfies Tok)
          : undefined;
      return { items: toLevels(rows), nextPageToken, cursor: tok.cursor };
    }

    // Changed since: stock movements after the cursor name the stock codes; read their summaries.
    type Tok = { a: string; g: string };
    const tok = decodeToken<Tok>(q.pageToken, "mikro") ?? { a: q.since, g: "" };
    const moves = await this.sql(
      `SELECT sth_Guid, sth_stok_kod, sth_lastup_date FROM STOK_HAREKETLERI WITH (NOLOCK) WHERE (sth_lastup_date > ${sqlString(tok.a)} OR (sth_lastup_date = ${sqlString(tok.a)} AND sth_Guid > ${sqlString(tok.g)})) ORDER BY sth_lastup_date, sth_Guid OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
    );
    const codes = [...new Set(moves.map((m) => str(m.sth_stok_kod)))];
    const rows: SqlRow[] = [];
    for (const part of chunk(codes, 500)) {
      rows.push(
        ...(await this.sql(
          `SELECT ${ozetCols} FROM STOK_HAREKETLERI_OZET WITH (NOLOCK) WHERE sho_StokKodu IN (${part.map(sqlString).join(", ")})${depotFilter}`,
        )),
      );
    }
    const last = moves[moves.length - 1];
    const cursor = last ? str(last.sth_lastup_date) : q.since;
    const nextPageToken =
      moves.length === size && last
        ? encodeToken({ a: str(last.sth_lastup_date), g: str(last.sth_Guid) } satisfies Tok)
        : undefined;
    return { items: toLevels(rows), nextPageToken, cursor };
  }

  // ---- prices ----

  async listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    type Tok = { a: string; g: string };
    const size = Math.min(5000, q.pageSize ?? this.pageSize);
    const groups = await this.listPriceGroupsCached();
    const tok = decodeToken<Tok>(q.pageToken, "mikro") ?? { a: q.since ?? "", g: "" };
    const listFilter =
      q.priceGroups && q.priceGroups.length > 0
        ? ` AND sfiyat_listesirano IN (${q.priceGroups.map((g) => Number(g)).join(", ")})`
        : "";
    const rows = await this.sql(
      `SELECT sfiyat_Guid, sfiyat_stokkod, sfiyat_listesirano, sfiyat_deposirano, sfiyat_fiyati, sfiyat_doviz, sfiyat_lastup_date FROM STOK_SATIS_FIYAT_LISTELERI WITH (NOLOCK) WHERE (sfiyat_lastup_date > ${sqlString(tok.a)} OR (sfiyat_lastup_date = ${sqlString(tok.a)} AND sfiyat_Guid > ${sqlString(tok.g)}))${listFilter} ORDER BY sfiyat_lastup_date, sfiyat_Guid OFFSET 0 ROWS FETCH NEXT ${size} ROWS ONLY`,
    );
    const items: Price[] = rows
      .filter((r) => num(r.sfiyat_deposirano) === 0)
      .map((r) => ({
        sku: str(r.sfiyat_stokkod),
        priceGroup: str(r.sfiyat_listesirano),
        amount: num(r.sfiyat_fiyati),
        currency: CURRENCIES[num(r.sfiyat_doviz)] ?? "TRY",
        vatIncluded: groups.get(str(r.sfiyat_listesirano))?.vatIncluded ?? true,
      }));
    const last = rows[rows.length - 1];
    const nextPageToken =
      rows.length === size && last
        ? encodeToken({ a: str(last.sfiyat_lastup_date), g: str(last.sfiyat_Guid) } satisfies Tok)
        : undefined;
    return { items, nextPageToken, cursor: last ? str(last.sfiyat_lastup_date) : q.since };
  }

  private priceGroupCache?: Promise<Map<string, PriceGroup>>;
  private listPriceGroupsCached(): Promise<Map<string, PriceGroup>> {
    this.priceGroupCache ??= this.listPriceGroups().then((g) => new Map(g.map((x) => [x.id, x])));
    this.priceGroupCache.catch(() => {
      this.priceGroupCache = undefined;
    });
    return this.priceGroupCache;
  }

  // ---- customers and orders ----

  /** Deterministic cari code for our customer reference (≤ 25 characters). */
  customerCode(ref: string): string {
    const prefix = this.cfg.customerPrefix ?? "120.W.";
    const clean = ref
      .toLocaleUpperCase("tr-TR")
      .replace(/[ÇĞİÖŞÜ]/g, (c) => ({ Ç: "C", Ğ: "G", İ: "I", Ö: "O", Ş: "S", Ü: "U" })[c] ?? c)
      .replace(/[^A-Z0-9]/g, "");
    if (prefix.length + clean.length <= 25) return prefix + clean;
    const hash = createHash("sha1").update(ref).digest("hex").slice(0, 8).toUpperCase();
    return `${prefix}${clean.slice(0, Math.max(0, 25 - prefix.length - 9))}-${hash}`;
  }

  async createCustomer(c: Customer): Promise<ErpCustomerRef> {
    const code = this.customerCode(c.ref);
    const found = await this.sql(`SELECT cari_kod FROM CARI_HESAPLAR WHERE cari_kod = ${sqlString(code)}`);
    if (found.length > 0) return { code, existed: true };
    const a = c.billingAddress;
    const title = c.companyName ?? `${c.firstName} ${c.lastName}`.trim();
    try {
      await this.call(
        "CariKaydetV2",
        "write",
        {
          cariler: [
            {
              cari_kod: code,
              cari_unvan1: title.slice(0, 50),
              cari_unvan2: c.companyName ? `${c.firstName} ${c.lastName}`.trim().slice(0, 50) : "",
              cari_vdaire_adi: c.taxOffice ?? "",
              cari_vdaire_no: c.taxNumber ?? "",
              cari_EMail: c.email ?? "",
              cari_CepTel: c.phone ?? a.phone ?? "",
              adres: [
                {
                  adr_cadde: [a.line1, a.line2].filter(Boolean).join(" "),
                  adr_ilce: a.district ?? "",
                  adr_il: a.city,
                  adr_ulke: a.country,
                  adr_posta_kodu: a.postalCode ?? "",
                  adr_tel_no1: a.phone ?? "",
                },
              ],
            },
          ],
        },
        { inner: true },
      );
    } catch (e) {
      if (e instanceof ConnectorError && e.reason === "conflict") return { code, existed: true };
      throw e;
    }
    return { code, existed: false };
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const rows = await this.sql(
      `SELECT sip_Guid, sip_evrakno_seri, sip_evrakno_sira, sip_satirno FROM SIPARISLER WHERE sip_belgeno = ${sqlString(ref)} ORDER BY sip_satirno`,
    );
    const first = rows[0];
    if (!first) return null;
    return {
      documentId: `${str(first.sip_evrakno_seri)}-${num(first.sip_evrakno_sira)}`,
      ref,
      existed: true,
      lineIds: rows.map((r) => str(r.sip_Guid)),
    };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const l = await this.loadLookups();
    const pointer = (rate: number) => {
      for (const [no, r] of l.vat) if (r === rate) return no;
      throw new ConnectorError(`mikro: no VAT pointer for ${rate} %`, {
        reason: "validation",
        system: "mikro",
        operation: "SiparisKaydetV2",
        itemKeys: [order.orderNo],
      });
    };
    const series = input.series ?? this.cfg.orderSeries ?? "WEB";
    const depot = Number(input.location ?? this.cfg.depot ?? "1");
    const date = trDate(order.createdAt);
    const lines = order.lines.map((line) => ({
      sku: line.sku,
      total: line.total,
      qty: line.qty,
      vat: line.vatRate,
    }));
    if (this.cfg.shippingStockCode && order.shipping.cost > 0) {
      lines.push({ sku: this.cfg.shippingStockCode, total: order.shipping.cost, qty: 1, vat: 20 });
    }
    const satirlar = lines.map((line, i) => {
      const net = round2(line.total / (1 + line.vat / 100));
      return {
        sip_tarih: date,
        sip_teslim_tarih: date,
        sip_tip: 0,
        sip_cins: 0,
        sip_evrakno_seri: series,
        sip_evrakno_sira: 0,
        sip_satirno: i,
        sip_belgeno: order.orderNo,
        sip_belge_tarih: date,
        sip_musteri_kod: input.customerCode,
        sip_stok_kod: line.sku,
        sip_b_fiyat: round2(net / line.qty),
        sip_miktar: line.qty,
        sip_birim_pntr: 1,
        sip_teslim_miktar: 0,
        sip_tutar: net,
        sip_vergi_pntr: pointer(line.vat),
        sip_vergi: round2(line.total - net),
        sip_depono: depot,
        sip_aciklama: `E-ticaret sipariş no ${order.orderNo}`,
      };
    });
    let data: unknown[];
    try {
      data = await this.call("SiparisKaydetV2", "write", { evraklar: [{ satirlar }] }, { inner: true });
    } catch (e) {
      if (e instanceof ConnectorError) {
        const sku = /^(.+) kodlu stok bulunamadı/.exec(e.systemMessage ?? "")?.[1];
        throw e.with({ itemKeys: sku ? [order.orderNo, sku] : [order.orderNo] });
      }
      throw e;
    }
    const first = data[0] as
      | { sip_evrakno_seri?: string; sip_evrakno_sira?: number; sip_Guid?: string[] }
      | undefined;
    return {
      documentId: `${first?.sip_evrakno_seri ?? series}-${first?.sip_evrakno_sira ?? 0}`,
      ref: order.orderNo,
      existed: false,
      lineIds: first?.sip_Guid,
    };
  }

  async listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    const lines = await this.sql(`SELECT sip_Guid FROM SIPARISLER WHERE sip_belgeno = ${sqlString(ref)}`);
    if (lines.length === 0) return [];
    const moves = await this.sql(
      `SELECT sth_fat_uid, sth_stok_kod, sth_miktar, sth_tutar, sth_vergi, sth_vergi_pntr, sth_satirno FROM STOK_HAREKETLERI WHERE sth_evraktip = 4 AND sth_sip_uid IN (${lines.map((r) => sqlString(str(r.sip_Guid))).join(", ")}) ORDER BY sth_satirno`,
    );
    const invoiceIds = [...new Set(moves.map((m) => str(m.sth_fat_uid)).filter(Boolean))];
    if (invoiceIds.length === 0) return [];
    const heads = await this.sql(
      `SELECT cha_Guid, cha_evrakno_seri, cha_evrakno_sira, cha_tarihi, cha_meblag, cha_aratoplam FROM CARI_HESAP_HAREKETLERI WHERE cha_Guid IN (${invoiceIds.map(sqlString).join(", ")})`,
    );
    const l = await this.loadLookups();
    return heads.map((h) => {
      const id = str(h.cha_Guid);
      const own = moves.filter((m) => str(m.sth_fat_uid) === id);
      const gross = num(h.cha_meblag);
      const net = num(h.cha_aratoplam);
      return {
        orderRef: ref,
        number: `${str(h.cha_evrakno_seri)}${String(num(h.cha_evrakno_sira)).padStart(9, "0")}`,
        uuid: id.toLowerCase(),
        date: str(h.cha_tarihi).slice(0, 10),
        currency: "TRY",
        lines: own.map((m) => {
          const qty = num(m.sth_miktar);
          const total = round2(num(m.sth_tutar) + num(m.sth_vergi));
          return {
            sku: str(m.sth_stok_kod),
            qty,
            unitPrice: qty > 0 ? round2(total / qty) : total,
            vatRate: l.vat.get(num(m.sth_vergi_pntr)) ?? 20,
            total,
          };
        }),
        totals: { net, tax: round2(gross - net), gross },
      };
    });
  }
}

export function createMikroConnector(credentials: Credentials, ctx: ConnectorContext): ErpConnector {
  return new MikroConnector(credentials, ctx);
}
