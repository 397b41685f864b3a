/**
 * Metering of billable calls (one mechanism for every metered system): after a run, the billable calls
 * the SDK counted are added to `connection_usage` per connection and day, the report says what they cost,
 * and the company is warned once a month when a quota passes its warning share. Before a scheduled run,
 * a quota-capped system's remainder is spread over the days left: a run that does not fit today's share
 * is not started (manual runs are, so the merchant stays in control).
 */

import {
  billableCalls,
  type CallCounter,
  type ConnectorDescriptor,
  crossedWarning,
  daysLeftInMonth,
  type MeteringPolicy,
  quotaDecision,
  turkishDate,
  turkishMonth,
  type UsageCounts,
} from "@ep/connectors";
import { message } from "@ep/contracts";
import { and, desc, eq, isNotNull, like, sql } from "drizzle-orm";
import type { Executor } from "../db.ts";
import type { OpenedConnectors } from "../deps.ts";
import { connectionUsage, jobRuns } from "../store/schema.ts";
import { notifyCompany } from "./notifications.ts";

export interface MonthUsage {
  month: string;
  beforeToday: UsageCounts;
  today: UsageCounts;
  total: UsageCounts;
}

const zero = (): UsageCounts => ({ read: 0, write: 0 });

/** A connection's use in the Istanbul month of `now`, split into before today and today. */
export async function monthUsage(db: Executor, connectionId: number, now: Date): Promise<MonthUsage> {
  const month = turkishMonth(now.getTime());
  const today = turkishDate(now.getTime());
  const rows = await db
    .select({ day: connectionUsage.day, reads: connectionUsage.reads, writes: connectionUsage.writes })
    .from(connectionUsage)
    .where(and(eq(connectionUsage.connectionId, connectionId), like(connectionUsage.day, `${month}-%`)));
  const out: MonthUsage = { month, beforeToday: zero(), today: zero(), total: zero() };
  for (const r of rows) {
    const bucket = r.day === today ? out.today : out.beforeToday;
    bucket.read += r.reads;
    bucket.write += r.writes;
    out.total.read += r.reads;
    out.total.write += r.writes;
  }
  return out;
}

type Side = { descriptor: ConnectorDescriptor; connectionId: number };

function meteredSides(opened: OpenedConnectors): Array<Side & { policy: MeteringPolicy }> {
  const sides: Side[] = [
    { descriptor: opened.erp.descriptor, connectionId: opened.erpConnectionId },
    { descriptor: opened.shop.descriptor, connectionId: opened.shopConnectionId },
  ];
  return sides.flatMap((s) => (s.descriptor.metering ? [{ ...s, policy: s.descriptor.metering }] : []));
}

/** What one run of this job needs: the most its recent runs took, at least the system's minimum. */
async function runNeeds(db: Executor, jobId: number, side: "erp" | "shop", policy: MeteringPolicy) {
  const recent = await db
    .select({ calls: jobRuns.calls })
    .from(jobRuns)
    .where(and(eq(jobRuns.jobId, jobId), isNotNull(jobRuns.finishedAt)))
    .orderBy(desc(jobRuns.finishedAt))
    .limit(5);
  const need = { ...(policy.minRunCalls ?? zero()) };
  for (const r of recent) {
    need.read = Math.max(need.read, r.calls[side].read);
    need.write = Math.max(need.write, r.calls[side].write);
  }
  return need;
}

/** The Turkish reason a scheduled run may not start on a quota-capped system, or null. */
export async function quotaRefusal(
  db: Executor,
  run: { jobId: number; trigger: string },
  opened: OpenedConnectors,
  now: Date,
): Promise<string | null> {
  // Automatic runs (schedule, webhook, change) respect the quota; a person asking for a run decides for themselves.
  if (run.trigger === "manual" || run.trigger === "retry") return null;
  for (const s of meteredSides(opened)) {
    const quota = s.policy.monthlyQuota;
    if (!quota) continue;
    const side = s.connectionId === opened.erpConnectionId ? "erp" : "shop";
    const usage = await monthUsage(db, s.connectionId, now);
    const need = await runNeeds(db, run.jobId, side, s.policy);
    const d = quotaDecision({
      policy: s.policy,
      beforeToday: usage.beforeToday,
      today: usage.today,
      runNeeds: need,
      daysLeft: daysLeftInMonth(now.getTime()),
    });
    if (!d.allowed) {
      return message("engine.quotaRefused", {
        system: s.descriptor.name,
        readAllowance: Math.floor(d.allowanceToday.read),
        writeAllowance: Math.floor(d.allowanceToday.write),
        readNeed: need.read,
        writeNeed: need.write,
        readLeft: d.remaining.read,
        writeLeft: d.remaining.write,
      });
    }
  }
  return null;
}

/**
 * Adds a run's billable calls to the day's usage, warns once a month at the warning share, and returns
 * the report lines ("Bu ay: N çağrı (kontör)" / "Kalan kota: okuma X / yazma Y").
 */
export async function meterRun(
  db: Executor,
  companyId: number,
  opened: OpenedConnectors,
  counter: CallCounter,
  now: Date,
): Promise<string[]> {
  const lines: string[] = [];
  for (const s of meteredSides(opened)) lines.push(await meterCalls(db, companyId, s, counter, now));
  return lines;
}

/**
 * Adds one metered connection's billable calls (a run's, or a connection check's) to the day's usage,
 * warns once a month at the warning share, and returns the report line.
 */
export async function meterCalls(
  db: Executor,
  companyId: number,
  s: Side & { policy: MeteringPolicy },
  counter: CallCounter,
  now: Date,
): Promise<string> {
  const day = turkishDate(now.getTime());
  const system = s.descriptor.system;
  const used = billableCalls(s.policy, system, counter.get(system), counter.byOperation());
  const before = await monthUsage(db, s.connectionId, now);
  if (used.read + used.write > 0) {
    await db
      .insert(connectionUsage)
      .values({
        companyId,
        connectionId: s.connectionId,
        day,
        system,
        reads: used.read,
        writes: used.write,
      })
      .onConflictDoUpdate({
        target: [connectionUsage.connectionId, connectionUsage.day],
        set: {
          reads: sql`${connectionUsage.reads} + ${used.read}`,
          writes: sql`${connectionUsage.writes} + ${used.write}`,
          updatedAt: now,
        },
      });
  }
  const after = { read: before.total.read + used.read, write: before.total.write + used.write };
  const quota = s.policy.monthlyQuota;
  if (!quota) {
    const calls = used.read + used.write;
    const month = after.read + after.write;
    return message("engine.usageCredit", {
      system: s.descriptor.name,
      calls,
      month,
      credits: formatCredits(month * (s.policy.creditPerCall ?? 0)),
    });
  }
  const left = {
    read: Math.max(0, quota.read - after.read),
    write: Math.max(0, quota.write - after.write),
  };
  for (const k of crossedWarning(s.policy, before.total, after)) {
    await notifyCompany(
      db,
      companyId,
      "Error",
      message("engine.quotaWarning", {
        system: s.descriptor.name,
        percent: Math.round((s.policy.warnAt ?? 0.8) * 100),
        readLeft: left.read,
        writeLeft: left.write,
      }),
      `quota-warning:${s.connectionId}:${before.month}:${k}`,
    );
  }
  return message("engine.usageQuota", {
    system: s.descriptor.name,
    read: used.read,
    write: used.write,
    readLeft: left.read,
    writeLeft: left.write,
  });
}

function formatCredits(n: number): string {
  return n.toLocaleString("tr-TR", { maximumFractionDigits: 4 });
}
