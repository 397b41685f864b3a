/**
 * Fault injection and rate-limit accounting shared by the emulators. Faults can be set as rates (demo,
 * benchmarks) or queued one by one (tests: "the next write is accepted and its connection dropped").
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { Prng } from "./prng";

/** `auth`: a valid token is refused (revoked or expired early on the server's side). */
export type FaultKind = "5xx" | "timeout" | "429" | "dropAfterWrite" | "lock" | "auth";

export interface QueuedFault {
  kind: FaultKind;
  /** Which calls it hits: reads, writes or any (default any; dropAfterWrite only hits writes). */
  on?: "read" | "write" | "any";
  /** Only calls of this operation (e.g. "saveVariantPrices", "SiparisKaydetV2"). */
  operation?: string;
  /** How many matching calls it hits (default 1). */
  times?: number;
}

export interface FaultConfig {
  /** Added to every request (ms). */
  latencyMs?: number;
  /** Extra random latency 0..latencyJitterMs. */
  latencyJitterMs?: number;
  /** Probability of an HTTP 500/503. */
  rate5xx?: number;
  /** Probability that a request hangs without an answer (the client times out). */
  timeoutRate?: number;
  /** Probability of a 429 that is not caused by the rate limit (bursts of throttling). */
  rate429?: number;
  /** Probability that a write is applied and then its connection dropped before the answer. */
  dropAfterWriteRate?: number;
  /** Probability of a "record locked" error (system-specific shape). */
  lockRate?: number;
  /** Probability that a valid token is refused (system-specific shape, `answers.unauthorized`). */
  authRate?: number;
  /** How long a hanging request hangs before its socket is destroyed (default 30 s). */
  hangMs?: number;
  /** Retry-After (seconds) sent with injected 429s (default 1). */
  retryAfterSeconds?: number;
  /** Deterministic faults, consumed in order by matching calls. */
  queue?: QueuedFault[];
}

export interface EmulatorCounters {
  requests: number;
  reads: number;
  writes: number;
  byOperation: Record<string, number>;
  /** Requests over the emulated rate limit (answered 429). */
  rateLimitViolations: number;
  /** Injected faults by kind. */
  faults: Record<FaultKind, number>;
  /** Answers that carried an error (any kind). */
  errors: number;
  /** Auth failures (bad credentials / expired token). */
  authFailures: number;
  /** Requests refused because the client is blocked for its error share. */
  blockedResponses: number;
}

export function newCounters(): EmulatorCounters {
  return {
    requests: 0,
    reads: 0,
    writes: 0,
    byOperation: {},
    rateLimitViolations: 0,
    faults: { "5xx": 0, timeout: 0, "429": 0, dropAfterWrite: 0, lock: 0, auth: 0 },
    errors: 0,
    authFailures: 0,
    blockedResponses: 0,
  };
}

export interface CallInfo {
  kind: "read" | "write";
  operation: string;
}

export class FaultInjector {
  private config: FaultConfig;
  private readonly rng: Prng;

  constructor(config: FaultConfig = {}, seed: number | string = 1) {
    this.config = { ...config, queue: [...(config.queue ?? [])] };
    this.rng = new Prng(`${seed}:faults`);
  }

  get current(): FaultConfig {
    return this.config;
  }

  /** Replace the fault configuration. */
  set(config: FaultConfig): void {
    this.config = { ...config, queue: [...(config.queue ?? [])] };
  }

  /** Queue deterministic faults after the ones already queued. */
  enqueue(...faults: QueuedFault[]): void {
    this.config.queue = [...(this.config.queue ?? []), ...faults];
  }

  clear(): void {
    this.config = {};
  }

  latency(): number {
    const base = this.config.latencyMs ?? 0;
    const jitter = this.config.latencyJitterMs ?? 0;
    return base + (jitter > 0 ? this.rng.int(0, jitter) : 0);
  }

  hangMs(): number {
    return this.config.hangMs ?? 30_000;
  }

  retryAfterSeconds(): number {
    return this.config.retryAfterSeconds ?? 1;
  }

  /** The fault for this call, if any (queue first, then rates). */
  decide(call: CallInfo): FaultKind | undefined {
    const queue = this.config.queue;
    if (queue && queue.length > 0) {
      const idx = queue.findIndex((f) => {
        const on = f.on ?? (f.kind === "dropAfterWrite" ? "write" : "any");
        if (on !== "any" && on !== call.kind) return false;
        if (f.operation && f.operation !== call.operation) return false;
        return true;
      });
      const f = idx >= 0 ? queue[idx] : undefined;
      if (f) {
        const left = (f.times ?? 1) - 1;
        if (left <= 0) queue.splice(idx, 1);
        else queue[idx] = { ...f, times: left };
        return f.kind;
      }
    }
    const c = this.config;
    if (c.rate429 && this.rng.chance(c.rate429)) return "429";
    if (c.rate5xx && this.rng.chance(c.rate5xx)) return "5xx";
    if (c.timeoutRate && this.rng.chance(c.timeoutRate)) return "timeout";
    if (c.lockRate && this.rng.chance(c.lockRate)) return "lock";
    if (c.authRate && this.rng.chance(c.authRate)) return "auth";
    if (call.kind === "write" && c.dropAfterWriteRate && this.rng.chance(c.dropAfterWriteRate)) {
      return "dropAfterWrite";
    }
    return undefined;
  }
}

/** Sliding-window arrival log of an emulated rate limit. */
export class EmulatedRateLimit {
  private log: number[] = [];

  constructor(
    public requests: number,
    public windowMs: number,
  ) {}

  /** Record an arrival; returns 0 when within the limit, else ms until a slot frees. */
  arrive(now: number): number {
    const from = now - this.windowMs;
    let drop = 0;
    while (drop < this.log.length && (this.log[drop] ?? 0) <= from) drop++;
    if (drop > 0) this.log.splice(0, drop);
    if (this.log.length >= this.requests) {
      return Math.max(1, (this.log[0] ?? now) + this.windowMs - now);
    }
    this.log.push(now);
    return 0;
  }

  reset(): void {
    this.log = [];
  }
}

/** When a system blocks a client whose share of failed requests is too high (IKAS: over 25 % in 1 h). */
export interface ErrorBlockPolicy {
  /** Window the error share is measured over. */
  windowMs: number;
  /** Requests needed in the window before the share counts. */
  minRequests: number;
  /** Error share above which the client is blocked. */
  errorRatio: number;
  /** Block length. */
  blockMs: number;
}

/** Sliding-window error share; once over the policy's ratio, the client is blocked for `blockMs`. */
export class ErrorRateBlock {
  private outcomes: Array<[at: number, isError: boolean]> = [];
  /** Epoch ms until which the client is blocked (0 = not blocked). */
  blockedUntil = 0;

  constructor(readonly policy: ErrorBlockPolicy) {}

  /** Record one answered request. */
  note(now: number, isError: boolean): void {
    const p = this.policy;
    this.outcomes.push([now, isError]);
    let drop = 0;
    while (drop < this.outcomes.length && (this.outcomes[drop]?.[0] ?? 0) <= now - p.windowMs) drop++;
    if (drop > 0) this.outcomes.splice(0, drop);
    const errors = this.outcomes.filter((o) => o[1]).length;
    if (this.outcomes.length >= p.minRequests && errors / this.outcomes.length > p.errorRatio) {
      this.blockedUntil = now + p.blockMs;
      this.outcomes = [];
    }
  }

  /** Ms left of the block at `now` (0 = not blocked). */
  remaining(now: number): number {
    return Math.max(0, this.blockedUntil - now);
  }
}

export const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0) {
      resolve();
      return;
    }
    setTimeout(resolve, ms).unref();
  });

/** Hang, then drop the connection without an answer (the client's timeout fires first). */
export async function hangAndDrop(req: FastifyRequest, reply: FastifyReply, ms: number): Promise<void> {
  reply.hijack();
  await delay(ms);
  req.raw.socket?.destroy();
}

/** Drop the connection without an answer (after a write was applied). */
export function dropConnection(req: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  req.raw.socket?.destroy();
}

export function countCall(counters: EmulatorCounters, call: CallInfo): void {
  counters.requests++;
  if (call.kind === "read") counters.reads++;
  else counters.writes++;
  counters.byOperation[call.operation] = (counters.byOperation[call.operation] ?? 0) + 1;
}
