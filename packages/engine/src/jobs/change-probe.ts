import { CallCounter } from "@ep/connectors";
import { and, eq, inArray, lte } from "drizzle-orm";
import type { EngineDeps } from "../deps.ts";
import { stockMarkStream } from "../flows/stock-sync.ts";
import { SyncLedger } from "../ledger/sync-ledger.ts";
import { enqueueRun } from "../runs/run-queue.ts";
import { jobRuns, jobs } from "../store/schema.ts";

export type StockProbeOptions = {
  /** How often each stock job asks its ERP what changed. */
  intervalMs: number;
  /** Jobs claimed per tick (per process). */
  limit?: number;
};

/** An ERP that cannot answer "what changed" (or bills per call) is asked again only this rarely. */
const NOT_PROBED_MS = 60 * 60_000;
/** After a failed probe (connection down, credentials wrong): the scheduled run will report it. */
const AFTER_FAILURE_MS = 5 * 60_000;

export type ProbeOutcome = "unchanged" | "changed" | "busy" | "no-mark" | "not-probed" | "failed";

/**
 * The light stock probe: every `intervalMs` each enabled stock job asks its ERP for the stock changed
 * since the mark its last run recorded, in one small read. Nothing changed: nothing happens (no run,
 * no history row). Something changed: a stock run with trigger `change` starts at once and reads only
 * the changes. The job's schedule stays the full reconciliation.
 *
 * Jobs are claimed by moving their probe time under SKIP LOCKED, so any number of processes probe
 * without asking the same ERP twice. ERPs without stock marks, and ERPs that bill per call (a probe
 * every few seconds would spend the customer's credit), are not probed.
 */
export async function probeStockChanges(
  deps: EngineDeps,
  options: StockProbeOptions,
): Promise<Map<number, ProbeOutcome>> {
  const now = deps.now();
  const next = new Date(now.getTime() + options.intervalMs);
  const claimed = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id, companyId: jobs.companyId, connectionId: jobs.connectionId })
      .from(jobs)
      .where(and(eq(jobs.isEnabled, true), eq(jobs.type, "StockIntegration"), lte(jobs.nextProbeAt, now)))
      .orderBy(jobs.nextProbeAt)
      .limit(options.limit ?? 50)
      .for("update", { skipLocked: true });
    if (due.length > 0) {
      await tx
        .update(jobs)
        .set({ nextProbeAt: next })
        .where(
          inArray(
            jobs.id,
            due.map((j) => j.id),
          ),
        );
    }
    return due;
  });
  const outcomes = new Map<number, ProbeOutcome>();
  for (const job of claimed) {
    const outcome = await probeJob(deps, job).catch((error: unknown) => {
      deps.logger.warn(
        { jobId: job.id, companyId: job.companyId, err: error instanceof Error ? error.name : "error" },
        "stock probe failed",
      );
      return "failed" as const;
    });
    outcomes.set(job.id, outcome);
    if (outcome === "not-probed" || outcome === "failed") {
      const later = new Date(now.getTime() + (outcome === "failed" ? AFTER_FAILURE_MS : NOT_PROBED_MS));
      await deps.db.update(jobs).set({ nextProbeAt: later }).where(eq(jobs.id, job.id));
    }
  }
  return outcomes;
}

async function probeJob(
  deps: EngineDeps,
  job: { id: number; companyId: number; connectionId: number | null },
): Promise<ProbeOutcome> {
  const [active] = await deps.db
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .where(and(eq(jobRuns.jobId, job.id), inArray(jobRuns.status, ["Queued", "Running"])))
    .limit(1);
  if (active) return "busy";
  if (await deps.refuseRun?.(job.companyId, "StockIntegration")) return "not-probed";
  const opened = await deps.openConnectors(job.companyId, new CallCounter(), job.connectionId);
  const { erp } = opened;
  if (erp.descriptor.changeCursors?.stock !== true || erp.descriptor.metering) return "not-probed";
  const ledger = new SyncLedger(deps.db, opened.shopConnectionId, job.companyId);
  // The mark is written by the stock flow; until a first full run has recorded one, nothing to ask.
  const since = await ledger.cursor(stockMarkStream(opened.erpConnectionId));
  if (!since) return "no-mark";
  const page = await erp.listStock({ since, pageSize: 1 });
  if (page.items.length === 0) return "unchanged";
  const result = await enqueueRun(deps, job.companyId, job.id, "change");
  return "runId" in result ? "changed" : "busy";
}
