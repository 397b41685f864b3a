import type { JobType, RunTrigger } from "@ep/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db.ts";
import type { EngineDeps } from "../deps.ts";
import { jobRuns, jobs } from "../store/schema.ts";

export type EnqueueResult = { runId: number } | { alreadyActive: true } | { notFound: true };

/**
 * Queues a run of a job: the JobHistory row and the queue message are written in one transaction.
 * A job with a run already queued or running gets `alreadyActive` (the partial unique index decides).
 */
export async function enqueueRun(
  deps: Pick<EngineDeps, "db" | "enqueueRun" | "publish">,
  companyId: number,
  jobId: number,
  trigger: RunTrigger,
  onlyKeys: string[] | null = null,
): Promise<EnqueueResult> {
  type Inner = { runId: number; jobType: string } | { alreadyActive: true } | { notFound: true };
  const result: Inner = await deps.db.transaction(async (tx): Promise<Inner> => {
    const [job] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.companyId, companyId)));
    if (!job) return { notFound: true };
    const inserted = await insertRun(tx, {
      companyId,
      jobId,
      jobType: job.type,
      jobName: job.name,
      trigger,
      onlyKeys,
    });
    if (!inserted) return { alreadyActive: true };
    await deps.enqueueRun(tx, inserted.id);
    return { runId: inserted.id, jobType: job.type };
  });
  if (!("runId" in result)) return result;
  await deps.publish({ companyId, runId: result.runId, jobId, jobType: result.jobType, status: "Queued" });
  return { runId: result.runId };
}

export async function insertRun(
  tx: Executor,
  run: {
    companyId: number;
    jobId: number;
    jobType: string;
    jobName: string;
    trigger: RunTrigger;
    onlyKeys: string[] | null;
  },
): Promise<{ id: number } | undefined> {
  const [row] = await tx
    .insert(jobRuns)
    .values({ ...run, jobType: run.jobType as JobType })
    .onConflictDoNothing({ target: jobRuns.jobId, where: sql`${jobRuns.status} in ('Queued', 'Running')` })
    .returning({ id: jobRuns.id });
  return row;
}
