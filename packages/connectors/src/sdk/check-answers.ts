/**
 * The answer judge every connection check applies (issue 36): what a read must hand the engine, field by
 * field, whatever the system (the canonical model of ./model.ts). A connector's own answer rules (raw
 * vendor shapes, from its judge) come on top, see ./check.ts. Each rule names its field so the merchant
 * is told which field differs and which job needs it; values never leave the check, only their kinds.
 */

import type { RuntimeRule } from "../testing/runtime-rules";

/** What a field must be: a key (non-empty text or a number), a name (non-empty text), any text, a finite number, a flag, a date, a currency, a list. */
export type FieldExpectation =
  | "code"
  | "name"
  | "text"
  | "number"
  | "nonNegative"
  | "boolean"
  | "date"
  | "currency"
  | "list"
  | "textList";

/** Kinds a value is reported as (the redacted form: never the value itself). */
export type ValueKind =
  | "missing"
  | "empty"
  | "text"
  | "number"
  | "invalidNumber"
  | "boolean"
  | "list"
  | "object";

export interface FieldRule {
  /** Dotted path in one item (`lines.0.sku`: the first line's). */
  path: string;
  expect: FieldExpectation;
  /** Optional fields are judged only when present. */
  optional?: boolean;
}

export type AnswerModel = "product" | "stock" | "price" | "category" | "option" | "order";

const MODEL_SOURCE = {
  kind: "vendor-schema" as const,
  ref: "packages/connectors/src/sdk/model.ts",
  says: "the canonical model every connector hands the engine",
};

/** The fields each model's item must carry for the engine to use it. */
export const MODEL_FIELDS: Record<AnswerModel, FieldRule[]> = {
  product: [
    { path: "sku", expect: "code" },
    // A product without a name cannot be listed in a shop.
    { path: "name", expect: "name" },
    { path: "vatRate", expect: "nonNegative" },
    { path: "unit", expect: "text" },
    { path: "isActive", expect: "boolean" },
    { path: "categoryPath", expect: "textList" },
    { path: "variants", expect: "list" },
    { path: "variants.0.sku", expect: "code", optional: true },
    { path: "images", expect: "textList" },
  ],
  stock: [
    { path: "sku", expect: "code" },
    { path: "location", expect: "code" },
    { path: "qty", expect: "number" },
  ],
  price: [
    { path: "sku", expect: "code" },
    { path: "priceGroup", expect: "code" },
    { path: "amount", expect: "nonNegative" },
    { path: "currency", expect: "currency" },
    { path: "vatIncluded", expect: "boolean" },
  ],
  category: [
    { path: "id", expect: "code" },
    { path: "name", expect: "text" },
    { path: "path", expect: "textList", optional: true },
  ],
  option: [
    { path: "id", expect: "code" },
    { path: "name", expect: "text" },
  ],
  order: [
    { path: "id", expect: "code" },
    { path: "orderNo", expect: "code" },
    { path: "createdAt", expect: "date" },
    { path: "status", expect: "code" },
    { path: "currency", expect: "currency" },
    { path: "lines", expect: "list" },
    { path: "lines.0.sku", expect: "code", optional: true },
    { path: "lines.0.qty", expect: "nonNegative", optional: true },
    { path: "lines.0.unitPrice", expect: "nonNegative", optional: true },
    { path: "totals.grandTotal", expect: "nonNegative" },
  ],
};

export function valueAt(item: unknown, path: string): unknown {
  let node: unknown = item;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function kindOf(v: unknown): ValueKind {
  if (v === undefined || v === null) return "missing";
  if (typeof v === "string") return v.trim() === "" ? "empty" : "text";
  if (typeof v === "number") return Number.isFinite(v) ? "number" : "invalidNumber";
  if (typeof v === "boolean") return "boolean";
  if (Array.isArray(v)) return "list";
  return "object";
}

/** Text a broken mapping leaves behind (String(undefined), a stringified object). */
const JUNK = new Set(["undefined", "null", "NaN", "[object Object]"]);

function meets(v: unknown, expect: FieldExpectation): boolean {
  switch (expect) {
    case "code":
      return (typeof v === "string" && v.trim() !== "" && !JUNK.has(v.trim())) || Number.isFinite(v);
    case "name":
      return typeof v === "string" && v.trim() !== "" && !JUNK.has(v.trim());
    case "text":
      return typeof v === "string" && !JUNK.has(v.trim());
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "nonNegative":
      return typeof v === "number" && Number.isFinite(v) && v >= 0;
    case "boolean":
      return typeof v === "boolean";
    case "date":
      return typeof v === "string" && !Number.isNaN(Date.parse(v));
    case "currency":
      return typeof v === "string" && /^[A-Z]{3}$/.test(v);
    case "list":
      return Array.isArray(v);
    case "textList":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
  }
}

/** One item of a read, as the judge's rules see it. */
export interface CheckedItem {
  model: AnswerModel;
  item: unknown;
}

/** Rule ids are `model.<model>.<field>` (what the support console groups by). */
export function modelRuleId(model: AnswerModel, path: string): string {
  return `model.${model}.${path}`;
}

/** The model's fields as runtime rules (the same data form as every connector's judge rules). */
export function modelRules(model: AnswerModel): RuntimeRule<CheckedItem>[] {
  return MODEL_FIELDS[model].map((f) => ({
    id: modelRuleId(model, f.path),
    kind: f.expect === "currency" || f.expect === "boolean" ? "value-set" : "facet",
    description: `${model}.${f.path} must be ${f.expect}${f.optional ? " when present" : ""}`,
    sources: [MODEL_SOURCE],
    check(subject) {
      const v = valueAt(subject.item, f.path);
      if (f.optional && (v === undefined || v === null)) return [];
      if (
        f.optional &&
        f.path.includes(".0.") &&
        kindOf(valueAt(subject.item, f.path.split(".0.")[0]!)) !== "list"
      )
        return [];
      return meets(v, f.expect) ? [] : [`${f.path}: expected ${f.expect}, got ${kindOf(v)}`];
    },
  }));
}

/** A field that failed: which rule, which field, what was expected and the kind that came. */
export interface FieldDifference {
  rule: string;
  field: string;
  expect: FieldExpectation;
  got: ValueKind;
}

/** Every field rule the items break, once per rule (the first item that breaks it). */
export function judgeItems(model: AnswerModel, items: readonly unknown[]): FieldDifference[] {
  const out = new Map<string, FieldDifference>();
  const rules = MODEL_FIELDS[model];
  const asRules = modelRules(model);
  for (const item of items) {
    asRules.forEach((rule, i) => {
      if (out.has(rule.id)) return;
      if (rule.check({ model, item }, []).length === 0) return;
      const f = rules[i]!;
      out.set(rule.id, {
        rule: rule.id,
        field: f.path,
        expect: f.expect,
        got: kindOf(valueAt(item, f.path)),
      });
    });
  }
  return [...out.values()];
}

/**
 * The shape of a value without its values (the console's redacted sample): objects keep their keys with
 * each value's kind, lists show their first element's shape and nothing else.
 */
export function redactedShape(value: unknown, depth = 0): unknown {
  if (depth > 5) return "…";
  if (Array.isArray(value)) return value.length === 0 ? [] : [redactedShape(value[0], depth + 1)];
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value).slice(0, 40)) out[k] = redactedShape(v, depth + 1);
    return out;
  }
  return kindOf(value);
}
