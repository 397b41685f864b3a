/**
 * The relay's frames and errors: a connector's call as the frame an agent takes, and an agent's answer (or its
 * absence) as the connector SDK's errors. Pure functions, apart from the hub that holds the sockets.
 */
import { ConnectorError, type SqlParams, TRANSPORT_LOST, TRANSPORT_OFFLINE } from "@ep/connectors";
import type { AgentAnswerFrame, AgentRequestFrame, AgentSqlAnswerFrame } from "@ep/contracts";

export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** What the merchant reads (run report, failed tasks): the SDK passes it on. */
    readonly merchantMessage?: string,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

/** A call as the frame carries it. */
export type SimpleCall = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  signal: AbortSignal;
};

export const NEVER = new AbortController().signal;

/**
 * The connector SDK's calls (a URL string, a header object, a string body): framed without building a
 * WHATWG Request and reading its body stream back, which is most of the relay's own cost on loopback.
 */
export function simpleCall(
  input: string | URL | Request,
  init: RequestInit | undefined,
): SimpleCall | undefined {
  if (typeof input !== "string") return undefined;
  const headers = init?.headers;
  const body = init?.body;
  if (headers !== undefined && (headers instanceof Headers || Array.isArray(headers))) return undefined;
  if (body !== undefined && body !== null && typeof body !== "string") return undefined;
  return {
    method: (init?.method ?? "GET").toUpperCase(),
    url: new URL(input).toString(),
    headers: Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    body: typeof body === "string" ? Buffer.from(body) : undefined,
    signal: init?.signal ?? NEVER,
  };
}

export async function fromRequest(request: Request): Promise<SimpleCall> {
  return {
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
    signal: request.signal,
  };
}

export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal === NEVER) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** The transport's code of an error frame a holder answered for a routed call (else undefined). */
export function transportCodeOf(answer: AgentAnswerFrame): string | undefined {
  const code = answer.type === "http-error" || answer.type === "sql-error" ? answer.code : undefined;
  return code === TRANSPORT_OFFLINE || code === TRANSPORT_LOST ? code : undefined;
}

/** A routed call that could not reach the agent, in the frame kind its caller waits for. */
export function transportFailure(frame: AgentRequestFrame, code: string, message: string): AgentAnswerFrame {
  return frame.type === "sql"
    ? { type: "sql-error", id: frame.id, kind: "unreachable", code, message }
    : { type: "http-error", id: frame.id, code, message };
}

/** Dates travel as ISO text; the agent's driver binds them as parameters all the same. */
export function frameParams(params: SqlParams): Record<string, string | number | boolean | null> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );
}

/**
 * The agent's SQL failure as the SDK's error kinds, so the engine retries what is transient and the
 * merchant reads a Turkish sentence; the driver's own text stays in `systemMessage` (the log).
 */
export function sqlError(answer: Extract<AgentSqlAnswerFrame, { type: "sql-error" }>): ConnectorError {
  const reason =
    answer.kind === "auth"
      ? "auth"
      : answer.kind === "timeout"
        ? "timeout"
        : answer.kind === "lock"
          ? "lock"
          : answer.kind === "unreachable"
            ? "unavailable"
            : "validation";
  return new ConnectorError(`sql through the agent: ${answer.kind}`, {
    reason,
    systemMessage: answer.message,
    systemCode: answer.code,
    // A statement the database refused or never got changed nothing; a timeout may have.
    maybeApplied: answer.kind === "timeout",
    system: "sql",
    operation: "query",
  });
}

/** The agent offline or lost mid-statement, as the SDK's transient error with the merchant's sentence. */
export function sqlTransportError(e: unknown): unknown {
  if (!(e instanceof TransportError)) return e;
  return new ConnectorError(`sql through the agent: ${e.message}`, {
    reason: "unavailable",
    systemMessage: e.message,
    systemCode: e.code,
    merchantMessage: e.merchantMessage,
    // Lost after sending: the statement may have run; offline: it was never sent.
    maybeApplied: e.code === TRANSPORT_LOST,
    system: "sql",
    operation: "query",
    cause: e,
  });
}
