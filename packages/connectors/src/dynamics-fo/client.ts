/**
 * The one request helper of the D365 F&O connector: the Entra ID client-credentials token, OData GETs with
 * server paging (`Prefer: odata.maxpagesize`, `@odata.nextLink`), entity creation, `$batch` change sets, and
 * error classification from the OData error body. Resource modules only build queries and map rows.
 */

import { randomUUID } from "node:crypto";
import { message } from "@ep/contracts";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason, parseRetryAfter, reasonForHttpStatus } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { CachedToken, clientCredentialsToken } from "../sdk/oauth";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { D365_DEFAULT_VAT_GROUPS, d365Descriptor, d365TokenUrl } from "./descriptor";
import { type BatchPart, buildBatch, parseBatchAnswers } from "./odata";

export type Row = Record<string, unknown>;

const SYSTEM = d365Descriptor.system;

/** Entities shared by all companies (no `dataAreaId`), per their reference pages. */
const SHARED_SETS = new Set(["ProductCategories", "ProductCategoryAssignments"]);

/** Token lifetime when the answer omits `expires_in` (Entra ID issues 3,599 s by default). */
const DEFAULT_TOKEN_TTL_S = 3_599;

interface ODataErrorBody {
  error?: { code?: string; message?: string; innererror?: { message?: string; type?: string } };
}

/** The message of an OData error body: the inner error names the X++ failure, the outer one is generic. */
export function odataErrorMessage(json: unknown): string | undefined {
  const e = (json as ODataErrorBody | undefined)?.error;
  return e?.innererror?.message || e?.message || undefined;
}

export function classifyD365Response(res: HttpResponse, operation: string): ConnectorError | undefined {
  if (res.status < 400) return undefined;
  const msg = odataErrorMessage(res.json);
  let reason: FailureReason = reasonForHttpStatus(res.status) ?? "validation";
  // A create whose key exists (idempotent re-send after a lost answer) comes back as a 400 with this text.
  if (res.status === 400 && msg && /already exists|zaten var/i.test(msg)) reason = "conflict";
  if (res.status === 400 && msg && /record .*locked|deadlock|kilitl/i.test(msg)) reason = "lock";
  return new ConnectorError(`d365 ${operation}: ${msg ?? `HTTP ${res.status}`}`, {
    reason,
    httpStatus: res.status,
    systemMessage: msg ?? res.text.slice(0, 300),
    systemCode: (res.json as ODataErrorBody | undefined)?.error?.code || undefined,
    retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
    system: SYSTEM,
    operation,
  });
}

function badResponse(operation: string, text: string): ConnectorError {
  return new ConnectorError(`d365 ${operation}: unexpected answer`, {
    reason: "bad_response",
    system: SYSTEM,
    operation,
    systemMessage: text.slice(0, 300),
  });
}

export interface ListQuery {
  filter?: string;
  select: readonly string[];
  /** Rows per page the server is asked for (it may send fewer). */
  pageSize?: number;
  top?: number;
}

export interface ListPage {
  rows: Row[];
  /** The server's `@odata.nextLink`, absent on the last page. */
  nextLink?: string;
}

/** Parse "KDV20=20;KDV10=10" into group → rate; a malformed entry is a settings error. */
export function parseVatGroups(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const part of text.split(/[;,\n]/)) {
    const entry = part.trim();
    if (!entry) continue;
    const m = /^([^=]+)=\s*(\d+(?:[.,]\d+)?)$/.exec(entry);
    if (!m) {
      throw new ConnectorError(`d365: bad VAT group entry '${entry}'`, {
        reason: "config",
        system: SYSTEM,
        merchantMessage: message("connectors.d365VatGroupsMalformed", { entry }),
      });
    }
    map.set((m[1] as string).trim().toUpperCase(), Number((m[2] as string).replace(",", ".")));
  }
  return map;
}

export class D365Client {
  readonly http: HttpClient;
  readonly cfg: Record<string, string>;
  readonly company: string;
  readonly dataUrl: string;
  readonly pageSize: number;
  readonly vatGroups: Map<string, number>;
  readonly now: () => number;
  private readonly tokenUrl: string;
  private readonly scope: string;
  /** Client credentials: no refresh token; a new token shortly before expiry, or after a 401. */
  private readonly token: CachedToken;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.cfg = requireCredentials(SYSTEM, d365Descriptor.credentials, credentials);
    const env = (this.cfg.environmentUrl ?? "").replace(/\/+$/, "");
    this.dataUrl = `${env}/data`;
    this.scope = `${env}/.default`;
    this.company = this.cfg.company ?? "";
    this.tokenUrl = this.cfg.tokenUrl || d365TokenUrl(this.cfg.tenantId ?? "");
    this.pageSize = ctx.batch?.page ?? d365Descriptor.batch.page ?? 1000;
    this.vatGroups = parseVatGroups(this.cfg.vatGroups ?? D365_DEFAULT_VAT_GROUPS);
    this.now = ctx.now ?? Date.now;
    this.http = createConnectorHttp(d365Descriptor, ctx, { secrets: [this.cfg.clientSecret ?? ""] });
    const form = {
      client_id: this.cfg.clientId ?? "",
      client_secret: this.cfg.clientSecret ?? "",
      scope: this.scope,
    };
    this.token = new CachedToken(
      () =>
        clientCredentialsToken(this.http, {
          url: this.tokenUrl,
          system: SYSTEM,
          operation: "oauth2/token",
          form,
          defaultTtlS: DEFAULT_TOKEN_TTL_S,
        }),
      this.now,
    );
  }

  private auth() {
    return {
      headers: async () => ({ authorization: `Bearer ${await this.token.get()}` }),
      onAuthFailure: async () => {
        this.token.drop();
        return true;
      },
    };
  }

  /** The company filter every read carries (with `cross-company=true`, so the user's default company never decides). */
  companyFilter(): string {
    return `dataAreaId eq '${this.company.replaceAll("'", "''")}'`;
  }

  /** URL of the first page of a query; shared entities (no company) are not filtered by company. */
  listUrl(set: string, q: ListQuery): string {
    const company = SHARED_SETS.has(set) ? undefined : this.companyFilter();
    const filter = [company, q.filter].filter(Boolean).join(" and ");
    const parts = [
      ...(company ? ["cross-company=true"] : []),
      ...(filter ? [`$filter=${encodeURIComponent(filter)}`] : []),
      `$select=${q.select.join(",")}`,
    ];
    if (q.top !== undefined) parts.push(`$top=${q.top}`);
    return `${this.dataUrl}/${set}?${parts.join("&")}`;
  }

  /** One page: the first (from `q`) or the one a `nextLink` names. */
  async page(set: string, q: ListQuery, nextLink?: string): Promise<ListPage> {
    const url = nextLink ?? this.listUrl(set, q);
    if (nextLink && !nextLink.startsWith(`${this.dataUrl}/${set}`)) {
      throw new ConnectorError("d365: page token of another query", { reason: "validation", system: SYSTEM });
    }
    const size = q.pageSize ?? this.pageSize;
    const res = await this.http.request({
      method: "GET",
      url,
      operation: `GET ${set}`,
      kind: "read",
      ...this.auth(),
      headers: async () => ({
        authorization: `Bearer ${await this.token.get()}`,
        prefer: `odata.maxpagesize=${size}`,
      }),
      classify: (r) => classifyD365Response(r, `GET ${set}`),
    });
    const body = res.json as { value?: unknown; "@odata.nextLink"?: unknown } | undefined;
    if (!body || !Array.isArray(body.value)) throw badResponse(`GET ${set}`, res.text);
    const next = body["@odata.nextLink"];
    return { rows: body.value as Row[], nextLink: typeof next === "string" ? next : undefined };
  }

  /** Every row of a query (lookups: warehouses, groups, categories, variants of a page). */
  async all(set: string, q: ListQuery): Promise<Row[]> {
    const out: Row[] = [];
    let next: string | undefined;
    do {
      const p = await this.page(set, q, next);
      out.push(...p.rows);
      next = p.nextLink;
    } while (next);
    return out;
  }

  /** POST one entity; the answer is the created entity (keys filled by number sequences). */
  async create(set: string, body: Row): Promise<Row> {
    const res = await this.http.request({
      method: "POST",
      url: `${this.dataUrl}/${set}`,
      operation: `POST ${set}`,
      kind: "write",
      body: { json: body },
      ...this.auth(),
      classify: (r) => classifyD365Response(r, `POST ${set}`),
    });
    if (!res.json || typeof res.json !== "object") throw badResponse(`POST ${set}`, res.text);
    return res.json as Row;
  }

  /**
   * Create several entities in one `$batch` change set: the server applies all or none. A refusal of one
   * part fails the whole call with that part's message.
   */
  async createAll(set: string, bodies: Row[]): Promise<Row[]> {
    const operation = `$batch POST ${set}`;
    const parts: BatchPart[] = bodies.map((b) => ({
      method: "POST",
      url: `${this.dataUrl}/${set}`,
      body: b,
    }));
    const { contentType, body } = buildBatch(parts, randomUUID());
    const res = await this.http.request({
      method: "POST",
      url: `${this.dataUrl}/$batch`,
      operation,
      kind: "write",
      body: { text: body, contentType },
      ...this.auth(),
      classify: (r) => classifyD365Response(r, operation),
    });
    const answers = parseBatchAnswers(res.headers.get("content-type") ?? undefined, res.text);
    if (!answers) throw badResponse(operation, res.text);
    const failed = answers.find((a) => a.status >= 400);
    if (failed) {
      const err = classifyD365Response(
        {
          status: failed.status,
          headers: new Headers(),
          text: JSON.stringify(failed.body ?? ""),
          json: failed.body,
        },
        operation,
      );
      if (err) throw err;
    }
    if (answers.length !== bodies.length) throw badResponse(operation, res.text);
    return answers.map((a) => (a.body && typeof a.body === "object" ? (a.body as Row) : {}));
  }
}

export const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
export const num = (v: unknown): number => (typeof v === "number" ? v : Number(v ?? 0) || 0);
