/**
 * Derives the Nebim V3 request judge from the published payload samples: one JSON Schema per `ModelType`,
 * the union of every sample of that model (keys seen, value types seen, arrays and nested objects merged),
 * closed to keys no sample and no PDF table names (`additionalProperties: false`), with the PDF's maximum
 * lengths and mandatory fields laid over it (./pdf-tables.ts). The result is committed as ./models.json;
 * `judge.test.ts` derives it again from a fetched snapshot of the repository and compares, so it cannot drift.
 *
 *   npx tsx packages/connectors/src/nebim/judge/derive.ts [mirror-git-dir]   (rewrites models.json)
 */

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PDF_TABLES, type PdfType } from "./pdf-tables";
import { NEBIM_DOCS, NEBIM_DOCS_MIRROR } from "./source";

export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

export interface SchemaNode {
  type: JsonType[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: false;
  items?: SchemaNode;
  maxLength?: number;
}

export interface DerivedModel {
  name: string;
  /** Sample files of this model (paths in the repository). */
  samples: string[];
  /** True when the PDF has a field table for the model. */
  pdfTable: boolean;
  schema: SchemaNode;
}

export interface DerivedJudge {
  source: { repository: string; commit: string; examples: string; pdf: string; pdfBlob: string };
  samples: {
    files: number /** Models read (a file may hold two). */;
    parsed: number;
    skipped: Array<{ path: string; reason: string }>;
  };
  models: Record<string, DerivedModel>;
}

export interface SampleFile {
  path: string;
  bytes: Buffer;
}

/** The samples are saved as UTF-8 or as Windows-1254 (Turkish): decode whichever it is. */
export function decodeSample(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return new TextDecoder("windows-1254").decode(bytes);
  }
}

/**
 * The samples are hand-written: `//` comments, unquoted keys, trailing commas, repeated keys, a line of
 * prose or a URL before the model, and sometimes two models in one file occur (the .NET deserializer the
 * service runs takes the JSON quirks). Comments and prose are dropped, every top-level `{…}` block is read
 * (unquoted keys quoted, trailing commas dropped; a repeated key keeps its last value, as JSON.parse does).
 */
export function parseSamples(text: string): unknown[] {
  // Drop `//` comments outside strings.
  let clean = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      clean += c;
      if (c === "\\") {
        clean += text[i + 1] ?? "";
        i++;
      } else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      clean += c;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      clean += "\n";
    } else clean += c;
  }
  // Top-level balanced blocks.
  const blocks: string[] = [];
  let depth = 0;
  let start = -1;
  inString = false;
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) inString = true;
    else if (c === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0) blocks.push(clean.slice(start, i + 1));
    }
  }
  if (blocks.length === 0) throw new Error("no JSON object");
  return blocks.map((b) =>
    JSON.parse(b.replace(/([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:/g, '$1"$2":').replace(/,(\s*[}\]])/g, "$1")),
  );
}

const typeOf = (v: unknown): JsonType =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "array"
      : typeof v === "number"
        ? "number"
        : typeof v === "boolean"
          ? "boolean"
          : typeof v === "object"
            ? "object"
            : "string";

function merge(node: SchemaNode | undefined, value: unknown): SchemaNode {
  const out: SchemaNode = node ?? { type: [] };
  const t = typeOf(value);
  if (!out.type.includes(t)) out.type.push(t);
  if (t === "object") {
    out.properties ??= {};
    out.additionalProperties = false;
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out.properties[k] = merge(out.properties[k], v);
  } else if (t === "array") {
    for (const v of value as unknown[]) out.items = merge(out.items, v);
    out.items ??= { type: ["object"], properties: {}, additionalProperties: false };
  }
  return out;
}

const PDF_JSON: Record<PdfType, JsonType> = {
  string: "string",
  date: "string",
  integer: "integer",
  tinyint: "integer",
  smallint: "integer",
  numeric: "integer",
  money: "number",
  float: "number",
  bit: "boolean",
};

function overlayPdf(schema: SchemaNode, modelType: string): void {
  const table = PDF_TABLES[modelType];
  if (!table) return;
  for (const [path, [pdfType, max, mandatory]] of Object.entries(table.fields)) {
    const parts = path.split(".").flatMap((p) => (p.endsWith("[]") ? [p.slice(0, -2), "[]"] : [p]));
    let parent = schema;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const last = i === parts.length - 1;
      if (part === "[]") {
        parent.items ??= { type: ["object"], properties: {}, additionalProperties: false };
        parent = parent.items;
        continue;
      }
      parent.properties ??= {};
      parent.additionalProperties = false;
      const nextIsArray = parts[i + 1] === "[]";
      const child = parent.properties[part] ?? {
        type: [last ? PDF_JSON[pdfType] : nextIsArray ? "array" : "object"],
      };
      parent.properties[part] = child;
      if (last) {
        const t = PDF_JSON[pdfType];
        // Numbers are numbers: a sample's `2` satisfies the PDF's integer.
        if (!child.type.includes(t) && !(t === "integer" && child.type.includes("number")))
          child.type.push(t);
        if (max !== undefined) child.maxLength = max;
        if (mandatory === "1") {
          parent.required ??= [];
          if (!parent.required.includes(part)) parent.required.push(part);
        }
      }
      parent = child;
    }
  }
}

/** Sorts keys and type lists so the committed file is stable. */
function canonical(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { type: [...node.type].sort() };
  if (node.maxLength !== undefined) out.maxLength = node.maxLength;
  if (node.properties) {
    out.properties = Object.fromEntries(
      Object.keys(node.properties)
        .sort()
        .map((k) => [k, canonical(node.properties?.[k] as SchemaNode)]),
    );
    out.additionalProperties = false;
  }
  if (node.required) out.required = [...node.required].sort();
  if (node.items) out.items = canonical(node.items);
  return out;
}

/** ModelType number → enum name, from docs/02-model-type-list.md. */
export function parseModelTypeList(markdown: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of markdown.matchAll(/^\|\s*(\d+)\s*\|\s*([A-Za-z_0-9]*)\s*\|/gm))
    out[m[1] as string] = m[2] as string;
  return out;
}

export function deriveJudge(samples: SampleFile[], modelTypeList: string): DerivedJudge {
  const names = parseModelTypeList(modelTypeList);
  const skipped: Array<{ path: string; reason: string }> = [];
  const models: Record<string, DerivedModel> = {};
  let parsed = 0;
  for (const s of [...samples].sort((a, b) => a.path.localeCompare(b.path))) {
    let values: unknown[];
    try {
      values = parseSamples(decodeSample(s.bytes));
    } catch (e) {
      skipped.push({ path: s.path, reason: `not JSON: ${(e as Error).message.slice(0, 80)}` });
      continue;
    }
    for (const value of values) {
      const mt = typeOf(value) === "object" ? (value as Record<string, unknown>).ModelType : undefined;
      if (typeof mt !== "number" && !(typeof mt === "string" && /^\d+$/.test(mt))) {
        skipped.push({ path: s.path, reason: "no ModelType" });
        continue;
      }
      parsed++;
      const key = String(mt);
      const m = models[key] ?? {
        name: names[key] ?? "",
        samples: [],
        pdfTable: key in PDF_TABLES,
        schema: { type: [] },
      };
      models[key] = m;
      if (!m.samples.includes(s.path)) m.samples.push(s.path);
      m.schema = merge(m.schema, value);
    }
  }
  for (const [key, m] of Object.entries(models)) {
    overlayPdf(m.schema, key);
    m.schema = canonical(m.schema);
  }
  return {
    source: {
      repository: NEBIM_DOCS.repository,
      commit: NEBIM_DOCS.commit,
      examples: NEBIM_DOCS.examples,
      pdf: NEBIM_DOCS.pdf.path,
      pdfBlob: NEBIM_DOCS.pdf.blob,
    },
    samples: { files: samples.length, parsed, skipped },
    models: Object.fromEntries(
      Object.keys(models)
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => [k, models[k] as DerivedModel]),
    ),
  };
}

/** Reads the samples and the ModelType list out of a fetched (bare) snapshot at the pinned commit. */
export function readMirror(gitDir: string, commit: string = NEBIM_DOCS.commit) {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 });
  const paths = git("ls-tree", "-r", "-z", "--name-only", commit, "--", NEBIM_DOCS.examples)
    .toString("utf8")
    .split("\0")
    .filter((p) => p.endsWith(".txt") || p.endsWith(".json"));
  const samples = paths.map((path) => ({ path, bytes: git("show", `${commit}:${path}`) }));
  const list = git("show", `${commit}:docs/02-model-type-list.md`).toString("utf8");
  return { samples, list };
}

export const MODELS_JSON = join(dirname(fileURLToPath(import.meta.url)), "models.json");

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { samples, list } = readMirror(process.argv[2] ?? NEBIM_DOCS_MIRROR);
  const judge = deriveJudge(samples, list);
  writeFileSync(MODELS_JSON, `${JSON.stringify(judge, null, 2)}\n`);
  console.info(
    `${judge.samples.files} samples, ${judge.samples.parsed} parsed, ${judge.samples.skipped.length} skipped, ${Object.keys(judge.models).length} ModelTypes`,
  );
}
