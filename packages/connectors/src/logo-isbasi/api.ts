/**
 * Talking to Logo İşbaşı (REST, /api/v1.0): `integrationLogin` with the `ApiKey` header → bearer token and
 * tenant id (a day long), the headers every call carries, the `{code, message, isError, data}` envelope,
 * and the list body (`filters`, `sorting`, `paging`, `count`). Shapes follow the judge (./judge/shapes.ts).
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason, reasonForHttpStatus } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { isbasiDescriptor } from "./descriptor";

export type Row = Record<string, unknown>;
export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
export const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(str(v));
  return Number.isFinite(n) ? n : 0;
};
export const isObj = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

/** List filter: numeric operators seen live (2 `<=`, 5 `>=`, 17 IN) or the doc's text ones ("IsEqualTo"). */
export interface IsbasiFilter {
  columnName: string;
  operator: number | string;
  value: string;
}

/** `{code, message, isError, data}`: `code` 0 or 200 with `isError` false is success, whatever the HTTP status. */
export function classifyIsbasiResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const body = isObj(res.json) ? res.json : undefined;
  const failed = body ? body.isError === true || ![0, 200].includes(num(body.code)) : res.status >= 400;
  if (!failed) return undefined;
  const code = body ? num(body.code) : res.status;
  const msg = body ? str(body.message) : res.text.slice(0, 300);
  let reason: FailureReason =
    reasonForHttpStatus(res.status >= 400 ? res.status : code) ??
    (code >= 500 ? "server_error" : "validation");
  // "Kayıt Numarası Bulunamadı!" comes as 400/599: an unknown record, not a server failure.
  if (/bulunamad/i.test(msg)) reason = "not_found";
  else if (code === 599) reason = "validation";
  const quota = res.status === 429 && /kota|quota/i.test(msg);
  return new ConnectorError(`logo-isbasi ${operation}: ${code} ${msg}`.trim(), {
    reason,
    httpStatus: res.status,
    systemCode: String(code),
    systemMessage: msg,
    merchantMessage: quota
      ? "Logo Is Basi aylık API kotası doldu. Kota ayın başında yenilenir; Logo'dan ek kota istenebilir."
      : undefined,
    system: "logo-isbasi",
    operation,
  });
}

function badResponse(operation: string, text: string): ConnectorError {
  return new ConnectorError(`logo-isbasi ${operation}: unexpected answer`, {
    reason: "bad_response",
    system: "logo-isbasi",
    operation,
    systemMessage: text.slice(0, 300),
  });
}

interface Session {
  token: string;
  tenantId: string;
  userId: string;
}

export class IsbasiApi {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  readonly now: () => number;
  readonly pageSize: number;
  private session?: Promise<Session>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials("logo-isbasi", isbasiDescriptor.credentials, credentials);
    this.now = ctx.now ?? Date.now;
    this.pageSize = Math.min(100, ctx.batch?.page ?? isbasiDescriptor.batch.page ?? 100);
    this.http = createConnectorHttp(isbasiDescriptor, ctx, {
      baseUrl: `${(this.cfg.apiUrl ?? "").replace(/\/+$/, "")}/api/v1.0`,
      secrets: [this.cfg.password ?? "", this.cfg.apiKey ?? ""],
    });
  }

  private async login(): Promise<Session> {
    const res = await this.http.request({
      url: "user/integrationLogin",
      operation: "integrationLogin",
      kind: "read",
      headers: () => ({ ApiKey: this.cfg.apiKey ?? "", Lang: "tr-TR" }),
      body: {
        json: {
          username: this.cfg.username,
          password: this.cfg.password,
          ...(this.cfg.tenantId ? { tenantId: this.cfg.tenantId } : {}),
        },
      },
      // A refused login (400 "şifre hatalı", 401, 403 "API yetkilendirilmedi") is a credentials problem.
      classify: (r) => {
        const e = classifyIsbasiResponse(r, "integrationLogin");
        return e && [400, 401, 403].includes(r.status) ? e.with({ reason: "auth" }) : e;
      },
    });
    const data = isObj(res.json) && isObj(res.json.data) ? res.json.data : undefined;
    const token = str(data?.accessToken);
    const tenantId = str(data?.tenantId);
    if (!token || !tenantId) throw badResponse("integrationLogin", res.text);
    this.http.addSecret(token);
    return { token, tenantId, userId: str(data?.userId) };
  }

  sessionInfo(): Promise<Session> {
    this.session ??= this.login();
    this.session.catch(() => {
      this.session = undefined;
    });
    return this.session;
  }

  /** One call; the answer's `data`. A 401 (the day-long token ran out) logs in again once. */
  async call(
    method: "GET" | "POST" | "PUT",
    path: string,
    operation: string,
    kind: CallKind,
    body?: unknown,
  ): Promise<unknown> {
    let s = await this.sessionInfo();
    const res = await this.http.request({
      method,
      url: path,
      operation,
      kind,
      body: body === undefined ? undefined : { json: body },
      headers: () => ({
        ApiKey: this.cfg.apiKey ?? "",
        Authorization: `Bearer ${s.token}`,
        tenantId: s.tenantId,
        Lang: "tr-TR",
      }),
      classify: (r) => classifyIsbasiResponse(r, operation),
      onAuthFailure: async () => {
        this.session = undefined;
        s = await this.sessionInfo();
        return true;
      },
    });
    if (!isObj(res.json)) throw badResponse(operation, res.text);
    return res.json.data;
  }

  /** A list page: `data: {count, data: [...]}`. */
  async list(
    path: string,
    operation: string,
    filters: IsbasiFilter[],
    page: number,
    sorting: Record<string, string> = { id: "Asc" },
  ): Promise<{ rows: Row[]; count: number }> {
    const data = await this.call("POST", path, operation, "read", {
      filters,
      sorting,
      paging: { currentPage: page, pageSize: this.pageSize },
      count: true,
      excel: { export: false },
    });
    if (!isObj(data) || !Array.isArray(data.data)) throw badResponse(operation, JSON.stringify(data ?? null));
    return { rows: data.data.filter(isObj), count: num(data.count) };
  }
}
