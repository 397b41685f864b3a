/**
 * The one request helper of the Ideasoft connector: it owns the OAuth2 tokens (refresh before expiry or
 * on a 401, one refresh at a time because every refresh kills the previous refresh token, the new pair
 * persisted through `ctx.persistCredentials`), the REST call, error classification and page walking.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { tokenRefusal } from "../sdk/oauth";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { ideasoftDescriptor, ideasoftStoreUrl } from "./descriptor";

/** Server page size cap of every list (`limit` 1–100 in the file). */
export const IDEASOFT_MAX_LIMIT = 100;
/** Access token lifetime when the answer omits `expires_in` (~24 h reported by integrators, inferred). */
const DEFAULT_TOKEN_TTL_S = 86_400;

export interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  token_type?: string;
}

/** The token endpoint of a store (`/oauth/v2/token`, securitySchemes.OAuth2 of the file). */
export const ideasoftTokenUrl = (base: string) => `${base.replace(/\/+$/, "")}/oauth/v2/token`;
/** The consent page a merchant is sent to (`/panel/auth`). */
export const ideasoftAuthorizeUrl = (
  base: string,
  q: { clientId: string; redirectUri: string; state: string },
): string =>
  `${base.replace(/\/+$/, "")}/panel/auth?${new URLSearchParams({
    client_id: q.clientId,
    response_type: "code",
    state: q.state,
    redirect_uri: q.redirectUri,
  })}`;

const tokenError = (r: HttpResponse, operation: string) => tokenRefusal(r, "ideasoft", operation);

/**
 * The authorization-code exchange (the app-install landing) and the refresh, on the SDK client. Used by
 * the connector and by the server's install flow, so both speak to `/oauth/v2/token` the same way.
 */
export async function requestIdeasoftToken(
  http: HttpClient,
  tokenUrl: string,
  form: Record<string, string>,
): Promise<Required<Pick<TokenAnswer, "access_token">> & TokenAnswer> {
  const operation = `oauth/v2/token ${form.grant_type}`;
  const res = await http.request({
    url: tokenUrl,
    method: "POST",
    operation,
    kind: "read",
    // A refresh consumes the old refresh token: never send it twice.
    idempotent: form.grant_type !== "refresh_token" && form.grant_type !== "authorization_code",
    skipRateLimit: true,
    body: { form },
    classify: (r) => tokenError(r, operation),
  });
  const b = (res.json ?? {}) as TokenAnswer;
  if (!b.access_token) {
    throw new ConnectorError("ideasoft: token answer without access_token", {
      reason: "bad_response",
      system: "ideasoft",
      operation,
      systemMessage: res.text.slice(0, 200),
    });
  }
  http.addSecret(b.access_token);
  http.addSecret(b.refresh_token);
  return { ...b, access_token: b.access_token };
}

export type Query = Record<string, string | number | undefined>;

export class IdeasoftClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  readonly baseUrl: string;
  private readonly tokenUrl: string;
  private readonly now: () => number;
  private readonly persist?: (changed: Credentials) => Promise<void>;
  private token?: { value: string; expiresAt: number; ttlMs: number };
  private refreshToken: string;
  private refreshing?: Promise<string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("ideasoft", ideasoftDescriptor.credentials, credentials);
    this.baseUrl = (this.creds.apiUrl ?? ideasoftStoreUrl(this.creds.storeDomain ?? "")).replace(/\/+$/, "");
    this.tokenUrl = ideasoftTokenUrl(this.baseUrl);
    this.now = ctx.now ?? Date.now;
    this.persist = ctx.persistCredentials;
    this.refreshToken = this.creds.refreshToken ?? "";
    const expiresAt = Number(credentials.tokenExpiresAt ?? "");
    if (this.creds.accessToken) {
      // Without a known expiry the stored token is tried once; a 401 refreshes it.
      const at = Number.isFinite(expiresAt) && expiresAt > 0 ? expiresAt : this.now() + 60_000;
      this.token = { value: this.creds.accessToken, expiresAt: at, ttlMs: DEFAULT_TOKEN_TTL_S * 1000 };
    }
    this.http = createConnectorHttp(ideasoftDescriptor, ctx, {
      baseUrl: this.baseUrl,
      secrets: [this.creds.clientSecret ?? "", this.refreshToken, this.creds.accessToken ?? ""],
    });
  }

  /** One refresh at a time: the answer's refresh token replaces ours and is persisted before use. */
  private refresh(): Promise<string> {
    this.refreshing ??= (async () => {
      const b = await requestIdeasoftToken(this.http, this.tokenUrl, {
        grant_type: "refresh_token",
        client_id: this.creds.clientId ?? "",
        client_secret: this.creds.clientSecret ?? "",
        refresh_token: this.refreshToken,
      });
      const ttlMs = (b.expires_in ?? DEFAULT_TOKEN_TTL_S) * 1000;
      const expiresAt = this.now() + ttlMs;
      this.token = { value: b.access_token, expiresAt, ttlMs };
      if (b.refresh_token) this.refreshToken = b.refresh_token;
      await this.persist?.({
        accessToken: b.access_token,
        refreshToken: this.refreshToken,
        tokenExpiresAt: String(expiresAt),
      });
      return b.access_token;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async accessToken(): Promise<string> {
    if (this.refreshing) return this.refreshing;
    const t = this.token;
    // 5 minutes early, or a tenth of the lifetime for short-lived tokens.
    if (t && this.now() < t.expiresAt - Math.min(300_000, t.ttlMs / 10)) return t.value;
    return this.refresh();
  }

  /** One REST call under `/admin-api`; a 401 refreshes the token and sends it once more. */
  async call<T>(
    operation: string,
    kind: CallKind,
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    opts: { query?: Query; body?: unknown; idempotent?: boolean } = {},
  ): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const url = `/admin-api${path}${qs.size > 0 ? `?${qs}` : ""}`;
    let used: string | undefined;
    const res = await this.http.request({
      url,
      method,
      operation,
      kind,
      idempotent: opts.idempotent ?? (method === "GET" || method === "PUT"),
      body: opts.body === undefined ? undefined : { json: opts.body },
      headers: async () => {
        used = await this.accessToken();
        return { authorization: `Bearer ${used}` };
      },
      onAuthFailure: async () => {
        // Another call may have refreshed already; only the holder of the refused token refreshes.
        if (this.token?.value === used) this.token = undefined;
        return true;
      },
    });
    if (res.status === 204 || res.text.length === 0) return undefined as T;
    if (res.json === undefined) {
      throw new ConnectorError(`ideasoft ${operation}: answer is not JSON`, {
        reason: "bad_response",
        system: "ideasoft",
        operation,
        systemMessage: res.text.slice(0, 300),
      });
    }
    return res.json as T;
  }

  /** One page of a list (`page` ≥ 1, `limit` ≤ 100). */
  async page<T>(operation: string, path: string, query: Query, page: number, limit: number): Promise<T[]> {
    const rows = await this.call<T[]>(operation, "read", "GET", path, {
      query: { ...query, page, limit: Math.min(limit, IDEASOFT_MAX_LIMIT) },
    });
    if (!Array.isArray(rows)) {
      throw new ConnectorError(`ideasoft ${operation}: list answer is not an array`, {
        reason: "bad_response",
        system: "ideasoft",
        operation,
      });
    }
    return rows;
  }

  /** Every page of a list: a page shorter than `limit` is the last. */
  async all<T>(operation: string, path: string, query: Query = {}, limit = IDEASOFT_MAX_LIMIT): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const rows = await this.page<T>(operation, path, query, page, limit);
      out.push(...rows);
      if (rows.length < Math.min(limit, IDEASOFT_MAX_LIMIT)) return out;
    }
  }

  notFound(what: string, key: string, operation: string): ConnectorError {
    return new ConnectorError(`ideasoft: ${what} ${key} not found`, {
      reason: "unknown_item",
      system: "ideasoft",
      operation,
      itemKeys: [key],
    });
  }
}

/**
 * The app-install landing's first step: the authorization code for a token pair, on the SDK client
 * (masking, timeouts, the outbound guard through `ctx.fetch`).
 */
export async function exchangeIdeasoftCode(
  input: { baseUrl: string; clientId: string; clientSecret: string; code: string; redirectUri: string },
  ctx: ConnectorContext,
): Promise<{ accessToken: string; refreshToken: string; tokenExpiresAt: string }> {
  const http = createConnectorHttp(ideasoftDescriptor, ctx, { secrets: [input.clientSecret, input.code] });
  const b = await requestIdeasoftToken(http, ideasoftTokenUrl(input.baseUrl), {
    grant_type: "authorization_code",
    client_id: input.clientId,
    client_secret: input.clientSecret,
    code: input.code,
    redirect_uri: input.redirectUri,
  });
  if (!b.refresh_token) {
    throw new ConnectorError("ideasoft: token answer without refresh_token", {
      reason: "bad_response",
      system: "ideasoft",
      operation: "oauth/v2/token authorization_code",
    });
  }
  const now = ctx.now ?? Date.now;
  return {
    accessToken: b.access_token,
    refreshToken: b.refresh_token,
    tokenExpiresAt: String(now() + (b.expires_in ?? DEFAULT_TOKEN_TTL_S) * 1000),
  };
}
