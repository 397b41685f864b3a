/**
 * The one request helper of the Sopyo connector: login with the API token (`POST /api/v2/auth/login`,
 * `{ api_token: [token] }` → bearer token), the bearer header per attempt, one new login on a 401, and
 * answers checked the way the public client checks them.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { HttpClient } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { SOPYO_DEFAULT_API_URL, sopyoDescriptor } from "./descriptor";

export type Row = Record<string, unknown>;
export const isRow = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

export function malformed(operation: string, what: string): ConnectorError {
  return new ConnectorError(`sopyo ${operation}: ${what}`, {
    reason: "bad_response",
    system: "sopyo",
    operation,
  });
}

export class SopyoClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  private token?: string;
  private login?: Promise<string>;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("sopyo", sopyoDescriptor.credentials, credentials);
    this.http = createConnectorHttp(sopyoDescriptor, ctx, {
      baseUrl: (this.creds.apiUrl ?? SOPYO_DEFAULT_API_URL).replace(/\/+$/, ""),
      secrets: [this.creds.apiToken ?? ""],
    });
  }

  private async fetchToken(): Promise<string> {
    const res = await this.http.request({
      url: "/api/v2/auth/login",
      operation: "login",
      kind: "read",
      idempotent: true,
      body: { json: { api_token: [this.creds.apiToken] } },
    });
    const body = res.json;
    const at = isRow(body) ? body.access_token : undefined;
    // The public client refuses anything but a non-empty token of type "bearer".
    if (!isRow(at) || typeof at.token !== "string" || at.token.trim() === "" || at.type !== "bearer") {
      throw malformed("login", "no bearer token in the answer");
    }
    this.http.addSecret(at.token);
    this.token = at.token;
    return at.token;
  }

  accessToken(force = false): Promise<string> {
    if (!force && this.token) return Promise.resolve(this.token);
    this.login ??= this.fetchToken().finally(() => {
      this.login = undefined;
    });
    return this.login;
  }

  async request(
    method: "GET" | "POST",
    url: string,
    operation: string,
    kind: CallKind,
    json?: unknown,
  ): Promise<unknown> {
    await this.accessToken();
    const res = await this.http.request({
      method,
      url,
      operation,
      kind,
      body: json === undefined ? undefined : { json },
      headers: async () => ({ authorization: `Bearer ${await this.accessToken()}` }),
      // A 401 on a token that worked before: it expired (no lifetime is published). Log in once more.
      onAuthFailure: async () => {
        await this.accessToken(true);
        return true;
      },
    });
    return res.json;
  }
}
