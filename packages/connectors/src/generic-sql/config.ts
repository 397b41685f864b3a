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
const PARAM = /@([A-Za-z_][A-Za-z0-9_]*)/g;
const PROCEDURE_CALL =
  /^\s*(?:EXECUTE\s+PROCEDURE|EXEC(?:UTE)?)\s+[A-Za-z_][A-Za-z0-9_$.]*\s*(?:\(\s*(?:@[A-Za-z_]\w*\s*(?:,\s*@[A-Za-z_]\w*\s*)*)?\)|(?:@[A-Za-z_]\w*\s*(?:,\s*@[A-Za-z_]\w*\s*)*)?)\s*;?\s*$/i;

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

/** `@name` parameters of a statement, in order of first use. */
export function paramsOf(sql: string): string[] {
  return [...new Set([...stripStrings(sql).matchAll(PARAM)].map((m) => m[1] as string))];
}

/** The text with string literals and comments blanked, so `'@x'` or `-- ;` are not read as syntax. */
function stripStrings(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g, (m) => " ".repeat(m.length));
}

function checkParams(name: QueryName, sql: string, allowed: readonly string[]): void {
  for (const p of paramsOf(sql)) {
    if (!allowed.includes(p))
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

function oneStatement(name: QueryName, sql: string): void {
  const body = stripStrings(sql).trim().replace(/;\s*$/, "");
  if (body.length === 0)
    throw invalid(name, message("connectors.genericSql.empty", { what: queryLabel(name) }));
  if (body.includes(";"))
    throw invalid(name, message("connectors.genericSql.oneStatement", { what: queryLabel(name) }));
}

/** Parses a statement in the dialect closest to the database's (Firebird reads like PostgreSQL here). */
function parse(name: QueryName, sql: string, dialect: SqlDialect): AST[] {
  // node-sql-parser reads `:name` as a parameter in every dialect; `@name` only in TransactSQL.
  const text = stripComments(sql).replace(PARAM, ":$1");
  try {
    const database = dialect === "mssql" ? "TransactSQL" : "PostgresQL";
    const ast = sqlParser(database).astify(text, { database });
    return Array.isArray(ast) ? ast : [ast];
  } catch (e) {
    const detail = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw invalid(
      name,
      message("connectors.genericSql.parse", { what: queryLabel(name), detail: detail ?? "" }),
    );
  }
}

function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ");
}

/** A read query: one SELECT, no parameters but the allowed ones. */
export function validateSelect(
  name: QueryName,
  sql: string,
  dialect: SqlDialect,
  allowed: readonly string[] = READ_PARAMS,
): void {
  oneStatement(name, sql);
  checkParams(name, sql, allowed);
  const ast = parse(name, sql, dialect);
  if (ast.length !== 1)
    throw invalid(name, message("connectors.genericSql.oneStatement", { what: queryLabel(name) }));
  const stmt = ast[0] as { type?: string; into?: { expr?: unknown } };
  if (stmt.type !== "select" || stmt.into?.expr)
    throw invalid(name, message("connectors.genericSql.selectOnly", { what: queryLabel(name) }));
}

/** The order write: a procedure call with parameters only, or one INSERT whose values are parameters. */
export function validateOrderWrite(sql: string, dialect: SqlDialect): "procedure" | "insert" {
  const name = "orderWrite";
  oneStatement(name, sql);
  checkParams(name, sql, ORDER_PARAMS);
  if (PROCEDURE_CALL.test(stripComments(sql))) return "procedure";
  // A procedure call whose arguments are not all parameters (a literal, an expression).
  if (/^\s*EXEC/i.test(stripComments(sql))) throw invalid(name, message("connectors.genericSql.writeKind"));
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
  for (const name of ["products", "stock", "prices", "categories"] as const) {
    const q = config[name];
    if (!q?.sql?.trim()) continue;
    validateSelect(name, q.sql, dialect);
    validateMapping(name, q.columns);
    if (q.keyColumn !== undefined && q.keyColumn !== "" && !IDENTIFIER.test(q.keyColumn))
      throw invalid(
        name,
        message("connectors.genericSql.badIdentifier", { what: queryLabel(name), column: q.keyColumn }),
      );
  }
  if (config.orderLookup?.sql?.trim()) {
    validateSelect("orderLookup", config.orderLookup.sql, dialect, LOOKUP_PARAMS);
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
 * A keyset page over the merchant's SELECT: the text is theirs, wrapped in a derived table; the key is
 * a checked identifier, the page size a checked integer and the last key a parameter.
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
  const inner = stripComments(sql).trim().replace(/;\s*$/, "");
  const where = after ? ` WHERE q.${keyColumn} > @after` : "";
  return dialect === "mssql"
    ? `SELECT TOP (${pageSize}) * FROM (${inner}) AS q${where} ORDER BY q.${keyColumn}`
    : `SELECT FIRST ${pageSize} * FROM (${inner}) q${where} ORDER BY q.${keyColumn}`;
}
