import {
  type ChannelFilter,
  type JobDto,
  type JobErrorReportDto,
  message as messageOf,
  type PagedList,
  type RunEventDto,
  type UpdateJobRequest,
} from "@ep/contracts";
import { engineSchema, enqueueRun, isValidCron, rescheduleJob } from "@ep/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import type { WithEngine } from "./engine-host.ts";
import * as repo from "./repository.ts";

const LONG_POLL_MS = 25_000;
const LONG_POLL_JITTER_MS = 5_000;

export class JobService {
  constructor(private readonly ctx: AppContext & WithEngine) {}

  private get db() {
    return this.ctx.database.db;
  }

  list(companyId: number, types: string[] | null, channel?: ChannelFilter): Promise<JobDto[]> {
    return repo.listJobs(this.db, companyId, types, channel);
  }

  async get(companyId: number, id: number): Promise<JobDto> {
    const [job] = (await repo.listJobs(this.db, companyId, null)).filter((j) => j.id === id);
    if (!job) throw AppError.notFound();
    return job;
  }

  async update(companyId: number, input: UpdateJobRequest, userId: number | null = null): Promise<JobDto> {
    const job = await repo.findJob(this.db, companyId, input.id);
    if (!job) throw AppError.notFound();
    if (input.schedule?.kind === "cron" && !isValidCron(input.schedule.expression)) {
      throw AppError.validation([
        { field: "schedule.expression", message: messageOf("validation.cronInvalid") },
      ]);
    }
    await this.db
      .update(engineSchema.jobs)
      .set({
        ...(input.is_enabled !== undefined ? { isEnabled: input.is_enabled } : {}),
        ...(input.schedule ? { schedule: input.schedule } : {}),
      })
      .where(eq(engineSchema.jobs.id, job.id));
    await rescheduleJob({ db: this.db, now: () => this.ctx.clock.now() }, job.id);
    const updated = await this.get(companyId, job.id);
    if (input.is_enabled !== undefined && input.is_enabled !== job.isEnabled) {
      const action = input.is_enabled ? "jobEnabled" : "jobDisabled";
      await recordActivity(this.db, { companyId, userId, action, detail: updated.name });
    }
    if (input.schedule && JSON.stringify(input.schedule) !== JSON.stringify(job.schedule)) {
      await recordActivity(this.db, {
        companyId,
        userId,
        action: "jobScheduleChanged",
        detail: updated.name,
      });
    }
    return updated;
  }

  async run(companyId: number, jobId: number, userId: number | null = null): Promise<{ runId: number }> {
    const result = await enqueueRun(this.ctx.engine.deps, companyId, jobId, "manual");
    if ("notFound" in result) throw AppError.notFound();
    if ("alreadyActive" in result) throw new AppError(409, "engine.alreadyRunning");
    const job = await this.get(companyId, jobId);
    await recordActivity(this.db, { companyId, userId, action: "jobRun", detail: job.name });
    return result;
  }

  history = (companyId: number, q: Parameters<typeof repo.listHistory>[2]) =>
    repo.listHistory(this.db, companyId, q);

  async report(companyId: number, id: number) {
    const run = await repo.findRun(this.db, companyId, id);
    if (!run) throw AppError.notFound();
    return repo.toReportDto(run);
  }

  errors = (
    companyId: number,
    jobType: string,
    q: Parameters<typeof repo.listErrors>[3],
  ): Promise<PagedList<JobErrorReportDto>> => repo.listErrors(this.db, companyId, jobType, q);

  async deleteErrors(companyId: number, ids: number[], userId: number | null = null): Promise<number> {
    const deleted = await repo.deleteErrors(this.db, companyId, ids);
    if (deleted > 0) {
      await recordActivity(this.db, {
        companyId,
        userId,
        action: "failedTasksDeleted",
        detail: String(deleted),
      });
    }
    return deleted;
  }

  /** Retries selected failed tasks: one run per job, moving only those records. */
  async retryErrors(
    companyId: number,
    ids: number[],
    userId: number | null = null,
  ): Promise<{ runIds: number[]; alreadyRunning: string[] }> {
    const rows = (await repo.findErrors(this.db, companyId, ids)).filter((r) => r.status === "Open");
    if (rows.length === 0) throw AppError.notFound();
    const byJob = new Map<number, { jobType: string; keys: string[] }>();
    for (const r of rows) {
      const entry = byJob.get(r.jobId) ?? { jobType: r.jobType, keys: [] };
      entry.keys.push(r.entityKey);
      byJob.set(r.jobId, entry);
    }
    const runIds: number[] = [];
    const alreadyRunning: string[] = [];
    for (const [jobId, { jobType, keys }] of byJob) {
      const result = await enqueueRun(this.ctx.engine.deps, companyId, jobId, "retry", keys);
      if ("runId" in result) runIds.push(result.runId);
      else if ("alreadyActive" in result) alreadyRunning.push(jobType);
    }
    if (runIds.length > 0) {
      const detail = String(rows.length);
      await recordActivity(this.db, { companyId, userId, action: "failedTasksRetried", detail });
    }
    return { runIds, alreadyRunning };
  }

  /**
   * Answers as soon as a run of the company starts, moves or ends, or after 20–25 s with nothing;
   * null when the company already holds its cap of open long polls.
   */
  async longPoll(
    companyId: number,
    jobTypes: string[] | null,
    signal: AbortSignal,
  ): Promise<{ events: RunEventDto[] } | null> {
    // A few seconds of jitter, so panels opened together do not all ask again in the same instant.
    const holdMs = LONG_POLL_MS - Math.floor(Math.random() * LONG_POLL_JITTER_MS);
    const waiting = this.ctx.engine.hub.wait(companyId, jobTypes, holdMs, signal);
    if (!waiting) return null;
    const events = await waiting;
    return { events: events.map(({ companyId: _c, ...e }) => e) };
  }
}
