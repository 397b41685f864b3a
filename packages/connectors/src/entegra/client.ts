/**
 * The one request helper of the Entegra connector: e-mail and password → JWT (`POST
 * /api/user/token/obtain/` → `{access, refresh}`), every read with `Authorization: JWT <access>`, a new token
 * after a 401, and path-based page numbers (`/product/page=N/`), as the public Singer tap does it.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient } from "../sdk/http";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { ENTEGRA_DEFAULT_API_URL, entegraDescriptor } from "./descriptor";

const SYSTEM = entegraDescriptor.system;

export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
/** The tap reads every value as a string ("12.50"); a comma decimal is tolerated. */
export const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(str(v).replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};

export class EntegraClient {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  private readonly baseUrl: string;
  private access?: string;
  private tokenPromise?: Promise<string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials(SYSTEM, entegraDescriptor.credentials, credentials);
    this.baseUrl = (this.cfg.apiUrl || ENTEGRA_DEFAULT_API_URL).replace(/\/+$/, "");
    this.http = createConnectorHttp(entegraDescriptor, ctx, {
      baseUrl: this.baseUrl,
      secrets: [this.cfg.password ?? ""],
    });
  }

  private async obtain(): Promise<string> {
    const res = await this.http.request({
      url: "api/user/token/obtain/",
      operation: "token/obtain",
      kind: "read",
      body: { json: { email: this.cfg.email, password: this.cfg.password } },
      classify: (r) =>
        r.status === 400 || r.status === 401 || r.status === 403
          ? new ConnectorError("entegra: e-mail or password refused", {
              reason: "auth",
              httpStatus: r.status,
              systemMessage: r.text.slice(0, 200),
              system: SYSTEM,
              operation: "token/obtain",
            })
          : undefined,
    });
    const b = (res.json ?? {}) as { access?: unknown; refresh?: unknown };
    if (typeof b.access !== "string" || b.access === "") {
      throw new ConnectorError("entegra token/obtain: answer without access", {
        reason: "bad_response",
        system: SYSTEM,
        operation: "token/obtain",
        systemMessage: res.text.slice(0, 200),
      });
    }
    this.http.addSecret(b.access);
    if (typeof b.refresh === "string") this.http.addSecret(b.refresh);
    this.access = b.access;
    return b.access;
  }

  private token(): Promise<string> {
    if (this.access) return Promise.resolve(this.access);
    this.tokenPromise ??= this.obtain().finally(() => {
      this.tokenPromise = undefined;
    });
    return this.tokenPromise;
  }

  /** One GET; the JSON answer. A 401 drops the token and the call is sent once more with a new one. */
  async get(path: string, operation: string): Promise<unknown> {
    const res = await this.http.request({
      method: "GET",
      url: path,
      operation,
      kind: "read",
      headers: async () => ({ authorization: `JWT ${await this.token()}` }),
      onAuthFailure: async () => {
        this.access = undefined;
        return true;
      },
    });
    if (res.json === undefined) {
      throw new ConnectorError(`entegra ${operation}: answer is not JSON`, {
        reason: "bad_response",
        system: SYSTEM,
        operation,
        systemMessage: res.text.slice(0, 200),
      });
    }
    return res.json;
  }
}
