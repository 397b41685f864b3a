/**
 * The generic SQL connector's configuration: the SELECTs the merchant (or our support team) wrote for
 * products, stock, prices and categories, the order write (a stored procedure call or an INSERT template)
 * and the column mapping from each query's columns to our model. Every text is checked here before it
 * runs: one statement, SELECT-only for reads (parsed with node-sql-parser), values only as `@name`
 * parameters from a fixed list. Nothing is ever built from values by string concatenation.
 */

import { message, SQL_MAPPING_FIELDS } from "@ep/contracts";
import type { AST } from "node-sql-parser";
import { ConnectorError } from "../sdk/errors";
import type { SqlDialect } from "../sdk/sql";
import { sqlParser } from "../sdk/sql-parser";
import {
  checkRead,
  DENIED_WORDS,
  pageOverRead,
  type SqlReadShape,
  SqlRefusal,
  type SqlToken,
  tokenize,
} from "./sql-guard";

export type ReadQueryName = "products" | "stock" | "prices" | "categories";
export type QueryName = ReadQueryName | "orderLookup" | "orderWrite";

/** Model fields each query's columns can map to; the first ones listed are required. */
export const MAPPING_FIELDS = SQL_MAPPING_FIELDS;

export interface ReadQueryConfig {
  sql: string;
  /** Model field -> column name of the query's result (case-insensitive). */
  columns: Record<string, string>;
  /** Keyset paging by this result column (unique, orderable); absent: the whole result, up to `rowCap`. */
  keyColumn?: string;
}

export interface GenericSqlConfig {
  products?: ReadQueryConfig;
  stock?: ReadQueryConfig;
  prices?: ReadQueryConfig;
  categories?: ReadQueryConfig;
  /** Finds an order already written, by `@ref` (our order no). */
  orderLookup?: { sql: string; columns: Record<string, string> };
  /** `EXECUTE PROCEDURE name(@a, @b)` / `EXEC name @a, @b` or `INSERT INTO ... VALUES (@a, ...)`. */
  orderWrite?: { sql: string };
  /** Rows per page when a key column is set (default 500). */
  pageSize?: number;
  /** Most rows a query without a key column may return (default 10 000). */
  rowCap?: number;
  /** Currency of prices when the query has no currency column (default TRY). */
  currency?: string;
}

/** Parameters a read query may use (keyset paging adds its own outside the merchant's text). */
export const READ_PARAMS = [] as const;
export const LOOKUP_PARAMS = ["ref"] as const;
/** Order-level and line-level values the order write may take. */
export const ORDER_PARAMS = [
  "ref",
  "orderNo",
  "orderDate",
  "customerCode",
  "customerName",
  "customerEmail",
  "customerPhone",
  "taxNumber",
  "taxOffice",
  "address",
  "city",
  "district",
  "currency",
  "grandTotal",
  "shippingCost",
  "location",
  "series",
  "note",
  "lineCount",
  "linesJson",
  "lineNo",
  "sku",
  "lineName",
  "qty",
  "unitPrice",
  "vatRate",
  "discount",
  "lineTotal",
] as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;
/** Words an order write may use besides its names and parameters (INSERT or a procedure call). */
const WRITE_WORDS = new Set(["INSERT", "INTO", "EXEC", "EXECUTE"]);

export function queryLabel(name: QueryName): string {
  return message(`connectors.genericSql.queries.${name}`);
}

export function invalid(name: QueryName, text: string, operation = "configure"): ConnectorError {
  return new ConnectorError(`generic SQL ${name}: ${text}`, {
    reason: "validation",
    merchantMessage: text,
    systemMessage: text,
    system: "generic-sql",
    operation,
  });
}

/** The guard's refusal in the merchant's language, naming the query and the part refused. */
function refused(name: QueryName, r: SqlRefusal): ConnectorError {
  const what = queryLabel(name);
  if (r.code === "empty") return invalid(name, message("connectors.genericSql.empty", { what }));
  const key = r.code === "word" ? "refused" : r.code;
  return invalid(name, message(`connectors.genericSql.guard.${key}`, { what, part: r.part }));
}

/** Tokens of a text, a refusal of the tokeniser turned into Turkish. */
function tokensOf(name: QueryName, sql: string, dialect: SqlDialect): SqlToken[] {
  try {
    return tokenize(sql, dialect);
  } catch (e) {
    if (e instanceof SqlRefusal) throw refused(name, e);
    throw e;
  }
}

/** `@name` parameters of a statement, in order of first use (outside literals, quoted names, comments). */
export function paramsOf(sql: string, dialect: SqlDialect): string[] {
  let tokens: SqlToken[];
  try {
    tokens = tokenize(sql, dialect);
  } catch {
    return [];
  }
  return [...new Set(tokens.filter((t) => t.kind === "param").map((t) => t.text.slice(1)))];
}

function checkParams(name: QueryName, tokens: SqlToken[], allowed: readonly string[]): void {
  for (const t of tokens) {
    const p = t.text.slice(1);
    if (t.kind !== "param" || allowed.includes(p)) continue;
    throw invalid(
      name,
      message("connectors.genericSql.unknownParam", {
        what: queryLabel(name),
        name: p,
        allowed: allowed.length ? allowed.map((a) => `@${a}`).join(", ") : "—",
      }),
    );
  }
}

/**
 * A read query: one SELECT (or WITH of SELECTs then a SELECT) by the guard's tokens, no parameters
 * but the allowed ones; `procedures` are the ones the order write calls (a read may select from them).
 */
export function validateSelect(
  name: QueryName,
  sql: string,
  dialect: SqlDialect,
  allowed: readonly string[] = READ_PARAMS,
  procedures: readonly string[] = [],
): SqlReadShape {
  let shape: SqlReadShape;
  try {
    shape = checkRead(sql, dialect, { procedures });
  } catch (e) {
    if (e instanceof SqlRefusal) throw refused(name, e);
    throw e;
  }
  checkParams(name, shape.tokens, allowed);
  return shape;
}

/** The procedure an order write calls, or undefined for an INSERT. */
export function writeProcedureOf(sql: string, dialect: SqlDialect): string | undefined {
  try {
    const words = tokenize(sql, dialect);
    const at = words[0]?.upper === "EXECUTE" && words[1]?.upper === "PROCEDURE" ? 2 : 1;
    if (words[0]?.upper !== "EXEC" && words[0]?.upper !== "EXECUTE") return undefined;
    let k = at;
    while (words[k + 1]?.text === ".") k += 2;
    return words[k]?.kind === "word" || words[k]?.kind === "quoted" ? words[k]?.upper : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The order write: `EXEC[UTE] [PROCEDURE] name` with `@parameters` only (in parentheses or not), or
 * one INSERT whose values are all parameters. Read by the guard's tokens: a second statement, a
 * comment trick or any other statement word is refused.
 */
export function validateOrderWrite(sql: string, dialect: SqlDialect): "procedure" | "insert" {
  const name = "orderWrite";
  const all = tokensOf(name, sql, dialect);
  const tokens = all.at(-1)?.text === ";" ? all.slice(0, -1) : all;
  if (tokens.length === 0)
    throw invalid(name, message("connectors.genericSql.empty", { what: queryLabel(name) }));
  checkParams(name, tokens, ORDER_PARAMS);
  for (const t of tokens) {
    if (t.text === ";")
      throw invalid(
        name,
        message("connectors.genericSql.guard.stacked", { what: queryLabel(name), part: ";" }),
      );
    if (
      t.kind === "word" &&
      !WRITE_WORDS.has(t.upper) &&
      (DENIED_WORDS.has(t.upper) || t.upper === "SELECT" || t.upper === "WITH")
    )
      throw refused(name, new SqlRefusal("word", t.upper));
  }
  const head = tokens[0]?.upper;
  if (head === "EXEC" || head === "EXECUTE") {
    let k = head === "EXECUTE" && tokens[1]?.upper === "PROCEDURE" ? 2 : 1;
    const isName = (t: SqlToken | undefined) => t?.kind === "word" || t?.kind === "quoted";
    if (!isName(tokens[k])) throw invalid(name, message("connectors.genericSql.writeKind"));
    while (tokens[k + 1]?.text === "." && isName(tokens[k + 2])) k += 2;
    let rest = tokens.slice(k + 1);
    if (rest[0]?.text === "(") {
      if (rest.at(-1)?.text !== ")") throw invalid(name, message("connectors.genericSql.writeKind"));
      rest = rest.slice(1, -1);
    }
    // `@a, @b, …`: anything else (a literal, an expression) is not a parameter-only call.
    const paramsOnly =
      rest.every((t, i) => (i % 2 === 0 ? t.kind === "param" : t.text === ",")) && rest.length % 2 === 1;
    if (rest.length > 0 && !paramsOnly) throw invalid(name, message("connectors.genericSql.writeKind"));
    return "procedure";
  }
  if (head !== "INSERT") throw invalid(name, message("connectors.genericSql.writeKind"));
  const ast = parse(name, sql, dialect);
  const stmt = ast[0] as { type?: string; values?: unknown };
  if (ast.length !== 1 || stmt.type !== "insert")
    throw invalid(name, message("connectors.genericSql.writeKind"));
  const values = (stmt.values as { values?: Array<{ value?: Array<{ type?: string }> }> } | undefined)
    ?.values;
  if (!values || values.some((row) => row.value?.some((v) => v.type !== "param")))
    throw invalid(name, message("connectors.genericSql.insertParamsOnly"));
  return "insert";
}

/**
 * node-sql-parser's reading of an INSERT (its values must all be parameters), in the dialect closest to
 * the database's (Firebird reads like PostgreSQL here). The text goes without comments and with
 * `:name` parameters, rebuilt from the guard's tokens; a syntax error is told in Turkish by place.
 */
function parse(name: QueryName, sql: string, dialect: SqlDialect): AST[] {
  const tokens = tokensOf(name, sql, dialect);
  const starts: number[] = [];
  let text = "";
  for (const t of tokens) {
    starts.push(text.length);
    text += `${t.kind === "param" ? `:${t.text.slice(1)}` : t.text} `;
  }
  try {
    const database = dialect === "mssql" ? "TransactSQL" : "PostgresQL";
    const ast = sqlParser(database).astify(text, { database });
    return Array.isArray(ast) ? ast : [ast];
  } catch (e) {
    // Told by the merchant's own line and column, not by the parser's English.
    const offset = (e as { location?: { start?: { offset?: number } } }).location?.start?.offset ?? 0;
    let at = starts.findIndex((s) => s > offset) - 1;
    if (at < 0) at = offset >= (starts.at(-1) ?? 0) ? tokens.length - 1 : 0;
    const token = tokens[at];
    const before = sql.slice(0, token?.start ?? sql.length).split("\n");
    throw invalid(
      name,
      message("connectors.genericSql.guard.parseAt", {
        what: queryLabel(name),
        line: before.length,
        column: (before.at(-1)?.length ?? 0) + 1,
        found: token?.text ?? "…",
      }),
    );
  }
}

function validateMapping(
  name: keyof typeof MAPPING_FIELDS,
  columns: Record<string, string> | undefined,
): void {
  const spec = MAPPING_FIELDS[name];
  const known: readonly string[] = [...spec.required, ...spec.optional];
  for (const field of spec.required) {
    if (!columns?.[field]?.trim())
      throw invalid(name, message("connectors.genericSql.missingColumn", { what: queryLabel(name), field }));
  }
  for (const [field, column] of Object.entries(columns ?? {})) {
    if (!known.includes(field))
      throw invalid(name, message("connectors.genericSql.unknownField", { what: queryLabel(name), field }));
    if (column && !IDENTIFIER.test(column.trim()))
      throw invalid(name, message("connectors.genericSql.badIdentifier", { what: queryLabel(name), column }));
  }
}

/** Reads the stored JSON and checks every part; throws a validation error in Turkish. */
export function parseGenericSqlConfig(raw: string | undefined, dialect: SqlDialect): GenericSqlConfig {
  let config: GenericSqlConfig;
  try {
    config = raw ? (JSON.parse(raw) as GenericSqlConfig) : {};
  } catch {
    throw invalid("products", message("connectors.genericSql.configJson"));
  }
  validateGenericSqlConfig(config, dialect);
  return config;
}

export function validateGenericSqlConfig(config: GenericSqlConfig, dialect: SqlDialect): void {
  const writer = config.orderWrite?.sql ? writeProcedureOf(config.orderWrite.sql, dialect) : undefined;
  const procedures = writer ? [writer] : [];
  for (const name of ["products", "stock", "prices", "categories"] as const) {
    const q = config[name];
    if (!q?.sql?.trim()) continue;
    validateSelect(name, q.sql, dialect, READ_PARAMS, procedures);
    validateMapping(name, q.columns);
    if (q.keyColumn !== undefined && q.keyColumn !== "" && !IDENTIFIER.test(q.keyColumn))
      throw invalid(
        name,
        message("connectors.genericSql.badIdentifier", { what: queryLabel(name), column: q.keyColumn }),
      );
  }
  if (config.orderLookup?.sql?.trim()) {
    validateSelect("orderLookup", config.orderLookup.sql, dialect, LOOKUP_PARAMS, procedures);
    validateMapping("orderLookup", config.orderLookup.columns);
  }
  if (config.orderWrite?.sql?.trim()) {
    if (!config.orderLookup?.sql?.trim())
      throw invalid("orderWrite", message("connectors.genericSql.lookupRequired"));
    validateOrderWrite(config.orderWrite.sql, dialect);
  }
  for (const [key, max] of [
    ["pageSize", 10_000],
    ["rowCap", 1_000_000],
  ] as const) {
    const v = config[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > max))
      throw invalid("products", message("connectors.genericSql.badNumber", { field: key, max }));
  }
}

/**
 * A keyset page over the merchant's read (see `pageOverRead`): the text is theirs, its final SELECT in a
 * derived table; the key is a checked identifier, the page size a checked integer and the last key a
 * parameter.
 */
export function keysetQuery(
  dialect: SqlDialect,
  sql: string,
  keyColumn: string,
  pageSize: number,
  after: boolean,
): string {
  if (!IDENTIFIER.test(keyColumn) || !Number.isInteger(pageSize) || pageSize < 1)
    throw new Error("keysetQuery: unchecked key column or page size");
  return pageOverRead(sql, dialect, { keyColumn, pageSize, after });
}
