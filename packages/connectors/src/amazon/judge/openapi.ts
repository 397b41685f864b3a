/**
 * The Amazon judge: the Selling Partner API's own Swagger 2.0 models (judge/source.ts, read in place)
 * compiled with Ajv. A request is recognised by method and path template of any model; its path, query and
 * body parameters are checked as the model declares them (required ones, types, enums, maxItems, CSV
 * arrays — Swagger's default `collectionFormat`), an undeclared query parameter is refused, an operation
 * the model marks `deprecated` is refused as such. The feed document uploaded to the presigned URL is
 * checked against the JSON_LISTINGS_FEED schema, and the LWA token request against the form the LWA
 * documentation gives (the models do not describe it). Answers are checked against the response schemas.
 */

import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { readSpApiFile, SP_API_MODELS, type SpApiModel } from "./source";

type Json = Record<string, unknown>;
type Method = "get" | "post" | "put" | "patch" | "delete";

interface SwaggerParameter {
  name: string;
  in: "query" | "path" | "header" | "body" | "formData";
  required?: boolean;
  type?: string;
  items?: Json;
  enum?: unknown[];
  format?: string;
  maxItems?: number;
  minItems?: number;
  maximum?: number;
  minimum?: number;
  schema?: Json;
}
interface SwaggerOperation {
  operationId: string;
  deprecated?: boolean;
  description?: string;
  parameters?: SwaggerParameter[];
  responses: Record<string, { schema?: Json }>;
}
interface SwaggerDocument {
  swagger: string;
  info: { version: string };
  paths: Record<string, Partial<Record<Method | "parameters", unknown>>>;
  definitions: Record<string, Json>;
}

export interface AmazonRoute {
  model: SpApiModel;
  method: Method;
  template: string;
  operationId: string;
  regex: RegExp;
  literalSegments: number;
  op: SwaggerOperation;
  parameters: SwaggerParameter[];
}

/** The operation's default usage plan, as its description's "Usage Plan" table gives it. */
export function usagePlanOf(description: string | undefined): { rate: number; burst: number } | undefined {
  const m =
    /\|\s*Rate \(requests per second\)\s*\|\s*Burst\s*\|[\s\S]*?\|[-\s|]+\|\s*\|?\s*([\d.]+)\s*\|\s*(\d+)\s*\|/.exec(
      description ?? "",
    );
  const d = /\|\s*Default\s*\|\s*([\d.]+)\s*\|\s*(\d+)\s*\|/.exec(description ?? "");
  const hit = m ?? d;
  return hit ? { rate: Number(hit[1]), burst: Number(hit[2]) } : undefined;
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? []).slice(0, 8).map((e) => {
    const p = e.params as Record<string, unknown>;
    const extra = p.missingProperty
      ? ` (${String(p.missingProperty)})`
      : p.additionalProperty
        ? ` (${String(p.additionalProperty)})`
        : p.allowedValues
          ? ` (${JSON.stringify(p.allowedValues)})`
          : "";
    return `${where}${e.instancePath || ""} ${e.message ?? "invalid"}${extra}`;
  });
}

function newAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: coerce ? "array" : false });
  addFormats(ajv);
  for (const f of ["float", "double", "int32", "int64", "binary", "byte", "decimal"]) ajv.addFormat(f, true);
  return ajv;
}

/** Swagger 2's non-body parameter as a JSON schema. */
function paramSchema(p: SwaggerParameter, base: string): Json {
  const s: Json = {};
  for (const k of ["type", "enum", "format", "maxItems", "minItems", "maximum", "minimum"] as const)
    if (p[k] !== undefined) s[k] = p[k];
  if (p.items) s.items = anchored(p.items, base);
  return s;
}

function anchored(schema: unknown, base: string): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${base}#/`)) as Json;
}

export class AmazonJudge {
  readonly routes: AmazonRoute[] = [];
  private readonly ajv = newAjv(false);
  private readonly queryAjv = newAjv(true);
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly feedSchema: ValidateFunction;
  readonly reportSchema: ValidateFunction;

  constructor(read: (path: string) => unknown = readSpApiFile) {
    for (const [model, path] of Object.entries(SP_API_MODELS.models) as Array<[SpApiModel, string]>) {
      const doc = read(path) as SwaggerDocument;
      this.ajv.addSchema({ definitions: doc.definitions }, model);
      this.queryAjv.addSchema({ definitions: doc.definitions }, model);
      for (const [template, item] of Object.entries(doc.paths)) {
        const shared = (item.parameters ?? []) as SwaggerParameter[];
        for (const method of ["get", "post", "put", "patch", "delete"] as const) {
          const op = item[method] as SwaggerOperation | undefined;
          if (!op) continue;
          const segs = template.split("/");
          const own = op.parameters ?? [];
          this.routes.push({
            model,
            method,
            template,
            operationId: op.operationId,
            regex: new RegExp(
              `^${segs.map((s) => (/^\{[^}]+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}/?$`,
            ),
            literalSegments: segs.filter((s) => !s.startsWith("{")).length,
            op,
            parameters: [...shared.filter((p) => !own.some((o) => o.name === p.name)), ...own],
          });
        }
      }
    }
    this.routes.sort((a, b) => b.literalSegments - a.literalSegments);
    const feed = newAjv(false);
    this.feedSchema = feed.compile(read(SP_API_MODELS.listingsFeed) as Json);
    this.reportSchema = newAjv(false).compile(read(SP_API_MODELS.listingsReport) as Json);
  }

  match(method: string, path: string): AmazonRoute | undefined {
    const m = method.toLowerCase();
    return this.routes.find((r) => r.method === m && r.regex.test(path));
  }

  /** The route of an operation id (the newest model wins where v0 and 2026-01-01 share a name). */
  route(operationId: string): AmazonRoute | undefined {
    return (
      this.routes.find((r) => r.operationId === operationId && r.model !== "ordersV0") ??
      this.routes.find((r) => r.operationId === operationId)
    );
  }

  private compile(ajv: Ajv, key: string, schema: Json): ValidateFunction {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const v = ajv.compile(schema);
    this.cache.set(key, v);
    return v;
  }

  judgeRequest(req: {
    method: string;
    path: string;
    query?: Record<string, unknown>;
    body?: unknown;
  }): Verdict {
    if (req.path.endsWith("/auth/o2/token")) return this.judgeLwa(req);
    if (/\/feed-uploads\//.test(req.path)) return this.judgeFeedUpload(req);
    if (/\/product-type-schemas\//.test(req.path))
      return {
        operation: "getProductTypeSchema",
        problems: req.method === "GET" ? [] : ["a product type schema is read with GET (the link's verb)"],
      };
    if (/\/feed-downloads\//.test(req.path))
      return {
        operation: "downloadFeedDocument",
        problems: req.method === "GET" ? [] : ["a download is a GET"],
      };
    const route = this.match(req.method, req.path);
    if (!route) return { operation: `${req.method} ${req.path}`, problems: ["unknown operation"] };
    const operation = route.operationId;
    const problems: string[] = [];
    if (route.op.deprecated)
      problems.push(`${operation} is deprecated in ${route.model} (the model marks it so)`);

    // Path parameters: present and of the declared type.
    const names = [...route.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const values = route.regex.exec(req.path);
    const segs = req.path.split("/");
    const tsegs = route.template.split("/");
    for (const name of names) {
      const i = tsegs.indexOf(`{${name}}`);
      if (!values || !segs[i]) problems.push(`path ${name} missing`);
    }

    // Query: declared parameters only, CSV arrays split, then the declared schema.
    const declared = route.parameters.filter((p) => p.in === "query");
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const p of declared) {
      properties[p.name] = paramSchema(p, route.model);
      if (p.required) required.push(p.name);
    }
    const qv = this.compile(this.queryAjv, `q:${route.model}:${operation}`, {
      type: "object",
      properties,
      required,
      additionalProperties: false,
    });
    const query: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(req.query ?? {})) {
      const p = declared.find((d) => d.name === k);
      query[k] = p?.type === "array" && typeof v === "string" ? v.split(",") : v;
    }
    if (!qv(query)) problems.push(...describe(qv.errors, "query"));

    const bodyParam = route.parameters.find((p) => p.in === "body");
    const hasBody = req.body !== undefined && req.body !== null && req.body !== "";
    if (bodyParam?.schema) {
      if (!hasBody) {
        if (bodyParam.required) problems.push("body missing");
      } else {
        const bv = this.compile(
          this.ajv,
          `b:${route.model}:${operation}`,
          anchored(bodyParam.schema, route.model),
        );
        if (!bv(req.body)) problems.push(...describe(bv.errors, "body"));
      }
    } else if (hasBody) problems.push("body not expected");
    return { operation, problems };
  }

  /** LWA: `POST https://api.amazon.com/auth/o2/token`, form, grant_type=refresh_token (Connect to the SP-API). */
  private judgeLwa(req: { method: string; body?: unknown }): Verdict {
    const problems: string[] = [];
    if (req.method !== "POST") problems.push("the token request is a POST");
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (b.grant_type !== "refresh_token" && b.grant_type !== "client_credentials")
      problems.push(`grant_type ${String(b.grant_type)} is not refresh_token or client_credentials`);
    for (const k of ["client_id", "client_secret"]) if (!b[k]) problems.push(`${k} missing`);
    if (b.grant_type === "refresh_token" && !b.refresh_token) problems.push("refresh_token missing");
    if (b.grant_type === "client_credentials" && !b.scope) problems.push("scope missing");
    return { operation: `lwaToken.${String(b.grant_type)}`, problems };
  }

  /** The feed document as uploaded: a JSON_LISTINGS_FEED document valid against Amazon's schema. */
  private judgeFeedUpload(req: { method: string; body?: unknown }): Verdict {
    const problems: string[] = [];
    if (req.method !== "PUT") problems.push("the presigned upload is a PUT");
    const doc = typeof req.body === "string" ? safeJson(req.body) : req.body;
    if (doc === undefined) problems.push("the feed document is not JSON");
    else if (!this.feedSchema(doc)) problems.push(...describe(this.feedSchema.errors, "feed"));
    return { operation: "uploadFeedDocument", problems };
  }

  /** The feed document alone (the emulator checks what it stores). */
  feedProblems(doc: unknown): string[] {
    return this.feedSchema(doc) ? [] : describe(this.feedSchema.errors, "feed");
  }

  /** One answer against the operation's declared response schema. */
  judgeAnswer(operationId: string, status: number, body: unknown): string[] {
    const route = this.route(operationId);
    if (!route) return [`unknown operation ${operationId}`];
    const declared = route.op.responses[String(status)];
    if (!declared) return [`status ${status} not declared for ${operationId}`];
    if (!declared.schema) return [];
    const v = this.compile(
      this.ajv,
      `a:${route.model}:${operationId}:${status}`,
      anchored(declared.schema, route.model),
    );
    return v(body) ? [] : describe(v.errors, "answer");
  }

  get requestJudge(): RequestJudge {
    return (r: RecordedRequest) => this.judgeRequest(r);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

let shared: AmazonJudge | undefined;
/** One judge per process (reading and compiling the models is the expensive part). */
export function amazonJudge(): AmazonJudge {
  shared ??= new AmazonJudge();
  return shared;
}
