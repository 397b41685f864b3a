import { hostname } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type EngineDeps,
  executeRun,
  JOB_CATALOG,
  probeStockChanges,
  recoverAfterRestart,
  requeueStaleRuns,
  scheduleDueJobs,
  sweepCrashedRuns,
} from "@ep/engine";
import type { AppContext } from "../../platform/context.ts";
import { txExecutor } from "../../platform/db/tx-sql.ts";
import { AGENT_OUTAGE_CHECK_MS, sweepAgentOutages } from "../agents/outage.ts";
import { ConnectionCheckService } from "../connection-check/service.ts";
import { openCompanyConnectors } from "../connections/connector-factory.ts";
import { serverFlows } from "../invoices/engine-flow.ts";
import { expiredLicenceReason } from "../license/guard.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { RunEventHub } from "./run-events.ts";

/** What a module that starts or watches runs asks of the context: the integration engine. */
export type WithEngine = { engine: EngineHost };

export const ENGINE_RUN_QUEUE = "engine-run";
const SCHEDULER_TICK_MS = 5_000;
const SWEEP_EVERY_MS = 15_000;
/**
 * A slot whose process still executes another run and has no CPU to spare (its event loop busy over
 * the last `CPU_CHECK_MS`) waits, up to this long, before it asks the queue for more: an idle process
 * (another worker, its slots polling or woken) takes the run first and gives it a whole CPU instead
 * of half of a busy one's, and a CPU-bound run here loses nothing by the wait. A process waiting on
 * the systems (its loop mostly idle) fetches at once. At the end of a batch, one worker taking the
 * last two runs while the other sat idle cost the 2-worker scale-out a fifth (1.68× against 1.96×).
 */
const BUSY_PROCESS_DEFER_MS = 5_000;
const CPU_CHECK_MS = 250;
/** Event-loop utilisation above which a process counts as busy on its CPU. */
const CPU_BUSY = 0.5;

export type EngineHostOptions = {
  workers: boolean;
  scheduler?: boolean;
  concurrency?: number;
  leaseMs?: number;
  connectorTimeoutMs?: number;
  connectorRateMultiplier?: number;
  recoverAtStart?: boolean;
  /** Light "changed since" stock probe per stock job; 0 or unset = off. */
  stockProbeMs?: number;
};

/**
 * The engine inside the server process: the queue workers that execute runs, the scheduler tick,
 * the sweeper for runs of dead workers, and the event hub behind the long-poll call.
 */
export class EngineHost {
  readonly deps: EngineDeps;
  /** The engine's flows; the invoice job issues e-invoices for companies on an e-invoice service. */
  private readonly flows: ReturnType<typeof serverFlows>;
  readonly hub: RunEventHub;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;
  private slots: string[] = [];
  /** The runs this process is executing now. */
  private readonly underWay = new Set<Promise<unknown>>();
  /** Aborted by stop(): ends the slots' waits before their next fetch (`BUSY_PROCESS_DEFER_MS`). */
  private readonly stopping = new AbortController();
  private stopped: Promise<void> | undefined;

  constructor(
    /** With the sandboxes: a first sync's connection check may read the company's own sandbox. */
    private readonly ctx: AppContext & WithSandbox,
    private readonly options: EngineHostOptions,
  ) {
    this.hub = new RunEventHub(ctx.database, ctx.logger);
    this.flows = serverFlows(ctx);
    const logger = ctx.logger.child({ part: "engine" });
    this.deps = {
      db: ctx.database.db,
      logger,
      now: () => ctx.clock.now(),
      workerId: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
      enqueueRun: async (tx, runId) => {
        // Long runs (a 100,000-SKU first sync) must not be expired by the queue: the lease watches them.
        await ctx.queue.send(
          ENGINE_RUN_QUEUE,
          { runId },
          { db: txExecutor(tx), retryLimit: 0, expireInSeconds: 4 * 3600 },
        );
      },
      publish: (event) => this.hub.publish(event),
      openConnectors: (companyId, counter, channelId) =>
        openCompanyConnectors(
          ctx,
          companyId,
          counter,
          { timeoutMs: options.connectorTimeoutMs, rateMultiplier: options.connectorRateMultiplier },
          channelId,
        ),
      refuseRun: (companyId, jobType) =>
        expiredLicenceReason(
          ctx.database.db,
          companyId,
          JOB_CATALOG[jobType]?.name ?? jobType,
          ctx.clock.now(),
        ),
      holdRun: (companyId, jobType) => new ConnectionCheckService(ctx).firstSyncHold(companyId, jobType),
      leaseMs: options.leaseMs,
    };
  }

  async start() {
    await this.hub.start();
    if (this.options.recoverAtStart) await recoverAfterRestart(this.deps);
    if (!this.options.workers) return;
    const concurrency = this.options.concurrency ?? 2;
    const slots = this.slots;
    for (let i = 0; i < concurrency; i++) {
      slots.push(
        await this.ctx.queue.boss.work<{ runId: number }>(
          ENGINE_RUN_QUEUE,
          { pollingIntervalSeconds: 0.5, batchSize: 1 },
          async ([job]) => {
            if (!job) return;
            const run = executeRun(this.deps, job.data.runId, this.flows);
            this.underWay.add(run);
            try {
              await run;
            } finally {
              this.underWay.delete(run);
            }
            // The queue's worker fetches again when this returns: a process still busy with another
            // run lets idle processes take the next one first.
            if (this.underWay.size > 0) await this.deferFetch();
          },
        ),
      );
    }
    // Woken, not only polled: a run queued in any process (its "Queued" event comes by NOTIFY, or
    // in-process on the embedded database) makes the idle slots fetch at once. The poll stays as the
    // fallback; SKIP LOCKED in the queue's fetch still hands each run to one slot only.
    this.unsubscribe = this.hub.onEvent((event) => {
      if (event.status !== "Queued") return;
      for (const slot of slots) this.ctx.queue.boss.notifyWorker(slot);
    });
    if (this.options.scheduler === false) return;
    const every = (ms: number, task: () => Promise<unknown>, what: string) => {
      const timer = setInterval(() => {
        task().catch((error) => this.ctx.logger.warn({ err: error }, `${what} failed`));
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(SCHEDULER_TICK_MS, () => scheduleDueJobs(this.deps), "scheduler tick");
    const probeMs = this.options.stockProbeMs ?? 0;
    if (probeMs > 0) {
      // Ticks a few times per interval so a job is asked about `probeMs` after its last probe, not up to twice that.
      const tick = Math.max(250, Math.min(SCHEDULER_TICK_MS, Math.floor(probeMs / 4)));
      every(tick, () => this.probeOnce(probeMs), "stock probe");
    }
    every(
      AGENT_OUTAGE_CHECK_MS,
      () => sweepAgentOutages(this.ctx, this.ctx.clock.now()),
      "agent outage check",
    );
    const leaseMs = this.options.leaseMs ?? 60_000;
    every(
      SWEEP_EVERY_MS,
      async () => {
        await sweepCrashedRuns(this.deps);
        await requeueStaleRuns(this.deps, leaseMs * 2);
      },
      "sweeper",
    );
  }

  private async deferFetch(): Promise<void> {
    const until = Date.now() + BUSY_PROCESS_DEFER_MS;
    let mark = performance.eventLoopUtilization();
    while (Date.now() < until && this.underWay.size > 0) {
      const stopped = await sleep(CPU_CHECK_MS, false, { signal: this.stopping.signal }).catch(() => true);
      if (stopped) return;
      const now = performance.eventLoopUtilization();
      if (performance.eventLoopUtilization(now, mark).utilization < CPU_BUSY) return;
      mark = now;
    }
  }

  /** One probe tick, never two at once in this process (a slow ERP must not pile ticks up). */
  private probing = false;
  private async probeOnce(intervalMs: number) {
    if (this.probing) return;
    this.probing = true;
    try {
      await probeStockChanges(this.deps, { intervalMs });
    } finally {
      this.probing = false;
    }
  }

  /**
   * Takes no new run and lets the runs under way finish (up to `drainMs`): they may still call the
   * built-in sandboxes and the demo's agent, which this server's HTTP side serves, so that closes after
   * (`stopServer`). A run still going at the deadline is left to the restart's recovery. Idempotent.
   */
  stop(drainMs: number): Promise<void> {
    this.stopped ??= this.drainAndStop(drainMs);
    return this.stopped;
  }

  private async drainAndStop(drainMs: number) {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.unsubscribe?.();
    await Promise.all(this.slots.map((id) => this.ctx.queue.boss.offWork({ id })));
    this.stopping.abort();
    if (this.underWay.size > 0) {
      this.ctx.logger.info({ runs: this.underWay.size, drainMs }, "waiting for the runs under way");
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<"deadline">((resolve) => {
        timer = setTimeout(() => resolve("deadline"), drainMs);
      });
      const ended = await Promise.race([Promise.allSettled([...this.underWay]), deadline]);
      clearTimeout(timer);
      if (ended === "deadline")
        // Not a problem to show at a terminal: their leases lapse and the next start runs them again.
        this.ctx.logger.info({ runs: this.underWay.size }, "runs still under way at shutdown");
    }
    await this.hub.close();
  }
}
