import type {
  ChannelFilter,
  JobDto,
  JobErrorReportDto,
  JobHistoryDto,
  JobHistoryReportDto,
  JobType,
  PagedList,
} from "@ep/contracts";
import { engineSchema, JOB_CATALOG } from "@ep/engine";
import { and, desc, eq, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { countRows } from "../../platform/db/count-rows.ts";
import type { Db } from "../../platform/db/database.ts";
import { turkishDateRange } from "../../platform/time/turkey.ts";

const { jobs, jobRuns, jobErrorReports } = engineSchema;
type JobRow = typeof jobs.$inferSelect;
type RunRow = typeof jobRuns.$inferSelect;
type ErrorRow = typeof jobErrorReports.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toJobDto(
  job: JobRow,
  active: Pick<RunRow, "id" | "status" | "counts" | "startedAt"> | undefined,
): JobDto {
  return {
    id: job.id,
    type: job.type as JobType,
    name: job.name,
    area: JOB_CATALOG[job.type as JobType]?.area ?? "product",
    channel_id: job.connectionId,
    is_enabled: job.isEnabled,
    schedule: job.schedule,
    last_Run_State: job.lastRunState,
    last_run_date: iso(job.lastRunDate),
    last_success_date: iso(job.lastSuccessAt),
    next_run_date: job.isEnabled ? iso(job.nextRunAt) : null,
    active_run: active
      ? { id: active.id, status: active.status, counts: active.counts, started_date: iso(active.startedAt) }
      : null,
  };
}

/** What a history row shows: a list page never reads a run's report or its retried keys, which can be long. */
const historyColumns = {
  id: jobRuns.id,
  jobId: jobRuns.jobId,
  jobType: jobRuns.jobType,
  jobName: jobRuns.jobName,
  trigger: jobRuns.trigger,
  status: jobRuns.status,
  queuedAt: jobRuns.queuedAt,
  startedAt: jobRuns.startedAt,
  finishedAt: jobRuns.finishedAt,
  counts: jobRuns.counts,
  calls: jobRuns.calls,
};
type HistoryRow = Pick<RunRow, keyof typeof historyColumns>;

export function toHistoryDto(run: HistoryRow): JobHistoryDto {
  return {
    id: run.id,
    jobId: run.jobId,
    jobType: run.jobType as JobType,
    jobName: run.jobName,
    trigger: run.trigger,
    status: run.status,
    queued_date: run.queuedAt.toISOString(),
    started_date: iso(run.startedAt),
    finished_date: iso(run.finishedAt),
    counts: run.counts,
    calls: run.calls,
  };
}

export const toReportDto = (run: RunRow): JobHistoryReportDto => ({
  ...toHistoryDto(run),
  report: run.report,
});

export function toErrorDto(row: ErrorRow): JobErrorReportDto {
  return {
    id: row.id,
    jobId: row.jobId,
    jobType: row.jobType as JobType,
    jobRunId: row.jobRunId,
    entityKey: row.entityKey,
    errorType: row.errorType,
    message: row.message,
    payload: row.payload,
    status: row.status,
    occurrences: row.occurrences,
    created_date: row.createdAt.toISOString(),
    last_seen_date: row.lastSeenAt.toISOString(),
    resolved_date: iso(row.resolvedAt),
  };
}

/** The jobs of one channel: the shop's (no connection), a sales channel's, or every channel's. */
function ofChannel(channel: ChannelFilter): SQL | undefined {
  if (channel === undefined) return undefined;
  return channel === "shop" ? isNull(jobs.connectionId) : eq(jobs.connectionId, channel);
}

/** Runs or failed tasks of the company's jobs of one channel (`jobIdColumn` names their job). */
function ofChannelJobs(
  db: Db,
  companyId: number,
  jobIdColumn: typeof jobRuns.jobId | typeof jobErrorReports.jobId,
  channel: ChannelFilter,
): SQL | undefined {
  const only = ofChannel(channel);
  if (!only) return undefined;
  return inArray(
    jobIdColumn,
    db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.companyId, companyId), only)),
  );
}

/** The company's jobs of some types (of one channel, or all), each with its active run (if any). */
export async function listJobs(
  db: Db,
  companyId: number,
  types: string[] | null,
  channel?: ChannelFilter,
): Promise<JobDto[]> {
  const rows = await db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.companyId, companyId), types ? inArray(jobs.type, types) : undefined, ofChannel(channel)),
    )
    .orderBy(jobs.id);
  if (rows.length === 0) return [];
  const active = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.companyId, companyId), inArray(jobRuns.status, ["Queued", "Running"])));
  const byJob = new Map(active.map((r) => [r.jobId, r]));
  return rows.map((j) => toJobDto(j, byJob.get(j.id)));
}

export async function findJob(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, id)));
  return row;
}

export async function listHistory(
  db: Db,
  companyId: number,
  q: {
    jobTypes?: string[];
    startDate?: string;
    endDate?: string;
    pageNumber: number;
    pageSize: number;
    channel?: ChannelFilter;
  },
): Promise<PagedList<JobHistoryDto>> {
  const range = turkishDateRange(q);
  const where = and(
    eq(jobRuns.companyId, companyId),
    ofChannelJobs(db, companyId, jobRuns.jobId, q.channel),
    q.jobTypes && q.jobTypes.length > 0 ? inArray(jobRuns.jobType, q.jobTypes) : undefined,
    range.from ? gte(jobRuns.queuedAt, range.from) : undefined,
    range.to ? lt(jobRuns.queuedAt, range.to) : undefined,
  );
  const [total, rows] = await Promise.all([
    countRows(db, jobRuns, where),
    db
      .select(historyColumns)
      .from(jobRuns)
      .where(where)
      .orderBy(desc(jobRuns.queuedAt), desc(jobRuns.id))
      .limit(q.pageSize)
      .offset((q.pageNumber - 1) * q.pageSize),
  ]);
  return {
    dataList: rows.map(toHistoryDto),
    totalCount: total,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
  };
}

export async function findRun(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.companyId, companyId), eq(jobRuns.id, id)));
  return row;
}

export async function listErrors(
  db: Db,
  companyId: number,
  jobType: string,
  q: {
    pageNumber: number;
    pageSize: number;
    searchText?: string;
    status?: "Open" | "Resolved";
    errorType?: string;
    channel?: ChannelFilter;
  },
): Promise<PagedList<JobErrorReportDto>> {
  const search = q.searchText ? `%${q.searchText.replace(/[%_\\]/g, "\\$&")}%` : undefined;
  const where = and(
    eq(jobErrorReports.companyId, companyId),
    ofChannelJobs(db, companyId, jobErrorReports.jobId, q.channel),
    eq(jobErrorReports.jobType, jobType),
    q.status ? eq(jobErrorReports.status, q.status) : undefined,
    q.errorType ? eq(jobErrorReports.errorType, q.errorType) : undefined,
    search ? or(ilike(jobErrorReports.entityKey, search), ilike(jobErrorReports.message, search)) : undefined,
  );
  const [total, rows] = await Promise.all([
    countRows(db, jobErrorReports, where),
    db
      .select()
      .from(jobErrorReports)
      .where(where)
      .orderBy(desc(jobErrorReports.lastSeenAt), desc(jobErrorReports.id))
      .limit(q.pageSize)
      .offset((q.pageNumber - 1) * q.pageSize),
  ]);
  return {
    dataList: rows.map(toErrorDto),
    totalCount: total,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
  };
}

export async function deleteErrors(db: Db, companyId: number, ids: number[]): Promise<number> {
  const rows = await db
    .delete(jobErrorReports)
    .where(and(eq(jobErrorReports.companyId, companyId), inArray(jobErrorReports.id, ids)))
    .returning({ id: jobErrorReports.id });
  return rows.length;
}

export async function findErrors(db: Db, companyId: number, ids: number[]) {
  return db
    .select()
    .from(jobErrorReports)
    .where(and(eq(jobErrorReports.companyId, companyId), inArray(jobErrorReports.id, ids)));
}

export const activeRuns = (db: Db, companyId: number) =>
  db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.companyId, companyId), sql`${jobRuns.status} in ('Queued', 'Running')`));
