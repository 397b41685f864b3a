/**
 * The one HTTP client of all connectors: Node's fetch with AbortSignal timeouts, a rate limiter per
 * (company, system), bounded retries of transient failures with exponential backoff + jitter, Retry-After
 * honoured, request/response logging with secrets masked, and a call counter.
 *
 * Writes are never re-sent blindly: a non-idempotent write is retried inside the client only when the
 * system provably did not take it (429, connection refused before anything was sent, or a 401 after a token
 * refresh). A write whose outcome is unknown fails with `maybeApplied: true` so the engine looks it up first.
 */

import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";
import { ConnectorError, type FailureReason, parseRetryAfter, reasonForHttpStatus } from "./errors";
import { type CallCounter, type CallKind, type HttpLogger, maskText } from "./logging";
import { sleep as defaultSleep, type RateLimiter } from "./rate-limit";

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for inside the client: the error goes up. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

export interface HttpClientOptions {
  system: string;
  baseUrl?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  rateLimiter?: RateLimiter;
  logger?: HttpLogger;
  counter?: CallCounter;
  /** Values never to be logged (passwords, secrets, tokens). More can be added with `addSecret`. */
  secrets?: string[];
  /** Log request/response bodies (masked, truncated). Default true. */
  logBodies?: boolean;
  /** The transport: Node's fetch, the outbound guard's, or a relay through the on-site agent. */
  fetch?: TransportFetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  defaultHeaders?: Record<string, string>;
}

export type HttpBody =
  | { json: unknown }
  | { form: Record<string, string> }
  | { text: string; contentType?: string };

export interface HttpRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Absolute URL or a path under baseUrl. */
  url: string;
  /** A name for logs and counters, e.g. "listProduct" or "SiparisKaydetV2". */
  operation: string;
  kind: CallKind;
  /** Safe to send twice (default: true for reads, false for writes). */
  idempotent?: boolean;
  body?: HttpBody;
  /** Headers computed per attempt (e.g. a bearer token that may have been refreshed). */
  headers?: () => Promise<Record<string, string>> | Record<string, string>;
  timeoutMs?: number;
  /** Body-level classification (errors inside HTTP 200 etc.). Return a ConnectorError to fail the call. */
  classify?: (res: HttpResponse) => ConnectorError | undefined;
  /** Called once on an auth failure; if it resolves true the request is sent once more (token refresh). */
  onAuthFailure?: () => Promise<boolean>;
  signal?: AbortSignal;
  /** Keep the answer as bytes (`HttpResponse.bytes`; `text` stays empty): PDFs and other files. */
  binary?: boolean;
  /** Rate limit cost of the call (default 1). */
  cost?: number;
  /** Not counted by the rate limiter (e.g. a token endpoint on another host). */
  skipRateLimit?: boolean;
  /**
   * A second limit this request must also fit, taken on every attempt (Sentos: the same GET at most
   * twice a minute, beside the client's general budget).
   */
  extraLimiter?: RateLimiter;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: unknown;
  /** The raw answer, for a request made with `binary`. */
  bytes?: Uint8Array;
}

/**
 * Codes a relaying transport (the on-site agent) fails with: its peer is offline, so nothing was sent, or
 * it went away mid-call, so a write may have been applied. Both are reported as reason "unavailable".
 */
export const TRANSPORT_OFFLINE = "ETRANSPORTOFFLINE";
export const TRANSPORT_LOST = "ETRANSPORTLOST";

/**
 * The one transport seam: a `fetch`, optionally with `ready`, which a relaying transport uses to wait
 * (within its own bound) for its peer before a call starts, so that waiting for an agent to come back
 * neither eats the call's timeout nor holds a rate-limit ticket. `ready` fails with a TRANSPORT_OFFLINE
 * error when the peer stays away; nothing has been sent then. An error may carry `merchantMessage`, the
 * Turkish sentence the merchant reads (e.g. "Yerel bağlantı aracı çevrimdışı (son görülme: …)").
 */
export type TransportFetch = typeof fetch & { ready?: (signal?: AbortSignal) => Promise<void> };

const merchantMessageOf = (e: unknown): string | undefined => {
  const text = (e as { merchantMessage?: unknown } | undefined)?.merchantMessage;
  return typeof text === "string" ? text : undefined;
};

const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  TRANSPORT_OFFLINE,
]);

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorMessage(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    if (cur instanceof Error) parts.push(cur.message);
    else parts.push(String(cur));
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(": ");
}

/** The code of the error a guarded connection fails with (see `OutboundGuard`). */
export const OUTBOUND_REFUSED = "EOUTBOUNDREFUSED";

export class OutboundRefusedError extends Error {
  readonly code = OUTBOUND_REFUSED;
  constructor() {
    super("outbound connection refused: the address is not a public one");
    this.name = "OutboundRefusedError";
  }
}

export type AllowRule = { net: [ipaddr.IPv4 | ipaddr.IPv6, number]; port?: number };

/** `127.0.0.1`, `127.0.0.1:4010`, `10.0.0.0/8`, `::1`, `[::1]:4010`, `fd00::/8`; throws on anything else. */
export function parseOutboundAllow(entry: string): AllowRule {
  const text = entry.trim();
  const bracketed = text.match(/^\[([^\]]+)\](?::(\d{1,5}))?$/);
  const v4 = text.match(/^([\d.]+)(\/\d{1,2})?(?::(\d{1,5}))?$/);
  const [host, prefix, port] = bracketed
    ? [bracketed[1]!, "", bracketed[2]]
    : v4
      ? [v4[1]!, v4[2] ?? "", v4[3]]
      : [text.replace(/\/\d+$/, ""), text.match(/\/\d+$/)?.[0] ?? "", undefined];
  // Dotted-quad IPv4 only: ipaddr.isValid also takes "127.1", "0x7f.0.0.1", "017.0.0.1" (octal: 15.0.0.1)
  // and "4294967295", which no one means in an allow-list.
  if (!ipaddr.IPv4.isValidFourPartDecimal(host) && !ipaddr.IPv6.isValid(host))
    throw new Error(`not an IP address or network: ${entry}`);
  const address = ipaddr.process(host);
  const bits = prefix ? Number(prefix.slice(1)) : address.kind() === "ipv4" ? 32 : 128;
  const net = ipaddr.parseCIDR(`${address.toString()}/${bits}`);
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw new Error(`bad port: ${entry}`);
  return { net, port: port === undefined ? undefined : Number(port) };
}

export interface OutboundPolicy {
  /** Non-public addresses allowed all the same (emulators, tests): see `parseOutboundAllow`. */
  allow?: readonly string[];
  /** Name resolution; the system resolver by default (tests may answer fixed addresses). */
  resolve?: (hostname: string) => Promise<string[]>;
  /** TCP/TLS connect timeout. */
  connectTimeoutMs?: number;
}

const systemResolve = async (hostname: string) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The outbound-call guard (server-side request forgery): connections to external systems go only
 * to public unicast addresses — never loopback, link-local, private, CGNAT, multicast or reserved
 * ones — unless allowed by configuration. The check runs at connect time on the resolved addresses
 * and the socket is opened to the very address checked, so a DNS answer that changes between the
 * check and the connection (rebinding) cannot slip through; redirects are connections too. A refused
 * address fails before any packet is sent, the same way for every port.
 */
export class OutboundGuard {
  private readonly rules: AllowRule[] = [];
  private readonly resolveHost: (hostname: string) => Promise<string[]>;
  private readonly agent: Agent;

  constructor(policy: OutboundPolicy = {}) {
    for (const entry of policy.allow ?? []) this.allow(entry);
    this.resolveHost = policy.resolve ?? systemResolve;
    const connector = buildConnector({ timeout: policy.connectTimeoutMs ?? 10_000 });
    this.agent = new Agent({
      connect: (options, callback) => {
        const host = options.hostname.replace(/^\[|\]$/g, "");
        const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80);
        this.pick(host, port).then(
          (address) =>
            address
              ? connector({ ...options, hostname: address }, callback)
              : callback(new OutboundRefusedError(), null),
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  /** Allows one more address or network, optionally one port only (e.g. the server's own emulator). */
  allow(entry: string): void {
    this.rules.push(parseOutboundAllow(entry));
  }

  isAllowed(address: string, port: number): boolean {
    if (!ipaddr.isValid(address)) return false;
    const ip = ipaddr.process(address);
    if (ip.range() === "unicast") return true;
    return this.rules.some(
      (r) => r.net[0].kind() === ip.kind() && ip.match(r.net) && (r.port === undefined || r.port === port),
    );
  }

  /** The first resolved address that may be called, or undefined when none may. */
  private async pick(host: string, port: number): Promise<string | undefined> {
    const addresses = ipaddr.isValid(host) ? [host] : await this.resolveHost(host);
    return addresses.find((a) => this.isAllowed(a, port));
  }

  /**
   * Node's own fetch (the one every connector used before the guard) with the guard's dispatcher:
   * `dispatcher` is Node's extension of RequestInit, absent from the DOM types.
   */
  readonly fetch: typeof fetch = (input, init) =>
    fetch(input, { ...init, dispatcher: this.agent } as RequestInit);

  close(): Promise<void> {
    return this.agent.destroy();
  }
}

export class HttpClient {
  readonly system: string;
  readonly baseUrl?: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly rateLimiter?: RateLimiter;
  private readonly logger?: HttpLogger;
  private readonly counter?: CallCounter;
  private readonly secrets = new Set<string>();
  private readonly logBodies: boolean;
  private readonly fetchFn: TransportFetch;
  private readonly sleepFn: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly defaultHeaders: Record<string, string>;

  constructor(opts: HttpClientOptions) {
    this.system = opts.system;
    this.baseUrl = opts.baseUrl;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.rateLimiter = opts.rateLimiter;
    this.logger = opts.logger;
    this.counter = opts.counter;
    for (const s of opts.secrets ?? []) this.addSecret(s);
    this.logBodies = opts.logBodies ?? true;
    this.fetchFn = opts.fetch ?? fetch;
    this.sleepFn = opts.sleep ?? ((ms) => defaultSleep(ms));
    this.random = opts.random ?? Math.random;
    this.defaultHeaders = opts.defaultHeaders ?? {};
  }

  addSecret(value: string | undefined): void {
    if (value) this.secrets.add(value);
  }

  mask(text: string): string {
    return maskText(text, this.secrets);
  }

  private resolveUrl(url: string): string {
    if (/^https?:\/\//i.test(url)) return url;
    if (!this.baseUrl)
      throw new ConnectorError(`No base URL for ${url}`, { reason: "config", system: this.system });
    return `${this.baseUrl.replace(/\/+$/, "")}/${url.replace(/^\/+/, "")}`;
  }

  private backoff(attempt: number): number {
    const exp = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt);
    return Math.round(exp / 2 + (this.random() * exp) / 2);
  }

  /** Send a request; resolves with the response or throws a classified ConnectorError. */
  async request(req: HttpRequest): Promise<HttpResponse> {
    const idempotent = req.idempotent ?? req.kind === "read";
    let authRetried = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(req, attempt);
      } catch (e) {
        if (!(e instanceof ConnectorError)) throw e;
        // What this call finally throws says whether it answered a repeat: a refusal of a duplicate may
        // then mean the first attempt got through (Trendyol's 15-minute rule).
        const final = () =>
          attempt > 0 ? e.with({ afterRetry: true, merchantMessage: e.merchantMessage }) : e;
        if (e.reason === "auth" && req.onAuthFailure && !authRetried) {
          authRetried = true;
          if (await req.onAuthFailure()) {
            this.counter?.recordRetry(this.system);
            attempt--;
            continue;
          }
        }
        if (e.kind !== "transient" || attempt >= this.retry.maxRetries) throw final();
        // The transport already waited its bound for its peer: the next run tries again, not this loop.
        if (e.systemCode === TRANSPORT_OFFLINE) throw final();
        // A write whose outcome is unknown is never re-sent here.
        if (!idempotent && e.maybeApplied) throw final();
        if (e.retryAfterMs !== undefined && e.retryAfterMs > this.retry.maxRetryAfterMs) throw final();
        if (e.reason === "rate_limited" && e.retryAfterMs !== undefined) {
          await this.rateLimiter?.pause(e.retryAfterMs);
        }
        const wait = Math.max(e.retryAfterMs ?? 0, this.backoff(attempt));
        this.counter?.recordRetry(this.system);
        await this.sleepFn(wait);
      }
    }
  }

  private async once(req: HttpRequest, attempt: number): Promise<HttpResponse> {
    const url = this.resolveUrl(req.url);
    const method = req.method ?? "POST";
    const headers: Record<string, string> = { accept: "application/json", ...this.defaultHeaders };
    let body: string | undefined;
    if (req.body && "json" in req.body) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(req.body.json);
    } else if (req.body && "form" in req.body) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(req.body.form).toString();
    } else if (req.body && "text" in req.body) {
      headers["content-type"] = req.body.contentType ?? "text/plain";
      body = req.body.text;
    }
    if (req.headers) Object.assign(headers, await req.headers());

    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    if (this.fetchFn.ready) await this.transportReady(req, method, url, body);
    // The narrower limit first, so no slot of the general budget is held while it waits.
    const extraTicket = await req.extraLimiter?.acquire(1, req.signal, timeoutMs + 1000);
    let ticket: string | undefined;
    try {
      ticket = req.skipRateLimit
        ? undefined
        : await this.rateLimiter?.acquire(req.cost ?? 1, req.signal, timeoutMs + 1000);
      return await this.send(req, attempt, url, method, headers, body, timeoutMs);
    } finally {
      await this.rateLimiter?.release(ticket);
      await req.extraLimiter?.release(extraTicket);
    }
  }

  /** Waits for a relaying transport's peer; a peer that stays away fails the call as not sent. */
  private async transportReady(req: HttpRequest, method: string, url: string, body: string | undefined) {
    const started = Date.now();
    try {
      await this.fetchFn.ready?.(req.signal);
    } catch (e) {
      if (req.signal?.aborted) throw req.signal.reason ?? e;
      const err = new ConnectorError(`${this.system} ${req.operation}: transport offline`, {
        reason: "unavailable",
        systemMessage: errorMessage(e),
        systemCode: errorCode(e) ?? TRANSPORT_OFFLINE,
        merchantMessage: merchantMessageOf(e),
        maybeApplied: false,
        system: this.system,
        operation: req.operation,
        cause: e,
      });
      this.counter?.recordFailure(this.system);
      this.log(req, method, url, 0, started, undefined, body, undefined, err);
      throw err;
    }
  }

  private async send(
    req: HttpRequest,
    attempt: number,
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<HttpResponse> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    const started = Date.now();
    this.counter?.record(this.system, req.kind, req.operation);
    const isWrite = req.kind === "write";
    const idempotent = req.idempotent ?? !isWrite;

    let res: Response;
    let text: string;
    let bytes: Uint8Array | undefined;
    try {
      res = await this.fetchFn(url, { method, headers, body, signal });
      if (req.binary) {
        bytes = new Uint8Array(await res.arrayBuffer());
        text = "";
      } else text = await res.text();
    } catch (e) {
      if (req.signal?.aborted) throw req.signal.reason ?? e;
      const timedOut = timeout.aborted;
      const code = errorCode(e);
      if (code === OUTBOUND_REFUSED) {
        // Nothing was sent; trying again cannot help: a settings problem, said the same way for every port.
        const refused = new ConnectorError(`${this.system} ${req.operation}: address not allowed`, {
          reason: "config",
          systemCode: OUTBOUND_REFUSED,
          system: this.system,
          operation: req.operation,
          cause: e,
        });
        this.counter?.recordFailure(this.system);
        this.log(req, method, url, attempt, started, undefined, body, undefined, refused);
        throw refused;
      }
      const notSent = code !== undefined && NOT_SENT_CODES.has(code);
      const err = new ConnectorError(
        timedOut
          ? `${this.system} ${req.operation}: no answer within ${timeoutMs} ms`
          : `${this.system} ${req.operation}: connection failed (${code ?? "network"})`,
        {
          reason: timedOut
            ? "timeout"
            : code === TRANSPORT_OFFLINE || code === TRANSPORT_LOST
              ? "unavailable"
              : "network",
          systemMessage: errorMessage(e),
          systemCode: code,
          merchantMessage: merchantMessageOf(e),
          maybeApplied: isWrite && !idempotent && !notSent,
          system: this.system,
          operation: req.operation,
          cause: e,
        },
      );
      this.counter?.recordFailure(this.system);
      this.log(req, method, url, attempt, started, undefined, body, undefined, err);
      throw err;
    }

    let json: unknown;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const response: HttpResponse = { status: res.status, headers: res.headers, text, json, bytes };
    let err = req.classify?.(response);
    if (!err) {
      const reason = reasonForHttpStatus(res.status);
      if (reason) err = this.statusError(req, response, reason);
    }
    if (err && err.reason === "rate_limited" && err.retryAfterMs === undefined) {
      const ra = parseRetryAfter(res.headers.get("retry-after"));
      if (ra !== undefined) err = err.with({ retryAfterMs: ra });
    }
    if (err && isWrite && !idempotent && err.kind === "transient" && err.maybeApplied === false) {
      // A 5xx / timeout-like answer to a write: the system may have applied it. 429/423 are refusals.
      if (err.reason !== "rate_limited" && err.reason !== "lock" && err.reason !== "blocked") {
        err = err.with({ maybeApplied: true });
      }
    }
    this.log(req, method, url, attempt, started, res.status, body, text, err);
    if (err) {
      this.counter?.recordFailure(this.system);
      throw err;
    }
    return response;
  }

  private statusError(req: HttpRequest, res: HttpResponse, reason: FailureReason): ConnectorError {
    const snippet = res.text.slice(0, 500);
    return new ConnectorError(`${this.system} ${req.operation}: HTTP ${res.status}`, {
      reason,
      httpStatus: res.status,
      systemMessage: snippet ? this.mask(snippet) : undefined,
      retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
      system: this.system,
      operation: req.operation,
    });
  }

  private log(
    req: HttpRequest,
    method: string,
    url: string,
    attempt: number,
    started: number,
    status: number | undefined,
    requestBody: string | undefined,
    responseBody: string | undefined,
    err: ConnectorError | undefined,
  ): void {
    if (!this.logger) return;
    const cut = (s: string | undefined) =>
      s === undefined ? undefined : this.mask(s.length > 4000 ? `${s.slice(0, 4000)}…` : s);
    this.logger({
      system: this.system,
      operation: req.operation,
      kind: req.kind,
      method,
      url: this.mask(url),
      attempt,
      status,
      durationMs: Date.now() - started,
      requestBody: this.logBodies ? cut(requestBody) : undefined,
      responseBody: this.logBodies ? cut(responseBody) : undefined,
      error: err ? { kind: err.kind, reason: err.reason, message: this.mask(err.message) } : undefined,
    });
  }
}
