import {
  DEFAULT_RETENTION,
  RETENTION_KINDS,
  type RetentionSettings,
  type RetentionState,
  retentionSettingsSchema,
} from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { AppContext } from "../../platform/context.ts";
import type { Db } from "../../platform/db/database.ts";
import { companies, mailMessages } from "../../platform/db/schema.ts";
import { recordActivity } from "../activities/repository.ts";
import { activities } from "../activities/schema.ts";
import { agentRelayCalls } from "../agents/schema.ts";
import { webhookDeliveries } from "../webhooks/schema.ts";
import { SIGNED_REPEAT_WINDOW_MS, UNSIGNED_REPEAT_WINDOW_MS } from "../webhooks/service.ts";

const { jobRuns, jobErrorReports, notifications, companySettings } = engineSchema;

const SETTINGS_KEY = "retention";
const LAST_RUN_KEY = "retention:lastRun";
const DAY_MS = 86_400_000;

/**
 * Rows removed per statement: small enough that one statement holds its locks for milliseconds and
 * the pages it frees are reused, large enough that ten million old runs take minutes, not hours.
 */
export const RETENTION_BATCH = 5_000;

/** Records that belong to no company: kept as long as their purpose needs (no merchant sets these). */
export const SYSTEM_RETENTION = {
  /** Mail the product sent or could not send (queued mail is never removed). */
  mailDays: 90,
  /** A relay call no agent answered: its caller gave up long before. */
  relayCallHours: 1,
};

export type RemovedCounts = Record<string, number>;

type LastRun = { at: string; removed: RemovedCounts };

/** A company's retention periods, and what its last clean-up removed. */
export class RetentionService {
  constructor(private readonly ctx: Pick<AppContext, "database" | "clock" | "logger">) {}

  private get db(): Db {
    return this.ctx.database.db;
  }

  async state(companyId: number): Promise<RetentionState> {
    const rows = await this.db
      .select({ key: companySettings.key, value: companySettings.value })
      .from(companySettings)
      .where(
        and(
          eq(companySettings.companyId, companyId),
          inArray(companySettings.key, [SETTINGS_KEY, LAST_RUN_KEY]),
        ),
      );
    const byKey = new Map(rows.map((r) => [r.key, r.value]));
    const last = byKey.get(LAST_RUN_KEY) as LastRun | undefined;
    return {
      settings: settingsFrom(byKey.get(SETTINGS_KEY)),
      defaults: DEFAULT_RETENTION,
      lastRun_Date: last?.at ?? null,
      lastRemoved: last?.removed ?? null,
    };
  }

  async save(companyId: number, userId: number, settings: RetentionSettings): Promise<RetentionState> {
    await this.put(companyId, SETTINGS_KEY, settings);
    const detail = RETENTION_KINDS.map((kind) => `${settings[kind]}`).join(" / ");
    await recordActivity(this.db, { companyId, userId, action: "retentionChanged", detail: `${detail} gün` });
    return this.state(companyId);
  }

  private async put(companyId: number, key: string, value: unknown): Promise<void> {
    const now = this.ctx.clock.now();
    await this.db
      .insert(companySettings)
      .values({ companyId, key, value, updatedAt: now })
      .onConflictDoUpdate({
        target: [companySettings.companyId, companySettings.key],
        set: { value, updatedAt: now },
      });
  }

  /**
   * Applies every company's periods and the system's own, in batches of RETENTION_BATCH rows, and
   * notes per company what was removed. Returns the totals, by kind.
   */
  async applyAll(): Promise<RemovedCounts> {
    const totals: RemovedCounts = {};
    const add = (kind: string, n: number) => {
      totals[kind] = (totals[kind] ?? 0) + n;
    };
    const ids = await this.db.select({ id: companies.id }).from(companies).orderBy(companies.id);
    for (const { id } of ids) {
      const removed = await this.applyCompany(id);
      for (const [kind, n] of Object.entries(removed)) add(kind, n);
    }
    for (const [kind, n] of Object.entries(await this.applySystem())) add(kind, n);
    this.ctx.logger.info({ removed: totals }, "retention applied");
    return totals;
  }

  /** One company's clean-up; the same call twice removes nothing the second time. */
  async applyCompany(companyId: number): Promise<RemovedCounts> {
    const { settings } = await this.state(companyId);
    const now = this.ctx.clock.now().getTime();
    const before = (days: number) => new Date(now - days * DAY_MS);
    const removed: RemovedCounts = {
      runs: await this.inBatches(
        sql`delete from ${jobRuns} where ${jobRuns.id} in (
          select r.id from ${jobRuns} as r
          where r.company_id = ${companyId} and r.created_at < ${before(settings.runs)}
            and r.finished_at is not null
            -- each job's latest finished run stays: the dashboard and the connection status read it
            and r.id <> (select l.id from ${jobRuns} as l where l.job_id = r.job_id and l.finished_at is not null
                         order by l.finished_at desc limit 1)
            -- a run an open failed task points to stays while the task is open
            and not exists (select 1 from ${jobErrorReports} as e
                            where e.job_run_id = r.id and e.status = 'Open')
          order by r.created_at limit ${RETENTION_BATCH}) returning 1`,
      ),
      runReports: await this.clearReports(companyId, before(settings.runReports)),
      resolvedFailedTasks: await this.deleteOlder(
        jobErrorReports,
        and(
          eq(jobErrorReports.companyId, companyId),
          eq(jobErrorReports.status, "Resolved"),
          sql`${jobErrorReports.lastSeenAt} < ${before(settings.resolvedFailedTasks)}`,
        ),
      ),
      notifications: await this.deleteOlder(
        notifications,
        and(
          eq(notifications.companyId, companyId),
          sql`${notifications.createdAt} < ${before(settings.notifications)}`,
        ),
      ),
      activities: await this.deleteOlder(
        activities,
        and(
          eq(activities.companyId, companyId),
          sql`${activities.createdAt} < ${before(settings.activities)}`,
        ),
      ),
    };
    await this.put(companyId, LAST_RUN_KEY, { at: new Date(now).toISOString(), removed } satisfies LastRun);
    return removed;
  }

  /** Rows that belong to no company. */
  async applySystem(): Promise<RemovedCounts> {
    const now = this.ctx.clock.now().getTime();
    const deliveriesBefore = new Date(now - Math.max(SIGNED_REPEAT_WINDOW_MS, UNSIGNED_REPEAT_WINDOW_MS));
    return {
      mail: await this.deleteOlder(
        mailMessages,
        sql`${mailMessages.status} <> 'queued' and ${mailMessages.createdAt} < ${new Date(now - SYSTEM_RETENTION.mailDays * DAY_MS)}`,
      ),
      // A delivery's key only matters while a repeat could still match it (the dedupe window).
      webhookDeliveries: await this.deleteOlder(
        webhookDeliveries,
        sql`${webhookDeliveries.receivedAt} < ${deliveriesBefore}`,
      ),
      relayCalls: await this.deleteOlder(
        agentRelayCalls,
        sql`${agentRelayCalls.createdAt} < ${new Date(now - SYSTEM_RETENTION.relayCallHours * 3_600_000)}`,
      ),
    };
  }

  /**
   * Empties old reports, walking the company's runs by (queued_at, id) from where the last batch
   * stopped: a run already emptied is passed once, not again in every batch.
   */
  private async clearReports(companyId: number, before: Date): Promise<number> {
    let total = 0;
    let after: { at: Date; id: number } = { at: new Date(0), id: 0 };
    for (;;) {
      const result = await this.db.execute<{
        picked: number;
        n: number;
        last_at: string | null;
        last_id: number | null;
      }>(
        sql`with picked as (
              select r.id, r.created_at from ${jobRuns} as r
              where r.company_id = ${companyId} and r.finished_at is not null and r.created_at < ${before}
                and (r.created_at, r.id) > (${after.at}, ${after.id})
              order by r.created_at, r.id limit ${RETENTION_BATCH}),
            cleared as (
              update ${jobRuns} set report = '', calls = ${JSON.stringify(EMPTY_CALLS)}::jsonb
              where ${jobRuns.id} in (select id from picked) and ${jobRuns.report} <> '' returning 1),
            last as (select id, created_at from picked order by created_at desc, id desc limit 1)
          select (select count(*)::int from picked) as picked, (select count(*)::int from cleared) as n,
                 (select created_at from last) as last_at, (select id from last) as last_id`,
      );
      const row = result.rows[0];
      total += Number(row?.n ?? 0);
      if (!row || Number(row.picked) < RETENTION_BATCH || row.last_at === null || row.last_id === null)
        return total;
      after = { at: new Date(row.last_at), id: Number(row.last_id) };
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private deleteOlder(table: PgTable & { id: AnyPgColumn }, where: SQL | undefined): Promise<number> {
    return this.inBatches(
      sql`delete from ${table} where ${table.id} in (select ${table.id} from ${table} where ${where} limit ${RETENTION_BATCH}) returning 1`,
    );
  }

  /** Repeats one batch statement until it touches nothing; other work gets the database between batches. */
  private async inBatches(statement: SQL): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await this.db.execute<{ n: number }>(
        sql`with touched as (${statement}) select count(*)::int as n from touched`,
      );
      const n = Number(result.rows[0]?.n ?? 0);
      total += n;
      if (n < RETENTION_BATCH) return total;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

const EMPTY_CALLS = { erp: { read: 0, write: 0 }, shop: { read: 0, write: 0 } };

/** Stored settings, each kind falling back to its default (a kind added later, or a value out of bounds). */
function settingsFrom(stored: unknown): RetentionSettings {
  const merged = { ...DEFAULT_RETENTION, ...(typeof stored === "object" && stored !== null ? stored : {}) };
  const parsed = retentionSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_RETENTION;
}
