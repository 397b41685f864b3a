import type { RunEvent } from "@ep/engine";
import type { Logger } from "pino";
import type { Database } from "../../platform/db/database.ts";

export const RUN_EVENTS_CHANNEL = "job_events";
type Waiter = { companyId: number; jobTypes: Set<string> | null; resolve: (events: RunEvent[]) => void };

/**
 * Run events across processes: a run anywhere publishes with NOTIFY; every process LISTENs once
 * and wakes the long-poll requests of that company.
 */
export class RunEventHub {
  private readonly waiters = new Set<Waiter>();
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

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
    for (const w of this.waiters) w.resolve([]);
    this.waiters.clear();
    await this.stop?.();
  }

  async publish(event: RunEvent) {
    await this.database.executeSql("SELECT pg_notify($1, $2)", [RUN_EVENTS_CHANNEL, JSON.stringify(event)]);
  }

  /** Waits for the next event of a company (of the given job types), or answers [] after `timeoutMs`. */
  wait(
    companyId: number,
    jobTypes: string[] | null,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<RunEvent[]> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        companyId,
        jobTypes: jobTypes && jobTypes.length > 0 ? new Set(jobTypes) : null,
        resolve: (events) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(events);
        },
      };
      const timer = setTimeout(() => waiter.resolve([]), timeoutMs);
      signal?.addEventListener("abort", () => waiter.resolve([]), { once: true });
      this.waiters.add(waiter);
    });
  }

  private dispatch(event: RunEvent) {
    for (const w of [...this.waiters]) {
      if (w.companyId !== event.companyId) continue;
      if (w.jobTypes && !w.jobTypes.has(event.jobType)) continue;
      w.resolve([event]);
    }
  }
}
