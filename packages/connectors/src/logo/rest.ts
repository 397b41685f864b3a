/**
 * Talking to the Logo REST service (Objects REST, `/api/v1`): the token grant (`POST /api/v1/token`,
 * Basic client id:secret, form `grant_type=password&username&firmno&password` → `access_token`), the
 * Bearer header on every call, a 401 answered by one new grant, the revoke (`POST /Revoke`), and the
 * error envelope (HTTP 400 with `ModelState` lists: ValError0…, LOError, DBError, OtherError). Shapes
 * follow the judge (./judge/rest.ts); sources are named there.
 */

import type { ConnectorContext, ConnectorDescriptor } from "../sdk/connector";
import { ConnectorError, type FailureReason, reasonForHttpStatus } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp } from "../sdk/util";

export type Row = Record<string, unknown>;
export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
export const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(str(v).replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};
export const isObj = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

/** The Turkish sentence the connection test and refused orders show when the REST service is unusable. */
export const REST_NOT_LICENSED =
  'Logo REST servisi bu sunucuda kullanılamıyor (lisanslı değil, kurulu değil ya da istemci kimliği/anahtarı hatalı). Siparişler Logo\'ya REST ile yazılamaz: REST lisansınız varsa servis adresini ve istemci bilgilerini kontrol edin; yoksa siparişler için yerel bağlantı aracının genel SQL / dosya yolunu ("SQL ile bağlantı") kullanın.';

export const REST_NOT_CONFIGURED =
  'Logo REST servisi tanımlı değil: siparişler ve cari kartlar Logo\'ya yazılamıyor. REST lisansınız varsa bağlantı ayarlarına servis adresini, istemci kimliğini/anahtarını ve Logo kullanıcısını girin; yoksa siparişler için yerel bağlantı aracının genel SQL / dosya yolunu ("SQL ile bağlantı") kullanın.';

/** The messages of a 400's `ModelState` (every list it carries), or the plain `Message`. */
export function logoErrorText(body: unknown): string {
  if (!isObj(body)) return "";
  const parts: string[] = [];
  if (isObj(body.ModelState)) {
    for (const v of Object.values(body.ModelState))
      if (Array.isArray(v)) parts.push(...v.map(str).filter(Boolean));
  }
  if (parts.length === 0 && body.Message) parts.push(str(body.Message));
  if (parts.length === 0 && body.error_description) parts.push(str(body.error_description));
  if (parts.length === 0 && body.error) parts.push(str(body.error));
  return parts.join("; ");
}

export function classifyLogoRest(
  res: HttpResponse,
  operation: string,
  system: string,
): ConnectorError | undefined {
  if (res.status < 400) return undefined;
  const text = logoErrorText(res.json) || res.text.slice(0, 300);
  let reason: FailureReason = reasonForHttpStatus(res.status) ?? "server_error";
  // OWIN's password grant answers a wrong user/password with 400 invalid_grant (inferred from the
  // framework the token endpoint follows): a credentials problem, not a bad request.
  if (res.status === 400 && isObj(res.json) && res.json.error === "invalid_grant") reason = "auth";
  return new ConnectorError(`${system} ${operation}: HTTP ${res.status} ${text}`.trim(), {
    reason,
    httpStatus: res.status,
    systemMessage: text,
    systemCode: isObj(res.json) && res.json.error ? str(res.json.error) : String(res.status),
    system,
    operation,
  });
}

/** A failure that means the REST service is not usable here (not licensed / not installed / client refused). */
export function isNotLicensed(e: unknown): boolean {
  return (
    e instanceof ConnectorError &&
    e.httpStatus !== undefined &&
    [401, 403, 404].includes(e.httpStatus) &&
    e.systemCode !== "invalid_grant"
  );
}

interface Grant {
  token: string;
  expiresAt: number;
}

export class LogoRest {
  readonly http: HttpClient;
  private grant?: Promise<Grant>;
  private readonly now: () => number;

  constructor(
    readonly cfg: Record<string, string>,
    ctx: ConnectorContext,
    readonly descriptor: ConnectorDescriptor,
  ) {
    this.now = ctx.now ?? Date.now;
    this.http = createConnectorHttp(descriptor, ctx, {
      baseUrl: (cfg.restUrl ?? "").replace(/\/+$/, ""),
      secrets: [cfg.password ?? "", cfg.clientSecret ?? ""],
    });
  }

  static configured(cfg: Record<string, string>): boolean {
    return ["restUrl", "clientId", "clientSecret", "username", "password"].every((k) => !!cfg[k]);
  }

  private get system(): string {
    return this.descriptor.system;
  }

  private async requestGrant(): Promise<Grant> {
    const basic = Buffer.from(`${this.cfg.clientId}:${this.cfg.clientSecret}`, "utf8").toString("base64");
    const res = await this.http.request({
      url: "api/v1/token",
      operation: "token",
      kind: "read",
      headers: () => ({ authorization: `Basic ${basic}` }),
      body: {
        form: {
          grant_type: "password",
          username: this.cfg.username ?? "",
          firmno: String(Number(this.cfg.firmNo ?? "1")),
          password: this.cfg.password ?? "",
        },
      },
      classify: (r) => classifyLogoRest(r, "token", this.system),
    });
    const token = isObj(res.json) ? str(res.json.access_token) : "";
    if (!token)
      throw new ConnectorError(`${this.system} token: no access_token`, {
        reason: "bad_response",
        system: this.system,
        operation: "token",
        systemMessage: res.text.slice(0, 300),
      });
    this.http.addSecret(token);
    // A 3P note puts the lifetime near 119 s; without `expires_in` we keep it 100 s (inferred).
    const ttl = isObj(res.json) && num(res.json.expires_in) > 0 ? num(res.json.expires_in) * 1000 : 100_000;
    return { token, expiresAt: this.now() + Math.max(5_000, ttl - 10_000) };
  }

  async token(): Promise<string> {
    const current = this.grant;
    if (current) {
      const g = await current.catch(() => undefined);
      if (g && g.expiresAt > this.now()) return g.token;
      if (this.grant === current) this.grant = undefined;
    }
    this.grant ??= this.requestGrant();
    const pending = this.grant;
    pending.catch(() => {
      if (this.grant === pending) this.grant = undefined;
    });
    return (await pending).token;
  }

  /** One call with the Bearer token; a 401 (token expired or revoked) gets one new grant and is sent again. */
  async call(
    method: "GET" | "POST" | "PUT",
    path: string,
    operation: string,
    kind: CallKind,
    opts: { query?: Record<string, string | number | boolean>; json?: unknown; idempotent?: boolean } = {},
  ): Promise<unknown> {
    let token = await this.token();
    const qs = Object.entries(opts.query ?? {})
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join("&");
    const res = await this.http.request({
      method,
      url: `api/v1/${path}${qs ? `?${qs}` : ""}`,
      operation,
      kind,
      idempotent: opts.idempotent,
      body: opts.json === undefined ? undefined : { json: opts.json },
      headers: () => ({ authorization: `Bearer ${token}` }),
      classify: (r) => classifyLogoRest(r, operation, this.system),
      onAuthFailure: async () => {
        this.grant = undefined;
        token = await this.token();
        return true;
      },
    });
    return res.json;
  }

  /** A list page (`offset`, `limit`, `q`): the answer's `items`. An answer without a list is a failure. */
  async list(resource: string, operation: string, q: string, limit: number): Promise<Row[]> {
    const body = await this.call("GET", resource, operation, "read", {
      query: { offset: 0, limit, q, withCount: true },
    });
    const items = isObj(body) ? body.items : undefined;
    if (!Array.isArray(items))
      throw new ConnectorError(`${this.system} ${operation}: no items in the answer`, {
        reason: "bad_response",
        system: this.system,
        operation,
        systemMessage: JSON.stringify(body ?? null).slice(0, 300),
      });
    return items.filter(isObj);
  }

  /** Gives the token back (Koala.Yedpa revokes after each use); failures are ignored, as theirs are. */
  async revoke(): Promise<void> {
    const g = await this.grant?.catch(() => undefined);
    if (!g) return;
    this.grant = undefined;
    await this.http
      .request({
        url: "Revoke",
        operation: "revoke",
        kind: "read",
        headers: () => ({ authorization: `Bearer ${g.token}` }),
      })
      .catch(() => undefined);
  }
}

/** A `q` filter value: single quotes doubled (the service's filter syntax quotes text in '…'). */
export const quoteQ = (v: string) => `'${v.replace(/'/g, "''")}'`;
