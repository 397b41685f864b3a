/**
 * Rate limiter per (company, system). Its state lives behind `RateLimitStore`, so the engine can keep it in
 * the database and share it across worker processes; `InMemoryRateLimitStore` serves unit tests and a
 * single process.
 */

export interface RateLimitDecision {
  allowed: boolean;
  /** When not allowed: how long to wait before the cost can fit. */
  retryAfterMs: number;
  /** When allowed and the units are held: pass to `settle` once the request is answered. */
  ticket?: string;
}

/** What one `take` asks of a store. */
export interface RateLimitTake {
  key: string;
  cost: number;
  limit: number;
  windowMs: number;
  now: number;
  holdMs?: number;
}

export interface RateLimitStore {
  /**
   * Atomically try to take `cost` units from the sliding window of `key` whose capacity is `limit`: a unit
   * counts while its time is after `now - windowMs`. Must be atomic per key (e.g. one statement on one
   * row: an upsert whose update decides). With `holdMs`, the units are stamped `now + holdMs` (a request
   * in flight counts until it is answered) and a ticket is returned; `settle` then re-stamps them with
   * the answer time.
   */
  take(request: RateLimitTake): Promise<RateLimitDecision>;
  /** Re-stamp the units of `ticket` with `at` (the time the request was answered). */
  settle?(key: string, ticket: string, at: number): Promise<void>;
  /**
   * Block the key until `until` (epoch ms), e.g. after a 429 with Retry-After: every process then waits.
   * Optional for stores that cannot do it.
   */
  blockUntil?(key: string, until: number): Promise<void>;
}

/**
 * A refused take: when to look again, from the stamps inside the window. The stamp that must leave the
 * window before `cost` units fit decides; held stamps lie in the future (so the stamps are not in order),
 * and one still held frees a window after its answer at the earliest: look again then, not after its
 * whole hold.
 */
export function refusal(
  stamps: readonly number[],
  { cost, limit, windowMs, now }: RateLimitTake,
): RateLimitDecision {
  const times = [...stamps].sort((x, y) => x - y);
  const idx = Math.min(stamps.length + cost - limit - 1, times.length - 1);
  const oldest = Math.min(times[Math.max(0, idx)] ?? now, now);
  return { allowed: false, retryAfterMs: Math.max(1, oldest + windowMs - now + 1) };
}

interface Stamp {
  t: number;
  ticket?: string;
}

/**
 * Sliding-window log, exact: never more than `limit` units in any window of `windowMs`, counting a request
 * from when it is sent until it is answered (so the system, which counts arrivals, never sees more).
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly logs = new Map<string, Stamp[]>();
  private readonly blocks = new Map<string, number>();
  private seq = 0;

  async take(request: RateLimitTake): Promise<RateLimitDecision> {
    const { key, cost, limit, windowMs, now, holdMs } = request;
    const blocked = this.blocks.get(key);
    if (blocked !== undefined && blocked > now) return { allowed: false, retryAfterMs: blocked - now };
    const from = now - windowMs;
    const log = (this.logs.get(key) ?? []).filter((s) => s.t > from);
    this.logs.set(key, log);
    if (log.length + cost <= limit) {
      const ticket = holdMs !== undefined ? `${++this.seq}` : undefined;
      for (let i = 0; i < cost; i++) log.push({ t: now + (holdMs ?? 0), ticket });
      return { allowed: true, retryAfterMs: 0, ticket };
    }
    return refusal(
      log.map((s) => s.t),
      request,
    );
  }

  async settle(key: string, ticket: string, at: number): Promise<void> {
    for (const s of this.logs.get(key) ?? []) {
      if (s.ticket === ticket) {
        s.t = at;
        s.ticket = undefined;
      }
    }
  }

  async blockUntil(key: string, until: number): Promise<void> {
    const cur = this.blocks.get(key) ?? 0;
    if (until > cur) this.blocks.set(key, until);
  }
}

export interface RateBudget {
  /** Requests allowed per window. */
  requests: number;
  windowMs: number;
  /**
   * Extra width added to the window on our side for a request stamped when it is sent, to absorb
   * network jitter between our clock and the system's (the system counts arrivals). Default: 2 % of
   * the window, at least 50 ms. A request held until its answer (`holdMs`) needs none: the system
   * counted it before it answered, so our stamp is already the later one.
   */
  safetyMarginMs?: number;
  /**
   * A pace of our own, for a system that documents no limit (an on-premises ERP, kept gentle): a
   * request takes its place when it is sent and gives it up a window later, however long the answer
   * takes, with no margin (no system counts against us). Without it the budget is the system's own
   * limit, counted on arrival: a request holds its place until it is answered. Holding would make a
   * pace of 10 a second 10 per (1 s + answer time): 7 to 8 reads a second from an ERP answering in
   * 150-300 ms, below the budget the sync was planned on.
   */
  ownPace?: boolean;
}

export interface RateLimiterOptions {
  store: RateLimitStore;
  key: string;
  budget: RateBudget;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (ms <= 0) {
      resolve();
      return;
    }
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export class RateLimiter {
  readonly key: string;
  readonly budget: RateBudget;
  private readonly store: RateLimitStore;
  private readonly now: () => number;
  private readonly sleepFn: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Total time spent waiting for the limiter (for metrics). */
  waitedMs = 0;

  constructor(opts: RateLimiterOptions) {
    this.store = opts.store;
    this.key = opts.key;
    this.budget = opts.budget;
    this.now = opts.now ?? Date.now;
    this.sleepFn = opts.sleep ?? sleep;
  }

  private windowMs(held: boolean): number {
    if (held || this.budget.ownPace) return this.budget.windowMs;
    const margin = this.budget.safetyMarginMs ?? Math.max(50, Math.round(this.budget.windowMs * 0.02));
    return this.budget.windowMs + margin;
  }

  /**
   * Wait until `cost` units may be spent, then spend them. With `requestedHoldMs` (the request's timeout)
   * the units count until `release(ticket)` is called with the answer, or at most that long; a budget
   * with `ownPace` never holds.
   */
  async acquire(cost = 1, signal?: AbortSignal, requestedHoldMs?: number): Promise<string | undefined> {
    // A pace of our own is never held: the place is taken at the send, whatever the caller asks.
    const holdMs = this.budget.ownPace ? undefined : requestedHoldMs;
    for (;;) {
      const d = await this.store.take({
        key: this.key,
        cost,
        limit: this.budget.requests,
        windowMs: this.windowMs(holdMs !== undefined),
        now: this.now(),
        holdMs,
      });
      if (d.allowed) return d.ticket;
      const wait = Math.min(d.retryAfterMs, 30_000);
      this.waitedMs += wait;
      await this.sleepFn(wait, signal);
    }
  }

  /** The request of `ticket` was answered (or failed): its units now count from this moment. */
  async release(ticket: string | undefined): Promise<void> {
    if (ticket !== undefined && this.store.settle) await this.store.settle(this.key, ticket, this.now());
  }

  /** Tell every user of this key to hold off (after a 429 with Retry-After). */
  async pause(ms: number): Promise<void> {
    if (this.store.blockUntil) await this.store.blockUntil(this.key, this.now() + ms);
  }
}
