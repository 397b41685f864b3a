/**
 * Talking to DİA WS v3: `POST {base}/{module}/json` with a one-key body `{ <service>: {...} }`, the login
 * that yields a session id (free of kontör), the in-body `code` of every answer (HTTP 200 even on
 * failure), and list paging (`filters`, `sorts`, `limit`, `offset`). Shapes follow the judge
 * (./judge/shapes.ts); the resource modules (catalog, stock, prices, orders) build on `DiaApi`.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { diaDescriptor } from "./descriptor";

export type DiaRow = Record<string, unknown>;
export type DiaOperator = "<" | ">" | "<=" | ">=" | "!" | "=" | "IN" | "NOT IN";
export interface DiaFilter {
  field: string;
  operator: DiaOperator;
  value: string;
}
export interface DiaSort {
  field: string;
  sorttype: "ASC" | "DESC";
}
export interface DiaListArgs {
  filters?: DiaFilter[];
  sorts?: DiaSort[];
  params?: Record<string, unknown>;
  limit: number;
  offset: number;
}

export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
export const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(str(v).replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The doc's error codes (Hata Takibi page) → our failure classes. */
const CODE_REASON: Record<string, FailureReason> = {
  "400": "validation",
  "401": "auth",
  "402": "config",
  "405": "config",
  "406": "config",
  "419": "auth",
  "429": "rate_limited",
  "500": "validation",
  "501": "server_error",
};

/** Turkish words for the codes a merchant must act on. */
const CODE_TEXT: Record<string, string> = {
  "402": "DİA lisansında sorun var (402). DİA ile görüşün.",
  "405": "DİA lisans hatası (405). DİA ile görüşün.",
  "406": "DİA hesabında yeterli kontör yok (406). Kontör yükleyin; çalışmalar kontör gelene kadar duracak.",
};

/** Classify an answer by its in-body `code` ("200" = success; a string in the doc, a number tolerated). */
export function classifyDiaResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  if (!isObj(res.json)) return undefined; // HTTP status and "bad answer" handling do the rest
  const code = str(res.json.code);
  if (code === "200") return undefined;
  const msg = str(res.json.msg);
  const reason = CODE_REASON[code] ?? (code.startsWith("5") ? "server_error" : "validation");
  const text = CODE_TEXT[code];
  return new ConnectorError(`dia ${operation}: ${code} ${msg}`.trim(), {
    reason,
    httpStatus: res.status,
    systemCode: code,
    systemMessage: msg,
    merchantMessage: text,
    system: "dia",
    operation,
  });
}

function badResponse(operation: string, text: string): ConnectorError {
  return new ConnectorError(`dia ${operation}: unexpected answer`, {
    reason: "bad_response",
    system: "dia",
    operation,
    systemMessage: text.slice(0, 300),
  });
}

/** One DİA connection: credentials, the HTTP client and the session. */
export class DiaApi {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  readonly now: () => number;
  readonly pageSize: number;
  readonly firm: number;
  readonly period: number;
  private session?: Promise<string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("dia", diaDescriptor.credentials, credentials);
    this.now = ctx.now ?? Date.now;
    this.pageSize = ctx.batch?.page ?? diaDescriptor.batch.page ?? 500;
    this.firm = Number(this.cfg.firmCode);
    this.period = Number(this.cfg.periodCode);
    if (!Number.isInteger(this.firm) || !Number.isInteger(this.period)) {
      throw new ConnectorError("dia: firm and period codes must be whole numbers", {
        reason: "config",
        system: "dia",
      });
    }
    const server = (this.cfg.serverCode ?? "").trim().toLowerCase();
    const base = this.cfg.apiUrl || `https://${server}.ws.dia.com.tr/api/v3`;
    this.http = createConnectorHttp(diaDescriptor, ctx, {
      baseUrl: base,
      secrets: [this.cfg.password ?? "", this.cfg.apiKey ?? ""],
    });
  }

  /** `login` on the `sis` module: `{ code: "200", msg: <session id> }`. Costs no kontör. */
  private async login(): Promise<string> {
    const res = await this.http.request({
      url: "sis/json",
      operation: "login",
      kind: "read",
      body: {
        json: {
          login: {
            username: this.cfg.username,
            password: this.cfg.password,
            // Another process of ours (or a desktop user) may be logged in as this user: keep them.
            disconnect_same_user: "False",
            lang: "tr",
            params: { apikey: this.cfg.apiKey },
          },
        },
      },
      classify: (r) => classifyDiaResponse(r, "login"),
    });
    const id = isObj(res.json) ? str(res.json.msg) : "";
    if (!id) throw badResponse("login", res.text);
    this.http.addSecret(id);
    return id;
  }

  sessionId(): Promise<string> {
    this.session ??= this.login();
    this.session.catch(() => {
      this.session = undefined;
    });
    return this.session;
  }

  /**
   * Call a service and return the whole answer object. A lost session (401/419 on a service call: the
   * session idles out after an hour) logs in again once and sends the call again.
   */
  async call(
    module: string,
    service: string,
    kind: CallKind,
    args: Record<string, unknown>,
    opts: { idempotent?: boolean; scoped?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    let sid = await this.sessionId();
    const res = await this.http.request({
      url: `${module}/json`,
      operation: service,
      kind,
      idempotent: opts.idempotent,
      body: this.bodyOf(service, args, opts.scoped ?? true, () => sid),
      classify: (r) => classifyDiaResponse(r, service),
      onAuthFailure: async () => {
        this.session = undefined;
        sid = await this.sessionId();
        return true;
      },
    });
    if (!isObj(res.json)) throw badResponse(service, res.text);
    return res.json;
  }

  /** The body is rebuilt per attempt so a re-login's new session id goes into the resent call. */
  private bodyOf(
    service: string,
    args: Record<string, unknown>,
    scoped: boolean,
    sid: () => string,
  ): { json: unknown } {
    const scope = scoped ? { firma_kodu: this.firm, donem_kodu: this.period } : {};
    // The client serialises `json` on every attempt: a getter picks up a session renewed in between.
    return {
      get json() {
        return { [service]: { session_id: sid(), ...scope, ...args } };
      },
    };
  }

  /** A `_listele` page: rows in `result`. An answer without a row list is a failure, never "no rows". */
  async list(module: string, service: string, args: DiaListArgs): Promise<DiaRow[]> {
    const answer = await this.call(module, service, "read", {
      filters: args.filters ?? [],
      sorts: args.sorts ?? [],
      params: args.params ?? {},
      limit: args.limit,
      offset: args.offset,
    });
    const rows = answer.result;
    if (!Array.isArray(rows)) throw badResponse(service, JSON.stringify(answer).slice(0, 300));
    return rows.filter(isObj);
  }
}
