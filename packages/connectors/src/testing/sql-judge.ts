/**
 * The T-SQL judge: every SQL text a connector sends to SQL Server is read with node-sql-parser in its
 * TransactSQL dialect, and (given a schema fixture) its tables and columns are checked against the
 * vendor's schema. The canned TDS responder (`tds-server.ts`) runs it on every statement it receives, so
 * each connector's mssql path is judged in its tests.
 *
 * What it verifies: the text is one statement SQL Server's grammar (as node-sql-parser reads it) accepts,
 * values only as `@name` parameters, and names that exist in the fixture. Not SQL semantics (types,
 * joins, results): those need a real server.
 */

import type { AST } from "node-sql-parser";
import { sqlParser } from "../sdk/sql-parser";

/**
 * A vendor schema fixture: table (or procedure) name -> where it comes from and its columns (or a
 * procedure's parameters without `@`), each with the source that names it (document, export, commit).
 * Names compare case-insensitively (SQL Server's default collations are case-insensitive).
 */
export type SqlSchemaFixture = Record<string, { source: string; columns: Record<string, string> }>;

/** A fixture whose table names follow patterns (Logo's `LG_{firm}_ITEMS`): the columns of a name, if known. */
export type SqlSchemaLookup = (table: string) => { columns: Record<string, unknown> } | undefined;

/** What the parser read from a statement, for a connector's own rules on top of the judge's. */
export interface TsqlRead {
  ast: AST[];
  /** `kind::schema::table` as node-sql-parser lists them (kind: select, insert, update, delete). */
  tableRefs: string[];
  /** `kind::table-or-null::column`; `(.*)` for a star. */
  columnRefs: string[];
}

export interface SqlJudgeVerdict {
  ok: boolean;
  /** What the parser made of the text. */
  kind: "select" | "insert" | "update" | "delete" | "procedure" | "other" | "unparsed";
  /** Why the text was refused (parser message, unknown table/column). */
  errors: string[];
  /** Tables (and a procedure) the statement names, without schema prefix. */
  tables: string[];
  /** SQL Server's error number for the refusal when the judge knows it (1033, 156); else a syntax error. */
  number?: number;
}

/** SQL Server's text of error 1033 (Msg 1033, Level 15). */
export const TSQL_ORDER_BY_IN_DERIVED =
  "1033: The ORDER BY clause is invalid in views, inline functions, derived tables, subqueries, and common table expressions, unless TOP, OFFSET or FOR XML is also specified.";
/** What SQL Server answers a WITH inside a derived table or subquery (Msg 156). */
export const TSQL_WITH_IN_DERIVED = "156: Incorrect syntax near the keyword 'WITH'.";

/** `@name` outside string literals and comments (node-sql-parser reads `:name` as a parameter in every dialect). */
const TOKENS = /'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\/|@([A-Za-z_][A-Za-z0-9_]*)/g;
/** `EXEC[UTE] [schema.]name [@a | literal [, ...]]`: node-sql-parser has no EXEC; read here. */
const PROCEDURE_CALL =
  /^\s*EXEC(?:UTE)?\s+((?:\[?[A-Za-z_][\w$]*\]?\.)?\[?([A-Za-z_][\w$]*)\]?)(\s+(?:@[A-Za-z_]\w*|N?'(?:[^']|'')*'|-?\d+(?:\.\d+)?|NULL)(?:\s*,\s*(?:@[A-Za-z_]\w*|N?'(?:[^']|'')*'|-?\d+(?:\.\d+)?|NULL))*)?\s*;?\s*$/i;

function normalise(text: string): string {
  const stripped = text.replace(TOKENS, (m, name: string | undefined) =>
    name ? `:${name}` : m.startsWith("'") ? m : " ",
  );
  // node-sql-parser cannot read a parameter as TOP's count: `TOP (@n)` is read as `TOP (1)` (the
  // statement's shape is what is judged, not the count).
  return stripped.replace(/\bTOP\s*\(\s*:[A-Za-z_]\w*\s*\)/gi, "TOP (1)");
}

const lower = (s: string) => s.toLowerCase();

/** `@name` parameters a text refers to, outside string literals and comments. */
export function tsqlParameterNames(text: string): Set<string> {
  return new Set([...text.matchAll(TOKENS)].flatMap((m) => (m[1] ? [m[1]] : [])));
}

/**
 * Judges one SQL text sent to SQL Server; `schema` adds the table/column check, `rules` a connector's
 * own refusals of a statement that parsed.
 */
export function judgeTsql(
  text: string,
  schema?: SqlSchemaFixture | SqlSchemaLookup,
  rules?: (read: TsqlRead) => string[],
): SqlJudgeVerdict {
  const fixture = typeof schema === "function" ? undefined : schema;
  const byName = new Map(Object.entries(fixture ?? {}).map(([t, v]) => [lower(t), v]));
  const lookup: SqlSchemaLookup | undefined =
    typeof schema === "function" ? schema : schema && ((t) => byName.get(lower(t)));
  const inFixture = (t: string) => lookup?.(t) !== undefined;
  const columnsOf = (table: string) => new Set(Object.keys(lookup?.(table)?.columns ?? {}).map(lower));

  const call = PROCEDURE_CALL.exec(text);
  if (call) {
    const name = call[2] as string;
    const errors =
      schema && !inFixture(name) ? [`unknown procedure ${call[1]} (not in the schema fixture)`] : [];
    if (schema && inFixture(name)) {
      const params = [...(call[3] ?? "").matchAll(/@([A-Za-z_]\w*)/g)].map((m) => m[1] as string);
      // Positional arguments: only their count can be checked against the fixture's parameters.
      const declared = columnsOf(name).size;
      if (params.length > declared)
        errors.push(`procedure ${call[1]} takes ${declared} parameters, the call passes ${params.length}`);
    }
    return { ok: errors.length === 0, kind: "procedure", errors, tables: [name] };
  }

  const normalised = normalise(text);
  const options = { database: "TransactSQL" };
  let ast: AST[];
  let tableRefs: string[];
  let columnRefs: string[];
  try {
    const parsed = sqlParser("TransactSQL").astify(normalised, options);
    ast = Array.isArray(parsed) ? parsed : [parsed];
    tableRefs = sqlParser("TransactSQL").tableList(normalised, options);
    columnRefs = sqlParser("TransactSQL").columnList(normalised, options);
  } catch (e) {
    const detail = (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
    return { ok: false, kind: "unparsed", errors: [`T-SQL parser: ${detail}`], tables: [] };
  }
  const errors: string[] = [];
  if (ast.length !== 1) errors.push(`${ast.length} statements in one text`);
  const type = (ast[0] as { type?: string } | undefined)?.type;
  const kind: SqlJudgeVerdict["kind"] =
    type === "select" || type === "insert" || type === "update" || type === "delete" ? type : "other";
  // The parser reads a bare word as a procedure call without EXEC: connectors send none of those.
  if (kind === "other")
    errors.push(`not a SELECT, INSERT, UPDATE, DELETE or EXEC statement (parser read: ${type ?? "nothing"})`);
  // node-sql-parser's TransactSQL grammar also takes MySQL's LIMIT, which SQL Server refuses.
  if (hasLimit(ast)) errors.push("LIMIT is not T-SQL (TOP or OFFSET … FETCH is)");
  const tables = [...new Set(tableRefs.map((r) => r.split("::")[2] as string))];
  if (schema) {
    for (const table of tables)
      if (!inFixture(table)) errors.push(`unknown table ${table} (not in the schema fixture)`);
    const inSchema = tables.filter((t) => inFixture(t));
    const aliases = new Set(outputAliases(ast).map(lower));
    for (const ref of columnRefs) {
      const [, scope, column] = ref.split("::") as [string, string, string];
      if (column === "(.*)" || column.startsWith(":") || column.startsWith("@")) continue;
      if (scope !== "null") {
        // A column of a derived table or CTE (`q.KOD`) has no fixture to check against.
        if (inFixture(scope) && !columnsOf(scope).has(lower(column)))
          errors.push(`unknown column ${scope}.${column}`);
        continue;
      }
      if (aliases.has(lower(column)) || inSchema.length !== tables.length) continue;
      if (inSchema.length > 0 && !inSchema.some((t) => columnsOf(t).has(lower(column))))
        errors.push(`unknown column ${column} (in none of ${inSchema.join(", ")})`);
    }
  }
  const semantic = nestedSelectErrors(ast);
  errors.push(...semantic);
  if (rules) errors.push(...rules({ ast, tableRefs, columnRefs }));
  const number = semantic[0] ? Number(semantic[0].split(":")[0]) : undefined;
  return { ok: errors.length === 0, kind, errors, tables, ...(number ? { number } : {}) };
}

/**
 * What SQL Server refuses in a SELECT nested in another (derived table, subquery, CTE body) that the
 * grammar takes: an ORDER BY without TOP, OFFSET or FOR XML (error 1033), and a WITH (error 156: a CTE
 * is defined only at the start of a statement). A UNION's branches (`_next`) stay at their level.
 */
function nestedSelectErrors(ast: AST[]): string[] {
  const errors = new Set<string>();
  const visit = (node: unknown, nested: boolean, depth: number): void => {
    if (!node || typeof node !== "object" || depth > 80) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, nested, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (o.type !== "select") {
      for (const v of Object.values(o)) visit(v, nested, depth + 1);
      return;
    }
    const limit = o.limit as { offset?: unknown; fetch?: unknown } | null | undefined;
    const ordered = Array.isArray(o.orderby) && o.orderby.length > 0;
    if (nested && ordered && !o.top && !limit?.offset && !limit?.fetch && !o.for)
      errors.add(TSQL_ORDER_BY_IN_DERIVED);
    if (nested && Array.isArray(o.with) && o.with.length > 0) errors.add(TSQL_WITH_IN_DERIVED);
    for (const [key, v] of Object.entries(o)) visit(v, key === "_next" ? nested : true, depth + 1);
  };
  for (const stmt of ast) visit(stmt, false, 0);
  return [...errors];
}

/** `AS name` aliases of the select list (an ORDER BY may name them). */
function outputAliases(ast: AST[]): string[] {
  const out: string[] = [];
  for (const stmt of ast) {
    const columns = (stmt as { columns?: unknown }).columns;
    if (!Array.isArray(columns)) continue;
    for (const c of columns) {
      const as = (c as { as?: unknown }).as;
      if (typeof as === "string") out.push(as);
    }
  }
  return out;
}

/** A `LIMIT n` anywhere in the tree (OFFSET … FETCH is kept in the same field, with `fetch`/`offset`). */
function hasLimit(node: unknown, depth = 0): boolean {
  if (!node || typeof node !== "object" || depth > 40) return false;
  const limit = (node as { limit?: { value?: unknown[] } | null }).limit;
  if (limit && Array.isArray(limit.value) && limit.value.length > 0) return true;
  return Object.values(node).some((v) => hasLimit(v, depth + 1));
}
