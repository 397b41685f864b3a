/**
 * The one request helper of the IKAS connector: it owns the client-credentials token, the GraphQL call,
 * error classification by `extensions.code`, and page walking. Resource modules only build documents.
 */

import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason, parseRetryAfter } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import { CachedToken, clientCredentialsToken } from "../sdk/oauth";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { IKAS_DEFAULT_API_URL, ikasDescriptor, ikasTokenUrl } from "./descriptor";

export interface GqlError {
  message?: string;
  extensions?: { code?: string; invalidInputIndexes?: number[]; [k: string]: unknown };
}
interface GqlBody<T> {
  data?: T | null;
  errors?: GqlError[];
}

/** Token lifetime when the answer omits `expires_in` (the package documents 14,400 s). */
const DEFAULT_TOKEN_TTL_S = 14_400;

/**
 * Error codes by meaning. The first group is what `@ikas/api-client` knows (`globals/constants.js`
 * `APIErrorCode`); the Apollo codes come with documents or variables the server refuses; the rest
 * (rate limit, error-rate block, lock) are not in the package and stay inferred (VERIFIED.md).
 */
const CODE_REASONS: Record<string, FailureReason> = {
  ARGUMENT_VALIDATION_ERROR: "validation",
  UNAUTHENTICATED: "auth",
  INTERNAL_SERVER_ERROR: "server_error",
  NETWORK_ERROR: "network",
  ORDER_LINE_IS_ALREADY_PACKAGED: "conflict",
  ORDER_NOT_ELIGIBLE_FOR_UPDATE: "conflict",
  GRAPHQL_PARSE_FAILED: "validation",
  GRAPHQL_VALIDATION_FAILED: "validation",
  BAD_USER_INPUT: "validation",
  FORBIDDEN: "auth",
  TOO_MANY_REQUESTS: "rate_limited",
  TOO_MANY_ERRORS: "blocked",
  LOCKED: "lock",
};

/**
 * Classify an IKAS answer: errors inside HTTP 200 by their code, 401, 429 (rate limit or error-rate
 * block), 5xx. Message texts are kept for people but never decide anything.
 */
export function classifyIkasResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const body = (res.json ?? undefined) as GqlBody<unknown> | undefined;
  const first = body?.errors?.[0];
  if (res.status >= 500 && !first) return undefined;
  if (!first && res.status < 400) return undefined;
  const code = first?.extensions?.code;
  let reason: FailureReason | undefined = code ? CODE_REASONS[code] : undefined;
  if (res.status === 401 || res.status === 403) reason = "auth";
  else if (res.status === 429) reason = code === "TOO_MANY_ERRORS" ? "blocked" : "rate_limited";
  else if (!reason && res.status >= 500) reason = "server_error";
  // Unknown codes are permanent: IKAS blocks clients with many errors, so never retry them blindly.
  reason ??= "validation";
  return new ConnectorError(`ikas ${operation}: ${first?.message ?? `HTTP ${res.status}`}`, {
    reason,
    httpStatus: res.status,
    systemMessage: first?.message ?? res.text.slice(0, 300),
    systemCode: code,
    retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
    system: "ikas",
    operation,
    details: first?.extensions,
  });
}

export class IkasClient {
  readonly http: HttpClient;
  readonly creds: Record<string, string>;
  private readonly apiUrl: string;
  private readonly tokenUrl: string;
  private readonly now: () => number;
  /** Client credentials: no refresh token; a new token shortly before expiry, or after a 401. */
  private readonly token: CachedToken;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("ikas", ikasDescriptor.credentials, credentials);
    this.apiUrl = this.creds.apiUrl ?? IKAS_DEFAULT_API_URL;
    this.tokenUrl = this.creds.tokenUrl ?? ikasTokenUrl(this.creds.storeName ?? "");
    this.now = ctx.now ?? Date.now;
    this.http = createConnectorHttp(ikasDescriptor, ctx, { secrets: [this.creds.clientSecret ?? ""] });
    const form = { client_id: this.creds.clientId ?? "", client_secret: this.creds.clientSecret ?? "" };
    this.token = new CachedToken(
      () =>
        clientCredentialsToken(this.http, {
          url: this.tokenUrl,
          system: "ikas",
          operation: "oauth/token",
          form,
          defaultTtlS: DEFAULT_TOKEN_TTL_S,
        }),
      this.now,
    );
  }

  /**
   * One GraphQL call. `operation` names it in logs and counters; an `UNAUTHENTICATED` answer (HTTP 401
   * or inside HTTP 200) drops the token and the call is sent once more with a new one.
   */
  async gql<T>(
    operation: string,
    kind: CallKind,
    query: string,
    variables?: Record<string, unknown>,
    opts: { idempotent?: boolean } = {},
  ): Promise<T> {
    const res = await this.http.request({
      url: this.apiUrl,
      operation,
      kind,
      idempotent: opts.idempotent,
      body: { json: { query, variables } },
      headers: async () => ({ authorization: `Bearer ${await this.token.get()}` }),
      onAuthFailure: async () => {
        this.token.drop();
        return true;
      },
      classify: (r) => classifyIkasResponse(r, operation),
    });
    const body = res.json as GqlBody<T> | undefined;
    if (!body?.data) {
      throw new ConnectorError(`ikas ${operation}: answer without data`, {
        reason: "bad_response",
        system: "ikas",
        operation,
        systemMessage: res.text.slice(0, 300),
      });
    }
    return body.data;
  }

  /**
   * The one row of `root(id: { eq: $id })` (`listOrder`, `listProduct` …) with `fields`, or a permanent
   * `unknown_item` failure of `failing.operation` naming `failing.itemKey` (default: the id).
   */
  async byId<T>(
    root: string,
    queryName: string,
    fields: string,
    id: string,
    failing: { operation: string; what: string; itemKey?: string },
  ): Promise<T> {
    const d = await this.gql<Record<string, { data: T[] }>>(
      root,
      "read",
      `query ${queryName}($id: String!) { ${root}(id: { eq: $id }, pagination: { limit: 1, page: 1 }) { data { ${fields} } } }`,
      { id },
    );
    const row = d[root]?.data[0];
    if (row) return row;
    throw new ConnectorError(`ikas: ${failing.what} ${id} not found`, {
      reason: "unknown_item",
      system: "ikas",
      operation: failing.operation,
      itemKeys: [failing.itemKey ?? id],
    });
  }

  /**
   * Every page of a paged list (`pagination: { limit, page }`, answer `{ data, hasNext }`). The query
   * takes `$limit: Int` and `$page: Int`; `pick` finds the page in the answer.
   */
  async allPages<T, D>(
    operation: string,
    query: string,
    variables: Record<string, unknown>,
    pick: (d: D) => { data: T[]; hasNext: boolean },
    limit = 200,
  ): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const p = pick(await this.gql<D>(operation, "read", query, { ...variables, limit, page }));
      out.push(...p.data);
      if (!p.hasNext || p.data.length === 0) return out;
    }
  }
}
