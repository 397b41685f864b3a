/**
 * Runs SQL against Microsoft SQL Server (Logo, Netsis, Mikro, Nebim, ETA, Zirve and the generic SQL
 * connector's SQL Server systems) with `mssql` over `tedious@19` (tedious 20 needs Node 22). Statements
 * arrive with `@name` parameters, which is SQL Server's own syntax: each value becomes a typed input
 * of `sp_executesql`, so a value never becomes SQL text.
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
import sql from "mssql";

type MssqlTarget = Extract<SqlTarget, { dialect: string }>;

export interface MssqlExecutorOptions {
  /** Connections kept open (default 4). */
  poolSize?: number;
  /** Milliseconds to open a connection and log in (default 15 000). */
  connectTimeoutMs?: number;
}

export interface MssqlExecutor extends SqlTransport {
  close(): Promise<void>;
}

/** How a failure reads in the agent's answer frame. */
export interface MssqlFailure {
  kind: "auth" | "unreachable" | "timeout" | "statement" | "other";
  code?: string;
  message: string;
}

/** `Date.prototype.toISOString()` text: how the server relays dates (frames carry JSON). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const INT32 = 2 ** 31;
/** Longest nvarchar(n); longer text goes as nvarchar(max). */
const NVARCHAR_N = 4000;

/**
 * A value's SQL Server type. Inferred (no server to ask): integers as int/bigint, fractions as
 * decimal(38, s) with the value's own digits (up to 8), booleans as bit, dates (and ISO instants, as
 * dates travel in frames) as datetime2(3), text as nvarchar(4000) or nvarchar(max), null as nvarchar.
 */
export function inputOf(value: SqlValue): { type: sql.ISqlType | (() => sql.ISqlType); value: unknown } {
  if (value === null) return { type: sql.NVarChar(NVARCHAR_N), value: null };
  if (typeof value === "boolean") return { type: sql.Bit(), value };
  if (value instanceof Date) return { type: sql.DateTime2(3), value };
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`SQL parameter value ${value} is not a finite number`);
    if (Number.isInteger(value))
      return Math.abs(value) < INT32 ? { type: sql.Int(), value } : { type: sql.BigInt(), value };
    const digits = (/\.(\d+)$/.exec(String(value))?.[1] ?? "").length;
    const scale = Math.min(digits, 8);
    // tedious writes a decimal's scaled value as one 64-bit integer: beyond 2^53 it goes as float.
    if (Math.abs(value) * 10 ** scale >= Number.MAX_SAFE_INTEGER) return { type: sql.Float(), value };
    return { type: sql.Decimal(38, scale), value };
  }
  if (ISO_INSTANT.test(value)) return { type: sql.DateTime2(3), value: new Date(value) };
  return { type: sql.NVarChar(value.length <= NVARCHAR_N ? NVARCHAR_N : sql.MAX), value };
}

/** The names of `@name` parameters the text uses, outside string literals and comments. */
function usedParams(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\/|@@?([A-Za-z_][A-Za-z0-9_]*)/g))
    if (m[1] && !m[0].startsWith("@@")) names.add(m[1]);
  return names;
}

export function createMssqlExecutor(target: MssqlTarget, options: MssqlExecutorOptions = {}): MssqlExecutor {
  const config: sql.config & { validateConnection?: boolean | "socket" } = {
    server: target.host,
    port: target.port ?? 1433,
    database: target.database,
    user: target.user,
    password: target.password,
    connectionTimeout: options.connectTimeoutMs ?? 15_000,
    // Socket-level pool validation: no extra `SELECT 1` round trip per borrowed connection.
    validateConnection: "socket",
    pool: { max: options.poolSize ?? 4, min: 0, idleTimeoutMillis: 60_000 },
    options: {
      // Inferred for on-premise servers: encrypt when the server offers it, trusting its (usually
      // self-signed) certificate inside the customer's network; a server without TLS is spoken to plainly.
      encrypt: true,
      trustServerCertificate: true,
      useUTC: true,
    },
  };
  let pool: sql.ConnectionPool | undefined;
  let connecting: Promise<sql.ConnectionPool> | undefined;

  function connected(): Promise<sql.ConnectionPool> {
    if (pool?.connected) return Promise.resolve(pool);
    if (!connecting) {
      const next = new sql.ConnectionPool(config);
      // A pool-level error (a connection lost while idle) must not crash the agent.
      next.on("error", () => undefined);
      connecting = next.connect().then(
        (p) => {
          pool = p;
          connecting = undefined;
          return p;
        },
        (e: unknown) => {
          connecting = undefined;
          void next.close().catch(() => undefined);
          throw e;
        },
      );
    }
    return connecting;
  }

  /**
   * A merchant's read runs inside a transaction that is always rolled back, so a write its text carries
   * (past the server's checker) is undone before the connection goes back to the pool.
   */
  async function query(q: SqlQuery, opts: SqlQueryOptions = {}): Promise<SqlResult> {
    opts.signal?.throwIfAborted();
    const p = await connected();
    if (!q.readOnly) return run(p, q, opts);
    // The one way out of the rollback is a text that ends the transaction itself: not run, wherever the
    // word stands (a literal too: a read has no reason to spell it).
    const ends = TRANSACTION_END.exec(q.text);
    if (ends)
      throw Object.assign(new Error(`a read may not end its transaction (${ends[0].toUpperCase()})`), {
        name: "RequestError",
        code: "EREADONLY",
      });
    const tx = new sql.Transaction(p);
    await tx.begin(sql.ISOLATION_LEVEL.READ_COMMITTED);
    try {
      return await run(tx, q, opts);
    } finally {
      await tx.rollback().catch(() => undefined);
    }
  }

  async function run(
    parent: sql.ConnectionPool | sql.Transaction,
    q: SqlQuery,
    opts: SqlQueryOptions,
  ): Promise<SqlResult> {
    // `new Request(parent, { requestTimeout })`: mssql 12 takes per-request overrides (not in @types/mssql).
    const RequestWithOverrides = sql.Request as unknown as new (
      parent: sql.ConnectionPool | sql.Transaction,
      overrides?: { requestTimeout?: number },
    ) => sql.Request;
    const request = new RequestWithOverrides(
      parent,
      opts.timeoutMs ? { requestTimeout: opts.timeoutMs } : undefined,
    );
    const params: SqlParams = q.params ?? {};
    for (const name of usedParams(q.text)) {
      if (!(name in params)) throw new Error(`SQL parameter @${name} has no value`);
      const input = inputOf(params[name] as SqlValue);
      request.input(name, input.type, input.value);
    }
    request.stream = true;
    const rows: Record<string, unknown>[] = [];
    const max = opts.maxRows;
    let truncated = false;
    let hadRows = false;
    let failure: unknown;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      request.cancel();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("recordset", () => {
      hadRows = true;
    });
    request.on("row", (row: Record<string, unknown>) => {
      if (truncated) return;
      if (max !== undefined && rows.length >= max) {
        // Stop reading: the server is told to stop (ATTENTION), the rest is not read.
        truncated = true;
        request.cancel();
        return;
      }
      rows.push(row);
    });
    request.on("error", (e: unknown) => {
      failure ??= e;
    });
    try {
      const rowsAffected = await new Promise<number[]>((resolve) => {
        request.query(q.text, (_err, result) => resolve(result?.rowsAffected ?? []));
      });
      if (aborted) throw opts.signal?.reason ?? new DOMException("aborted", "AbortError");
      const cancelled = (failure as { code?: string } | undefined)?.code === "ECANCEL";
      if (failure && !(truncated && cancelled)) throw failure;
      const affected = rowsAffected.reduce((a, b) => a + b, 0);
      return {
        rows,
        ...(truncated ? { truncated: true } : {}),
        // A statement without a result set (INSERT/UPDATE/EXEC) reports the rows it changed.
        ...(hadRows ? {} : { rowsAffected: affected }),
      };
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    dialect: "mssql",
    query,
    async close() {
      const current = pool ?? (await connecting?.catch(() => undefined));
      pool = undefined;
      await current?.close();
    },
  };
}

/** COMMIT / ROLLBACK in a merchant read would end the transaction it is kept in. */
const TRANSACTION_END = /\b(?:COMMIT|ROLLBACK)\b/i;

const LOST = new Set(["ESOCKET", "ECONNCLOSED", "ECONNRESET", "EPIPE"]);

/**
 * A driver failure in the frame's terms. Login refused -> auth (the merchant fixes the credentials);
 * could not connect -> unreachable (nothing ran); no answer in time, or the connection lost while a
 * statement ran -> timeout (it may have been applied: an order write is looked up before a retry);
 * the server refused the statement -> statement, with the server's message and error number.
 */
export function classifyMssqlError(e: unknown): MssqlFailure {
  const err = e as {
    name?: string;
    code?: string;
    number?: number;
    message?: string;
    originalError?: unknown;
  };
  const message = err?.message ?? String(e);
  const code = err?.code;
  if (err?.name === "ConnectionError" || (err?.name !== "RequestError" && code && LOST.has(code))) {
    if (code === "ELOGIN") return { kind: "auth", code, message };
    return { kind: "unreachable", code, message };
  }
  if (err?.name === "RequestError") {
    if (code === "ETIMEOUT") return { kind: "timeout", code, message };
    if (code && LOST.has(code)) return { kind: "timeout", code, message };
    if (typeof err.number === "number") return { kind: "statement", code: String(err.number), message };
    const inner = err.originalError as { number?: number } | undefined;
    if (typeof inner?.number === "number") return { kind: "statement", code: String(inner.number), message };
    if (code === "ECANCEL") return { kind: "other", code, message };
    return { kind: "statement", code, message };
  }
  if (err?.name === "AbortError") return { kind: "other", code: "ABORT_ERR", message };
  return { kind: "other", code, message };
}
