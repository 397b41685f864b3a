import { getDescriptor } from "@ep/connectors";
import { type ConnectionStatus, type MessageKey, message } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { formatDateTime } from "../../platform/time/turkey.ts";

const { jobs, jobRuns } = engineSchema;

/** Turkish text of a connector failure reason, for a connection test and for a run that could not connect. */
export const CONNECTION_FAILURE_MESSAGES: Partial<Record<string, MessageKey>> = {
  auth: "connectionSettings.testAuth",
  network: "connectionSettings.testUnreachable",
  unavailable: "connectionSettings.testUnreachable",
  server_error: "connectionSettings.testUnreachable",
  timeout: "connectionSettings.testTimeout",
  rate_limited: "connectionSettings.testRateLimited",
  blocked: "connectionSettings.testRateLimited",
  unsupported: "connectionSettings.testUnsupported",
  config: "connectionSettings.testConfig",
  validation: "connectionSettings.testConfig",
};

/** Reasons that mean the connection itself is broken (a busy or rate-limited system is not). */
const BROKEN_CONNECTION = new Set(["auth", "network", "unavailable", "server_error", "timeout", "config"]);

/** What a finished run tells about the connections: the newest finished run of each job. */
export type RunOutcome = {
  status: string;
  finishedAt: Date;
  failureSide: "erp" | "shop" | null;
  failureReason: string | null;
  counts: (typeof jobRuns.$inferSelect)["counts"];
};

export type RunOutcomeJson = Omit<RunOutcome, "finishedAt"> & { finishedAt: string };

/**
 * `"alias"."column"`: inside a correlated subquery Drizzle writes column names bare, and a bare
 * `"id"` would name the subquery's own table.
 */
export const qualified = (alias: string, column: { name: string }) => sql.raw(`"${alias}"."${column.name}"`);

/** A job's newest finished run as JSON; one index probe on (job_id, finished_at desc). */
export function lastRunOf(jobsAlias: string) {
  const r = (column: { name: string }) => qualified("r", column);
  return sql<RunOutcomeJson | null>`(select json_build_object('status', ${r(jobRuns.status)}, 'counts', ${r(jobRuns.counts)}, 'finishedAt', ${r(jobRuns.finishedAt)}, 'failureSide', ${r(jobRuns.failureSide)}, 'failureReason', ${r(jobRuns.failureReason)}) from ${jobRuns} as r where ${r(jobRuns.jobId)} = ${qualified(jobsAlias, jobs.id)} and ${r(jobRuns.finishedAt)} is not null order by ${r(jobRuns.finishedAt)} desc limit 1)`;
}

export const runOutcomeOf = (json: RunOutcomeJson | null): RunOutcome | null =>
  json ? { ...json, finishedAt: new Date(json.finishedAt) } : null;

/**
 * The newest finished run of each of the company's shop jobs (one statement); a marketplace channel's
 * runs speak for that channel, not for the shop's connection.
 */
export async function lastRunOutcomes(db: Db, companyId: number): Promise<RunOutcome[]> {
  const rows = await db
    .select({ run: lastRunOf("jobs") })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), isNull(jobs.connectionId)));
  return rows.flatMap((r) => runOutcomeOf(r.run) ?? []);
}

type ConnectionFacts = {
  kind: "erp" | "shop";
  systemType: number;
  lastTestAt: Date | null;
  lastTestOk: boolean | null;
  lastTestMessage: string | null;
};

/**
 * The one place a connection's status is decided: its last test or the company's last runs,
 * whichever is newer. A run tells about a side when it got through (both sides answered) or when it
 * ended because that side's connection failed; a run that failed for any other reason tells nothing.
 */
export function connectionStatus(
  kind: "erp" | "shop",
  connection: ConnectionFacts | undefined,
  runs: RunOutcome[],
): ConnectionStatus {
  if (!connection) {
    return {
      state: "none",
      message: message("panel.connectionNotSaved"),
      checked_date: null,
      source: null,
    };
  }
  let evidence: { run: RunOutcome; ok: boolean } | null = null;
  for (const run of runs) {
    let ok: boolean;
    if (run.status === "Succeeded" || run.status === "PartiallyFailed") ok = true;
    else if (
      run.status === "Failed" &&
      run.failureSide === kind &&
      run.failureReason !== null &&
      BROKEN_CONNECTION.has(run.failureReason)
    )
      ok = false;
    else continue;
    if (!evidence || run.finishedAt > evidence.run.finishedAt) evidence = { run, ok };
  }
  const testedAt = connection.lastTestOk !== null ? connection.lastTestAt : null;
  if (evidence && (!testedAt || evidence.run.finishedAt > testedAt)) {
    const at = evidence.run.finishedAt;
    if (evidence.ok) {
      return {
        state: "connected",
        message: message("panel.connectionRunOk", { date: formatDateTime(at) }),
        checked_date: at.toISOString(),
        source: "run",
      };
    }
    const system = getDescriptor(kind, connection.systemType)?.name ?? "";
    const reasonKey =
      CONNECTION_FAILURE_MESSAGES[evidence.run.failureReason ?? ""] ?? "connectionSettings.testFailed";
    return {
      state: "failed",
      message: message("panel.connectionRunFailed", {
        date: formatDateTime(at),
        reason: message(reasonKey, { system }),
      }),
      checked_date: at.toISOString(),
      source: "run",
    };
  }
  if (testedAt) {
    return {
      state: connection.lastTestOk ? "connected" : "failed",
      message: connection.lastTestMessage ?? "",
      checked_date: testedAt.toISOString(),
      source: "test",
    };
  }
  return {
    state: "untested",
    message: message("panel.connectionUntested"),
    checked_date: null,
    source: null,
  };
}
