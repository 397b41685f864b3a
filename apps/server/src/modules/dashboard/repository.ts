import type { JobType, RunStatisticsDto, SalesReportDto } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, count, desc, eq, getTableColumns, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { licenses } from "../../platform/db/schema.ts";
import { announcements } from "../announcements/schema.ts";
import { lastRunOf, qualified, type RunOutcomeJson, runOutcomeOf } from "./connection-status.ts";

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

/**
 * The dashboard's counts stop here and say "at least" past it: the card links to the failed-task
 * list, which counts further; counting more here would cost every dashboard request.
 */
export const COUNT_LIMIT = 100;

type RunRow = typeof jobRuns.$inferSelect;
type JobRow = typeof jobs.$inferSelect;
type LicenceRow = typeof licenses.$inferSelect;
type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** `"alias"."column" as "key"` for every column of a table: a row of it as a JSON object with the TS keys. */
const columnsAs = (alias: string, table: typeof jobs | typeof licenses) =>
  sql.join(
    Object.entries(getTableColumns(table)).map(
      ([key, column]) => sql`${qualified(alias, column)} as ${sql.identifier(key)}`,
    ),
    sql`, `,
  );
const date = (value: string | null) => (value === null ? null : new Date(value));

/**
 * Everything the dashboard shows, in one statement: the company's licences; its jobs, each with
 * its active run, its newest finished run and its open failed tasks (counted up to COUNT_LIMIT);
 * its connections; the orders waiting for the ERP (up to COUNT_LIMIT); the latest announcements.
 * Every part is an index probe, so a long history costs nothing more; one round trip and one plan
 * keep the database's share of a request small under load. (The failed-task count is ordered as
 * the open-task index is, so the planner walks that index and never scans the table for a job
 * with no open tasks.)
 */
export async function dashboardSnapshot(db: Db, companyId: number, announcementCount: number) {
  const r = (column: { name: string }) => qualified("r", column);
  const e = (column: { name: string }) => qualified("e", column);
  const j = (column: { name: string }) => qualified("j", column);
  const c = (column: { name: string }) => qualified("c", column);
  const o = (column: { name: string }) => qualified("o", column);
  const a = (column: { name: string }) => qualified("a", column);
  const l = (column: { name: string }) => qualified("l", column);
  const result = await db.execute<{
    jobs: (Json<JobRow> & {
      active: ActiveRunJson | null;
      lastRun: RunOutcomeJson | null;
      openErrors: number;
    })[];
    licences: Json<LicenceRow>[];
    connections: (Omit<ConnectionJson, "kind"> & {
      id: number;
      kind: ConnectionJson["kind"] | "channel";
      systemKey: string | null;
    })[];
    waiting: Record<string, number>;
    announcements: { created_date: string; type: string; content: string }[];
  }>(sql`select
    (select coalesce(json_agg(x order by x."id"), '[]'::json) from (
      select ${columnsAs("j", jobs)},
        (select json_build_object('id', ${r(jobRuns.id)}, 'status', ${r(jobRuns.status)}, 'counts', ${r(jobRuns.counts)}, 'startedAt', ${r(jobRuns.startedAt)})
          from ${jobRuns} as r where ${r(jobRuns.jobId)} = ${j(jobs.id)} and ${r(jobRuns.status)} in ('Queued', 'Running') limit 1) as "active",
        ${lastRunOf("j")} as "lastRun",
        (select count(*)::int from (select 1 from ${jobErrorReports} as e where ${e(jobErrorReports.jobId)} = ${j(jobs.id)}
          and ${e(jobErrorReports.status)} = 'Open'
          order by ${e(jobErrorReports.entityKey)} limit ${COUNT_LIMIT}) as capped) as "openErrors"
      from ${jobs} as j where ${j(jobs.companyId)} = ${companyId}) as x) as "jobs",
    (select coalesce(json_agg(x order by x."id"), '[]'::json) from (
      select ${columnsAs("l", licenses)} from ${licenses} as l where ${l(licenses.companyId)} = ${companyId}) as x) as "licences",
    (select coalesce(json_agg(x), '[]'::json) from (
      select ${c(connections.id)} as "id", ${c(connections.kind)} as "kind", ${c(connections.systemType)} as "systemType",
        ${c(connections.systemKey)} as "systemKey",
        ${c(connections.lastTestAt)} as "lastTestAt", ${c(connections.lastTestOk)} as "lastTestOk",
        ${c(connections.lastTestMessage)} as "lastTestMessage", ${c(connections.agentId)} as "agentId"
      from ${connections} as c where ${c(connections.companyId)} = ${companyId}) as x) as "connections",
    (select coalesce(json_object_agg(w."k", w."n"), '{}'::json) from (select capped."k", count(*)::int as "n" from (
      select ${o(orderLedger.shopConnectionId)} as "k" from ${orderLedger} as o where ${o(orderLedger.companyId)} = ${companyId}
      and ${o(orderLedger.state)} in ('received', 'mapped') and ${o(orderLedger.returnKind)} is null limit ${COUNT_LIMIT}) as capped group by capped."k") as w) as "waiting",
    (select coalesce(json_agg(x), '[]'::json) from (
      select ${a(announcements.date)} as "created_date", ${a(announcements.type)} as "type", ${a(announcements.content)} as "content"
      from ${announcements} as a order by ${a(announcements.date)} desc, ${a(announcements.id)} desc limit ${announcementCount}) as x) as "announcements"`);
  const [row] = result.rows;
  return {
    jobs: (row?.jobs ?? []).map(({ active, lastRun, openErrors, ...job }) => ({
      job: {
        ...job,
        lastRunDate: date(job.lastRunDate),
        lastSuccessAt: date(job.lastSuccessAt),
        nextRunAt: date(job.nextRunAt),
        nextProbeAt: date(job.nextProbeAt),
        createdAt: new Date(job.createdAt),
      } satisfies JobRow,
      active: active ? { ...active, startedAt: date(active.startedAt) } : undefined,
      lastRun: runOutcomeOf(lastRun),
      lastCounts: lastRun?.counts ?? null,
      openErrors: Number(openErrors),
    })),
    licences: (row?.licences ?? []).map(
      (x) =>
        ({ ...x, expiresAt: new Date(x.expiresAt), createdAt: new Date(x.createdAt) }) satisfies LicenceRow,
    ),
    // The shop's, ERP's and e-invoice service's connections; the marketplace channels apart (issue 37).
    connections: (row?.connections ?? []).flatMap(({ kind, ...x }) =>
      kind === "channel" ? [] : [{ ...x, kind, lastTestAt: date(x.lastTestAt) }],
    ),
    channels: (row?.connections ?? []).flatMap((x) =>
      x.kind === "channel" ? [{ id: x.id, system: x.systemKey ?? "", ok: x.lastTestOk }] : [],
    ),
    /** Orders waiting for the ERP, per shop or channel connection id (counted up to COUNT_LIMIT). */
    waitingOrders: new Map(Object.entries(row?.waiting ?? {}).map(([k, n]) => [Number(k), Number(n)])),
    announcements: (row?.announcements ?? []).map((x) => ({
      ...x,
      created_date: new Date(x.created_date).toISOString(),
    })),
  };
}

type ActiveRunJson = {
  id: number;
  status: RunRow["status"];
  counts: RunRow["counts"];
  startedAt: string | null;
};

type ConnectionJson = {
  kind: "erp" | "shop" | "einvoice";
  systemType: number;
  lastTestAt: string | null;
  lastTestOk: boolean | null;
  lastTestMessage: string | null;
  agentId: number | null;
};
