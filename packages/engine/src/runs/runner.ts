import { CallCounter, isConnectorError } from "@ep/connectors";
import { type JobType, type MessageKey, message } from "@ep/contracts";
import { and, eq } from "drizzle-orm";
import { requestOtherChannelsStock } from "../channels/stock-trigger.ts";
import type { EngineDeps, OpenedConnectors } from "../deps.ts";
import type { Flow } from "../flows/flow.ts";
import { RunTally } from "../flows/flow.ts";
import { channelMappings, loadMappings } from "../flows/mappings.ts";
import { FLOWS } from "../flows/registry.ts";
import { SyncLedger } from "../ledger/sync-ledger.ts";
import { jobRuns, jobs, type RunCalls, type RunCounts, type RunStatus } from "../store/schema.ts";
import { unsupportedJob } from "./capabilities.ts";
import { noteRetriedUntouched, openFailureKeys, recordFailures, resolveFailures } from "./error-reports.ts";
import { failureLog, failureText, type SystemNames, systemNamesOf } from "./failure-text.ts";
import { meterRun, quotaRefusal } from "./metering.ts";
import { notifyCompany } from "./notifications.ts";

const DEFAULT_LEASE_MS = 60_000;
const PROGRESS_EVERY_MS = 750;
/** Whole-run retries for a transient failure (the flows are idempotent: the ledger skips what moved). */
const RUN_RETRY_DELAYS_MS = [2_000, 10_000];
/** Failed records of one run whose technical detail goes to the log (the rest are counted). */
const LOGGED_FAILURES = 20;

type ClaimedRun = typeof jobRuns.$inferSelect;

/** A scheduled run a metered system's quota cannot carry today (the message says why, in Turkish). */
class QuotaRefused extends Error {}

/**
 * Executes one queued run: claims it, holds a lease with a heartbeat, runs the job's flow, files
 * failed tasks, writes JobHistory and raises the notifications. A run not in `Queued` (already taken,
 * or marked Crashed by the sweeper) is left alone.
 */
export async function executeRun(
  deps: EngineDeps,
  runId: number,
  flows: Record<string, Flow> = FLOWS,
): Promise<RunStatus | null> {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const now = deps.now();
  const [run] = await deps.db
    .update(jobRuns)
    .set({
      status: "Running",
      startedAt: now,
      leaseOwner: deps.workerId,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
    })
    .where(and(eq(jobRuns.id, runId), eq(jobRuns.status, "Queued")))
    .returning();
  if (!run) return null;
  await deps.publish(event(run, "Running"));

  const heartbeat = setInterval(
    () => {
      deps.db
        .update(jobRuns)
        .set({ leaseExpiresAt: new Date(deps.now().getTime() + leaseMs) })
        .where(
          and(eq(jobRuns.id, run.id), eq(jobRuns.status, "Running"), eq(jobRuns.leaseOwner, deps.workerId)),
        )
        .catch((error) => deps.logger.warn({ runId, ...failureLog(error) }, "lease heartbeat failed"));
    },
    Math.max(1_000, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref?.();

  const counter = new CallCounter();
  let tally = newTally(deps, run);
  let status: RunStatus = "Failed";
  let reason: string | null = null;
  let systems = { erp: "", shop: "" };
  let names: SystemNames = {};
  let failure: RunFailure | null = null;
  let opened: OpenedConnectors | undefined;
  let quotaSkipped = false;
  let holdKey: string | undefined;
  try {
    reason = (await deps.refuseRun?.(run.companyId, run.jobType as JobType)) ?? null;
    if (!reason) {
      const hold = await deps.holdRun?.(run.companyId, run.jobType as JobType);
      reason = hold?.reason ?? null;
      holdKey = hold?.key;
    }
    if (!reason) {
      const flow = flows[run.jobType];
      if (!flow) throw new Error(`No flow for job type ${run.jobType}`);
      const [job] = await deps.db.select().from(jobs).where(eq(jobs.id, run.jobId));
      if (!job) throw new Error(`Job ${run.jobId} is gone`);
      // A sales channel's job runs the same flow against that channel's connector.
      opened = await deps.openConnectors(run.companyId, counter, job.connectionId);
      const { erp, shop } = opened;
      systems = { erp: erp.descriptor.system, shop: shop.descriptor.system };
      names = systemNamesOf(erp, shop);
      const unsupported = unsupportedJob(run.jobType as JobType, shop.descriptor);
      if (unsupported) throw unsupported;
      const refusal = await quotaRefusal(deps.db, run, opened, deps.now());
      if (refusal) throw new QuotaRefused(refusal);
      const companyMappings = await loadMappings(deps.db, run.companyId);
      const mappings = opened.channel ? channelMappings(companyMappings, opened.channel) : companyMappings;
      const openFailures = await openFailureKeys(deps.db, run.jobId);
      for (let attempt = 0; ; attempt++) {
        tally = newTally(deps, run, openFailures);
        const controller = new AbortController();
        try {
          await flow({
            db: deps.db,
            companyId: run.companyId,
            runId: run.id,
            job: { id: job.id, type: job.type as JobType, name: job.name, options: job.options },
            erp,
            shop,
            erpConnectionId: opened.erpConnectionId,
            shopConnectionId: opened.shopConnectionId,
            channel: opened.channel ?? null,
            stockPool: opened.stockPool ?? null,
            ledger: new SyncLedger(deps.db, opened.shopConnectionId, run.companyId),
            mappings,
            onlyKeys: run.onlyKeys ? new Set(run.onlyKeys) : null,
            trigger: run.trigger,
            now: deps.now,
            tally,
            signal: controller.signal,
            workerId: deps.workerId,
            lockMs: Math.round(leaseMs * 1.5),
            ordersMoved: async (skus) => {
              const from = opened?.channel ? opened.channel.connectionId : null;
              await requestOtherChannelsStock(deps, run.companyId, from, skus);
            },
          });
          break;
        } catch (error) {
          const delay = RUN_RETRY_DELAYS_MS[attempt];
          if (!isConnectorError(error) || error.kind !== "transient" || delay === undefined) throw error;
          deps.logger.warn(
            { runId, attempt, ...failureLog(error) },
            "transient failure, the run starts over",
          );
          await new Promise((r) =>
            setTimeout(r, error.retryAfterMs ? Math.max(delay, error.retryAfterMs) : delay),
          );
        }
      }
      status = tally.counts.failed > 0 ? "PartiallyFailed" : "Succeeded";
    }
  } catch (error) {
    status = "Failed";
    if (error instanceof QuotaRefused) {
      reason = error.message;
      quotaSkipped = true;
    } else {
      // The merchant reads what to do next; the log keeps the class and codes (no SQL, no values).
      reason = failureText(error, names);
      deps.logger.warn({ runId, jobType: run.jobType, ...failureLog(error) }, "run failed");
      failure = failureOf(error, systems);
    }
  } finally {
    clearInterval(heartbeat);
  }
  await finishRun(deps, run, status, tally, counter, systems, reason, failure, {
    opened,
    quotaSkipped,
    holdKey,
  });
  return status;
}

function newTally(deps: EngineDeps, run: ClaimedRun, openFailures?: ReadonlySet<string>): RunTally {
  let last = 0;
  return new RunTally((counts) => {
    const t = Date.now();
    if (t - last < PROGRESS_EVERY_MS) return;
    last = t;
    deps.db
      .update(jobRuns)
      .set({ counts: { ...counts } })
      .where(and(eq(jobRuns.id, run.id), eq(jobRuns.status, "Running")))
      .then(() => deps.publish({ ...event(run, "Running"), counts: { ...counts } }))
      .catch((error) => deps.logger.warn({ runId: run.id, ...failureLog(error) }, "progress update failed"));
  }, openFailures);
}

async function finishRun(
  deps: EngineDeps,
  run: ClaimedRun,
  status: RunStatus,
  tally: RunTally,
  counter: CallCounter,
  systems: { erp: string; shop: string },
  reason: string | null,
  failure: RunFailure | null,
  metering: {
    opened?: OpenedConnectors;
    quotaSkipped: boolean;
    /** Set when the run was held (see `EngineDeps.holdRun`): the merchant is told once per hold. */
    holdKey?: string;
  },
) {
  const now = deps.now();
  const ctx = { companyId: run.companyId, jobId: run.jobId, jobType: run.jobType, runId: run.id };
  if (tally.failures.length > 0) {
    for (const f of tally.failures.slice(0, LOGGED_FAILURES)) {
      if (f.cause !== undefined)
        deps.logger.warn({ runId: run.id, key: f.key, ...failureLog(f.cause) }, "record failed");
    }
    await recordFailures(deps.db, ctx, tally.failures, now);
  }
  let resolved = 0;
  const failedNow = new Set(tally.failures.map((f) => f.key));
  if (tally.movedKeys.length > 0) {
    // The tally kept only keys whose failed task was open when the run started; `resolveFailures`
    // touches only those still open.
    const toResolve = tally.movedKeys.filter((k) => !failedNow.has(k));
    if (toResolve.length > 0) resolved = await resolveFailures(deps.db, run.jobId, toResolve, now);
  }
  // A retry answers for every record it was asked to retry: moved (resolved above), failed again (its
  // new reason above), or neither, said on the task with the retry's time. A run that failed as a whole
  // says nothing of them: its own reason stands.
  // (A targeted run that orders on another channel started answers for no task: it notes nothing.)
  if (run.onlyKeys && run.trigger === "retry" && status !== "Failed") {
    const moved = new Set(tally.movedKeys);
    const untouched = run.onlyKeys.filter((k) => !moved.has(k) && !failedNow.has(k));
    if (untouched.length > 0)
      await noteRetriedUntouched(deps.db, ctx, untouched, now, message("engine.retryUntouched"));
  }
  const erpStats = counter.get(systems.erp || "erp");
  const shopStats = counter.get(systems.shop || "shop");
  const calls: RunCalls = {
    erp: { read: erpStats.read, write: erpStats.write },
    shop: { read: shopStats.read, write: shopStats.write },
  };
  // Billable calls of metered systems are counted whatever the run's outcome: they were made.
  const usageLines = metering.opened
    ? await meterRun(deps.db, run.companyId, metering.opened, counter, now).catch((error) => {
        deps.logger.warn({ runId: run.id, ...failureLog(error) }, "metering failed");
        return [] as string[];
      })
    : [];
  // The connector's own closing lines (the file connector: the files it read, the orders file it wrote).
  const connectorLines = metering.opened?.erp.afterRun
    ? await metering.opened.erp.afterRun().catch((error: unknown) => {
        deps.logger.warn({ runId: run.id, ...failureLog(error) }, "connector after-run failed");
        return [] as string[];
      })
    : [];
  const report = buildReport(status, tally.counts, calls, reason, resolved, [
    ...usageLines,
    ...tally.lines,
    ...connectorLines,
  ]);
  // The run's end, its job's last state and the notification are one transaction: a process ending between
  // them must not leave a failed run nobody is told of, and a reader who sees the run ended sees the notice.
  const finished = await deps.db.transaction(async (tx) => {
    // The row only changes if this worker still holds it: a run the sweeper already called Crashed stays so.
    const [finished] = await tx
      .update(jobRuns)
      .set({
        status,
        finishedAt: now,
        counts: tally.counts,
        calls,
        report,
        leaseExpiresAt: null,
        failureSide: failure?.side ?? null,
        failureReason: failure?.reason ?? null,
      })
      .where(
        and(eq(jobRuns.id, run.id), eq(jobRuns.status, "Running"), eq(jobRuns.leaseOwner, deps.workerId)),
      )
      .returning({ id: jobRuns.id });
    if (!finished) return false;
    const succeeded = status === "Succeeded";
    const [before] = await tx
      .select({ lastRunState: jobs.lastRunState, name: jobs.name })
      .from(jobs)
      .where(eq(jobs.id, run.jobId));
    await tx
      .update(jobs)
      .set({
        lastRunState: succeeded,
        lastRunDate: now,
        ...(succeeded || status === "PartiallyFailed" ? { lastSuccessAt: now } : {}),
      })
      .where(eq(jobs.id, run.jobId));
    const job = before?.name ?? run.jobName;
    if (metering.holdKey) {
      // Every tick of the schedule retries a held first sync: one notice per hold, the reason says it all.
      await notifyCompany(tx, run.companyId, "Error", reason ?? "", `first-sync-hold:${metering.holdKey}`);
    } else if (metering.quotaSkipped) {
      // A schedule keeps being refused all day: say it once a day, not every run.
      await notifyCompany(
        tx,
        run.companyId,
        "Error",
        message("engine.runFailed", { job, reason: reason ?? "" }),
        `quota-skip:${run.jobId}:${now.toISOString().slice(0, 10)}`,
      );
    } else if (status === "Failed") {
      await notifyCompany(
        tx,
        run.companyId,
        "Error",
        message("engine.runFailed", { job, reason: reason ?? "" }),
        `run:${run.id}`,
      );
    } else if (status === "PartiallyFailed") {
      await notifyCompany(
        tx,
        run.companyId,
        "Error",
        message("engine.runPartiallyFailed", { job, count: tally.counts.failed }),
        `run:${run.id}`,
      );
    } else if (before?.lastRunState === false) {
      await notifyCompany(
        tx,
        run.companyId,
        "Info",
        message("engine.runRecovered", { job }),
        `run:${run.id}`,
      );
    }
    return true;
  });
  if (!finished) return;
  await deps.publish({ ...event(run, status), counts: tally.counts });
}

export function buildReport(
  status: RunStatus,
  counts: RunCounts,
  calls: RunCalls,
  reason: string | null,
  resolved: number,
  lines: string[],
): string {
  const out: string[] = [];
  const statusKey: Record<RunStatus, MessageKey> = {
    Queued: "engine.statusQueued",
    Running: "engine.statusRunning",
    Succeeded: "engine.statusSucceeded",
    PartiallyFailed: "engine.statusPartiallyFailed",
    Failed: "engine.statusFailed",
    Crashed: "engine.statusCrashed",
  };
  out.push(message(statusKey[status]));
  if (reason) out.push(reason);
  out.push(message("engine.reportSummary", { ...counts }));
  out.push(
    message("engine.reportCalls", {
      erpRead: calls.erp.read,
      erpWrite: calls.erp.write,
      shopRead: calls.shop.read,
      shopWrite: calls.shop.write,
    }),
  );
  if (status === "Succeeded" && counts.changed === 0 && calls.shop.write === 0 && calls.erp.write === 0) {
    out.push(message("engine.reportNothingChanged"));
  }
  if (resolved > 0) out.push(message("engine.reportResolved", { count: resolved }));
  out.push(...lines);
  return out.join("\n");
}

type RunFailure = { side: "erp" | "shop" | null; reason: string };

/** Which connection a run-ending connector error came from, so the connection status can show it. */
function failureOf(error: unknown, systems: { erp: string; shop: string }): RunFailure | null {
  if (!isConnectorError(error)) return null;
  const side =
    error.system && error.system === systems.erp
      ? "erp"
      : error.system && error.system === systems.shop
        ? "shop"
        : null;
  return { side, reason: error.reason };
}

const event = (run: ClaimedRun, status: string) => ({
  companyId: run.companyId,
  runId: run.id,
  jobId: run.jobId,
  jobType: run.jobType,
  status,
});
