import type { ErpConnector, FailureReason, ShopConnector } from "@ep/connectors";
import { isConnectorError, listConnectors } from "@ep/connectors";
import { type MessageKey, message } from "@ep/contracts";

/**
 * The one place where a failure becomes what the merchant reads (notifications, failed tasks, run
 * reports) and what the server log keeps. The merchant gets a Turkish sentence chosen by the
 * failure's kind and reason that says what to do next; never SQL, a stack trace or driver text
 * ("fetch failed: connect ECONNREFUSED …"). The log gets the error class, the statement name and
 * the codes; never the SQL text or its parameters (they carry personal data).
 */

/** A failure the engine explains itself with a Turkish message (e.g. "no stock location in the shop"). */
export class MerchantFacingError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(message(key, params));
    this.name = "MerchantFacingError";
  }
}

/** Display names of the systems a run talks to, by their machine id ("mikro" → "Mikro"). */
export type SystemNames = Record<string, string>;

export const systemNamesOf = (erp: ErpConnector, shop: ShopConnector): SystemNames => ({
  [erp.descriptor.system]: erp.descriptor.name,
  [shop.descriptor.system]: shop.descriptor.name,
});

const REASON_TEXT: Record<FailureReason, MessageKey> = {
  network: "failure.network",
  timeout: "failure.timeout",
  server_error: "failure.serverError",
  rate_limited: "failure.rateLimited",
  lock: "failure.lock",
  blocked: "failure.blocked",
  unavailable: "failure.unavailable",
  auth: "failure.auth",
  validation: "failure.validation",
  not_found: "failure.notFound",
  unknown_item: "failure.unknownItem",
  conflict: "failure.conflict",
  unsupported: "failure.unsupported",
  bad_response: "failure.badResponse",
  config: "failure.config",
};

/**
 * Reasons where the system's own answer is about the record itself (a missing name, a barcode in
 * use): its short plain text helps the merchant fix the record, so it is quoted after ours.
 */
const QUOTE_SYSTEM_FOR: ReadonlySet<FailureReason> = new Set(["validation", "conflict", "not_found"]);
const QUOTE_MAX = 200;
/** Text that is a machine's, not a person's: SQL, stack frames, socket errors, markup, JSON. */
const TECHNICAL =
  /\b(select|insert|update|delete)\b[\s\S]*\b(from|into|set|where)\b|\bat\s+\S+\s+\(|fetch failed|socket|exception|stack|constraint|syntax|\bsql\b|https?:\/\/|\d+\.\d+\.\d+\.\d+|[{}<>[\]]/i;
/** Node's error codes (ECONNREFUSED, ETIMEDOUT, EAI_AGAIN): upper case only. */
const ERRNO = /\bE[A-Z_]{4,}\b/;

function quotable(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (
    !trimmed ||
    trimmed.length > QUOTE_MAX ||
    /[\r\n]/.test(trimmed) ||
    TECHNICAL.test(trimmed) ||
    ERRNO.test(trimmed)
  )
    return undefined;
  return trimmed;
}

/** What the merchant reads about a failure. */
export function failureText(error: unknown, names: SystemNames = {}): string {
  if (error instanceof MerchantFacingError) return error.message;
  if (isConnectorError(error) && error.merchantMessage) return error.merchantMessage;
  if (isConnectorError(error)) {
    const system =
      (error.system &&
        (names[error.system] ?? listConnectors().find((d) => d.system === error.system)?.name)) ||
      message("failure.someSystem");
    const text = message(REASON_TEXT[error.reason] ?? "failure.unexpected", { system });
    const said = QUOTE_SYSTEM_FOR.has(error.reason) ? quotable(error.systemMessage) : undefined;
    return said ? message("failure.systemSaid", { text, said }) : text;
  }
  if (databaseErrorOf(error)) return message("failure.database");
  return message("failure.unexpected");
}

const SQLSTATE = /^([0-9]{2}|F0|HV|P0|XX)[0-9A-Z]{3}$/;
type DatabaseErrorFields = { code: string; constraint?: string; table?: string };

/** The database's own error fields, on the error or one of its causes (Drizzle wraps the driver's). */
export function databaseErrorOf(error: unknown): DatabaseErrorFields | undefined {
  let query = false;
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const fields = e as { code?: unknown; constraint?: unknown; table?: unknown; cause?: unknown };
    // SQLSTATE codes ("23505", "42P01", "P0001"), not driver errno codes ("ECONNREFUSED", "EPIPE").
    if (typeof fields.code === "string" && SQLSTATE.test(fields.code)) {
      return {
        code: fields.code,
        constraint: typeof fields.constraint === "string" ? fields.constraint : undefined,
        table: typeof fields.table === "string" ? fields.table : undefined,
      };
    }
    query ||= isQueryError(e);
    e = fields.cause;
  }
  // A statement that failed without the server's answer (the connection dropped, say).
  return query ? { code: "unknown" } : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const db = databaseErrorOf(error);
  return db?.code === "23505" && (constraint === undefined || db.constraint === constraint);
}

const isQueryError = (e: object): e is { query: string; params: unknown[] } =>
  typeof (e as { query?: unknown }).query === "string" && Array.isArray((e as { params?: unknown }).params);

/** "insert sync_ledger", "update job_runs"…: what a statement did, without its text or values. */
export function statementName(query: string): string {
  const write = /\b(insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i.exec(query);
  if (write) return `${write[1]!.split(/\s+/)[0]!.toLowerCase()} ${write[2]}`;
  const read = /\bfrom\s+"?(\w+)"?/i.exec(query);
  return read ? `select ${read[1]}` : "statement";
}

/** DrizzleQueryError and the drivers' errors leave `name` as "Error" or "error": the class says more. */
const classOf = (e: object): string => {
  const ctor = (e as { constructor?: { name?: string } }).constructor?.name;
  return ctor && ctor !== "Object" && ctor !== "Error" ? ctor : ((e as Error).name ?? "Error");
};

/** What the server log keeps about a failure: class, codes, statement name; no SQL text or values. */
export function failureLog(error: unknown): Record<string, unknown> {
  if (isConnectorError(error)) {
    return {
      errorClass: error.name,
      system: error.system,
      operation: error.operation,
      kind: error.kind,
      reason: error.reason,
      httpStatus: error.httpStatus,
      systemCode: error.systemCode,
      systemMessage: error.systemMessage?.slice(0, 300),
    };
  }
  if (error && typeof error === "object") {
    const e = error as Error & { cause?: unknown };
    const db = databaseErrorOf(error);
    if (db) {
      const query = isQueryError(e) ? e.query : undefined;
      return {
        errorClass: classOf(e),
        causeClass: e.cause ? classOf(e.cause) : undefined,
        statement: query ? statementName(query) : undefined,
        sqlState: db.code,
        constraint: db.constraint,
        table: db.table,
      };
    }
    return { errorClass: classOf(e), message: String(e.message).slice(0, 300), stack: e.stack };
  }
  return { errorClass: typeof error, message: String(error).slice(0, 300) };
}
