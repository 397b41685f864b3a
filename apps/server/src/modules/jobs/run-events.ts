import type { RunEvent } from "@ep/engine";
import type { Logger } from "pino";
import type { Database } from "../../platform/db/database.ts";

export const RUN_EVENTS_CHANNEL = "job_events";

/** Events reaching a waiter within this window are answered together, in one response. */
export const COALESCE_MS = 250;
/**
 * A run's progress ticks (every 750 ms per run) answer a waiter only after it has waited this long,
 * so an open panel asks again at most this often while runs move; a run that starts or ends is
 * answered within COALESCE_MS.
 */
export const PROGRESS_INTERVAL_MS = 2_000;
/**
 * Progress answers per second and process, all companies together: with many open panels each
 * waits longer for mere progress (1,000 panels: every 10 s), so their asking again stays a small
 * part of the server's work however many runs move.
 */
export const PROGRESS_WAKES_PER_SECOND = 100;
/** Open long polls per company and process; one more gets a "busy" answer instead of a slot. */
export const MAX_WAITERS_PER_COMPANY = 100;

type Waiter = {
  jobTypes: Set<string> | null;
  since: number;
  pending: RunEvent[];
  wakeAt: number;
  wakeTimer: NodeJS.Timeout | undefined;
  resolve: (events: RunEvent[]) => void;
};
type CompanyWaiters = {
  /** Waiters of any job type, then per job type: an event touches only the sets it names. */
  all: Set<Waiter>;
  byType: Map<string, Set<Waiter>>;
  size: number;
};

export type HubOptions = {
  coalesceMs?: number;
  progressIntervalMs?: number;
  progressWakesPerSecond?: number;
  maxWaitersPerCompany?: number;
};

const isProgress = (event: RunEvent) => event.status === "Running" && event.counts !== undefined;

/**
 * Run events across processes: a run anywhere publishes with NOTIFY; every process LISTENs once
 * and wakes only the long polls of that company and job type, indexed so an event never walks the
 * other companies' waiters. Each waiter collects its events for a short window (longer for mere
 * progress), so a busy run wakes an open panel a few times a minute, not at every tick.
 */
export class RunEventHub {
  private readonly companies = new Map<number, CompanyWaiters>();
  private stop: (() => Promise<void>) | undefined;
  private readonly coalesceMs: number;
  private readonly progressIntervalMs: number;
  private readonly progressWakesPerSecond: number;
  private total = 0;
  private readonly listeners = new Set<(event: RunEvent) => void>();
  readonly maxWaitersPerCompany: number;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    options: HubOptions = {},
  ) {
    this.coalesceMs = options.coalesceMs ?? COALESCE_MS;
    this.progressIntervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    this.progressWakesPerSecond = options.progressWakesPerSecond ?? PROGRESS_WAKES_PER_SECOND;
    this.maxWaitersPerCompany = options.maxWaitersPerCompany ?? MAX_WAITERS_PER_COMPANY;
  }

  async start() {
    this.stop = await this.database.listen(RUN_EVENTS_CHANNEL, (payload) => {
      try {
        this.dispatch(JSON.parse(payload) as RunEvent);
      } catch (error) {
        this.logger.warn({ err: error }, "bad run event");
      }
    });
  }

  async close() {
    for (const company of [...this.companies.values()]) {
      for (const w of [...company.all]) w.resolve([]);
      for (const set of [...company.byType.values()]) for (const w of [...set]) w.resolve([]);
    }
    this.companies.clear();
    await this.stop?.();
  }

  async publish(event: RunEvent) {
    await this.database.executeSql("SELECT pg_notify($1, $2)", [RUN_EVENTS_CHANNEL, JSON.stringify(event)]);
  }

  /** Calls `listener` with every run event this process hears, of any company; returns the unsubscribe. */
  onEvent(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Open long polls of a company in this process. */
  waiting(companyId: number): number {
    return this.companies.get(companyId)?.size ?? 0;
  }

  /**
   * Waits for the next events of a company (of the given job types), or answers [] after
   * `timeoutMs`. Answers null at once when the company already holds its cap of open waits.
   */
  wait(
    companyId: number,
    jobTypes: string[] | null,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<RunEvent[]> | null {
    if (this.waiting(companyId) >= this.maxWaitersPerCompany) return null;
    if (signal?.aborted) return Promise.resolve([]);
    const company = this.companyOf(companyId);
    return new Promise((resolve) => {
      let done = false;
      const waiter: Waiter = {
        jobTypes: jobTypes && jobTypes.length > 0 ? new Set(jobTypes) : null,
        since: Date.now(),
        pending: [],
        wakeAt: Number.POSITIVE_INFINITY,
        wakeTimer: undefined,
        resolve: (events) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          clearTimeout(waiter.wakeTimer);
          signal?.removeEventListener("abort", onAbort);
          this.remove(companyId, company, waiter);
          resolve(events);
        },
      };
      const onAbort = () => waiter.resolve([]);
      const timer = setTimeout(() => waiter.resolve([]), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (waiter.jobTypes) {
        for (const type of waiter.jobTypes) {
          const set = company.byType.get(type) ?? new Set<Waiter>();
          company.byType.set(type, set);
          set.add(waiter);
        }
      } else company.all.add(waiter);
      company.size++;
      this.total++;
    });
  }

  private companyOf(companyId: number): CompanyWaiters {
    let company = this.companies.get(companyId);
    if (!company) {
      company = { all: new Set(), byType: new Map(), size: 0 };
      this.companies.set(companyId, company);
    }
    return company;
  }

  private remove(companyId: number, company: CompanyWaiters, waiter: Waiter) {
    if (waiter.jobTypes) {
      for (const type of waiter.jobTypes) {
        const set = company.byType.get(type);
        set?.delete(waiter);
        if (set?.size === 0) company.byType.delete(type);
      }
    } else company.all.delete(waiter);
    company.size--;
    this.total--;
    if (company.size === 0 && this.companies.get(companyId) === company) this.companies.delete(companyId);
  }

  /** Hands the event to the waiters of its company and job type only, each answered on its own clock. */
  private dispatch(event: RunEvent) {
    for (const listener of this.listeners) listener(event);
    const company = this.companies.get(event.companyId);
    if (!company) return;
    const now = Date.now();
    const progressWait = Math.max(this.progressIntervalMs, (this.total * 1000) / this.progressWakesPerSecond);
    const deliver = (w: Waiter) => {
      w.pending.push(event);
      const due = isProgress(event)
        ? Math.max(now + this.coalesceMs, w.since + progressWait)
        : now + this.coalesceMs;
      if (due >= w.wakeAt) return;
      w.wakeAt = due;
      clearTimeout(w.wakeTimer);
      w.wakeTimer = setTimeout(() => w.resolve(latestPerRun(w.pending)), due - now);
    };
    for (const w of company.all) deliver(w);
    for (const w of company.byType.get(event.jobType) ?? []) deliver(w);
  }
}

/** A run's events within one answer collapse to its latest state, in the order runs last moved. */
function latestPerRun(events: RunEvent[]): RunEvent[] {
  const latest = new Map<number, RunEvent>();
  for (const e of events) {
    latest.delete(e.runId);
    latest.set(e.runId, e);
  }
  return [...latest.values()];
}
