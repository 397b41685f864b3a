import { catalogs } from "@ep/contracts";
import type { FastifyInstance, InjectOptions } from "fastify";

/**
 * Requests generated from the server's own OpenAPI document (`/api/docs/json`): one valid-looking
 * request per operation, and from it the bad variants the fuzz and isolation suites send.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
};

export type Param = { name: string; in: "path" | "query"; schema: Schema; required: boolean };
export type Operation = { method: string; path: string; params: Param[]; body?: Schema };

type Document = {
  paths: Record<
    string,
    Record<string, { parameters?: Param[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
  components?: { schemas?: Record<string, Schema> };
};

export async function loadOperations(
  app: FastifyInstance,
): Promise<{ operations: Operation[]; doc: Document }> {
  const res = await app.inject({ method: "GET", url: "/api/docs/json" });
  const doc = res.json() as Document;
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query"),
        body: op.requestBody?.content["application/json"]?.schema,
      });
    }
  }
  return { operations, doc };
}

/** Ids of records that exist, by the name of the field that carries them. */
export type IdPool = (fieldName: string) => number;

const ID_FIELD = /(^id$|Id$|^ticketid$|^parentid$|List$)/i;

/** What a request needs to pass validation; ids come from the pool. */
export class Sampler {
  constructor(
    private readonly doc: Document,
    private readonly ids: IdPool,
  ) {}

  resolve(schema: Schema): Schema {
    if (schema.$ref) {
      const name = schema.$ref.split("/").pop() ?? "";
      return this.resolve(this.doc.components?.schemas?.[name] ?? {});
    }
    if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => this.resolve(s)));
    return schema;
  }

  sample(raw: Schema, name: string): unknown {
    const schema = this.resolve(raw);
    if (schema.oneOf?.length) return this.sample(schema.oneOf[0] as Schema, name);
    if (schema.anyOf?.length) {
      const notNull = schema.anyOf.find((s) => this.resolve(s).type !== "null") ?? schema.anyOf[0];
      return this.sample(notNull as Schema, name);
    }
    if (schema.const !== undefined) return schema.const;
    if (schema.enum?.length) return schema.enum[0];
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
    switch (type) {
      case "integer":
      case "number":
        if (ID_FIELD.test(name)) return this.ids(name);
        if (schema.minimum !== undefined && schema.minimum > 1) return schema.minimum;
        return schema.maximum !== undefined && schema.maximum < 1 ? schema.maximum : 1;
      case "boolean":
        return true;
      case "array": {
        const item = this.sample(schema.items ?? {}, name);
        return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
      }
      case "object": {
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(schema.properties ?? {}))
          out[key] = this.sample(value, key);
        return out;
      }
      case "string":
        return this.sampleString(schema, name);
      default:
        return "minStock";
    }
  }

  private sampleString(schema: Schema, name: string): string {
    if (schema.format === "date-time") return "2026-05-01T10:00:00Z";
    if (/date/i.test(name)) return "2026-05-01";
    if (/email/i.test(name)) return "fuzz.user@example.com";
    if (/^(types|jobTypes)$/.test(name)) return "StockIntegration";
    if (/^keys?$/.test(name)) return "minStock";
    if (/password/i.test(name)) return "Baska.Parola9";
    if (/phone/i.test(name)) return "05321234567";
    if (ID_FIELD.test(name)) return String(this.ids(name));
    return "Deneme metni".padEnd(Math.max(3, schema.minLength ?? 0), "x");
  }
}

export type Built = { method: string; url: string; body?: unknown; raw?: string; contentType?: string };

/** Percent-encodes; a lone surrogate becomes the bytes of one (not UTF-8), which is itself a bad input to try. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
};

/** Fills the path and query string of an operation. */
export function buildUrl(op: Operation, values: Record<string, unknown>): string {
  let path = op.path;
  const query: string[] = [];
  for (const p of op.params) {
    const value = values[p.name];
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (p.in === "path") path = path.replace(`{${p.name}}`, encode(text));
    else query.push(`${encode(p.name)}=${encode(text)}`);
  }
  // A path parameter the document names but no value filled stays a literal segment.
  path = path.replace(/\{(\w+)\}/g, "$1");
  return query.length ? `${path}?${query.join("&")}` : path;
}

/** Valid-looking values for the operation's parameters and body. */
export function baseline(
  op: Operation,
  sampler: Sampler,
): { values: Record<string, unknown>; body: unknown } {
  const values: Record<string, unknown> = {};
  for (const p of op.params) values[p.name] = sampler.sample(p.schema, p.name);
  return { values, body: op.body ? sampler.sample(op.body, "body") : undefined };
}

/** Values no field should accept blindly: wrong types, NUL, huge and negative numbers, long strings, extreme dates. */
export const BAD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2_147_483_648,
  -2_147_483_649,
  9_007_199_254_740_992,
  "9007199254740993",
  1e308,
  "NaN",
  "",
  "a\u0000b",
  "\u0000",
  "x".repeat(10_000),
  "ş".repeat(3_000),
  "\uD800",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "+275760-09-13",
  "-271821-04-20T00:00:00Z",
  "0000-00-00",
  "9999-12-31T23:59:59Z",
  "1e400",
  "2026-02-30",
  "2026-13-01",
  "31.12.2026",
  "275760-09-13T00:00:00.000Z",
  "2147483647",
  "-2147483648",
  "9".repeat(400),
  "0x10",
  "1,5",
  "１２３",
  "-0",
  5e-324,
  "true",
  "null",
  "undefined",
  " dolgu ",
  "\r\n",
  "\t",
  "😀",
  "İıŞşĞğ",
  "\u202Eters",
  "\uFEFF",
  "e\u0301",
  "%",
  "%00",
  "%E0%A4%A",
  [],
  [1, "a"],
  Array.from({ length: 2000 }, (_, i) => i),
  {},
  { $gt: "" },
  JSON.parse('{"__proto__":{"admin":true}}'),
  Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])),
  Array.from({ length: 60 }).reduce<unknown>((inner) => ({ a: inner }), 1),
];

/**
 * Semantic values for a field by what it is (its name and schema): impossible calendar dates for a
 * date, every enum value and near misses for an enum, ids and sizes at and beyond their bounds, and
 * control or bidi characters for a name. A request that is valid but for one field reaches deeper
 * code than a wrong type does.
 */
export function semanticValues(schema: Schema | undefined, name: string): unknown[] {
  const out: unknown[] = [];
  const enumValues = schema?.enum ?? [];
  if (enumValues.length) {
    out.push(...enumValues.slice(0, 12));
    const first = String(enumValues[0]);
    out.push(first.toUpperCase(), first.toLowerCase(), `${first}x`, `${first},${first}`);
  }
  if (
    schema?.format === "date-time" ||
    schema?.format === "date" ||
    /date|^from$|^to$|since|until|expires/i.test(name)
  )
    out.push(
      "2026-13-45",
      "2026-02-30",
      "2025-02-29",
      "2026-04-31",
      "2026-01-01T24:00:00Z",
      "2026-05-01T10:61:00Z",
      "1899-12-31",
      "3000-01-01",
      "2024-02-29",
    );
  if (ID_FIELD.test(name)) out.push(0, -1, 2_147_483_647, 2_147_483_648, "1e3", "01");
  if (/^(page(Number|Size)?|limit|size|count|take|skip|offset)$/i.test(name))
    out.push(0, -5, 100, 101, 1_000_000, "10abc");
  if (/name|subject|title|domain|username|machine/i.test(name))
    out.push("Ad\u0007", "Ad\u001b[2J", "Ad\u202Egnp", "Ad\u2066x\u2069", "Ad\u0085", "\uDC00Ad");
  return out;
}

/** Raw path segments (sent as they are, not encoded): bad escapes, traversal, NUL. */
export const RAW_SEGMENTS = [
  "%",
  "%zz",
  "%E0%A4%A",
  "%C0%AF",
  "%00",
  "..",
  "%2e%2e",
  "%2F",
  "a%2Fb",
  "%FF%FE",
];

/** Bodies that are not JSON, or JSON no handler expects. */
export const RAW_BODIES: string[] = [
  "{",
  '{"a":',
  "[",
  '"unterminated',
  '{"a":1}}',
  "nul",
  "\u0000",
  '{"a":"\\u0000"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  `${"[".repeat(3000)}${"]".repeat(3000)}`,
  "123",
  "null",
  "[]",
];

export const MALFORMED_MULTIPART: Array<{ contentType: string; raw: string }> = [
  {
    contentType: "multipart/form-data; boundary=xx",
    raw: '--xx\r\nContent-Disposition: form-data; name="subject"\r\n\r\nyarım',
  },
  { contentType: "multipart/form-data; boundary=xx", raw: "no parts here" },
  { contentType: "multipart/form-data", raw: "--xx--" },
  {
    contentType: "multipart/form-data; boundary=xx",
    raw: '--xx\r\nContent-Disposition: form-data; name="message"\r\n\r\na\u0000b\r\n--xx--\r\n',
  },
];

export const OTHER_CONTENT_TYPES: Array<{ contentType: string; raw: string }> = [
  { contentType: "text/plain", raw: "merhaba" },
  { contentType: "application/xml", raw: "<a/>" },
  { contentType: "application/x-www-form-urlencoded", raw: "a=1&b=%00" },
  { contentType: "application/json; charset=utf-16", raw: "{}" },
];

/** Every body field's path (`a`, `a.b`, `a.0`), so each can be replaced in turn. */
export function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  if (Array.isArray(value)) {
    if (value.length) out.push([...prefix, "0"], ...fieldPaths(value[0], [...prefix, "0"]));
  } else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value))
      out.push([...prefix, key], ...fieldPaths(v, [...prefix, key]));
  }
  return out;
}

export function replaced(value: unknown, path: string[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(head)] = replaced(copy[Number(head)], rest, next);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  copy[head] = replaced(copy[head], rest, next);
  return copy;
}

/**
 * The ticket forms take multipart (files), which the document cannot describe: their fields, for
 * the same treatment as JSON bodies, once as multipart and once as JSON.
 */
export const FORMS: Record<string, (ids: IdPool) => Record<string, string>> = {
  "/api/Ticket/my-company": (ids) => ({
    categoryId: String(ids("categoryId")),
    subject: "Kargo gecikmesi",
    message: "Siparişim gelmedi.",
    jobRunId: String(ids("jobRunId")),
    jobErrorReportId: "",
  }),
  "/api/Ticket/my-company/ticket_reply": (ids) => ({
    ticketId: String(ids("ticketId")),
    message: "Ek bilgi.",
  }),
};

function multipartOf(fields: Record<string, unknown>): { contentType: string; raw: string } {
  const boundary = "----ep-fuzz-form";
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === "string" ? value : JSON.stringify(value)}\r\n`,
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    raw: `${parts.join("")}--${boundary}--\r\n`,
  };
}

/** Every bad variant of one operation. */
export function* variants(op: Operation, sampler: Sampler, ids: IdPool = () => 1): Generator<Built> {
  const form = FORMS[op.path]?.(ids);
  const sampled = baseline(op, sampler);
  const values = sampled.values;
  // A form's fields are tried as multipart below; as JSON only whole, not field by field again.
  const body = form ? undefined : sampled.body;
  if (form) {
    yield { method: op.method, url: buildUrl(op, values), ...multipartOf(form) };
    yield { method: op.method, url: buildUrl(op, values), body: form };
    for (const name of Object.keys(form)) {
      for (const bad of BAD_VALUES)
        yield { method: op.method, url: buildUrl(op, values), ...multipartOf({ ...form, [name]: bad }) };
    }
  }
  yield { method: op.method, url: buildUrl(op, values), body };
  for (const p of op.params) {
    for (const bad of [...BAD_VALUES, ...semanticValues(sampler.resolve(p.schema), p.name)])
      yield { method: op.method, url: buildUrl(op, { ...values, [p.name]: bad }), body };
    if (p.in === "path") {
      for (const raw of RAW_SEGMENTS) {
        yield {
          method: op.method,
          url: buildUrl(op, values).replace(encode(String(values[p.name])), raw),
          body,
        };
      }
    } else {
      // The same name twice makes an array of it.
      yield {
        method: op.method,
        url: `${buildUrl(op, values)}&${encode(p.name)}=2`.replace(/^([^?]*)&/, "$1?"),
        body,
      };
    }
    if (!p.required) {
      const { [p.name]: _, ...without } = values;
      yield { method: op.method, url: buildUrl(op, without), body };
    }
  }
  const url = buildUrl(op, values);
  // Names no schema declares, in the query and in the body.
  yield { method: op.method, url: `${url}${url.includes("?") ? "&" : "?"}beklenmeyen=%00&__proto__=1`, body };
  if (body !== undefined) {
    if (body && typeof body === "object" && !Array.isArray(body)) {
      yield { method: op.method, url, body: { ...body, beklenmeyen: "a\u0000", isAdmin: true } };
    }
    for (const path of fieldPaths(body)) {
      const semantic = semanticValues(undefined, path.at(-1) ?? "");
      for (const bad of [...BAD_VALUES, ...semantic])
        yield { method: op.method, url, body: replaced(body, path, bad) };
    }
    for (const bad of BAD_VALUES) yield { method: op.method, url, body: bad };
  }
  if (op.method !== "GET" && op.method !== "DELETE") {
    for (const raw of RAW_BODIES) yield { method: op.method, url, raw, contentType: "application/json" };
    for (const m of [...MALFORMED_MULTIPART, ...OTHER_CONTENT_TYPES]) yield { method: op.method, url, ...m };
  }
}

export function injectOptions(b: Built, headers: Record<string, string>): InjectOptions {
  const options: InjectOptions = {
    method: b.method as InjectOptions["method"],
    url: b.url,
    headers: { ...headers },
  };
  if (b.raw !== undefined) {
    options.payload = b.raw;
    (options.headers as Record<string, string>)["content-type"] = b.contentType ?? "application/json";
  } else if (b.body !== undefined) {
    options.payload = JSON.stringify(b.body);
    (options.headers as Record<string, string>)["content-type"] = "application/json";
  }
  return options;
}

/** Every Turkish text the server may answer with (templates as patterns). */
export function turkishMessages(): (text: string) => boolean {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string") {
      if (node.includes("{{")) {
        const escaped = node
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          .replace(/\\\{\\\{\w+\\\}\\\}/g, "[\\s\\S]*");
        patterns.push(new RegExp(`^${escaped}$`));
      } else exact.add(node);
    } else if (node && typeof node === "object") for (const v of Object.values(node)) walk(v);
  };
  walk(catalogs.tr);
  return (text) => exact.has(text) || patterns.some((p) => p.test(text));
}

/** Runs `work` over `items` with at most `width` in flight. */
export async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: width }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(runners);
}
