import type { JobType, RunStatisticsDto, SalesReportDto } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, count, desc, eq, getTableColumns, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { announcements } from "../announcements/schema.ts";
import { lastRunOf, qualified, runOutcomeOf } from "./connection-status.ts";

const { orderLedger, jobRuns, jobErrorReports, jobs, connections } = engineSchema;

/** Turkey keeps UTC+3 all year: a day of sales is a Turkish calendar day. */
const TR_OFFSET = sql.raw("interval '3 hours'");
const trDay = sql<string>`to_char((${orderLedger.orderDate} at time zone 'UTC') + ${TR_OFFSET}, 'YYYY-MM-DD')`;

/** Sales per Turkish day in [from, to): only days with orders (the panel fills the rest with 0). */
export async function dailySales(
  db: Db,
  companyId: number,
  from: Date,
  to: Date,
): Promise<{ created_date: string; amount: number }[]> {
  const rows = await db
    .select({ day: trDay, amount: sql<string>`sum(${orderLedger.grandTotal})` })
    .from(orderLedger)
    .where(
      and(
        eq(orderLedger.companyId, companyId),
        gte(orderLedger.orderDate, from),
        lt(orderLedger.orderDate, to),
      ),
    )
    .groupBy(trDay)
    .orderBy(trDay);
  return rows.map((r) => ({ created_date: r.day, amount: Math.round(Number(r.amount) * 100) / 100 }));
}

/** Orders of a date range, newest first, one page, with the range's total. */
export async function salesReport(
  db: Db,
  companyId: number,
  q: { pageNumber: number; pageSize: number; from: Date | null; to: Date | null },
): Promise<SalesReportDto> {
  const where = and(
    eq(orderLedger.companyId, companyId),
    q.from ? gte(orderLedger.orderDate, q.from) : undefined,
    q.to ? lt(orderLedger.orderDate, q.to) : undefined,
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(orderLedger)
      .where(where)
      .orderBy(desc(orderLedger.orderDate), desc(orderLedger.id))
      .limit(q.pageSize)
      .offset((q.pageNumber - 1) * q.pageSize),
    db
      .select({ n: count(), sum: sql<string>`coalesce(sum(${orderLedger.grandTotal}), 0)` })
      .from(orderLedger)
      .where(where),
  ]);
  return {
    dataList: rows.map((o) => {
      const customer = (
        o.payload as { customer?: { firstName?: string; lastName?: string; companyName?: string } }
      )?.customer;
      return {
        id: o.id,
        orderNo: o.orderNo,
        order_date: o.orderDate.toISOString(),
        customer:
          customer?.companyName || [customer?.firstName, customer?.lastName].filter(Boolean).join(" "),
        state: o.state,
        grand_total: o.grandTotal,
        currency: o.currency,
      };
    }),
    totalCount: Number(totals?.n ?? 0),
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
    totalAmount: Math.round(Number(totals?.sum ?? 0) * 100) / 100,
  };
}

/** Runs, failed runs, records written and records failed per job over a range. */
export async function runStatistics(
  db: Db,
  companyId: number,
  from: Date | null,
  to: Date | null,
): Promise<RunStatisticsDto> {
  const rows = await db
    .select({
      jobType: jobRuns.jobType,
      name: sql<string>`max(${jobRuns.jobName})`,
      runs: count(),
      failures: sql<string>`count(*) filter (where ${jobRuns.status} in ('Failed', 'Crashed'))`,
      written: sql<string>`coalesce(sum((${jobRuns.counts}->>'written')::int), 0)`,
      failed: sql<string>`coalesce(sum((${jobRuns.counts}->>'failed')::int), 0)`,
    })
    .from(jobRuns)
    .where(
      and(
        eq(jobRuns.companyId, companyId),
        isNotNull(jobRuns.finishedAt),
        from ? gte(jobRuns.queuedAt, from) : undefined,
        to ? lt(jobRuns.queuedAt, to) : undefined,
      ),
    )
    .groupBy(jobRuns.jobType)
    .orderBy(jobRuns.jobType);
  return rows.map((r) => ({
    jobType: r.jobType as JobType,
    name: r.name,
    runs: Number(r.runs),
    failures: Number(r.failures),
    written: Number(r.written),
    failed: Number(r.failed),
  }));
}

/** Counts stop here: a count past it says "at least" instead of scanning every row. */
export const COUNT_LIMIT = 1000;

/**
 * The company's jobs, each with its active run, its newest finished run and its open failed tasks
 * (counted up to COUNT_LIMIT), in one statement: every part is an index probe per job.
 */
export async function dashboardJobs(db: Db, companyId: number) {
  const r = (column: { name: string }) => qualified("r", column);
  const e = (column: { name: string }) => qualified("e", column);
  const jobId = qualified("jobs", jobs.id);
  const rows = await db
    .select({
      job: getTableColumns(jobs),
      active: sql<ActiveRunJson | null>`(select json_build_object('id', ${r(jobRuns.id)}, 'status', ${r(jobRuns.status)}, 'counts', ${r(jobRuns.counts)}, 'startedAt', ${r(jobRuns.startedAt)}) from ${jobRuns} as r where ${r(jobRuns.jobId)} = ${jobId} and ${r(jobRuns.status)} in ('Queued', 'Running') limit 1)`,
      lastRun: lastRunOf("jobs"),
      openErrors: sql<number>`(select count(*)::int from (select 1 from ${jobErrorReports} as e where ${e(jobErrorReports.jobId)} = ${jobId} and ${e(jobErrorReports.status)} = 'Open' limit ${COUNT_LIMIT}) as capped)`,
    })
    .from(jobs)
    .where(eq(jobs.companyId, companyId))
    .orderBy(jobs.id);
  return rows.map((r) => ({
    job: r.job,
    active: r.active
      ? { ...r.active, startedAt: r.active.startedAt ? new Date(r.active.startedAt) : null }
      : undefined,
    lastRun: runOutcomeOf(r.lastRun),
    lastCounts: r.lastRun?.counts ?? null,
    openErrors: Number(r.openErrors),
  }));
}

type RunRow = typeof jobRuns.$inferSelect;
type ActiveRunJson = {
  id: number;
  status: RunRow["status"];
  counts: RunRow["counts"];
  startedAt: string | null;
};

/** The company's connections, the orders waiting for the ERP (up to COUNT_LIMIT) and the latest announcements, in one statement. */
export async function dashboardFacts(db: Db, companyId: number, announcementCount: number) {
  const result = await db.execute<{
    connections: ConnectionJson[];
    waiting: number;
    announcements: { created_date: string; type: string; content: string }[];
  }>(sql`select
    (select coalesce(json_agg(c), '[]'::json) from (
      select ${connections.kind} as "kind", ${connections.systemType} as "systemType",
        ${connections.lastTestAt} as "lastTestAt", ${connections.lastTestOk} as "lastTestOk",
        ${connections.lastTestMessage} as "lastTestMessage"
      from ${connections} where ${connections.companyId} = ${companyId}) as c) as "connections",
    (select count(*)::int from (select 1 from ${orderLedger} where ${orderLedger.companyId} = ${companyId}
      and ${orderLedger.state} in ('received', 'mapped') limit ${COUNT_LIMIT}) as w) as "waiting",
    (select coalesce(json_agg(a), '[]'::json) from (
      select ${announcements.date} as "created_date", ${announcements.type} as "type", ${announcements.content} as "content"
      from ${announcements} order by ${announcements.date} desc, ${announcements.id} desc limit ${announcementCount}) as a) as "announcements"`);
  const [row] = result.rows;
  return {
    connections: (row?.connections ?? []).map((c) => ({
      ...c,
      lastTestAt: c.lastTestAt ? new Date(c.lastTestAt) : null,
    })),
    waitingOrders: Number(row?.waiting ?? 0),
    announcements: (row?.announcements ?? []).map((a) => ({
      ...a,
      created_date: new Date(a.created_date).toISOString(),
    })),
  };
}

type ConnectionJson = {
  kind: "erp" | "shop";
  systemType: number;
  lastTestAt: string | null;
  lastTestOk: boolean | null;
  lastTestMessage: string | null;
};
