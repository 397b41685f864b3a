/**
 * The SQL seam: how a connector queries an ERP's database. The database sits inside the customer's
 * network, so the transport is the on-site agent (the server relays the query, the agent runs it with
 * `mssql`/tedious for SQL Server or `node-firebird` for Firebird). Connectors see only this interface
 * and never build SQL from strings: every value is a named parameter (`@name` in the text).
 */

import { isReadOnlyStatement } from "@ep/contracts";
import type { CallCounter } from "./logging";

export type SqlDialect = "mssql" | "firebird";

export type SqlValue = string | number | boolean | null | Date;

export type SqlParams = Record<string, SqlValue>;

export interface SqlQuery {
  /** One statement; values only as `@name` parameters. */
  text: string;
  params?: SqlParams;
  /**
   * A read the merchant wrote: the agent runs it inside a transaction that cannot keep a write (always
   * rolled back on SQL Server, read-only on Firebird), whatever the text turns out to do.
   */
  readOnly?: boolean;
}

export interface SqlResult {
  rows: Record<string, unknown>[];
  /** Rows changed by an INSERT/UPDATE/EXEC, when the driver reports it. */
  rowsAffected?: number;
  /** True when the answer was cut at `maxRows`. */
  truncated?: boolean;
}

export interface SqlQueryOptions {
  signal?: AbortSignal;
  /** Stop reading after this many rows (previews, paging guards). */
  maxRows?: number;
  timeoutMs?: number;
}

/**
 * Where the database is, as the agent knows it: by an alias from the agent's own config file (the
 * password stays on the customer's machine), or spelled out (the password then travels encrypted in
 * our credential store and over the agent's TLS socket).
 */
export type SqlTarget =
  | { alias: string }
  | {
      dialect: SqlDialect;
      host: string;
      port?: number;
      database: string;
      user: string;
      password: string;
    };

export interface SqlTransport {
  readonly dialect: SqlDialect;
  query(query: SqlQuery, options?: SqlQueryOptions): Promise<SqlResult>;
}

/**
 * The transport with each statement counted as one call of `system` (a read when it only reads), as
 * the HTTP client counts its requests: a run's report and metering see the calls a SQL connector made
 * through the on-site agent, too.
 */
export function countedSqlTransport(
  transport: SqlTransport,
  counter: CallCounter | undefined,
  system: string,
): SqlTransport {
  if (!counter) return transport;
  return {
    dialect: transport.dialect,
    async query(query, options) {
      counter.record(system, isReadOnlyStatement(query.text) ? "read" : "write");
      try {
        return await transport.query(query, options);
      } catch (e) {
        counter.recordFailure(system);
        throw e;
      }
    },
  };
}
