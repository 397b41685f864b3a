/**
 * Reading Logo over SQL (SQL Server, through the on-site agent's SQL seam): items with barcodes, brand,
 * main unit and group code; stock per warehouse from the period view `LV_{F}_{P}_STINVTOT`; sales price
 * cards (`LG_{F}_PRCLIST`); warehouses (`L_CAPIWHOUSE`); the firm and its periods (`L_CAPIFIRM`,
 * `L_CAPIPERIOD`). Every value is an `@name` parameter; tables and columns are those of the judge's
 * schema fixture (./judge/schema.ts).
 *
 * Firm and period: the firm is configured; the period is configured or detected (the period whose dates
 * hold today, else the one marked active, else the newest). Item and price cards are firm tables, so
 * their change cursor (a date: Logo keeps the time of a change in separate columns — inferred) is
 * untouched by a year-end rollover; stock is read from the active period's view, detected afresh on
 * each scan, and a scan already under way finishes in the period it started in.
 */

import type { ConnectorDescriptor } from "../sdk/connector";
import { ConnectorError, isConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import type { SqlParams, SqlTransport } from "../sdk/sql";
import { turkishDate } from "../sdk/turkish-time";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import { logoTableName } from "./judge/schema";
import { num, type Row, str } from "./rest";

const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "ENOTCONN", "ESOCKET"]);

export interface LogoPeriod {
  nr: number;
  begin: string;
  end: string;
  /** True when the period was configured, false when detected. */
  configured: boolean;
}

/** Logo currency numbers of price cards (inferred: 0 and 160 local TL, 1 USD, 17 GBP, 20 EUR). */
const CURRENCY: Record<number, string> = { 0: "TRY", 160: "TRY", 1: "USD", 17: "GBP", 20: "EUR" };

const isoDay = (v: unknown): string => {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const s = str(v);
  return s ? s.slice(0, 10) : "";
};
const maxDay = (a: string, b: string) => (a > b ? a : b);

interface ScanToken {
  /** Last LOGICALREF read. */
  a: number;
  /** `since` of the scan (a date). */
  s?: string;
  /** Newest change date seen so far. */
  m?: string;
  /** Period the scan reads (stock). */
  p?: number;
}

export class LogoSqlReader {
  private periodCache?: Promise<LogoPeriod>;

  constructor(
    private readonly transport: () => SqlTransport,
    readonly firm: number,
    private readonly configuredPeriod: number | undefined,
    private readonly descriptor: ConnectorDescriptor,
    private readonly pageSize: number,
    private readonly now: () => number,
    private readonly timeoutMs?: number,
  ) {}

  private get system() {
    return this.descriptor.system;
  }

  table(pattern: string, period?: number): string {
    return logoTableName(pattern, this.firm, period);
  }

  /** Runs one statement; database errors become ConnectorErrors (timeouts and lost links transient). */
  async run(operation: string, text: string, params: SqlParams = {}): Promise<Row[]> {
    try {
      const res = await this.transport().query({ text, params }, { timeoutMs: this.timeoutMs });
      return res.rows;
    } catch (e) {
      if (isConnectorError(e)) throw e;
      const code = str((e as { code?: unknown }).code);
      const number = num((e as { number?: unknown }).number);
      const detail = e instanceof Error ? e.message : String(e);
      if (code === "ETIMEOUT" || code === "ETIMEDOUT" || NETWORK_CODES.has(code))
        throw new ConnectorError(`${this.system} ${operation}: ${code}`, {
          reason: code === "ETIMEOUT" || code === "ETIMEDOUT" ? "timeout" : "network",
          system: this.system,
          operation,
          systemMessage: detail,
          cause: e,
        });
      if (number === 1205)
        throw new ConnectorError(`${this.system} ${operation}: deadlock victim`, {
          reason: "lock",
          system: this.system,
          operation,
          systemCode: "1205",
          systemMessage: detail,
          cause: e,
        });
      const missing = number === 208;
      const text =
        missing && /LG_|LV_/.test(detail)
          ? `Logo veritabanında beklenen tablo yok (${detail}). Firma numarasını (${this.firm}) ve dönemi kontrol edin.`
          : `Logo veritabanı sorgusu hata verdi: ${detail}`;
      throw new ConnectorError(`${this.system} ${operation}: ${detail}`, {
        reason: missing ? "config" : "validation",
        system: this.system,
        operation,
        systemCode: number ? String(number) : undefined,
        systemMessage: detail,
        merchantMessage: text,
        cause: e,
      });
    }
  }

  async firmName(): Promise<string | undefined> {
    const rows = await this.run("firm", "SELECT F.NR, F.NAME FROM L_CAPIFIRM AS F WHERE F.NR = @firm", {
      firm: this.firm,
    });
    return rows[0] ? str(rows[0].NAME) : undefined;
  }

  /** The period to read: configured, or detected from L_CAPIPERIOD (cached for this connector). */
  period(): Promise<LogoPeriod> {
    this.periodCache ??= this.detectPeriod();
    this.periodCache.catch(() => {
      this.periodCache = undefined;
    });
    return this.periodCache;
  }

  /** Forget the detected period (a long-lived connector calls this to notice a rollover). */
  forgetPeriod(): void {
    this.periodCache = undefined;
  }

  private async detectPeriod(): Promise<LogoPeriod> {
    const rows = await this.run(
      "periods",
      "SELECT P.NR, P.BEGDATE, P.ENDDATE, P.ACTIVE FROM L_CAPIPERIOD AS P WHERE P.FIRMNR = @firm ORDER BY P.NR",
      { firm: this.firm },
    );
    const periods = rows.map((r) => ({
      nr: num(r.NR),
      begin: isoDay(r.BEGDATE),
      end: isoDay(r.ENDDATE),
      active: num(r.ACTIVE) === 1,
    }));
    if (periods.length === 0) {
      const text = `Logo'da ${this.firm} numaralı firma ya da bu firmanın dönemi yok. Firma numarasını kontrol edin.`;
      throw new ConnectorError(`${this.system}: no periods for firm ${this.firm}`, {
        reason: "config",
        system: this.system,
        operation: "periods",
        merchantMessage: text,
        systemMessage: text,
      });
    }
    if (this.configuredPeriod !== undefined) {
      const p = periods.find((x) => x.nr === this.configuredPeriod);
      if (!p) {
        const text = `Logo'da ${this.firm} numaralı firmanın ${this.configuredPeriod} numaralı dönemi yok.`;
        throw new ConnectorError(`${this.system}: no period ${this.configuredPeriod}`, {
          reason: "config",
          system: this.system,
          operation: "periods",
          merchantMessage: text,
          systemMessage: text,
        });
      }
      return { nr: p.nr, begin: p.begin, end: p.end, configured: true };
    }
    const today = turkishDate(this.now());
    const current =
      periods.find((p) => p.begin <= today && today <= p.end) ??
      [...periods].reverse().find((p) => p.active) ??
      periods[periods.length - 1];
    const p = current as (typeof periods)[number];
    return { nr: p.nr, begin: p.begin, end: p.end, configured: false };
  }

  private size(q: M.PageQuery): number {
    return Math.max(1, Math.min(5000, Math.floor(q.pageSize ?? this.pageSize)));
  }

  async listStockLocations(): Promise<M.StockLocation[]> {
    const rows = await this.run(
      "warehouses",
      "SELECT W.NR, W.NAME FROM L_CAPIWHOUSE AS W WHERE W.FIRMNR = @firm ORDER BY W.NR",
      { firm: this.firm },
    );
    return rows.map((r) => ({ id: String(num(r.NR)), name: str(r.NAME) }));
  }

  async listCategories(): Promise<M.Page<M.Category>> {
    const rows = await this.run(
      "categories",
      `SELECT DISTINCT I.STGRPCODE FROM ${this.table("LG_{F}_ITEMS")} AS I WHERE I.STGRPCODE IS NOT NULL ORDER BY I.STGRPCODE`,
    );
    const codes = rows.map((r) => str(r.STGRPCODE).trim()).filter(Boolean);
    return { items: [...new Set(codes)].map((c) => ({ id: c, name: c, path: [c] })) };
  }

  /** Changed-since condition on a card's CAPIBLOCK dates (a never-changed card has no modification date). */
  private changedSince(alias: string): string {
    return `(${alias}.CAPIBLOCK_MODIFIEDDATE >= @since OR (${alias}.CAPIBLOCK_MODIFIEDDATE IS NULL AND ${alias}.CAPIBLOCK_CREADEDDATE >= @since))`;
  }

  async listProducts(q: M.PageQuery = {}): Promise<M.Page<M.Product>> {
    const tok = decodeToken<ScanToken>(q.pageToken, this.system) ?? { a: 0, s: q.since || undefined };
    const n = this.size(q);
    const params: SqlParams = { after: tok.a };
    if (tok.s) params.since = tok.s;
    const rows = await this.run(
      "items",
      `SELECT TOP ${n} I.LOGICALREF, I.CODE, I.NAME, I.VAT, I.ACTIVE, I.STGRPCODE, I.CAPIBLOCK_CREADEDDATE, I.CAPIBLOCK_MODIFIEDDATE, M.DESCR AS BRAND, U.NAME AS UNITNAME ` +
        `FROM ${this.table("LG_{F}_ITEMS")} AS I ` +
        `LEFT JOIN ${this.table("LG_{F}_MARK")} AS M ON M.LOGICALREF = I.MARKREF ` +
        `LEFT JOIN ${this.table("LG_{F}_UNITSETL")} AS U ON U.UNITSETREF = I.UNITSETREF AND U.MAINUNIT = 1 ` +
        `WHERE I.LOGICALREF > @after${tok.s ? ` AND ${this.changedSince("I")}` : ""} ORDER BY I.LOGICALREF`,
      params,
    );
    const barcodes = new Map<number, string[]>();
    if (rows.length > 0) {
      const first = num(rows[0]?.LOGICALREF);
      const last = num(rows[rows.length - 1]?.LOGICALREF);
      const bars = await this.run(
        "barcodes",
        `SELECT B.ITEMREF, B.BARCODE, B.LINENR FROM ${this.table("LG_{F}_UNITBARCODE")} AS B WHERE B.ITEMREF >= @first AND B.ITEMREF <= @last ORDER BY B.ITEMREF, B.LINENR`,
        { first, last },
      );
      for (const b of bars) {
        const list = barcodes.get(num(b.ITEMREF)) ?? [];
        const code = str(b.BARCODE).trim();
        if (code && !list.includes(code)) list.push(code);
        barcodes.set(num(b.ITEMREF), list);
      }
    }
    let newest = tok.m ?? "";
    const items: M.Product[] = rows.map((r) => {
      const changed = isoDay(r.CAPIBLOCK_MODIFIEDDATE) || isoDay(r.CAPIBLOCK_CREADEDDATE);
      newest = maxDay(newest, changed);
      const sku = str(r.CODE).trim();
      const group = str(r.STGRPCODE).trim();
      return {
        sku,
        name: str(r.NAME).trim(),
        brand: str(r.BRAND).trim() || undefined,
        categoryPath: group ? [group] : [],
        vatRate: num(r.VAT),
        unit: str(r.UNITNAME).trim() || "Adet",
        variants: [{ sku, barcodes: barcodes.get(num(r.LOGICALREF)) ?? [], options: {} }],
        images: [],
        isActive: num(r.ACTIVE) === 0,
        updatedAt: changed ? `${changed}T00:00:00.000Z` : undefined,
      };
    });
    const more = rows.length === n;
    const lastRef = num(rows[rows.length - 1]?.LOGICALREF);
    return more
      ? { items, nextPageToken: encodeToken({ a: lastRef, s: tok.s, m: newest } satisfies ScanToken) }
      : { items, cursor: newest || tok.s || undefined };
  }

  async listStock(q: M.PageQuery & { locations?: string[] } = {}): Promise<M.Page<M.StockLevel>> {
    const tok = decodeToken<ScanToken>(q.pageToken, this.system) ?? { a: 0 };
    const period = tok.p ?? (await this.period()).nr;
    const n = this.size(q);
    const items = await this.run(
      "stock items",
      `SELECT TOP ${n} I.LOGICALREF, I.CODE FROM ${this.table("LG_{F}_ITEMS")} AS I WHERE I.LOGICALREF > @after ORDER BY I.LOGICALREF`,
      { after: tok.a },
    );
    const wanted = q.locations?.map((l) => Number(l)).filter((l) => Number.isInteger(l));
    const warehouses = wanted?.length ? wanted : (await this.listStockLocations()).map((l) => Number(l.id));
    const out: M.StockLevel[] = [];
    if (items.length > 0 && warehouses.length > 0) {
      const first = num(items[0]?.LOGICALREF);
      const last = num(items[items.length - 1]?.LOGICALREF);
      const params: SqlParams = { first, last };
      warehouses.forEach((w, i) => {
        params[`w${i}`] = w;
      });
      const rows = await this.run(
        "stock",
        `SELECT S.STOCKREF, S.INVENNO, SUM(S.ONHAND) AS ONHAND FROM ${this.table("LV_{F}_{P}_STINVTOT", period)} AS S ` +
          `WHERE S.STOCKREF >= @first AND S.STOCKREF <= @last AND S.INVENNO IN (${warehouses.map((_, i) => `@w${i}`).join(", ")}) ` +
          "GROUP BY S.STOCKREF, S.INVENNO ORDER BY S.STOCKREF, S.INVENNO",
        params,
      );
      const qty = new Map(rows.map((r) => [`${num(r.STOCKREF)}:${num(r.INVENNO)}`, num(r.ONHAND)]));
      for (const it of items)
        for (const w of warehouses)
          out.push({
            sku: str(it.CODE).trim(),
            location: String(w),
            qty: qty.get(`${num(it.LOGICALREF)}:${w}`) ?? 0,
          });
    }
    const more = items.length === n;
    return more
      ? { items: out, nextPageToken: encodeToken({ a: num(items[items.length - 1]?.LOGICALREF), p: period }) }
      : { items: out };
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    const rows = await this.run(
      "price groups",
      `SELECT DISTINCT P.PRIORITY FROM ${this.table("LG_{F}_PRCLIST")} AS P WHERE P.PTYPE = 2 AND P.ACTIVE = 0 ORDER BY P.PRIORITY`,
    );
    return rows.map((r, i) => ({
      id: String(num(r.PRIORITY)),
      name: `Satış fiyatı ${num(r.PRIORITY)}`,
      isDefault: i === 0,
    }));
  }

  async listPrices(q: M.PageQuery & { priceGroups?: string[] } = {}): Promise<M.Page<M.Price>> {
    const tok = decodeToken<ScanToken>(q.pageToken, this.system) ?? { a: 0, s: q.since || undefined };
    const n = this.size(q);
    const today = turkishDate(this.now());
    const params: SqlParams = { after: tok.a, today };
    if (tok.s) params.since = tok.s;
    const groups = q.priceGroups?.map(Number).filter((g) => Number.isInteger(g)) ?? [];
    groups.forEach((g, i) => {
      params[`g${i}`] = g;
    });
    const rows = await this.run(
      "prices",
      `SELECT TOP ${n} P.LOGICALREF, P.PRIORITY, P.PRICE, P.CURRENCY, P.INCVAT, P.CAPIBLOCK_CREADEDDATE, P.CAPIBLOCK_MODIFIEDDATE, I.CODE ` +
        `FROM ${this.table("LG_{F}_PRCLIST")} AS P INNER JOIN ${this.table("LG_{F}_ITEMS")} AS I ON I.LOGICALREF = P.CARDREF ` +
        "WHERE P.PTYPE = 2 AND P.ACTIVE = 0 AND P.BEGDATE <= @today AND P.ENDDATE >= @today AND P.LOGICALREF > @after" +
        (tok.s ? ` AND ${this.changedSince("P")}` : "") +
        (groups.length ? ` AND P.PRIORITY IN (${groups.map((_, i) => `@g${i}`).join(", ")})` : "") +
        " ORDER BY P.LOGICALREF",
      params,
    );
    let newest = tok.m ?? "";
    const items: M.Price[] = [];
    const rejected: M.RejectedRecord[] = [];
    for (const r of rows) {
      newest = maxDay(newest, isoDay(r.CAPIBLOCK_MODIFIEDDATE) || isoDay(r.CAPIBLOCK_CREADEDDATE));
      const sku = str(r.CODE).trim();
      const currency = CURRENCY[num(r.CURRENCY)];
      if (!currency) {
        rejected.push({
          key: sku,
          error: new ConnectorError(`${this.system}: unknown currency ${str(r.CURRENCY)}`, {
            reason: "validation",
            system: this.system,
            operation: "prices",
            itemKeys: [sku],
            merchantMessage: `Logo fiyat kartındaki döviz türü (${str(r.CURRENCY)}) tanınmadı: ${sku}.`,
          }),
        });
        continue;
      }
      items.push({
        sku,
        priceGroup: String(num(r.PRIORITY)),
        amount: round2(num(r.PRICE)),
        currency,
        vatIncluded: num(r.INCVAT) === 1,
      });
    }
    const more = rows.length === n;
    const lastRef = num(rows[rows.length - 1]?.LOGICALREF);
    const page: M.Page<M.Price> = more
      ? { items, nextPageToken: encodeToken({ a: lastRef, s: tok.s, m: newest } satisfies ScanToken) }
      : { items, cursor: newest || tok.s || undefined };
    if (rejected.length) page.rejected = rejected;
    return page;
  }
}
