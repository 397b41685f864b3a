/**
 * The T-SQL judge: every SQL text a connector sends to SQL Server is read with node-sql-parser in its
 * TransactSQL dialect, and (given a schema fixture) its tables and columns are checked against the
 * vendor's schema. The canned TDS responder (`tds-server/`) runs it on every statement it receives, so
 * each connector's mssql path is judged in its tests.
 *
 * What it verifies: the text is one statement SQL Server's grammar (as node-sql-parser reads it) accepts,
 * values only as `@name` parameters, and names that exist in the fixture. Not SQL semantics (types,
 * joins, results): those need a real server.
 */

import type { AST } from "node-sql-parser";
import { sqlParser } from "../sdk/sql-parser";
import { applyRuntimeRules, type RuntimeRule } from "./runtime-rules";

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
  // SQL Server's own rules the grammar does not say (1033, 156, 10741), as data with their sources.
  const semantic = applyRuntimeRules(TSQL_DIALECT_RULES, { text, ast });
  errors.push(...semantic.flatMap((v) => v.problems));
  if (rules) errors.push(...rules({ ast, tableRefs, columnRefs }));
  const number = semantic[0] && TSQL_DIALECT_RULES.find((r) => r.id === semantic[0]?.rule)?.number;
  return { ok: errors.length === 0, kind, errors, tables, ...(number ? { number } : {}) };
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

/**
 * What SQL Server's binder refuses that its grammar (and node-sql-parser's) takes. `ast` is the parsed
 * text when the caller has it; `declared` the parameters a `sp_executesql` call declares (absent for a
 * plain batch); `transaction` the descriptor the request carried (TDS ALL_HEADERS).
 */
export interface TsqlSubject {
  text: string;
  ast?: AST[];
  kind?: "batch" | "rpc";
  declared?: Record<string, string>;
  transaction?: string;
}

/** A runtime rule over T-SQL with the error SQL Server (or the TDS responder playing it) answers. */
export interface TsqlRule<S extends TsqlSubject = TsqlSubject> extends RuntimeRule<S> {
  /** The error number of the ERROR token (SQL Server's own where it has one; 50000 for ours). */
  number: number;
  /** Severity: 15 for SQL Server's syntax-time errors, 16 for statement errors. */
  class: number;
}

const parsedTexts = new WeakMap<TsqlSubject, AST[]>();

/** The parsed text (once per subject), or nothing when the grammar refuses it (the judge says so). */
function astOf(s: TsqlSubject): AST[] {
  if (s.ast) return s.ast;
  let ast = parsedTexts.get(s);
  if (!ast) {
    try {
      const parsed = sqlParser("TransactSQL").astify(normalise(s.text), { database: "TransactSQL" });
      ast = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      ast = [];
    }
    parsedTexts.set(s, ast);
  }
  return ast;
}

/**
 * Every SELECT of the tree with whether it is nested in another (derived table, subquery, CTE body).
 * A UNION's branches (`_next`) stay at their level.
 */
function selectsOf(ast: AST[]): Array<{ select: Record<string, unknown>; nested: boolean }> {
  const out: Array<{ select: Record<string, unknown>; nested: boolean }> = [];
  const visit = (node: unknown, nested: boolean, depth: number): void => {
    if (!node || typeof node !== "object" || depth > 80) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, nested, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (o.type === "select") out.push({ select: o, nested });
    for (const [key, v] of Object.entries(o))
      visit(v, o.type === "select" ? (key === "_next" ? nested : true) : nested, depth + 1);
  };
  for (const stmt of ast) visit(stmt, false, 0);
  return out;
}

const offsetOf = (select: Record<string, unknown>) => {
  const limit = select.limit as { offset?: unknown; fetch?: unknown } | null | undefined;
  return Boolean(limit?.offset || limit?.fetch);
};

const ERROR_1033_SOURCES = [
  {
    kind: "public-code" as const,
    ref: "uwescience/sqlshare#67 (FreeTDS answer from a live SQL Server)",
    says: "Msg 1033: The ORDER BY clause is invalid in views, inline functions, derived tables, subqueries, and common table expressions, unless TOP, OFFSET or FOR XML is also specified.",
  },
  {
    kind: "vendor-doc" as const,
    ref: "https://learn.microsoft.com/en-us/sql/t-sql/queries/select-order-by-clause-transact-sql (and ms188385, SQL Server 2005)",
    says: "ORDER BY is not valid in views, inline functions, derived tables and subqueries unless TOP (2005), later OFFSET … FETCH, is also specified",
  },
];

/** SQL Server's own semantics over any text sent to it; `judgeTsql` applies them to every statement. */
export const TSQL_DIALECT_RULES: readonly TsqlRule[] = [
  {
    id: "mssql.order-by-in-derived",
    kind: "dialect",
    number: 1033,
    class: 15,
    description:
      "A SELECT nested in another (derived table, subquery, CTE body) has no ORDER BY unless TOP, OFFSET or FOR XML goes with it.",
    sources: ERROR_1033_SOURCES,
    check: (s) =>
      selectsOf(astOf(s)).some(
        ({ select, nested }) =>
          nested &&
          Array.isArray(select.orderby) &&
          select.orderby.length > 0 &&
          !select.top &&
          !offsetOf(select) &&
          !select.for,
      )
        ? [TSQL_ORDER_BY_IN_DERIVED]
        : [],
  },
  {
    id: "mssql.with-in-derived",
    kind: "dialect",
    number: 156,
    class: 15,
    description:
      "A WITH (common table expression) starts a statement; it is never inside a derived table or subquery.",
    sources: [
      {
        kind: "vendor-doc",
        ref: "https://learn.microsoft.com/en-us/sql/t-sql/queries/with-common-table-expression-transact-sql",
        says: "a CTE must be followed by a single SELECT, INSERT, UPDATE or DELETE statement; the statement before it in a batch ends with a semicolon (a CTE is defined at the start of a statement)",
      },
      {
        kind: "public-code",
        ref: "generic-sql.contract.test.ts through tedious 19 (agent's mssql executor); SQL Server's Msg 156 text",
        says: "Incorrect syntax near the keyword 'WITH' is what SQL Server answers a WITH inside a derived table",
      },
    ],
    check: (s) =>
      selectsOf(astOf(s)).some(
        ({ select, nested }) => nested && Array.isArray(select.with) && select.with.length > 0,
      )
        ? [TSQL_WITH_IN_DERIVED]
        : [],
  },
  {
    id: "mssql.top-not-with-offset",
    kind: "dialect",
    number: 10741,
    class: 15,
    description: "One SELECT limits its rows with TOP or with OFFSET … FETCH, never both.",
    sources: [
      {
        kind: "vendor-doc",
        ref: "https://learn.microsoft.com/en-us/sql/t-sql/queries/select-order-by-clause-transact-sql (Limitations: OFFSET and FETCH)",
        says: "TOP cannot be combined with OFFSET and FETCH in the same query expression",
      },
      {
        kind: "vendor-doc",
        ref: "https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/database-engine-events-and-errors-10000-to-10999",
        says: "10741: A TOP can not be used in the same query or sub-query as a OFFSET.",
      },
    ],
    check: (s) =>
      selectsOf(astOf(s)).some(({ select }) => Boolean(select.top) && offsetOf(select))
        ? [TSQL_TOP_WITH_OFFSET]
        : [],
  },
];

/** SQL Server's text of error 10741. */
export const TSQL_TOP_WITH_OFFSET =
  "10741: A TOP can not be used in the same query or sub-query as a OFFSET.";

/**
 * Every `@name` a parameterised text uses is declared by its `sp_executesql` call (Msg 137). Not in
 * `TSQL_DIALECT_RULES`: the judge reads texts without their call; the TDS responder applies it per suite.
 */
export const tsqlDeclaredParametersRule: TsqlRule = {
  id: "mssql.declared-parameters",
  kind: "dialect",
  number: 137,
  class: 15,
  description:
    "Each @name the statement uses is declared in its sp_executesql parameter list and given a value.",
  sources: [
    {
      kind: "vendor-doc",
      ref: "https://learn.microsoft.com/en-us/sql/relational-databases/system-stored-procedures/sp-executesql-transact-sql",
      says: "each parameter included in @stmt must have a corresponding entry in both the @params definition list and the parameter values list",
    },
    {
      kind: "official-sdk",
      ref: "tediousjs/tedious@v19:src/request.ts, src/rpcrequest-payload.ts (sp_executesql: statement, declarations, values)",
      says: "the driver sends the statement, a declaration string built from every added parameter, then the values, as one sp_executesql RPC",
    },
  ],
  check: (s) => {
    const declared = new Set(Object.keys(s.declared ?? {}).map(lower));
    return [...tsqlParameterNames(s.text)]
      .filter((name) => !declared.has(lower(name)))
      .map((name) => `137: Must declare the scalar variable "@${name}".`);
  },
};
