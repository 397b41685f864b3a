/**
 * Runs SQL against a Firebird database (Akınsoft Wolvox, and the generic SQL connector's systems that
 * keep their data in Firebird) with `node-firebird`. Statements arrive with `@name` parameters; they
 * become positional `?` here, so a value never becomes SQL text.
 */

import type {
  SqlParams,
  SqlQuery,
  SqlQueryOptions,
  SqlResult,
  SqlTarget,
  SqlTransport,
  SqlValue,
} from "@ep/connectors";
import Firebird from "node-firebird";

type FirebirdTarget = Extract<SqlTarget, { dialect: string }>;

export interface FirebirdExecutorOptions {
  /** Connections kept open (default 4). */
  poolSize?: number;
  encoding?: "UTF8" | "WIN1254" | "NONE";
}

/** `@name` -> `?` outside string literals and comments, with the values in order of use. */
export function toPositional(text: string, params: SqlParams = {}): { sql: string; values: SqlValue[] } {
  const values: SqlValue[] = [];
  const sql = text.replace(
    /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|@([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name: string | undefined) => {
      if (!name) return match;
      if (!(name in params)) throw new Error(`SQL parameter @${name} has no value`);
      values.push(params[name] as SqlValue);
      return "?";
    },
  );
  return { sql, values };
}

export interface FirebirdExecutor extends SqlTransport {
  close(): Promise<void>;
}

export function createFirebirdExecutor(
  target: FirebirdTarget,
  options: FirebirdExecutorOptions = {},
): FirebirdExecutor {
  const pool = Firebird.pool(options.poolSize ?? 4, {
    host: target.host,
    port: target.port ?? 3050,
    database: target.database,
    user: target.user,
    password: target.password,
    encoding: options.encoding ?? "UTF8",
    blobAsText: true,
  });

  async function query(q: SqlQuery, opts: SqlQueryOptions = {}): Promise<SqlResult> {
    const { sql, values } = toPositional(q.text, q.params);
    const db = await pool.getAsync();
    let timer: NodeJS.Timeout | undefined;
    try {
      const run = db.queryAsync(sql, values) as Promise<unknown>;
      const result = await (opts.timeoutMs
        ? Promise.race([
            run,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(Object.assign(new Error("Firebird query timed out"), { code: "ETIMEDOUT" })),
                opts.timeoutMs,
              );
            }),
          ])
        : run);
      // A procedure with output parameters answers one object, a statement without rows undefined.
      const rows = (Array.isArray(result) ? result : result ? [result] : []) as Record<string, unknown>[];
      const max = opts.maxRows;
      return max !== undefined && rows.length > max
        ? { rows: rows.slice(0, max), truncated: true }
        : { rows };
    } finally {
      if (timer) clearTimeout(timer);
      db.detach();
    }
  }

  return {
    dialect: "firebird",
    query,
    close: () => pool.destroyAsync(),
  };
}
