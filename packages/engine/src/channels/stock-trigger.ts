import { and, eq, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { EngineDeps } from "../deps.ts";
import { enqueueRun } from "../runs/run-queue.ts";
import { jobRuns, jobs } from "../store/schema.ts";

/**
 * An order (or its cancellation) on one channel changes what every other channel may offer of its SKUs
 * (one stock pool, issue 37 item 2): their stock jobs get a targeted run for just those SKUs at once,
 * instead of waiting for their schedule. Coalesced: while such a run is still queued, the SKUs of later
 * orders join it, so a burst of orders starts one run per channel. A job whose run is going already
 * re-reads pending orders for every chunk it has not written yet; what it wrote before stays until its
 * next run. Identical stock bodies within Trendyol's 15 minutes are the connector's to skip (only changed
 * quantities are sent: the stock ledger compares first).
 *
 * `fromConnectionId`: the channel's connection, or null for the shop (whose jobs carry none).
 * Answers how many stock jobs were asked (queued or joined).
 */
export async function requestOtherChannelsStock(
  deps: Pick<EngineDeps, "db" | "enqueueRun" | "publish">,
  companyId: number,
  fromConnectionId: number | null,
  skus: readonly string[],
): Promise<number> {
  const wanted = [...new Set(skus)].filter((s) => s !== "");
  if (wanted.length === 0) return 0;
  const others = await deps.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.companyId, companyId),
        eq(jobs.type, "StockIntegration"),
        eq(jobs.isEnabled, true),
        fromConnectionId === null
          ? isNotNull(jobs.connectionId)
          : or(isNull(jobs.connectionId), ne(jobs.connectionId, fromConnectionId)),
      ),
    );
  let asked = 0;
  for (const job of others) {
    // A targeted run still waiting in the queue takes these SKUs too.
    const joined = await deps.db
      .update(jobRuns)
      .set({
        onlyKeys: sql`(select jsonb_agg(distinct k) from jsonb_array_elements_text(${jobRuns.onlyKeys} || ${JSON.stringify(wanted)}::jsonb) as k)`,
      })
      .where(and(eq(jobRuns.jobId, job.id), eq(jobRuns.status, "Queued"), isNotNull(jobRuns.onlyKeys)))
      .returning({ id: jobRuns.id });
    if (joined.length > 0) {
      asked++;
      continue;
    }
    // Otherwise a new targeted run; a job with a run queued (a full one covers these SKUs) or going
    // already answers `alreadyActive`.
    const result = await enqueueRun(deps, companyId, job.id, "webhook", wanted);
    if ("runId" in result) asked++;
  }
  return asked;
}
