import { and, eq, lte, sql } from "drizzle-orm";
import type { EngineDeps } from "../deps.ts";
import { insertRun } from "../runs/run-queue.ts";
import { jobs } from "../store/schema.ts";
import { nextRunAt } from "./schedule.ts";

/**
 * One scheduler tick: every enabled job whose time has come gets a queued run and its next time.
 * Rows are taken with SKIP LOCKED, so any number of processes can tick at once without doubling runs.
 */
export async function scheduleDueJobs(deps: EngineDeps, limit = 100): Promise<number> {
  const now = deps.now();
  const queued: Array<{ companyId: number; runId: number; jobId: number; jobType: string }> = [];
  await deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.isEnabled, true), lte(jobs.nextRunAt, now)))
      .orderBy(jobs.nextRunAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    for (const job of due) {
      const run = await insertRun(tx, {
        companyId: job.companyId,
        jobId: job.id,
        jobType: job.type,
        jobName: job.name,
        trigger: "schedule",
        onlyKeys: null,
      });
      if (run) {
        await deps.enqueueRun(tx, run.id);
        queued.push({ companyId: job.companyId, runId: run.id, jobId: job.id, jobType: job.type });
      }
      await tx
        .update(jobs)
        .set({ nextRunAt: nextRunAt(job.schedule, now) })
        .where(eq(jobs.id, job.id));
    }
  });
  for (const q of queued) await deps.publish({ ...q, status: "Queued" });
  return queued.length;
}

/** Sets a job's next run from its schedule (after a schedule change or when it is enabled). */
export async function rescheduleJob(deps: Pick<EngineDeps, "db" | "now">, jobId: number) {
  const [job] = await deps.db.select().from(jobs).where(eq(jobs.id, jobId));
  if (!job) return;
  await deps.db
    .update(jobs)
    .set({ nextRunAt: job.isEnabled ? nextRunAt(job.schedule, deps.now()) : sql`null` })
    .where(eq(jobs.id, jobId));
}
