/**
 * The judge for Logo over SQL, part 2: every statement the connector sends is read by the kit's T-SQL
 * judge (node-sql-parser's TransactSQL dialect, one statement, tables and columns of the schema fixture
 * ./schema.ts), and must besides be one SELECT (no writes through SQL: erps.md §1d) of the configured firm
 * and period, name its columns, and carry every value as an `@name` parameter (no string literals, no
 * parameter left unbound or unused).
 */

import { sqlParser } from "../../sdk/sql-parser";
import type { Verdict } from "../../testing/recorder";
import { judgeTsql, type SqlSchemaLookup, type TsqlRead, tsqlParameterNames } from "../../testing/sql-judge";
import { logoTableOf } from "./schema";

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

/** Parses one statement as written (`@name` parameters kept): the emulator translates this AST. */
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

/** Logo's tables under any firm and period: the scope is checked by `logoRules`. */
const logoSchema: SqlSchemaLookup = (name) => logoTableOf(name)?.table;

/** What Logo's judge refuses beyond the kit's T-SQL and schema checks. */
function logoRules({ ast, tableRefs, columnRefs }: TsqlRead, q: RecordedSql, scope: SqlJudgeScope): string[] {
  const problems: string[] = [];
  const type = (ast[0] as { type?: string } | undefined)?.type;
  if (type !== "select") problems.push(`only SELECT is allowed over SQL, got ${String(type)}`);
  for (const entry of tableRefs) {
    const [kind, , name = ""] = entry.split("::");
    if (kind !== "select") problems.push(`${kind} on ${name}: only reads are allowed`);
    const hit = logoTableOf(name);
    if (scope.firm !== undefined && hit?.firm !== undefined && hit.firm !== scope.firm)
      problems.push(`table ${name} is of firm ${hit.firm}, not the configured ${scope.firm}`);
    if (scope.period !== undefined && hit?.period !== undefined && hit.period !== scope.period)
      problems.push(`table ${name} is of period ${hit.period}, not the active ${scope.period}`);
  }
  if (columnRefs.some((c) => c.endsWith("::*") || c.endsWith("::(.*)")))
    problems.push("name the columns; * is not allowed");
  const literals = stringLiterals(ast);
  if (literals.length > 0)
    problems.push(`values must be @parameters, found literal(s) ${literals.join(", ")}`);
  const refs = tsqlParameterNames(q.text);
  for (const r of refs) if (!(r in q.params)) problems.push(`@${r} has no value`);
  for (const k of Object.keys(q.params)) if (!refs.has(k)) problems.push(`parameter @${k} is not used`);
  return problems;
}

export function judgeLogoSql(q: RecordedSql, scope: SqlJudgeScope = {}): Verdict {
  const v = judgeTsql(q.text, logoSchema, (read) => logoRules(read, q, scope));
  if (v.kind === "unparsed") return { operation: "SQL (unparsed)", problems: v.errors };
  const names = v.tables
    .filter((t) => logoTableOf(t))
    .map((n) => n.toUpperCase().replace(/^(LG|LV)_\d{3}_(\d{2}_)?/, "$1_"))
    .sort();
  return { operation: `SELECT ${names.join(" + ") || "?"}`, problems: v.errors };
}
