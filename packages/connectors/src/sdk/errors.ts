import { type PERMANENT_FAILURE_REASONS, TRANSIENT_FAILURE_REASONS } from "@ep/contracts";
/** Failure classes every connector reports (design brief, "Rules the engine keeps"). */

export type FailureKind = "transient" | "permanent";

export type TransientReason = (typeof TRANSIENT_FAILURE_REASONS)[number];

export type PermanentReason = (typeof PERMANENT_FAILURE_REASONS)[number];

export type FailureReason = TransientReason | PermanentReason;

const TRANSIENT_REASONS: ReadonlySet<string> = new Set<string>(TRANSIENT_FAILURE_REASONS);

export interface ConnectorErrorInit {
  reason: FailureReason;
  /** The external system's own message, kept verbatim. */
  systemMessage?: string;
  /**
   * Our own Turkish explanation for the merchant (a catalogue message), when the connector knows
   * better than the failure's reason what the merchant should do; shown as is.
   */
  merchantMessage?: string;
  /** The external system's own error code, if any. */
  systemCode?: string;
  httpStatus?: number;
  retryAfterMs?: number;
  /**
   * A write whose outcome is unknown (accepted, then the connection dropped or timed out):
   * look the record up before any retry.
   */
  maybeApplied?: boolean;
  /**
   * The answer to a repeat of a request already sent in the same call (after a timeout or a dropped
   * answer): a refusal of a duplicate may then mean the first attempt got through.
   */
  afterRetry?: boolean;
  system?: string;
  operation?: string;
  /** Keys of the items (sku, order no...) this failure concerns, for item-level reports. */
  itemKeys?: string[];
  /** Extra data of the system's error (e.g. GraphQL extensions). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class ConnectorError extends Error {
  readonly kind: FailureKind;
  readonly reason: FailureReason;
  readonly systemMessage?: string;
  readonly merchantMessage?: string;
  readonly systemCode?: string;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  readonly maybeApplied: boolean;
  readonly afterRetry: boolean;
  readonly system?: string;
  readonly operation?: string;
  readonly itemKeys?: string[];
  readonly details?: Record<string, unknown>;

  constructor(message: string, init: ConnectorErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ConnectorError";
    this.reason = init.reason;
    this.kind = TRANSIENT_REASONS.has(init.reason) ? "transient" : "permanent";
    this.systemMessage = init.systemMessage;
    this.merchantMessage = init.merchantMessage;
    this.systemCode = init.systemCode;
    this.httpStatus = init.httpStatus;
    this.retryAfterMs = init.retryAfterMs;
    this.maybeApplied = init.maybeApplied ?? false;
    this.afterRetry = init.afterRetry ?? false;
    this.system = init.system;
    this.operation = init.operation;
    this.itemKeys = init.itemKeys;
    this.details = init.details;
  }

  get transient(): boolean {
    return this.kind === "transient";
  }

  /** A plain object for job error reports / logs. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      ...this.facts(),
      merchantMessage: this.merchantMessage,
    };
  }

  /** What a copy keeps and a report shows (a copy derives the merchant's sentence again). */
  private facts() {
    return {
      reason: this.reason,
      systemMessage: this.systemMessage,
      systemCode: this.systemCode,
      httpStatus: this.httpStatus,
      retryAfterMs: this.retryAfterMs,
      maybeApplied: this.maybeApplied,
      afterRetry: this.afterRetry,
      system: this.system,
      operation: this.operation,
      itemKeys: this.itemKeys,
    };
  }

  /** A copy with some fields changed. */
  with(patch: Partial<ConnectorErrorInit>): ConnectorError {
    return new ConnectorError(this.message, {
      ...this.facts(),
      details: this.details,
      cause: this.cause,
      ...patch,
    });
  }
}

export function isConnectorError(e: unknown): e is ConnectorError {
  return e instanceof ConnectorError;
}

export function isTransient(e: unknown): boolean {
  return isConnectorError(e) && e.kind === "transient";
}

/** Classification of a plain HTTP status (before any body-level classification). */
export function reasonForHttpStatus(status: number): FailureReason | undefined {
  if (status < 400) return undefined;
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 408) return "timeout";
  if (status === 409) return "conflict";
  if (status === 423) return "lock";
  if (status === 429) return "rate_limited";
  if (status === 503) return "unavailable";
  if (status >= 500) return "server_error";
  return "validation";
}

/** Parse a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.max(0, Math.round(Number(trimmed) * 1000));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Result of a batch write: items that failed, with their failure; the others were applied. */
export interface BatchResult {
  applied: number;
  failed: Array<{ key: string; error: ConnectorError }>;
  /** Number of external calls the batch took (for "calls track changes" checks). */
  calls: number;
}
