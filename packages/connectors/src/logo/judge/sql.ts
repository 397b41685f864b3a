/**
 * The judge for Logo over SQL, part 2: every statement the connector sends is parsed by node-sql-parser in
 * the TransactSQL dialect (what SQL Server accepts), must be one SELECT (no writes through SQL: erps.md
 * §1d), must name only the tables and columns of the schema fixture (./schema.ts) for the configured firm
 * and period, and must carry every value as an `@name` parameter (no string literals, no parameter
 * left unbound or unused).
 */

import { sqlParser } from "../../sdk/sql-parser";
import type { Verdict } from "../../testing/recorder";
import { type LOGO_TABLES, logoTableOf } from "./schema";

const DIALECT = { database: "TransactSQL" } as const;

export interface RecordedSql {
  text: string;
  params: Record<string, unknown>;
}

export interface SqlJudgeScope {
  firm?: number;
  period?: number;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null;

/** Literal strings anywhere in the statement (values must travel as parameters). */
function stringLiterals(n: unknown, out: string[] = []): string[] {
  if (Array.isArray(n)) {
    for (const x of n) stringLiterals(x, out);
    return out;
  }
  if (!isNode(n)) return out;
  if (
    ["single_quote_string", "string", "natural_string", "var_string"].includes(String(n.type)) &&
    "value" in n
  )
    out.push(String(n.value));
  for (const v of Object.values(n)) stringLiterals(v, out);
  return out;
}

/** `@name` references of the text, outside quoted strings. */
function paramRefs(text: string): Set<string> {
  const bare = text.replace(/'(?:[^']|'')*'/g, "''");
  return new Set([...bare.matchAll(/@([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string));
}

/** Parses one statement; the parser's AST or the reason it cannot be read as T-SQL. */
export function parseLogoSql(text: string): { ast?: Node; problem?: string } {
  try {
    const ast = sqlParser("TransactSQL").astify(text, DIALECT) as unknown;
    const list = Array.isArray(ast) ? ast : [ast];
    if (list.length !== 1) return { problem: `one statement expected, got ${list.length}` };
    return { ast: list[0] as Node };
  } catch (e) {
    return { problem: `not T-SQL: ${(e as Error).message.slice(0, 160)}` };
  }
}

export function judgeLogoSql(q: RecordedSql, scope: SqlJudgeScope = {}): Verdict {
  const problems: string[] = [];
  const parsed = parseLogoSql(q.text);
  if (!parsed.ast) return { operation: "SQL (unparsed)", problems: [parsed.problem ?? "unparsed"] };
  const ast = parsed.ast;
  if (ast.type !== "select") problems.push(`only SELECT is allowed over SQL, got ${String(ast.type)}`);

  let tables: string[] = [];
  let columns: string[] = [];
  try {
    tables = sqlParser("TransactSQL").tableList(q.text, DIALECT);
    columns = sqlParser("TransactSQL").columnList(q.text, DIALECT);
  } catch (e) {
    problems.push(`tables/columns unreadable: ${(e as Error).message.slice(0, 120)}`);
  }
  const known = new Map<string, (typeof LOGO_TABLES)[number]>();
  for (const entry of tables) {
    const [kind, , name = ""] = entry.split("::");
    if (kind !== "select") problems.push(`${kind} on ${name}: only reads are allowed`);
    const hit = logoTableOf(name);
    if (!hit) {
      problems.push(`table ${name} is not in the schema fixture`);
      continue;
    }
    known.set(name.toUpperCase(), hit.table);
    if (scope.firm !== undefined && hit.firm !== undefined && hit.firm !== scope.firm)
      problems.push(`table ${name} is of firm ${hit.firm}, not the configured ${scope.firm}`);
    if (scope.period !== undefined && hit.period !== undefined && hit.period !== scope.period)
      problems.push(`table ${name} is of period ${hit.period}, not the active ${scope.period}`);
  }
  for (const entry of columns) {
    const [, table, column = ""] = entry.split("::");
    if (column.startsWith("@")) continue;
    if (column === "*" || column === "(.*)") {
      problems.push("name the columns; * is not allowed");
      continue;
    }
    if (table && table !== "null") {
      const t = known.get(table.toUpperCase());
      if (t && !(column.toUpperCase() in t.columns))
        problems.push(`column ${table}.${column} is not in the schema fixture`);
    } else if (![...known.values()].some((t) => column.toUpperCase() in t.columns)) {
      problems.push(`column ${column} is in none of the statement's tables`);
    }
  }
  const literals = stringLiterals(ast);
  if (literals.length > 0)
    problems.push(`values must be @parameters, found literal(s) ${literals.join(", ")}`);
  const refs = paramRefs(q.text);
  for (const r of refs) if (!(r in q.params)) problems.push(`@${r} has no value`);
  for (const k of Object.keys(q.params)) if (!refs.has(k)) problems.push(`parameter @${k} is not used`);

  const names = [...known.keys()].map((n) => n.replace(/^(LG|LV)_\d{3}_(\d{2}_)?/, "$1_")).sort();
  return { operation: `SELECT ${names.join(" + ") || "?"}`, problems };
}
