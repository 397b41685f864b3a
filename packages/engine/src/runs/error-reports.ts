import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db.ts";
import { jobErrorReports } from "../store/schema.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";

export type ItemFailure = {
  key: string;
  errorType: string;
  /** What the merchant reads (Turkish, from `failureText`). */
  message: string;
  payload?: unknown;
  /** The error itself, for the server log only; never stored. */
  cause?: unknown;
};

/**
 * Failed tasks of a job. One open row per (job, record), so each sales channel's job keeps its own: a record that keeps failing
 * counts occurrences instead of piling up rows; it resolves itself when a later run moves it.
 */
export async function recordFailures(
  db: Executor,
  run: { companyId: number; jobId: number; jobType: string; runId: number },
  failures: ItemFailure[],
  now: Date,
) {
  const unique = uniqueByKey(failures, (f) => f.key);
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    await db
      .insert(jobErrorReports)
      .values(
        chunk.map((f) => ({
          companyId: run.companyId,
          jobId: run.jobId,
          jobType: run.jobType,
          jobRunId: run.runId,
          entityKey: f.key,
          errorType: f.errorType,
          message: f.message,
          payload: f.payload ?? null,
          createdAt: now,
          lastSeenAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [jobErrorReports.jobId, jobErrorReports.entityKey],
        targetWhere: sql`${jobErrorReports.status} = 'Open'`,
        set: {
          jobRunId: sql`excluded.job_run_id`,
          errorType: sql`excluded.error_type`,
          message: sql`excluded.message`,
          payload: sql`excluded.payload`,
          lastSeenAt: sql`excluded.last_seen_at`,
          occurrences: sql`${jobErrorReports.occurrences} + 1`,
        },
      });
  }
}

/** Keys of the open failed tasks of a job (usually few; read once per run). */
export async function openFailureKeys(db: Executor, jobId: number): Promise<Set<string>> {
  const rows = await db
    .select({ key: jobErrorReports.entityKey })
    .from(jobErrorReports)
    .where(and(eq(jobErrorReports.jobId, jobId), eq(jobErrorReports.status, "Open")));
  return new Set(rows.map((r) => r.key));
}

/**
 * Retried records this run neither moved nor failed again (not read from the ERP, or with nothing in the
 * shop to write to): their open tasks say that the retry happened, when, and what that means, instead
 * of keeping the old date and reason.
 */
export async function noteRetriedUntouched(
  db: Executor,
  run: { jobId: number; runId: number },
  keys: string[],
  now: Date,
  text: string,
): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    await db
      .update(jobErrorReports)
      .set({
        jobRunId: run.runId,
        message: text,
        lastSeenAt: now,
        occurrences: sql`${jobErrorReports.occurrences} + 1`,
      })
      .where(
        and(
          eq(jobErrorReports.jobId, run.jobId),
          eq(jobErrorReports.status, "Open"),
          inArray(jobErrorReports.entityKey, keys.slice(i, i + 1000)),
        ),
      );
  }
}

/** Records that moved this run close their open failed tasks. */
export async function resolveFailures(
  db: Executor,
  jobId: number,
  keys: string[],
  now: Date,
): Promise<number> {
  let resolved = 0;
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    const rows = await db
      .update(jobErrorReports)
      .set({ status: "Resolved", resolvedAt: now })
      .where(
        and(
          eq(jobErrorReports.jobId, jobId),
          eq(jobErrorReports.status, "Open"),
          inArray(jobErrorReports.entityKey, chunk),
        ),
      )
      .returning({ id: jobErrorReports.id });
    resolved += rows.length;
  }
  return resolved;
}
