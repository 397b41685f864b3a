/**
 * Talking to MikroAPI V2: the login block, the envelope and its two row wrappers, errors inside HTTP 200,
 * the VAT table, and which methods the server's version has. Parsers follow the live answer shapes of the
 * judge (./judge/live-shapes.ts); the resource modules (catalog, stock, prices, orders) build on `MikroApi`.
 */

import { createHash } from "node:crypto";
import { message } from "@ep/contracts";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { turkishDate } from "../sdk/turkish-time";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { mikroDescriptor } from "./descriptor";

export type SqlRow = Record<string, string | number | boolean | null>;

interface MikroResult {
  StatusCode?: number;
  IsError?: boolean;
  ErrorMessage?: string | null;
  Data?: unknown;
}

export const DAY = 86_400_000;
/** How far apart our clock and the Mikro server's may be when the daily password rolls over. */
const MIDNIGHT_SKEW_MS = 10 * 60_000;

/** `Sifre` of the login block: MD5("yyyy-MM-dd " + password) of the server's (Turkish) date, changing every day. */
export function mikroDailyPassword(password: string, ms: number): string {
  return createHash("md5")
    .update(`${turkishDate(ms)} ${password}`, "utf8")
    .digest("hex");
}

/** SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
export const num = (v: unknown): number => (typeof v === "number" ? v : Number(v ?? 0));
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `result[0]` of an answer, or undefined when the answer has no envelope (a failure, never "no rows"). */
export function mikroResult(json: unknown): MikroResult | undefined {
  const r = isObj(json) && Array.isArray(json.result) ? json.result[0] : undefined;
  return isObj(r) ? (r as MikroResult) : undefined;
}

/**
 * The rows of `Data`, in every form seen live: a wrapper list `[{ SQLResult1: [...] }]`, a wrapper object
 * `{ SQLResult1: [...] }` / `{ StokListesi: [...] }`, or a plain row list. `key` names the wrapper field
 * when known. Undefined when `Data` holds no row list at all.
 */
export function mikroRows(data: unknown, key?: string): SqlRow[] | undefined {
  const listIn = (o: Record<string, unknown>): unknown[] | undefined => {
    if (key && Array.isArray(o[key])) return o[key] as unknown[];
    const arrays = Object.values(o).filter(Array.isArray);
    return arrays.length === 1 ? arrays[0] : undefined;
  };
  if (Array.isArray(data)) {
    const wrappers = data.map((d) => (isObj(d) && Object.keys(d).length === 1 ? listIn(d) : undefined));
    if (data.length > 0 && wrappers.every((w) => w !== undefined)) return wrappers.flat() as SqlRow[];
    return data.filter(isObj) as SqlRow[];
  }
  if (isObj(data)) return listIn(data) as SqlRow[] | undefined;
  return undefined;
}

/**
 * VergiListesiV2 rows → pointer (vergiSiraNo) → rate. Rates come as floats (19.999999999) and are
 * rounded to hundredths; rows without a name or with a rate outside 0..100 are uninitialised cells.
 */
export function parseVatTable(rows: SqlRow[]): Map<number, number> {
  const map = new Map<number, number>();
  for (const r of rows) {
    const pointer = Number(r.vergiSiraNo);
    const rate = Number(r.vergiOrani);
    if (!Number.isInteger(pointer) || str(r.vergiAdi).trim() === "") continue;
    if (!Number.isFinite(rate) || rate < 0 || rate > 100) continue;
    map.set(pointer, Math.round(rate * 100) / 100);
  }
  return map;
}

/** The pointer of a rate: the lowest vergiSiraNo whose rate matches (to a hundredth). */
export function vatPointerOf(table: Map<number, number>, rate: number): number | undefined {
  let best: number | undefined;
  for (const [pointer, r] of table) {
    if (Math.abs(r - rate) < 0.005 && (best === undefined || pointer < best)) best = pointer;
  }
  return best;
}

/** Whether an answer says the called method does not exist on this server. */
function methodMissing(res: HttpResponse, msg: string): boolean {
  // ASP.NET Web API's answer for a route it does not have (a wrong base URL gives other 404s).
  if (res.status === 404) return /No HTTP resource was found/i.test(msg);
  return (
    /bulunmamaktadır|bulunmuyor|desteklenmiyor|not (found|supported|exist)/i.test(msg) &&
    /v\d\d|metod|method/i.test(msg)
  );
}

/** The Turkish explanation for a method this server's version lacks (through the shared catalogue). */
export function missingMethodError(method: string, version: string, res?: HttpResponse): ConnectorError {
  const text = message("connectors.mikroMethodMissing", { method, version });
  return new ConnectorError(`mikro ${method}: not available on ${version}`, {
    reason: "unsupported",
    httpStatus: res?.status,
    systemMessage: text,
    merchantMessage: text,
    system: "mikro",
    operation: method,
  });
}

/** Classify a MikroAPI answer: errors arrive inside HTTP 200 as `result[0].IsError`. */
export function classifyMikroResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const r = mikroResult(res.json);
  const plain = isObj(res.json) && typeof res.json.Message === "string" ? res.json.Message : "";
  if (methodMissing(res, r?.ErrorMessage ?? plain)) {
    // V16 has no SqlVeriOkuV2; V17 dropped ten list methods. Both end here.
    return missingMethodError(operation, operation === "SqlVeriOkuV2" ? "V16" : "V17", res);
  }
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
  else if (code >= 500 && !/invalid column|invalid object|syntax/i.test(msg)) reason = "server_error";
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

function badResponse(method: string, text: string): ConnectorError {
  return new ConnectorError(`mikro ${method}: unexpected answer`, {
    reason: "bad_response",
    system: "mikro",
    operation: method,
    systemMessage: text.slice(0, 300),
  });
}

/** One Mikro connection: credentials, HTTP client, the cached VAT table and the detected version. */
export class MikroApi {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  readonly now: () => number;
  readonly pageSize: number;
  private vat?: Promise<Map<number, number>>;
  /** 17 once SqlVeriOkuV2 answered, 16 once it proved missing; undefined before the first SQL call. */
  version?: 16 | 17;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("mikro", mikroDescriptor.credentials, credentials);
    this.now = ctx.now ?? Date.now;
    this.pageSize = ctx.batch?.page ?? mikroDescriptor.batch.page ?? 2000;
    this.http = createConnectorHttp(mikroDescriptor, ctx, {
      baseUrl: this.cfg.apiUrl,
      secrets: [this.cfg.password ?? "", this.cfg.apiKey ?? ""],
    });
  }

  private login(at: number): Record<string, string> {
    return {
      ApiKey: this.cfg.apiKey ?? "",
      FirmaKodu: this.cfg.firmCode ?? "",
      CalismaYili: this.cfg.period ?? "",
      KullaniciKodu: this.cfg.userCode ?? "",
      Sifre: mikroDailyPassword(this.cfg.password ?? "", at),
    };
  }

  /**
   * Call a MikroAPI method and return `result[0].Data`. Read parameters sit beside the login block; write
   * payloads inside it (`inner`). Around midnight our date and the server's may differ: an auth failure
   * then is retried with each other date within ten minutes of now. The dates are taken from the clock
   * again after the failure, because midnight may have passed while the first call was on its way.
   */
  async call(
    method: string,
    kind: CallKind,
    params: Record<string, unknown>,
    opts: { inner?: boolean; idempotent?: boolean } = {},
  ): Promise<unknown> {
    const send = async (at: number) => {
      const login = this.login(at);
      const body = opts.inner ? { Mikro: { ...login, ...params } } : { Mikro: login, ...params };
      const res = await this.http.request({
        url: `Api/APIMethods/${method}`,
        operation: method,
        kind,
        idempotent: opts.idempotent,
        body: { json: body },
        classify: (r) => classifyMikroResponse(r, method),
      });
      const r = mikroResult(res.json);
      if (!r) throw badResponse(method, res.text);
      return r.Data;
    };
    const first = this.now();
    try {
      return await send(first);
    } catch (e) {
      if (!(e instanceof ConnectorError) || e.reason !== "auth") throw e;
      const tried = new Set([turkishDate(first)]);
      const now = this.now();
      let failure = e;
      for (const at of [now, now - MIDNIGHT_SKEW_MS, now + MIDNIGHT_SKEW_MS]) {
        const date = turkishDate(at);
        if (tried.has(date)) continue;
        tried.add(date);
        try {
          return await send(at);
        } catch (again) {
          if (!(again instanceof ConnectorError) || again.reason !== "auth") throw again;
          failure = again;
        }
      }
      throw failure;
    }
  }

  /** A list method's rows; an answer without a row list is a failure, never "no rows". */
  async rows(method: string, key: string | undefined, params: Record<string, unknown>): Promise<SqlRow[]> {
    const data = await this.call(method, "read", params);
    const rows = mikroRows(data, key);
    if (!rows) throw badResponse(method, JSON.stringify(data ?? null));
    return rows;
  }

  /** SqlVeriOkuV2 (SELECT only). Its first answer tells the version: V16 does not have it. */
  async sql(query: string): Promise<SqlRow[]> {
    if (this.version === 16) throw missingMethodError("SqlVeriOkuV2", "V16");
    try {
      const rows = await this.rows("SqlVeriOkuV2", "SQLResult1", { SQLSorgu: query });
      this.version = 17;
      return rows;
    } catch (e) {
      if (e instanceof ConnectorError && e.reason === "unsupported") this.version = 16;
      throw e;
    }
  }

  /** VergiListesiV2 as pointer → rate, cached for the connector's life. */
  vatTable(): Promise<Map<number, number>> {
    this.vat ??= this.rows("VergiListesiV2", undefined, {}).then(parseVatTable);
    this.vat.catch(() => {
      this.vat = undefined;
    });
    return this.vat;
  }
}

/**
 * The rows at the boundaries of `parts` ranges of about equal size of a sorted listing (`from` is the
 * table with its hints and WHERE): one COUNT, then the row at each boundary's offset, asked at once.
 */
export async function rangeBoundaries(
  api: MikroApi,
  from: string,
  orderBy: string,
  columns: string,
  parts: number,
): Promise<SqlRow[]> {
  const counted = await api.sql(`SELECT COUNT(*) AS n FROM ${from}`);
  const total = num(counted[0]?.n);
  const offsets = Array.from({ length: Math.max(1, parts) - 1 }, (_, i) =>
    Math.floor(((i + 1) * total) / parts),
  ).filter((o) => o > 0 && o < total);
  const found = await Promise.all(
    offsets.map((o) =>
      api.sql(`SELECT ${columns} FROM ${from} ORDER BY ${orderBy} OFFSET ${o} ROWS FETCH NEXT 1 ROWS ONLY`),
    ),
  );
  return found.flatMap((rows) => (rows[0] ? [rows[0]] : []));
}
