import { createHash } from "node:crypto";
import {
  CallCounter,
  type CheckOperation,
  CheckRecorder,
  type CheckReport,
  type ConnectorKind,
  checkSpecOf,
  createErpConnector,
  createShopConnector,
  getDescriptor,
  type OperationResult,
  operationsFor,
  plannedCalls,
  runConnectionCheck,
  TURKEY_OFFSET_MS,
} from "@ep/connectors";
import {
  type CheckDifferenceGroup,
  type CheckOperationView,
  type ConnectionCheckOverview,
  type ConnectionCheckSide,
  JOB_TYPES,
  type JobType,
  type MessageKey,
  message,
} from "@ep/contracts";
import { engineSchema, JOB_CATALOG, meterCalls, type RunHold } from "@ep/engine";
import { and, asc, count, desc, eq, exists, inArray, isNull, lt, notExists, or, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { users } from "../../platform/db/schema.ts";
import {
  filesOf,
  interactiveConnectorContext,
  shopFilesOf,
  transportOf,
} from "../connections/connector-factory.ts";
import { type ConnectionRow, findConnection, openCredentials } from "../connections/repository.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { sandboxFor } from "../sandbox/registry.ts";
import { checkDifferenceCompanies, checkDifferences, connectionChecks } from "./schema.ts";

export type CheckTrigger = "save" | "daily" | "firstSync" | "manual";
type CheckRow = typeof connectionChecks.$inferSelect;

const SIDES: Array<{ kind: ConnectorKind; view: "erp" | "ecommerce" }> = [
  { kind: "erp", view: "erp" },
  { kind: "shop", view: "ecommerce" },
];

/** The daily check runs in the quiet hours of Turkish night, once a day per side. */
const QUIET_HOURS = [3, 4];
const DAILY_AGE_MS = 20 * 3_600_000;
/** Checks one tick of the daily sweep runs at most (one after another, so a sweep never bursts). */
const DAILY_PER_TICK = 5;
/** A difference seen at this many companies is a vendor change (or our judge's mistake): support is told. */
export const NOTIFY_AT_COMPANIES = 2;

const jobName = (j: JobType) => JOB_CATALOG[j]?.name ?? j;

/** The read's Turkish lines: what differed and which job and field will not work, or why it was not tried. */
function messagesOf(op: OperationResult, system: string, systemName: string, planned: number): string[] {
  const jobs = op.jobs.map(jobName).join(", ");
  if (op.status === "untried") {
    if (op.untriedMessage) return [op.untriedMessage];
    const reason = op.untriedReason ?? "unexpected";
    const known: Record<string, MessageKey> = {
      budget: "connectionCheck.untried.budget",
      auth: "connectionCheck.untried.auth",
      network: "connectionCheck.untried.network",
      timeout: "connectionCheck.untried.network",
      unavailable: "connectionCheck.untried.network",
      rate_limited: "connectionCheck.untried.rate_limited",
      unsupported: "connectionCheck.untried.unsupported",
    };
    return [message(known[reason] ?? "connectionCheck.untried.other", { planned, reason })];
  }
  return op.differences.map((d) => {
    if (d.rule.startsWith("model.") && d.expect && d.got)
      return message("connectionCheck.drift", {
        system: systemName,
        field: d.field,
        expect: message(`connectionCheck.expect.${d.expect}` as MessageKey),
        got: message(`connectionCheck.got.${d.got}` as MessageKey),
        jobs,
      });
    if (d.rule.endsWith(".unreadable"))
      return message("connectionCheck.unreadable", { system: systemName, jobs });
    // The connector's own rule, described in the merchant's words (its id is for support's console).
    const text = checkSpecOf(system).ruleTexts?.[d.rule] ?? "connectionCheck.rawRule";
    return message(text, { system: systemName, jobs });
  });
}

function sideView(row: CheckRow, view: "erp" | "ecommerce"): ConnectionCheckSide {
  const d = getDescriptor(row.kind, row.systemType);
  const name = d?.name ?? row.system;
  const ops = row.operations as OperationResult[];
  return {
    connectionType: view,
    system: name,
    trigger: row.trigger,
    checkedAt: row.checkedAt.toISOString(),
    plannedCalls: row.plannedCalls,
    calls: row.calls,
    proceedAt: row.proceedAt?.toISOString() ?? null,
    operations: ops.map(
      (op): CheckOperationView => ({
        operation: op.operation,
        label: message(`connectionCheck.operation.${op.operation}` as MessageKey),
        status: op.status,
        statusText: message(`connectionCheck.status.${op.status}` as MessageKey),
        jobs: op.jobs.map(jobName),
        messages: messagesOf(op, row.system, name, row.plannedCalls),
      }),
    ),
  };
}

/**
 * The connection check (issue 36): runs it for a side of a company (on save, daily, before a first
 * sync, on demand), keeps the last outcome per side, groups the differences across companies for the
 * support console and tells support once one is seen at two companies.
 */
export class ConnectionCheckService {
  constructor(private readonly ctx: AppContext & WithSandbox) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** The company's enabled jobs; before it has any, the jobs it will get. */
  private async enabledJobs(companyId: number): Promise<JobType[]> {
    const rows = await this.db
      .select({ type: engineSchema.jobs.type, enabled: engineSchema.jobs.isEnabled })
      .from(engineSchema.jobs)
      .where(eq(engineSchema.jobs.companyId, companyId));
    if (rows.length === 0) return [...JOB_TYPES];
    return rows.filter((r) => r.enabled).map((r) => r.type as JobType);
  }

  /** The enabled jobs that have not synced yet (all of them before the company has jobs). */
  private async firstSyncJobs(companyId: number): Promise<JobType[]> {
    const rows = await this.db
      .select({ type: engineSchema.jobs.type })
      .from(engineSchema.jobs)
      .where(
        and(
          eq(engineSchema.jobs.companyId, companyId),
          eq(engineSchema.jobs.isEnabled, true),
          isNull(engineSchema.jobs.lastSuccessAt),
        ),
      );
    const any = await this.enabledJobs(companyId);
    return rows.length === 0 && any.length === JOB_TYPES.length ? any : rows.map((r) => r.type as JobType);
  }

  /** Runs the check of one side now and keeps it; undefined when the side has no saved connection. */
  async run(companyId: number, kind: ConnectorKind, trigger: CheckTrigger): Promise<CheckRow | undefined> {
    const row = await findConnection(this.db, companyId, kind);
    if (!row) return undefined;
    const report = await this.check(companyId, row, await this.enabledJobs(companyId));
    const now = this.ctx.clock.now();
    const values = {
      companyId,
      kind,
      systemType: row.systemType,
      system: report.system,
      trigger,
      plannedCalls: report.plannedCalls,
      calls: report.calls,
      operations: report.operations,
      checkedAt: now,
      connectionUpdatedAt: row.updatedAt,
      proceedAt: null,
    };
    const [saved] = await this.db
      .insert(connectionChecks)
      .values(values)
      .onConflictDoUpdate({ target: [connectionChecks.companyId, connectionChecks.kind], set: values })
      .returning();
    await this.recordDifferences(companyId, report, now);
    this.ctx.logger.info(
      {
        companyId,
        system: report.system,
        trigger,
        planned: report.plannedCalls,
        calls: report.calls,
        statuses: report.operations.map((o) => `${o.operation}:${o.status}`),
      },
      "connection checked",
    );
    return saved;
  }

  /** The check itself: the connector built as the engine builds it, its transport recorded and held to the plan. */
  private async check(companyId: number, row: ConnectionRow, jobs: JobType[]): Promise<CheckReport> {
    const kind = row.kind as ConnectorKind;
    const descriptor = getDescriptor(kind, row.systemType);
    if (!descriptor?.implemented) throw new Error(`no connector for ${kind} ${row.systemType}`);
    const credentials = openCredentials(this.ctx.credentials, row);
    const spec = checkSpecOf(descriptor.system, credentials);
    const operations: CheckOperation[] = operationsFor(kind, jobs);
    const planned = plannedCalls(spec, operations);
    const direct = transportOf(this.ctx, row.agentId);
    // The company's own sandbox: a drill it armed (POST /api/sandbox/drift) reaches this check only.
    const sandbox = row.isEmulated ? sandboxFor(kind, row.systemType) : undefined;
    const recorder = new CheckRecorder(
      sandbox ? this.ctx.sandbox.withDrill(direct, sandbox, companyId) : direct,
      descriptor.system,
      descriptor.metering ? planned : undefined,
    );
    const counter = new CallCounter();
    const context = {
      ...interactiveConnectorContext(this.ctx, companyId, kind, credentials, row.agentId),
      fetch: recorder.fetch,
      counter,
      retry: { maxRetries: 1, maxRetryAfterMs: 5_000 },
    };
    const connector =
      kind === "erp"
        ? createErpConnector(row.systemType, credentials, {
            ...context,
            files: filesOf(this.ctx, companyId, row.systemType),
          })
        : createShopConnector(row.systemType, credentials, {
            ...context,
            shopFiles: shopFilesOf(this.ctx, companyId, row.systemType),
          });
    // Statements through the agent are counted by the counter; HTTP calls by the recorder.
    const sqlCalls = () => (context.sql ? counter.total().read + counter.total().write : 0);
    try {
      return await runConnectionCheck({ connector, descriptor, operations, jobs, spec, recorder, sqlCalls });
    } finally {
      // A DİA or İşbaşı check's calls are billed like a run's: they count in the month's usage.
      if (descriptor.metering)
        await meterCalls(
          this.db,
          companyId,
          { descriptor, connectionId: row.id, policy: descriptor.metering },
          counter,
          this.ctx.clock.now(),
        );
    }
  }

  /** Each difference into its group (system, operation, rule); support is told at two companies. */
  private async recordDifferences(companyId: number, report: CheckReport, now: Date): Promise<void> {
    const verified = checkSpecOf(report.system).verified ?? "";
    for (const op of report.operations) {
      for (const d of op.differences) {
        const [group] = await this.db
          .insert(checkDifferences)
          .values({
            system: report.system,
            operation: op.operation,
            rule: d.rule,
            field: d.field,
            detail: d.detail,
            sample: d.sample ?? null,
            verified,
            firstSeen: now,
            lastSeen: now,
          })
          .onConflictDoUpdate({
            target: [checkDifferences.system, checkDifferences.operation, checkDifferences.rule],
            set: { lastSeen: now, sample: d.sample ?? null, detail: d.detail, field: d.field },
          })
          .returning();
        await this.db
          .insert(checkDifferenceCompanies)
          .values({ differenceId: group!.id, companyId, lastSeen: now })
          .onConflictDoUpdate({
            target: [checkDifferenceCompanies.differenceId, checkDifferenceCompanies.companyId],
            set: { lastSeen: now },
          });
        if (!group!.notifiedAt) await this.notifyWhenWidespread(group!.id, now);
      }
    }
  }

  private async notifyWhenWidespread(differenceId: number, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(checkDifferenceCompanies)
        .where(eq(checkDifferenceCompanies.differenceId, differenceId));
      if (n < NOTIFY_AT_COMPANIES) return;
      // Marked first, so two checks finishing together tell support once.
      const [group] = await tx
        .update(checkDifferences)
        .set({ notifiedAt: now })
        .where(and(eq(checkDifferences.id, differenceId), isNull(checkDifferences.notifiedAt)))
        .returning();
      if (!group) return;
      const team = await tx.select({ email: users.email }).from(users).where(eq(users.role, "support"));
      const params = {
        system: group.system,
        operation: message(`connectionCheck.operation.${group.operation}` as MessageKey),
        companies: n,
        rule: group.rule,
        field: group.field,
        firstSeen: group.firstSeen.toISOString(),
        verified: group.verified,
        link: `${this.ctx.config.publicUrl}/support/connection-checks`,
      };
      for (const member of team) {
        await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
          to: member.email,
          subject: message("connectionCheck.supportMailSubject", params),
          body: message("connectionCheck.supportMailBody", params),
        });
      }
      this.ctx.logger.warn(
        { differenceId, system: group.system, rule: group.rule, companies: n },
        "check difference widespread",
      );
    });
  }

  /** Both sides' last checks, rendered for the merchant, and whether the first sync waits on them. */
  async overview(companyId: number): Promise<ConnectionCheckOverview> {
    const rows = await this.db
      .select()
      .from(connectionChecks)
      .where(eq(connectionChecks.companyId, companyId));
    const of = (kind: ConnectorKind) => rows.find((r) => r.kind === kind);
    const [erp, shop] = [of("erp"), of("shop")];
    const jobs = await this.firstSyncJobs(companyId);
    return {
      erp: erp ? sideView(erp, "erp") : null,
      ecommerce: shop ? sideView(shop, "ecommerce") : null,
      firstSyncHeld: jobs.some((j) => heldOps([erp, shop], j).length > 0),
    };
  }

  /** The merchant goes on despite the differences: the first sync starts (until the next check). */
  async proceed(companyId: number): Promise<void> {
    await this.db
      .update(connectionChecks)
      .set({ proceedAt: this.ctx.clock.now() })
      .where(eq(connectionChecks.companyId, companyId));
  }

  /**
   * Before a job's first sync: the last check must find no read the job needs "uyumsuz", unless the
   * merchant chose to go on. The last check is reused (a schedule retries a held run every tick): it is
   * run again only when none covers the connection as it is now (saved or moved since) or the job's reads.
   * The hold's Turkish reason and its key (connection and difference, one notice per hold), or null.
   */
  async firstSyncHold(companyId: number, jobType: JobType): Promise<RunHold | null> {
    const [job] = await this.db
      .select({ lastSuccessAt: engineSchema.jobs.lastSuccessAt })
      .from(engineSchema.jobs)
      .where(
        and(
          eq(engineSchema.jobs.companyId, companyId),
          eq(engineSchema.jobs.type, jobType),
          // The shop's first sync: a marketplace channel's jobs are not held by the shop's check.
          isNull(engineSchema.jobs.connectionId),
        ),
      );
    if (!job || job.lastSuccessAt) return null;
    const rows: CheckRow[] = [];
    const keys: string[] = [];
    for (const { kind } of SIDES) {
      const conn = await findConnection(this.db, companyId, kind);
      if (!conn) continue;
      const [last] = await this.db
        .select()
        .from(connectionChecks)
        .where(and(eq(connectionChecks.companyId, companyId), eq(connectionChecks.kind, kind)));
      const reads = operationsFor(kind, [jobType]);
      const covers = (r: CheckRow) =>
        reads.every((op) => (r.operations as OperationResult[]).some((o) => o.operation === op));
      const fresh =
        last &&
        last.systemType === conn.systemType &&
        last.connectionUpdatedAt?.getTime() === conn.updatedAt.getTime() &&
        covers(last);
      const row = fresh ? last : await this.run(companyId, kind, "firstSync").catch(() => last);
      if (!row) continue;
      rows.push(row);
      const held = heldOps([row], jobType);
      if (held.length) keys.push(`${conn.id}:${differenceKey(row, held)}`);
    }
    const held = heldOps(rows, jobType);
    if (held.length === 0) return null;
    const operations = held
      .map((op) => message(`connectionCheck.operation.${op}` as MessageKey).toLocaleLowerCase("tr-TR"))
      .join(", ");
    return { reason: message("connectionCheck.firstSyncHeld", { operations }), key: keys.join("|") };
  }

  /**
   * The daily check: in the quiet hours of Turkish night, each side whose last check is older than a
   * day gets one, a few per tick.
   */
  async dailySweep(): Promise<number> {
    const now = this.ctx.clock.now();
    const hour = new Date(now.getTime() + TURKEY_OFFSET_MS).getUTCHours();
    if (!QUIET_HOURS.includes(hour)) return 0;
    const { connections, jobs } = engineSchema;
    const jobsOf = (enabledOnly: boolean) =>
      this.db
        .select({ one: sql`1` })
        .from(jobs)
        .where(
          and(eq(jobs.companyId, connections.companyId), enabledOnly ? eq(jobs.isEnabled, true) : undefined),
        );
    const due = await this.db
      .select({ companyId: connections.companyId, kind: connections.kind })
      .from(connections)
      .leftJoin(
        connectionChecks,
        and(
          eq(connectionChecks.companyId, connections.companyId),
          eq(connectionChecks.kind, connections.kind),
        ),
      )
      .where(
        and(
          // The e-invoice service is tested, not checked: it reads no data the jobs depend on.
          inArray(connections.kind, ["erp", "shop"]),
          or(
            isNull(connectionChecks.id),
            lt(connectionChecks.checkedAt, new Date(now.getTime() - DAILY_AGE_MS)),
          ),
          // A company whose jobs are all switched off reads nothing: it is not checked, nor does it
          // take a due company's place in the tick.
          or(notExists(jobsOf(false)), exists(jobsOf(true))),
        ),
      )
      .orderBy(asc(sql`coalesce(${connectionChecks.checkedAt}, 'epoch')`))
      .limit(DAILY_PER_TICK);
    let done = 0;
    for (const d of due) {
      try {
        await this.run(d.companyId, d.kind as ConnectorKind, "daily");
        done++;
      } catch (error) {
        this.ctx.logger.warn({ err: error, companyId: d.companyId }, "daily connection check failed");
      }
    }
    return done;
  }

  /** The support console's groups, newest first, with how many companies each was seen at. */
  async differences(): Promise<CheckDifferenceGroup[]> {
    const rows = await this.db
      .select({ d: checkDifferences, companies: count(checkDifferenceCompanies.companyId) })
      .from(checkDifferences)
      .leftJoin(checkDifferenceCompanies, eq(checkDifferenceCompanies.differenceId, checkDifferences.id))
      .groupBy(checkDifferences.id)
      .orderBy(desc(checkDifferences.lastSeen))
      .limit(500);
    return rows.map(({ d, companies }) => ({
      id: d.id,
      system: d.system,
      operation: d.operation,
      rule: d.rule,
      field: d.field,
      detail: d.detail,
      sample: d.sample,
      verified: d.verified,
      firstSeen: d.firstSeen.toISOString(),
      lastSeen: d.lastSeen.toISOString(),
      companies,
      notified: d.notifiedAt !== null,
    }));
  }
}

/** The difference a hold is for: the held reads and the rules they broke (not when they were seen). */
function differenceKey(row: CheckRow, held: readonly CheckOperation[]): string {
  const rules = (row.operations as OperationResult[])
    .filter((o) => held.includes(o.operation))
    .flatMap((o) => o.differences.map((d) => `${o.operation}/${d.rule}`))
    .sort();
  return createHash("sha256").update(rules.join(",")).digest("hex").slice(0, 16);
}

/** The reads a job needs that its side's last check found "uyumsuz", unless the merchant went on. */
function heldOps(rows: Array<CheckRow | undefined>, jobType: JobType): CheckOperation[] {
  const out: CheckOperation[] = [];
  for (const row of rows) {
    if (!row || row.proceedAt) continue;
    for (const op of row.operations as OperationResult[])
      if (op.status === "drift" && op.jobs.includes(jobType)) out.push(op.operation);
  }
  return out;
}
