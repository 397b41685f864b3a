/**
 * The one request helper of the T-Soft connector: REST1 login token (form POST to
 * `/rest1/auth/login/{user}`), form-encoded calls carrying the token, the `{success, message, data}`
 * envelope with its errors inside HTTP 200, a new login once when the message names the token, and
 * `start`/`limit` paging. Resource modules only name the call and its parameters.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { tsoftDescriptor } from "./descriptor";

/** A REST1 answer (code id 52484842784: `success`, `message[0].text` string or list, `data` list). */
export interface Rest1Envelope<T = Record<string, unknown>> {
  success?: boolean;
  message?: Array<{ text?: string | string[] }>;
  data?: T[] | Record<string, T>;
}

/** Token lifetime: one hour per the public client (code id 53894632071); renewed a minute early. */
const TOKEN_TTL_MS = 60 * 60_000;
const TOKEN_MARGIN_MS = 60_000;

export type Row = Record<string, unknown>;

export function messageText(body: Rest1Envelope<unknown> | undefined): string {
  const t = body?.message?.[0]?.text;
  return (Array.isArray(t) ? t.join(" ") : (t ?? "")).trim();
}

/** The rows of an answer: `data` as a list, or (seen by the same client) an object of rows. */
export function rest1Rows(body: Rest1Envelope<unknown> | undefined): Row[] {
  const d = body?.data;
  if (Array.isArray(d)) return d as Row[];
  if (d && typeof d === "object") return Object.values(d) as Row[];
  return [];
}

/** Reason of a `success: false` answer, by its text (T-Soft sends no error codes). */
function reasonOf(text: string): FailureReason {
  const t = text.toLocaleLowerCase("tr-TR");
  if (t.includes("token")) return "auth";
  // "Controller is not allowed!": the web service user lacks the method's permission.
  if (t.includes("not allowed") || t.includes("yetki")) return "auth";
  if (t.includes("bulunamad") || t.includes("not found")) return "not_found";
  return "validation";
}

/** A refusal of the token itself (HTTP 401, or a message naming the token), not of a permission. */
function isTokenProblem(e: ConnectorError): boolean {
  return e.httpStatus === 401 || /token/i.test(e.systemMessage ?? "");
}

export class TsoftClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  private readonly baseUrl: string;
  private readonly now: () => number;
  private token?: { value: string; expiresAt: number };
  private login?: Promise<string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("tsoft", tsoftDescriptor.credentials, credentials);
    // The store address, whatever path the merchant pasted after it (…/rest1/…).
    this.baseUrl = (this.creds.storeUrl ?? "").replace(/\/rest1.*$/i, "").replace(/\/+$/, "");
    this.now = ctx.now ?? Date.now;
    this.http = createConnectorHttp(tsoftDescriptor, ctx, {
      baseUrl: this.baseUrl,
      secrets: [this.creds.apiPass ?? ""],
    });
  }

  /** The user name as the login path wants it (an e-mail login uses its local part, as the public client does). */
  private get user(): string {
    const u = this.creds.apiUser ?? "";
    return u.includes("@") ? (u.split("@")[0] ?? u) : u;
  }

  private async fetchToken(): Promise<string> {
    const res = await this.http.request({
      url: `/rest1/auth/login/${encodeURIComponent(this.user)}`,
      operation: "auth/login",
      kind: "read",
      idempotent: true,
      body: { form: { user: this.user, pass: this.creds.apiPass ?? "" } },
    });
    const body = res.json as Rest1Envelope<{ token?: string }> | undefined;
    const token = rest1Rows(body)[0]?.token;
    if (!body?.success || typeof token !== "string" || token === "") {
      throw new ConnectorError(`tsoft auth/login: ${messageText(body) || "no token"}`, {
        reason: body?.success === false ? "auth" : "bad_response",
        systemMessage: messageText(body) || undefined,
        system: "tsoft",
        operation: "auth/login",
      });
    }
    this.http.addSecret(token);
    this.token = { value: token, expiresAt: this.now() + TOKEN_TTL_MS };
    return token;
  }

  async accessToken(force = false): Promise<string> {
    if (!force && this.token && this.token.expiresAt - TOKEN_MARGIN_MS > this.now()) return this.token.value;
    if (force) this.token = undefined;
    this.login ??= this.fetchToken().finally(() => {
      this.login = undefined;
    });
    return this.login;
  }

  private classify(res: HttpResponse, operation: string): ConnectorError | undefined {
    const body = res.json as Rest1Envelope<unknown> | undefined;
    if (res.status >= 400 || body?.success !== false) return undefined;
    const text = messageText(body);
    return new ConnectorError(`tsoft ${operation}: ${text || "success=false"}`, {
      reason: reasonOf(text),
      systemMessage: text || undefined,
      system: "tsoft",
      operation,
    });
  }

  /** One REST1 call: `POST /rest1/<operation>` with the token and the parameters as a form. */
  async call(operation: string, kind: CallKind, params: Record<string, string> = {}): Promise<Rest1Envelope> {
    const send = async (token: string) =>
      this.http.request({
        url: `/rest1/${operation}`,
        operation,
        kind,
        body: { form: { token, ...params } },
        classify: (r) => this.classify(r, operation),
      });
    let res: HttpResponse;
    try {
      res = await send(await this.accessToken());
    } catch (e) {
      // The token sits in the form body, so a refused token means a new login and the call once more
      // (as the public client does); a call refused for its token was not applied, writes included.
      if (!(e instanceof ConnectorError) || e.reason !== "auth" || !isTokenProblem(e)) throw e;
      res = await send(await this.accessToken(true));
    }
    return (res.json ?? {}) as Rest1Envelope;
  }

  /** A write with a JSON `data` list (setProducts, updateProducts, setSubProducts…). */
  async write(operation: string, rows: Row[]): Promise<Rest1Envelope> {
    return this.call(operation, "write", { data: JSON.stringify(rows) });
  }
}
