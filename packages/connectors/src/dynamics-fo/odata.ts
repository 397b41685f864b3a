/**
 * OData v4 pieces the D365 F&O connector, its emulator and its judge share: literals and filters as the
 * connector writes them, the filter tree read back with a maintained parser (`@odata/parser`), and the
 * `multipart/mixed` body of a `$batch` request with one change set (OData v4.0 Part 1 §11.7).
 */

import { defaultParser } from "@odata/parser";

/** A string literal: single quotes doubled (OData ABNF `SQUOTE-in-string`). */
export function odataString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** `field eq 'a' or field eq 'b'` in parentheses; undefined for an empty list. */
export function anyOf(field: string, values: readonly string[]): string | undefined {
  if (values.length === 0) return undefined;
  const parts = values.map((v) => `${field} eq ${odataString(v)}`);
  return parts.length === 1 ? parts[0] : `(${parts.join(" or ")})`;
}

export function and(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => !!p).join(" and ");
}

export type FilterNode =
  | { op: "and" | "or"; left: FilterNode; right: FilterNode }
  | { op: "eq" | "ne" | "gt" | "ge" | "lt" | "le"; field: string; value: string | number | boolean | null };

const COMPARISONS: Record<string, "eq" | "ne" | "gt" | "ge" | "lt" | "le"> = {
  EqualsExpression: "eq",
  NotEqualsExpression: "ne",
  GreaterThanExpression: "gt",
  GreaterOrEqualsExpression: "ge",
  LesserThanExpression: "lt",
  LesserOrEqualsExpression: "le",
};

interface AstNode {
  type: string;
  raw: string;
  value: unknown;
}

export class ODataSyntaxError extends Error {}

function literal(raw: string): string | number | boolean | null {
  if (raw.startsWith("'")) return raw.slice(1, -1).replaceAll("''", "'");
  if (raw === "true" || raw === "false") return raw === "true";
  if (raw === "null") return null;
  const n = Number(raw);
  // Dates and other typed literals stay text (compared as ISO strings).
  return Number.isFinite(n) && /^-?\d+(\.\d+)?$/.test(raw) ? n : raw;
}

function memberName(node: AstNode): string | undefined {
  return node.type === "FirstMemberExpression" || node.type === "MemberExpression" ? node.raw : undefined;
}

function convert(node: AstNode): FilterNode {
  if (node.type === "BoolParenExpression" || node.type === "ParenExpression") {
    return convert(node.value as AstNode);
  }
  const v = node.value as { left: AstNode; right: AstNode };
  if (node.type === "AndExpression" || node.type === "OrExpression") {
    return {
      op: node.type === "AndExpression" ? "and" : "or",
      left: convert(v.left),
      right: convert(v.right),
    };
  }
  const op = COMPARISONS[node.type];
  if (op) {
    const field = memberName(v.left);
    if (!field || v.right.type !== "Literal") {
      throw new ODataSyntaxError(`comparison must be 'Property op literal': ${node.raw}`);
    }
    return { op, field, value: literal(v.right.raw) };
  }
  throw new ODataSyntaxError(`unsupported expression ${node.type}: ${node.raw}`);
}

/**
 * A `$filter` value read with `@odata/parser`; the whole text must be consumed (the parser stops at the
 * first thing it cannot read). Only comparisons of a property with a literal joined by and/or are accepted,
 * the subset the connector writes.
 */
export function parseFilter(text: string): FilterNode {
  let ast: AstNode;
  try {
    ast = defaultParser.filter(text) as unknown as AstNode;
  } catch (e) {
    throw new ODataSyntaxError(`$filter does not parse: ${(e as Error).message}`);
  }
  if (ast.raw.length !== text.length) {
    throw new ODataSyntaxError(`$filter parses only up to position ${ast.raw.length}: ${text}`);
  }
  return convert(ast);
}

/** Property names a filter names. */
export function filterFields(node: FilterNode): string[] {
  return "left" in node ? [...filterFields(node.left), ...filterFields(node.right)] : [node.field];
}

/** Evaluate a filter on a row (emulator). Strings compare as text, numbers as numbers. */
export function matches(node: FilterNode, row: Record<string, unknown>): boolean {
  switch (node.op) {
    case "and":
      return matches(node.left, row) && matches(node.right, row);
    case "or":
      return matches(node.left, row) || matches(node.right, row);
    default: {
      const a = row[node.field];
      const b = node.value;
      const cmp =
        typeof a === "number" && typeof b === "number"
          ? a - b
          : String(a ?? "").localeCompare(String(b ?? ""), "en");
      if (node.op === "eq") return a === b || (typeof b === "string" && String(a ?? "") === b);
      if (node.op === "ne") return !(a === b || (typeof b === "string" && String(a ?? "") === b));
      if (node.op === "gt") return cmp > 0;
      if (node.op === "ge") return cmp >= 0;
      if (node.op === "lt") return cmp < 0;
      return cmp <= 0;
    }
  }
}

/** `$select`, `$top`, `$skip` values checked with the parser (one option at a time). */
export function parseSystemOption(name: "$select" | "$top" | "$skip", value: string): void {
  try {
    const ast = defaultParser.query(`${name}=${value}`) as unknown as AstNode;
    if (ast.raw.length !== name.length + 1 + value.length) throw new Error("not consumed");
  } catch (e) {
    throw new ODataSyntaxError(`${name}=${value} does not parse: ${(e as Error).message}`);
  }
}

/** One request inside a change set. */
export interface BatchPart {
  method: "POST" | "PATCH" | "DELETE";
  /** Absolute URL of the entity set, e.g. https://env/data/SalesOrderLines. */
  url: string;
  body: Record<string, unknown>;
}

/** One answer inside a change set answer. */
export interface BatchAnswer {
  status: number;
  body: unknown;
  contentId?: string;
}

/** A `$batch` body with one change set (all or nothing), parts numbered by Content-ID from 1. */
export function buildBatch(parts: BatchPart[], boundaryId: string): { contentType: string; body: string } {
  const batch = `batch_${boundaryId}`;
  const changeset = `changeset_${boundaryId}`;
  const lines: string[] = [`--${batch}`, `Content-Type: multipart/mixed; boundary=${changeset}`, ""];
  parts.forEach((p, i) => {
    lines.push(
      `--${changeset}`,
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      `Content-ID: ${i + 1}`,
      "",
      `${p.method} ${p.url} HTTP/1.1`,
      "Content-Type: application/json; odata.metadata=minimal",
      "Accept: application/json",
      "",
      JSON.stringify(p.body),
    );
  });
  lines.push(`--${changeset}--`, `--${batch}--`, "");
  return { contentType: `multipart/mixed; boundary=${batch}`, body: lines.join("\r\n") };
}

export interface ParsedHttpPart {
  /** Request line or status line, e.g. "POST https://…/data/X HTTP/1.1" or "HTTP/1.1 201 Created". */
  startLine: string;
  mimeHeaders: Record<string, string>;
  headers: Record<string, string>;
  body: string;
  /** The change set the part sat in (undefined: a top-level part). */
  changeset?: string;
}

function boundaryOf(contentType: string | undefined): string | undefined {
  return /boundary=("?)([^";]+)\1/i.exec(contentType ?? "")?.[2];
}

function headerBlock(text: string): [Record<string, string>, string] {
  const cut = text.indexOf("\r\n\r\n");
  const head = cut >= 0 ? text.slice(0, cut) : text;
  const rest = cut >= 0 ? text.slice(cut + 4) : "";
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return [headers, rest];
}

function splitParts(body: string, boundary: string): string[] | undefined {
  const open = `--${boundary}`;
  if (!body.includes(`${open}--`)) return undefined;
  const segments = body.split(open);
  // segments[0] is the preamble; the last starts with "--" (the close delimiter).
  return segments.slice(1, -1).map((s) => s.replace(/^\r\n/, "").replace(/\r\n$/, ""));
}

/**
 * The HTTP messages of a `multipart/mixed` batch body (requests or answers), change sets opened; undefined
 * when the body is not a well-formed multipart body for the boundary of `contentType`.
 */
export function parseBatch(contentType: string | undefined, body: string): ParsedHttpPart[] | undefined {
  const boundary = boundaryOf(contentType);
  if (!boundary) return undefined;
  const top = splitParts(body, boundary);
  if (!top) return undefined;
  const out: ParsedHttpPart[] = [];
  for (const part of top) {
    const [mime, rest] = headerBlock(part);
    const inner = boundaryOf(mime["content-type"]);
    if (inner) {
      const sub = splitParts(rest, inner);
      if (!sub) return undefined;
      for (const s of sub) {
        const p = httpPart(s, inner);
        if (!p) return undefined;
        out.push(p);
      }
    } else {
      const p = httpPart(part, undefined);
      if (!p) return undefined;
      out.push(p);
    }
  }
  return out;
}

function httpPart(part: string, changeset: string | undefined): ParsedHttpPart | undefined {
  const [mimeHeaders, rest] = headerBlock(part);
  if (!/^application\/http/i.test(mimeHeaders["content-type"] ?? "")) return undefined;
  const nl = rest.indexOf("\r\n");
  const startLine = nl >= 0 ? rest.slice(0, nl) : rest;
  const [headers, body] = headerBlock(nl >= 0 ? rest.slice(nl + 2) : "");
  return { startLine, mimeHeaders, headers, body, changeset };
}

/** The answers of a batch answer body, in order. */
export function parseBatchAnswers(contentType: string | undefined, body: string): BatchAnswer[] | undefined {
  const parts = parseBatch(contentType, body);
  if (!parts) return undefined;
  const out: BatchAnswer[] = [];
  for (const p of parts) {
    const m = /^HTTP\/1\.1 (\d{3})/.exec(p.startLine);
    if (!m) return undefined;
    let json: unknown;
    try {
      json = p.body.trim() ? JSON.parse(p.body) : undefined;
    } catch {
      json = p.body;
    }
    out.push({ status: Number(m[1]), body: json, contentId: p.mimeHeaders["content-id"] });
  }
  return out;
}

/** A batch answer body (emulator). */
export function buildBatchAnswer(
  answers: BatchAnswer[],
  boundaryId: string,
  inChangeset: boolean,
): { contentType: string; body: string } {
  const batch = `batchresponse_${boundaryId}`;
  const changeset = `changesetresponse_${boundaryId}`;
  const part = (a: BatchAnswer) => [
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    ...(a.contentId ? [`Content-ID: ${a.contentId}`] : []),
    "",
    `HTTP/1.1 ${a.status} ${a.status < 300 ? "OK" : "Error"}`,
    "Content-Type: application/json; odata.metadata=minimal; odata.streaming=true",
    "",
    a.body === undefined ? "" : JSON.stringify(a.body),
  ];
  const lines: string[] = [`--${batch}`];
  if (inChangeset) {
    lines.push(`Content-Type: multipart/mixed; boundary=${changeset}`, "");
    for (const a of answers) lines.push(`--${changeset}`, ...part(a));
    lines.push(`--${changeset}--`);
  } else {
    answers.forEach((a, i) => {
      if (i > 0) lines.push(`--${batch}`);
      lines.push(...part(a));
    });
  }
  lines.push(`--${batch}--`, "");
  return { contentType: `multipart/mixed; boundary=${batch}`, body: lines.join("\r\n") };
}
