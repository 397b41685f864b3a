/**
 * The Ideasoft judge: the vendor OpenAPI 3.0 document ("Ideashop API 3.0.0", read in place from
 * `shared/ground-truth/ideasoft/admin-openapi.json`, never copied into the repo) compiled with Ajv.
 * It recognises a request's operation by method and path template, checks the query parameters the
 * operation declares (unknown ones are refused), and the JSON body against the operation's schema;
 * it checks the emulator's answers against the operation's response schema.
 *
 * Ajv (already in the tree through Fastify, draft-07 with OpenAPI 3.0's `nullable`) was chosen over
 * openapi-backend / openapi-request-validator: those wrap Ajv too, pull several packages more, and
 * neither judges answers the way the emulator test needs. Compiling the 3 MB document costs only the
 * schemas actually used (Ajv compiles `$ref`s lazily).
 *
 * Three readings of the file, each because the file cannot be meant literally (VERIFIED.md):
 * - list operations (`GET /admin-api/products`) name the item schema; the answer is an array of it;
 * - in an ANSWER, a back-reference to the enclosing object (`OrderItem.order` inside `Order.orderItems`,
 *   `ShippingAddress.order` …) is not required: the file marks it required, which would make every
 *   embedded child carry its whole parent again;
 * - in a POST body the new object's own `id` is not required (the server assigns it).
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";

type Json = Record<string, unknown>;
type Method = "get" | "post" | "put" | "patch" | "delete";

interface OpenApiParameter {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  schema?: Json;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  components: { schemas: Record<string, Json> };
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** The vendor file, in place: `<repo>/../shared/ground-truth/ideasoft/admin-openapi.json` (or `IDEASOFT_OPENAPI`). */
export function ideasoftOpenApiPath(): string {
  const fromEnv = process.env.IDEASOFT_OPENAPI;
  if (fromEnv) return fromEnv;
  // src/ideasoft/judge -> packages/connectors/src -> repo root
  const repoRoot = resolve(HERE, "../../../../..");
  return resolve(repoRoot, "../shared/ground-truth/ideasoft/admin-openapi.json");
}

export function loadIdeasoftOpenApi(path = ideasoftOpenApiPath()): OpenApiDocument {
  if (!existsSync(path)) throw new Error(`Ideasoft OpenAPI not found at ${path}`);
  return JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument;
}

interface Route {
  method: Method;
  template: string;
  regex: RegExp;
  literalSegments: number;
  op: OpenApiOperation;
}

export interface AnswerVerdict {
  operation: string;
  problems: string[];
}

const REF_PREFIX = "#/components/schemas/";
const refName = (s: Json | undefined): string | undefined =>
  typeof s?.$ref === "string" && s.$ref.startsWith(REF_PREFIX) ? s.$ref.slice(REF_PREFIX.length) : undefined;

/**
 * Schema names whose property `prop` points back at a schema that embeds them (`OrderItem.order` ↔
 * `Order.orderItems[]`, `ShippingAddress.order` ↔ `Order.shippingAddress`): not required in answers.
 */
function backReferences(schemas: Record<string, Json>): Map<string, Set<string>> {
  const embeds = new Map<string, Set<string>>();
  for (const [name, s] of Object.entries(schemas)) {
    for (const p of Object.values((s.properties ?? {}) as Record<string, Json>)) {
      const child = p.type === "array" ? refName(p.items as Json) : refName(p);
      if (child) {
        const set = embeds.get(name) ?? new Set<string>();
        set.add(child);
        embeds.set(name, set);
      }
    }
  }
  const out = new Map<string, Set<string>>();
  for (const [name, s] of Object.entries(schemas)) {
    for (const [prop, p] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      const target = refName(p);
      if (target && embeds.get(target)?.has(name)) {
        const set = out.get(name) ?? new Set<string>();
        set.add(prop);
        out.set(name, set);
      }
    }
  }
  return out;
}

function withoutRequired(
  schemas: Record<string, Json>,
  drop: Map<string, Set<string>>,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, s] of Object.entries(schemas)) {
    const gone = drop.get(name);
    out[name] =
      gone && Array.isArray(s.required)
        ? { ...s, required: (s.required as string[]).filter((r) => !gone.has(r)) }
        : s;
  }
  return out;
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${where}${e.instancePath || ""} ${e.message ?? "invalid"}${fmtParams(e)}`);
}

function fmtParams(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (p.missingProperty) return ` (${String(p.missingProperty)})`;
  if (p.additionalProperty) return ` (${String(p.additionalProperty)})`;
  if (p.allowedValues) return ` (${JSON.stringify(p.allowedValues)})`;
  return "";
}

function newAjv(opts: { coerce: boolean }): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes: opts.coerce ? "array" : false,
    validateFormats: true,
  });
  addFormats(ajv);
  // OpenAPI 3.0 number formats that JSON Schema does not define.
  for (const f of ["float", "double", "int32", "int64", "binary", "byte"]) ajv.addFormat(f, true);
  return ajv;
}

export class IdeasoftJudge {
  readonly doc: OpenApiDocument;
  private readonly routes: Route[] = [];
  private readonly requestAjv: Ajv;
  private readonly answerAjv: Ajv;
  private readonly queryAjv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument = loadIdeasoftOpenApi()) {
    this.doc = doc;
    const schemas = doc.components.schemas;
    this.requestAjv = newAjv({ coerce: false });
    this.requestAjv.addSchema({ components: { schemas } }, "req");
    this.answerAjv = newAjv({ coerce: false });
    this.answerAjv.addSchema(
      { components: { schemas: withoutRequired(schemas, backReferences(schemas)) } },
      "ans",
    );
    // Query strings are text: numbers and integers are read as a server reads them.
    this.queryAjv = newAjv({ coerce: true });
    this.queryAjv.addSchema({ components: { schemas } }, "req");
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const method of ["get", "post", "put", "patch", "delete"] as const) {
        const op = item[method];
        if (!op) continue;
        const segs = template.split("/");
        const pattern = segs
          .map((s) => (/^\{[^}]+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("/");
        this.routes.push({
          method,
          template,
          regex: new RegExp(`^${pattern}/?$`),
          literalSegments: segs.filter((s) => !s.startsWith("{")).length,
          op,
        });
      }
    }
    // A literal segment beats a parameter: `/products/count` before `/products/{id}`.
    this.routes.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** Operations the file declares (for the report). */
  get operationCount(): number {
    return this.routes.length;
  }

  match(method: string, path: string): Route | undefined {
    const m = method.toLowerCase();
    return this.routes.find((r) => r.method === m && r.regex.test(path));
  }

  private compile(ajv: Ajv, key: string, schema: Json): ValidateFunction {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const v = ajv.compile(schema);
    this.cache.set(key, v);
    return v;
  }

  /** Rewrites `#/components/...` refs of an inline operation schema to the registered document. */
  private anchored(schema: Json, base: "req" | "ans"): Json {
    return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${base}#/`)) as Json;
  }

  /** Judge one request as sent: its operation, query, body. */
  judgeRequest(req: {
    method: string;
    path: string;
    query?: Record<string, unknown>;
    body?: unknown;
  }): Verdict {
    const oauth = this.judgeOAuth(req);
    if (oauth) return oauth;
    const route = this.match(req.method, req.path);
    if (!route) return { operation: `${req.method} ${req.path}`, problems: ["unknown operation"] };
    const operation = `${req.method.toUpperCase()} ${route.template}`;
    const problems: string[] = [];

    const queryParams = (route.op.parameters ?? []).filter((p) => p.in === "query");
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const p of queryParams) {
      properties[p.name] = this.anchored(p.schema ?? {}, "req");
      if (p.required) required.push(p.name);
    }
    const qv = this.compile(this.queryAjv, `q:${operation}`, {
      type: "object",
      properties,
      required,
      additionalProperties: false,
    });
    const query = { ...(req.query ?? {}) };
    if (!qv(query)) problems.push(...describe(qv.errors, "query"));

    const bodySchema = route.op.requestBody?.content?.["application/json"]?.schema;
    const hasBody = req.body !== undefined && req.body !== null && req.body !== "";
    if (bodySchema) {
      if (!hasBody) problems.push("body missing");
      else {
        let schema = this.anchored(bodySchema, "req");
        const name = refName(bodySchema);
        if (route.method === "post" && name) {
          const s = this.doc.components.schemas[name] ?? {};
          schema = {
            ...this.anchored(s, "req"),
            required: ((s.required as string[] | undefined) ?? []).filter((r) => r !== "id"),
          };
        }
        const bv = this.compile(this.requestAjv, `b:${operation}`, schema);
        if (!bv(req.body)) problems.push(...describe(bv.errors, "body"));
      }
    } else if (hasBody) problems.push("body not expected");
    return { operation, problems };
  }

  /**
   * The OAuth2 authorization-code flow of `components.securitySchemes.OAuth2` (`/panel/auth`,
   * `/oauth/v2/token`). The file names the URLs only; the parameters are RFC 6749's (inferred, VERIFIED.md).
   */
  private judgeOAuth(req: {
    method: string;
    path: string;
    query?: Record<string, unknown>;
    body?: unknown;
  }): Verdict | undefined {
    const flow = (
      this.doc as unknown as {
        components: { securitySchemes?: { OAuth2?: { flows?: { authorizationCode?: Json } } } };
      }
    ).components.securitySchemes?.OAuth2?.flows?.authorizationCode;
    const pathOf = (u: unknown) => (typeof u === "string" ? new URL(u).pathname : undefined);
    const problems: string[] = [];
    const need = (src: Record<string, unknown>, keys: string[]) => {
      for (const k of keys) if (typeof src[k] !== "string" || src[k] === "") problems.push(`${k} missing`);
    };
    if (req.path === pathOf(flow?.authorizationUrl)) {
      if (req.method.toUpperCase() !== "GET") problems.push("authorization is a GET");
      const q = req.query ?? {};
      need(q, ["client_id", "response_type", "redirect_uri"]);
      if (q.response_type !== undefined && q.response_type !== "code")
        problems.push("response_type must be code");
      return { operation: "GET oauth2 authorizationUrl", problems };
    }
    if (req.path === pathOf(flow?.tokenUrl)) {
      if (req.method.toUpperCase() !== "POST") problems.push("token is a POST");
      const b = (req.body ?? {}) as Record<string, unknown>;
      need(b, ["grant_type", "client_id", "client_secret"]);
      if (b.grant_type === "authorization_code") need(b, ["code", "redirect_uri"]);
      else if (b.grant_type === "refresh_token") need(b, ["refresh_token"]);
      else problems.push(`grant_type ${String(b.grant_type)} is not of the authorizationCode flow`);
      return { operation: `POST oauth2 tokenUrl (${String(b.grant_type)})`, problems };
    }
    return undefined;
  }

  /** Judge one answer (status and JSON body) to a request. */
  judgeAnswer(method: string, path: string, status: number, body: unknown): AnswerVerdict {
    const route = this.match(method, path);
    if (!route) return { operation: `${method} ${path}`, problems: ["unknown operation"] };
    const operation = `${method.toUpperCase()} ${route.template}`;
    const declared = route.op.responses?.[String(status)];
    if (!declared) return { operation, problems: [`status ${status} not declared`] };
    if (status === 204) return { operation, problems: [] };
    const schema = declared.content?.["application/json"]?.schema;
    if (!schema) return { operation, problems: [] };
    const v = this.compile(this.answerAjv, `a:${operation}:${status}`, this.anchored(schema, "ans"));
    const isList = route.method === "get" && !route.template.endsWith("}") && Array.isArray(body);
    const items = isList ? (body as unknown[]) : [body];
    const problems: string[] = [];
    items.forEach((item, i) => {
      if (!v(item)) problems.push(...describe(v.errors, isList ? `[${i}]` : "answer"));
    });
    return { operation, problems };
  }

  /** A `RequestJudge` for the kit's recorder (`judgeRequests`). */
  get requestJudge(): RequestJudge {
    return (r: RecordedRequest) => this.judgeRequest(r);
  }
}

let shared: IdeasoftJudge | undefined;
/** One judge per process (compiling is the expensive part). */
export function ideasoftJudge(): IdeasoftJudge {
  shared ??= new IdeasoftJudge();
  return shared;
}
