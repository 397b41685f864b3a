import type { JobType, RunStatisticsDto, SalesReportDto } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, count, desc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";

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

/** Open failed tasks per job. */
export async function openErrorsByJob(db: Db, companyId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ jobId: jobErrorReports.jobId, n: count() })
    .from(jobErrorReports)
    .where(and(eq(jobErrorReports.companyId, companyId), eq(jobErrorReports.status, "Open")))
    .groupBy(jobErrorReports.jobId);
  return new Map(rows.map((r) => [r.jobId, Number(r.n)]));
}

/** Shop orders seen but not yet in the ERP. */
export async function ordersWaiting(db: Db, companyId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orderLedger)
    .where(and(eq(orderLedger.companyId, companyId), inArray(orderLedger.state, ["received", "mapped"])));
  return Number(row?.n ?? 0);
}

/** The newest finished run of each job. */
export async function lastFinishedRuns(db: Db, companyId: number) {
  const rows = await db
    .selectDistinctOn([jobRuns.jobId])
    .from(jobRuns)
    .where(and(eq(jobRuns.companyId, companyId), isNotNull(jobRuns.finishedAt)))
    .orderBy(jobRuns.jobId, desc(jobRuns.finishedAt));
  return new Map(rows.map((r) => [r.jobId, r]));
}

export async function companyConnections(db: Db, companyId: number) {
  return db.select().from(connections).where(eq(connections.companyId, companyId));
}

export const jobIdsOfCompany = (db: Db, companyId: number) =>
  db.select({ id: jobs.id, type: jobs.type }).from(jobs).where(eq(jobs.companyId, companyId));
