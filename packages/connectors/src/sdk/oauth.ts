/**
 * What the OAuth client-credentials connectors (IKAS, Dynamics 365 F&O) repeated: the token endpoint's
 * refusal as an auth failure, and one bearer token kept until shortly before it expires (5 minutes early,
 * or a tenth of the lifetime for short-lived tokens), fetched by one call at a time.
 */

import { ConnectorError } from "./errors";
import type { HttpClient, HttpResponse } from "./http";

/** A 400/401/403 answer of a token endpoint as an auth failure with the endpoint's `error`. */
export function tokenRefusal(r: HttpResponse, system: string, operation: string): ConnectorError | undefined {
  if (r.status !== 400 && r.status !== 401 && r.status !== 403) return undefined;
  const b = (r.json ?? {}) as { error?: string; error_description?: string };
  return new ConnectorError(`${system}: token request refused`, {
    reason: "auth",
    httpStatus: r.status,
    systemCode: b.error,
    systemMessage: b.error_description ?? b.error ?? r.text.slice(0, 200),
    system,
    operation,
  });
}

/** The client-credentials grant: POSTs the form to `url` and returns the token and its lifetime. */
export async function clientCredentialsToken(
  http: HttpClient,
  req: { url: string; system: string; operation: string; form: Record<string, string>; defaultTtlS: number },
): Promise<{ value: string; ttlMs: number }> {
  const res = await http.request({
    url: req.url,
    operation: req.operation,
    kind: "read",
    skipRateLimit: true,
    body: { form: { grant_type: "client_credentials", ...req.form } },
    classify: (r) => tokenRefusal(r, req.system, req.operation),
  });
  const b = (res.json ?? {}) as { access_token?: string; expires_in?: number | string };
  if (!b.access_token) {
    throw new ConnectorError(`${req.system}: token answer without access_token`, {
      reason: "bad_response",
      system: req.system,
      operation: req.operation,
      systemMessage: res.text.slice(0, 200),
    });
  }
  http.addSecret(b.access_token);
  return { value: b.access_token, ttlMs: Number(b.expires_in ?? req.defaultTtlS) * 1000 };
}

/** A bearer token kept until shortly before expiry; concurrent callers share one fetch. */
export class CachedToken {
  private token?: { value: string; expiresAt: number; ttlMs: number };
  private pending?: Promise<string>;

  constructor(
    private readonly fetch: () => Promise<{ value: string; ttlMs: number }>,
    private readonly now: () => number,
  ) {}

  async get(): Promise<string> {
    const t = this.token;
    if (t && this.now() < t.expiresAt - Math.min(300_000, t.ttlMs / 10)) return t.value;
    this.pending ??= this.fetch()
      .then(({ value, ttlMs }) => {
        this.token = { value, expiresAt: this.now() + ttlMs, ttlMs };
        return value;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** Forget the token (the system refused it): the next `get` fetches a new one. */
  drop(): void {
    this.token = undefined;
  }
}
