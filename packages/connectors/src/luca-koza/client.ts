/**
 * The one request helper of the Luca Koza connector: the cookie session (`Giris.do` → `JSESSIONID`), the
 * company/branch selection every session needs before data calls, `POST <Method>.do` with JSON bodies and
 * `No-Paging: true` on lists, and the two ways Koza says "not logged in" (an HTML page, or
 * `{code: 1002, message: "Login olunmalı."}` inside HTTP 200): the session is opened again once.
 */

import { message } from "@ep/contracts";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { lucaKozaDescriptor } from "./descriptor";

export type Row = Record<string, unknown>;
const SYSTEM = lucaKozaDescriptor.system;

export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
export const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(str(v).replace("%", "").replace(",", ".").trim());
  return Number.isFinite(n) ? n : 0;
};

/** A Koza answer that means "no session": HTML, or code 1002. */
function sessionLost(res: HttpResponse): boolean {
  if (/^\s*</.test(res.text)) return true;
  const b = res.json as { code?: unknown } | undefined;
  return Number(b?.code) === 1002;
}

export function classifyKoza(res: HttpResponse, operation: string): ConnectorError | undefined {
  if (sessionLost(res)) {
    return new ConnectorError(`luca-koza ${operation}: session missing`, {
      reason: "auth",
      httpStatus: res.status,
      systemCode: "1002",
      systemMessage: res.text.slice(0, 200),
      system: SYSTEM,
      operation,
    });
  }
  const b = res.json as { error?: unknown; code?: unknown; message?: unknown } | undefined;
  // The document's step 5: check `code` and `message` after every call (0 = done; 99 = wrong login).
  const refused =
    !Array.isArray(res.json) && (b?.error === true || (b?.code !== undefined && Number(b.code) !== 0));
  if (res.status < 400 && refused) {
    return new ConnectorError(`luca-koza ${operation}: ${str(b?.message) || "refused"}`, {
      reason: Number(b?.code) === 99 ? "auth" : "validation",
      httpStatus: res.status,
      systemCode: b?.code === undefined ? undefined : str(b.code),
      systemMessage: str(b?.message),
      system: SYSTEM,
      operation,
    });
  }
  return undefined;
}

/** The rows of a list answer: a plain array or one of the wrapper keys public code has met. */
export function kozaRows(json: unknown, keys: readonly string[]): Row[] | undefined {
  if (Array.isArray(json)) return json as Row[];
  if (typeof json !== "object" || json === null) return undefined;
  const o = json as Record<string, unknown>;
  for (const k of keys) if (Array.isArray(o[k])) return o[k] as Row[];
  return undefined;
}

export class KozaClient {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  private cookie?: string;
  private session?: Promise<string>;
  /** The branch the session works in (for the connection test's description). */
  branchName?: string;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials(SYSTEM, lucaKozaDescriptor.credentials, credentials);
    this.http = createConnectorHttp(lucaKozaDescriptor, ctx, {
      baseUrl: (this.cfg.apiUrl ?? "").replace(/\/+$/, ""),
      secrets: [this.cfg.userPassword ?? ""],
    });
  }

  private async open(): Promise<string> {
    const login = await this.http.request({
      url: "Giris.do",
      operation: "Giris.do",
      kind: "read",
      body: {
        json: { orgCode: this.cfg.orgCode, userName: this.cfg.userName, userPassword: this.cfg.userPassword },
      },
      classify: (r) => classifyKoza(r, "Giris.do"),
    });
    const setCookie = login.headers.getSetCookie?.() ?? [login.headers.get("set-cookie") ?? ""];
    const jsession = setCookie.map((c) => /JSESSIONID=([^;]+)/.exec(c)?.[1]).find(Boolean);
    if (!jsession) {
      throw new ConnectorError("luca-koza Giris.do: no session cookie", {
        reason: "bad_response",
        system: SYSTEM,
        operation: "Giris.do",
        systemMessage: login.text.slice(0, 200),
      });
    }
    const cookie = `JSESSIONID=${jsession}`;
    this.http.addSecret(jsession);
    let branch = this.cfg.branchId ? Number(this.cfg.branchId) : undefined;
    if (branch === undefined) {
      const list = await this.raw("YdlUserResponsibilityOrgSs.do", {}, cookie, false);
      const rows = kozaRows(list.json, ["list", "data"]) ?? [];
      if (rows.length !== 1) {
        const names = rows.map((r) => `${str(r.ack)} (${str(r.id)})`).join(", ");
        throw new ConnectorError("luca-koza: choose a company/branch", {
          reason: "config",
          system: SYSTEM,
          operation: "YdlUserResponsibilityOrgSs.do",
          merchantMessage: message("connectors.lucaKozaBranchChoice", { names: names || "-" }),
        });
      }
      branch = num(rows[0]?.id);
    }
    const chosen = await this.raw(
      "GuncelleYtkSirketSubeDegistir.do",
      { orgSirketSubeId: branch },
      cookie,
      false,
    );
    this.branchName = str((chosen.json as Row | undefined)?.sirketSubeAdi) || undefined;
    this.cookie = cookie;
    return cookie;
  }

  private ensure(): Promise<string> {
    if (this.cookie) return Promise.resolve(this.cookie);
    this.session ??= this.open().finally(() => {
      this.session = undefined;
    });
    return this.session;
  }

  private raw(method: string, body: Row, cookie: string, list: boolean, query = ""): Promise<HttpResponse> {
    return this.http.request({
      url: `${method}${query}`,
      operation: method,
      kind: "read",
      body: { json: body },
      headers: () => ({ cookie, ...(list ? { "no-paging": "true" } : {}) }),
      classify: (r) => classifyKoza(r, method),
    });
  }

  /** One call in the session; a lost session is opened again once. */
  async call(method: string, body: Row, opts: { list?: boolean; query?: string } = {}): Promise<unknown> {
    const res = await this.http.request({
      url: `${method}${opts.query ?? ""}`,
      operation: method,
      kind: "read",
      body: { json: body },
      headers: async () => ({ cookie: await this.ensure(), ...(opts.list ? { "no-paging": "true" } : {}) }),
      onAuthFailure: async () => {
        this.cookie = undefined;
        return true;
      },
      classify: (r) => classifyKoza(r, method),
    });
    if (res.json === undefined) {
      throw new ConnectorError(`luca-koza ${method}: answer is not JSON`, {
        reason: "bad_response",
        system: SYSTEM,
        operation: method,
        systemMessage: res.text.slice(0, 200),
      });
    }
    return res.json;
  }

  async list(method: string, body: Row, keys: readonly string[], query?: string): Promise<Row[]> {
    const json = await this.call(method, body, { list: true, query });
    const rows = kozaRows(json, keys);
    if (!rows) {
      throw new ConnectorError(`luca-koza ${method}: no row list in the answer`, {
        reason: "bad_response",
        system: SYSTEM,
        operation: method,
        systemMessage: JSON.stringify(json).slice(0, 300),
      });
    }
    return rows;
  }
}
