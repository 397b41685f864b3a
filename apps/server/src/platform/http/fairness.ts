/**
 * Fairness between companies (issue 33, item 4): each company has a few slots for API work and fewer
 * for heavy work (exports, reports, previews, uploads). A call past its company's slots waits in that
 * company's queue, in order, while a person waits for it; past the queue's length or its longest
 * wait it is answered 429 in Turkish with Retry-After. One company's 32 concurrent calls then hold
 * at most its own slots, and another company's calls do not queue behind them (bench/README.md,
 * "Fairness").
 *
 * The company is the one the caller's token names (`companyOf`: its signature, no query), so a call
 * is admitted in the first onRequest hook, before its session is looked up, its body read or any
 * database work done for it: a company's waiting calls cost the others nothing. The slot is given
 * back when the answer is over (sent, streamed to its end, or the client gone).
 *
 * Slots alone share the server equally between two busy companies: another company's Dashboard
 * still took twice as long while a flood ran beside it. So a call of a company with calls queued
 * behind it also defers, before it starts, to the companies with fewer queued calls that have a call
 * running (`Deference`): a flood runs in the gaps of the others' work, and waits at most `defer.maxMs`
 * per call, so it is slowed, never starved. Calls without a
 * company (sign-in, health, agents, webhooks, support users) are not counted here: they have limits
 * of their own.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "./envelope.ts";

export type LaneLimits = {
  /** Calls of one company at once. */
  concurrent: number;
  /** Calls of one company waiting for a slot; one more is refused. */
  queue: number;
  /** Longest wait for a slot before the call is refused. */
  maxWaitMs: number;
};

export type FairnessOptions = {
  api: LaneLimits;
  heavy: LaneLimits;
  /** Route paths (as registered, matched without regard to case) that are heavy work. */
  heavyRoutes: string[];
  /** Routes that wait rather than work (the long poll, capped on its own): never counted. */
  exemptRoutes: string[];
  /**
   * A call of a company with at least `fromBacklog` calls queued behind it waits, at most `maxMs`, for
   * the running calls of the companies with fewer queued to end (maxMs 0: never).
   */
  defer: { fromBacklog: number; maxMs: number };
  /** The company a call is made for, known without database work; undefined: not counted. */
  companyOf: (request: FastifyRequest) => Promise<number | undefined>;
};

export const FAIRNESS_DEFAULTS: Pick<FairnessOptions, "api" | "heavy" | "defer"> = {
  // One at a time per company: more lets one company's calls crowd the event loop and the database
  // that another company's calls need (bench/README.md, "Fairness": another company's Dashboard p99
  // 2.4x alone with 1, 3.0x with 2, 20x with 6 on a loaded box); a page's other calls wait their
  // turn, a few milliseconds each.
  api: { concurrent: 1, queue: 200, maxWaitMs: 15_000 },
  // An export or a preview at a time per company; a few more wait their turn.
  heavy: { concurrent: 1, queue: 8, maxWaitMs: 60_000 },
  // A company flooding the server (many calls queued behind its slot) waits up to half a second per
  // call while another company's calls run. A page's few calls at once stay below the backlog and
  // never defer: a steady caller of another company must not slow a person's page.
  defer: { fromBacklog: 8, maxMs: 500 },
};

/** Refused because the company's queue is full or its turn did not come in time. */
export class LaneFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("lane full");
  }
}

type Waiter = { grant: () => void; timer: NodeJS.Timeout };

/** Slots and a bounded queue per key (a company), first come first served within a key. */
export class KeyedLimiter {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, Waiter[]>();

  constructor(private readonly limits: LaneLimits) {}

  /**
   * Resolves with the slot's release once the key has a free slot; rejects with `LaneFull` when
   * the key's queue is full or the wait passes `maxWaitMs`. `cancel` (the client gone) leaves the queue.
   */
  acquire(key: number, cancel?: (leave: () => void) => void): Promise<() => void> {
    const { concurrent, queue, maxWaitMs } = this.limits;
    const running = this.running.get(key) ?? 0;
    if (running < concurrent) {
      this.running.set(key, running + 1);
      return Promise.resolve(this.releaser(key));
    }
    const waiters = this.waiting.get(key) ?? [];
    if (waiters.length >= queue) return Promise.reject(new LaneFull(this.retryAfter()));
    return new Promise((resolve, reject) => {
      const leave = () => {
        const list = this.waiting.get(key);
        const at = list?.indexOf(waiter) ?? -1;
        if (!list || at < 0) return false;
        list.splice(at, 1);
        if (list.length === 0) this.waiting.delete(key);
        clearTimeout(waiter.timer);
        return true;
      };
      const waiter: Waiter = {
        // The slot passes from the call that ends to this one: `running` stays as it is.
        grant: () => {
          clearTimeout(waiter.timer);
          resolve(this.releaser(key));
        },
        timer: setTimeout(() => {
          if (leave()) reject(new LaneFull(this.retryAfter()));
        }, maxWaitMs),
      };
      waiters.push(waiter);
      this.waiting.set(key, waiters);
      cancel?.(() => {
        if (leave()) reject(new LaneFull(this.retryAfter()));
      });
    });
  }

  /** Calls of a key running and waiting (for tests and metrics). */
  load(key: number): { running: number; waiting: number } {
    return { running: this.running.get(key) ?? 0, waiting: this.waiting.get(key)?.length ?? 0 };
  }

  private releaser(key: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const list = this.waiting.get(key);
      const next = list?.shift();
      if (list && list.length === 0) this.waiting.delete(key);
      if (next) return next.grant();
      const running = (this.running.get(key) ?? 1) - 1;
      if (running > 0) this.running.set(key, running);
      else this.running.delete(key);
    };
  }

  /** Seconds until a slot is likely free: the longest wait, at least one second. */
  private retryAfter(): number {
    return Math.max(1, Math.ceil(this.limits.maxWaitMs / 1000 / 4));
  }
}

/**
 * Order between companies: a key (company) with a backlog (calls waiting for its slots) of at least
 * `fromBacklog` does not start a call while another key with a smaller backlog has one running, for
 * at most `maxMs`; then it starts anyway. A key never defers to a key with a backlog as long as its
 * own, so some key can always start.
 */
export class Deference {
  private readonly running = new Map<number, number>();
  private readonly deferred = new Set<() => void>();

  constructor(
    private readonly backlogOf: (key: number) => number,
    private readonly limits: { fromBacklog: number; maxMs: number },
  ) {}

  private mustDefer(key: number): boolean {
    const own = this.backlogOf(key);
    if (own === 0 || own < this.limits.fromBacklog) return false;
    for (const other of this.running.keys()) if (other !== key && this.backlogOf(other) < own) return true;
    return false;
  }

  /**
   * Resolves, once the key's call may start, with the call's end (to be called when its answer is
   * over). `cancel` (the client gone) ends the wait at once.
   */
  async start(key: number, cancel?: (stop: () => void) => void): Promise<() => void> {
    if (this.limits.maxMs > 0 && this.mustDefer(key)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.deferred.delete(recheck);
          resolve();
        };
        const recheck = () => {
          if (!this.mustDefer(key)) done();
        };
        const timer = setTimeout(done, this.limits.maxMs);
        this.deferred.add(recheck);
        cancel?.(done);
      });
    }
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const running = (this.running.get(key) ?? 1) - 1;
      if (running > 0) this.running.set(key, running);
      else this.running.delete(key);
      // Checked after this turn: the slot this call frees is handed to its company's next queued call,
      // which starts in this turn's microtasks; a flood must not slip in between the two.
      setImmediate(() => {
        for (const recheck of [...this.deferred]) recheck();
      });
    };
  }

  /** Keys with a call running, and calls deferring (for tests). */
  state(): { running: number[]; deferring: number } {
    return { running: [...this.running.keys()], deferring: this.deferred.size };
  }
}

/**
 * The plugin: registered once at the root (it is not encapsulated), before the modules, so its
 * onRequest hook runs before every route's own hooks (the session lookup among them).
 */
export const fairness: FastifyPluginAsync<FairnessOptions> = async (app, options) => {
  const api = new KeyedLimiter(options.api);
  const heavy = new KeyedLimiter(options.heavy);
  const deference = new Deference((key) => api.load(key).waiting + heavy.load(key).waiting, options.defer);
  const heavyRoutes = new Set(options.heavyRoutes.map((r) => r.toLowerCase()));
  const exemptRoutes = new Set(options.exemptRoutes.map((r) => r.toLowerCase()));

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url?.toLowerCase();
    if (route && exemptRoutes.has(route)) return;
    const companyId = await options.companyOf(request);
    if (companyId === undefined) return;
    const lane = route && heavyRoutes.has(route) ? heavy : api;
    const raw = reply.raw;
    let release: () => void;
    try {
      release = await lane.acquire(companyId, (leave) => raw.once("close", leave));
    } catch (e) {
      if (e instanceof LaneFull) throw AppError.tooMany("api.busy", e.retryAfterSeconds);
      throw e;
    }
    const end = await deference.start(companyId, (stop) => raw.once("close", stop));
    const over = () => {
      end();
      release();
    };
    // The answer is over when its connection says so: sent, streamed to the end, or cut.
    if (raw.destroyed || raw.writableFinished) over();
    else raw.once("close", over);
  });
};
// Not encapsulated: its hook applies to the routes registered beside it (fastify-plugin's marker).
Object.assign(fairness, { [Symbol.for("skip-override")]: true });
