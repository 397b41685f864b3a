import { message } from "@ep/contracts";
import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { EngineDeps } from "../deps.ts";
import { jobRuns, jobs, orderLedger } from "../store/schema.ts";
import { notifyCompany } from "./notifications.ts";

/**
 * Marks runs whose worker stopped renewing the lease as Crashed. Only `Running` rows past their lease
 * are touched; finished runs never are. Nothing is lost: the ledgers hold what moved, and the next
 * run goes on from there.
 */
export async function sweepCrashedRuns(deps: EngineDeps, options: { all?: boolean } = {}): Promise<number> {
  const now = deps.now();
  const crashed = await deps.db
    .update(jobRuns)
    .set({ status: "Crashed", finishedAt: now, leaseExpiresAt: null })
    .where(and(eq(jobRuns.status, "Running"), options.all ? undefined : lt(jobRuns.leaseExpiresAt, now)))
    .returning();
  for (const run of crashed) {
    await deps.db
      .update(jobRuns)
      .set({ report: message("engine.runCrashed", { job: run.jobName }) })
      .where(eq(jobRuns.id, run.id));
    await notifyCompany(
      deps.db,
      run.companyId,
      "Error",
      message("engine.runCrashed", { job: run.jobName }),
      `run:${run.id}`,
    );
    await deps.publish({
      companyId: run.companyId,
      runId: run.id,
      jobId: run.jobId,
      jobType: run.jobType,
      status: "Crashed",
    });
  }
  if (crashed.length > 0) {
    await deps.db
      .update(jobs)
      .set({ lastRunState: false, lastRunDate: now })
      .where(
        inArray(
          jobs.id,
          crashed.map((r) => r.jobId),
        ),
      );
    deps.logger.warn({ runs: crashed.map((r) => r.id) }, "runs of dead workers marked Crashed");
  }
  return crashed.length;
}

/**
 * Puts back on the queue the runs still `Queued` long after they were queued: their message went
 * with a worker that died between taking it and starting the run. A duplicate message is harmless:
 * only one worker can move a run out of `Queued`.
 */
export async function requeueStaleRuns(deps: EngineDeps, staleMs: number): Promise<number> {
  const now = deps.now();
  const stale = await deps.db
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .where(and(eq(jobRuns.status, "Queued"), lt(jobRuns.enqueuedAt, new Date(now.getTime() - staleMs))));
  for (const run of stale) {
    await deps.db.transaction(async (tx) => {
      await tx.update(jobRuns).set({ enqueuedAt: now }).where(eq(jobRuns.id, run.id));
      await deps.enqueueRun(tx, run.id);
    });
  }
  if (stale.length > 0)
    deps.logger.warn({ runs: stale.map((r) => r.id) }, "stale queued runs put back on the queue");
  return stale.length;
}

/**
 * After a restart of a single-process installation (the embedded database), every run still
 * `Running` belonged to the process that died, every `Queued` one may have lost its message, and
 * every order lock is stale: settle all three at once.
 */
export async function recoverAfterRestart(deps: EngineDeps): Promise<void> {
  await sweepCrashedRuns(deps, { all: true });
  await requeueStaleRuns(deps, 0);
  await deps.db
    .update(orderLedger)
    .set({ lockOwner: null, lockUntil: null })
    .where(isNotNull(orderLedger.lockOwner));
}
