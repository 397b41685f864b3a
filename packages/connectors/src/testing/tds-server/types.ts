/** The responder's public types: what a test's `answer` handler receives and returns, and what the server records. */

import type { RuleViolation } from "../runtime-rules";
import type { SqlJudgeVerdict, SqlSchemaFixture, TsqlRule } from "../sql-judge";

export type TdsColumnType = "int" | "bigint" | "decimal" | "nvarchar" | "datetime" | "bit";
export interface TdsColumn {
  name: string;
  type: TdsColumnType;
  /** Digits after the point of a decimal column (default 4). */
  scale?: number;
}
export type TdsValue = string | number | bigint | boolean | Date | null;
export interface TdsAnswer {
  columns: TdsColumn[];
  /** Values in column order, or objects keyed by column name. */
  rows: Array<unknown[] | Record<string, unknown>>;
  /** For statements without rows (INSERT/UPDATE/EXEC); default: the number of rows. */
  rowsAffected?: number;
}
/** Throw this shape (or an Error with `number`) from `answer` to send SQL Server's ERROR token. */
export interface TdsServerError {
  number: number;
  message: string;
  /** Severity (default 16: a statement error). */
  class?: number;
}
export interface TdsStatementInfo {
  kind: "batch" | "rpc";
  /** Declared parameter types from sp_executesql's definition string (`@a int, @b nvarchar(4000)`). */
  declared: Record<string, string>;
  /** Wire type of each parameter as decoded (`intn`, `nvarchar`, `decimaln`, ...). */
  wireTypes: Record<string, string>;
}
export type TdsAnswerHandler = (
  text: string,
  params: Record<string, TdsValue>,
  info: TdsStatementInfo,
) => Promise<TdsAnswer> | TdsAnswer;

export interface TdsStatement extends TdsStatementInfo {
  text: string;
  params: Record<string, TdsValue>;
  verdict: SqlJudgeVerdict;
  /** The client cancelled it (ATTENTION) before or while it was answered. */
  cancelled?: boolean;
  /** The transaction it ran in (hex descriptor from its ALL_HEADERS), absent outside one. */
  transaction?: string;
  /** The runtime rule it broke (answered with that rule's error instead of rows). */
  refusedBy?: RuleViolation;
}

/** A Transaction Manager request ([MS-TDS] 2.2.6.9): begin, commit or roll back, with its descriptor. */
export interface TdsTransactionEvent {
  op: "begin" | "commit" | "rollback";
  transaction: string;
  /** Index of the next statement at the time (statements before it ran earlier). */
  statementsBefore: number;
}

export interface TdsServerOptions {
  user: string;
  password: string;
  /** When set, a login naming another database is refused (error 4060). */
  database?: string;
  /** Vendor schema fixture for the judge's table/column check. */
  schema?: SqlSchemaFixture;
  answer: TdsAnswerHandler;
  /** A connector's runtime rules: a statement that breaks one is answered with the rule's error. */
  rules?: readonly TsqlRule<TdsStatement>[];
  port?: number;
  host?: string;
}

export interface TdsServer {
  port: number;
  host: string;
  /** Every statement received (the driver's own SET batch at login excluded), in order. */
  statements: TdsStatement[];
  /** Statements the judge refused (also answered with an ERROR). */
  judgeFailures: TdsStatement[];
  /** Statements a runtime rule refused (`options.rules`), answered with the rule's error. */
  ruleRefusals: TdsStatement[];
  /** Transactions begun, committed and rolled back through Transaction Manager requests, in order. */
  transactions: TdsTransactionEvent[];
  /** Logins accepted / refused, connections opened so far. */
  stats: { logins: number; refusedLogins: number; connections: number; attentions: number };
  /** Drops every open connection (the server keeps listening): "connection lost" for clients. */
  dropConnections(): void;
  close(): Promise<void>;
}
