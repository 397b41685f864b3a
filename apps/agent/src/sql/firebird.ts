/**
 * Runs SQL against a Firebird database (Akınsoft Wolvox, and the generic SQL connector's systems that
 * keep their data in Firebird) with `node-firebird`. Statements arrive with `@name` parameters; they
 * become positional `?` here, so a value never becomes SQL text.
 *
 * Transactions: Firebird's default (READ COMMITTED NO_REC_VERSION, WAIT without end) makes a read wait
 * behind any row a Wolvox user has changed and not yet saved, for as long as the screen stays open. A
 * read runs in a read-only READ COMMITTED REC_VERSION transaction instead: it reads the last committed
 * version of each row and never waits on an uncommitted one (Firebird 3 has no READ CONSISTENCY). A
 * write keeps NO_REC_VERSION (it never decides on a row version that is about to change) but waits for
 * a lock at most `lockTimeoutSeconds`, then fails with isc_lock_timeout, which the runner answers as a
 * transient `lock` failure; the statement's transaction is rolled back, so nothing of it applied.
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
// The subpath, not the package root: the agent loads no schemas or messages it does not use.
import { isReadOnlyStatement } from "@ep/contracts/sql-statement";
import Firebird from "node-firebird";

type FirebirdTarget = Extract<SqlTarget, { dialect: string }>;

export interface FirebirdExecutorOptions {
  /** Connections kept open (default 4). */
  poolSize?: number;
  encoding?: "UTF8" | "WIN1254" | "NONE";
  /** Longest wait for a row another transaction holds, in seconds (default 10; kept under the statement's timeout). */
  lockTimeoutSeconds?: number;
}

// Transaction parameter block items (ibase.h); node-firebird does not export them.
const isc_tpb_read_committed = 15;
const isc_tpb_rec_version = 17;
const isc_tpb_no_rec_version = 18;

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
    // Under the statement's own bound, so the database answers a lock wait before the timer below fires.
    const lockWait = Math.max(
      1,
      Math.min(
        options.lockTimeoutSeconds ?? 10,
        opts.timeoutMs ? Math.floor(opts.timeoutMs / 1000) - 1 : Number.POSITIVE_INFINITY,
      ),
    );
    // A merchant's read is read-only whatever its text does; the driver's own reads by their text.
    const merchantRead = q.readOnly === true;
    const read = merchantRead || isReadOnlyStatement(sql);
    const db = await pool.getAsync();
    let timer: NodeJS.Timeout | undefined;
    try {
      const run = (async () => {
        const tx = await db.startTransactionAsync({
          isolation: [isc_tpb_read_committed, read ? isc_tpb_rec_version : isc_tpb_no_rec_version],
          readOnly: read,
          wait: true,
          waitTimeout: lockWait,
        });
        try {
          const result = (await tx.queryAsync(sql, values)) as unknown;
          // A merchant's read keeps nothing: rolled back, not committed (read-only already refuses writes).
          await (merchantRead ? tx.rollbackAsync() : tx.commitAsync());
          return result;
        } catch (e) {
          await tx.rollbackAsync().catch(() => undefined);
          throw e;
        }
      })();
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
