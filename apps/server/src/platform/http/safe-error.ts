import { stdSerializers } from "pino";

type Loose = Record<string, unknown>;

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** `select jobs`, `insert into sync_ledger`: what a statement did, without its text or values. */
export function statementName(sql: string): string {
  const verb = (sql.trimStart().split(/\s/, 1)[0] ?? "").toLowerCase();
  const table = /\b(?:from|into|update)\s+"?([A-Za-z0-9_.]+)"?/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb || "unknown";
}

const isDatabaseError = (e: Loose): boolean =>
  typeof e.code === "string" && SQLSTATE.test(e.code) && ("severity" in e || "routine" in e);

const framesOnly = (stack: unknown): string | undefined =>
  // The message lines (a query error's SQL and parameters) go; only the frames stay.
  typeof stack === "string"
    ? stack
        .split("\n")
        .filter((line) => /^\s+at /.test(line))
        .join("\n")
    : undefined;

/**
 * The pino `err` serializer. A failed query logs its statement name, the error classes, the
 * SQLSTATE and the constraint: never the SQL text, its parameters or the driver's message and
 * detail, which quote the values (personal data). Any other error logs as pino would.
 */
export function serializeError(error: unknown): unknown {
  if (!error || typeof error !== "object") return error;
  const e = error as Loose & Error;
  const cause = (e.cause && typeof e.cause === "object" ? e.cause : undefined) as (Loose & Error) | undefined;
  const query = typeof e.query === "string" ? e.query : undefined;
  const db = isDatabaseError(e) ? e : cause && isDatabaseError(cause) ? cause : undefined;
  if (query === undefined && !db) return stdSerializers.err(e);
  return {
    type: e.constructor?.name ?? "Error",
    statement: query === undefined ? undefined : statementName(query),
    cause: db && db !== e ? (db.constructor?.name ?? "Error") : undefined,
    code: db?.code,
    constraint: db?.constraint,
    table: db?.table,
    stack: framesOnly(e.stack),
  };
}
