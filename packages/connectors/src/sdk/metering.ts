/**
 * Metered systems: some ERPs bill every call (DİA: kontör per call) or cap calls per month (Logo İşbaşı:
 * about 3,000 reads and 7,000 writes). A connector declares it in its descriptor; the engine counts the
 * billable calls per company, connection and day, and asks `quotaDecision` before a scheduled run.
 * Days and months are Turkish days and months (./turkish-time), as the systems bill them.
 */

import { TURKEY_OFFSET_MS } from "./turkish-time";

export interface UsageCounts {
  read: number;
  write: number;
}

export interface MeteringPolicy {
  /** "credit": every call costs the customer credit; "quota": the account has a monthly cap. */
  kind: "credit" | "quota";
  /** Unit shown to the merchant (e.g. "kontör"). */
  unit?: string;
  /** Credit one call costs (DİA: 0.0125 kontör). */
  creditPerCall?: number;
  /** Monthly cap of calls. */
  monthlyQuota?: UsageCounts;
  /** Calls a run is assumed to need before one was measured. */
  minRunCalls?: UsageCounts;
  /** Share of the quota at which the company is warned (default 0.8). */
  warnAt?: number;
  /** Operations the system does not bill (DİA: login). */
  freeOperations?: string[];
}

/** Billable calls of one system in a counter's figures: its reads and writes less the free operations. */
export function billableCalls(
  policy: MeteringPolicy,
  system: string,
  stats: UsageCounts,
  byOperation: Record<string, number>,
  freeKind: keyof UsageCounts = "read",
): UsageCounts {
  let free = 0;
  for (const op of policy.freeOperations ?? []) free += byOperation[`${system}:${op}`] ?? 0;
  const out = { ...stats };
  out[freeKind] = Math.max(0, out[freeKind] - free);
  return { read: out.read, write: out.write };
}

/** Days left in the Istanbul month, today included (1 on the last day). */
export function daysLeftInMonth(ms: number): number {
  const d = new Date(ms + TURKEY_OFFSET_MS);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  return last - d.getUTCDate() + 1;
}

export interface QuotaInput {
  policy: MeteringPolicy;
  /** Calls this month before today. */
  beforeToday: UsageCounts;
  /** Calls today so far. */
  today: UsageCounts;
  /** What one run needs. */
  runNeeds: UsageCounts;
  /** Days left in the month, today included. */
  daysLeft: number;
}

export interface QuotaDecision {
  allowed: boolean;
  /** Which quota would be overdrawn. */
  short?: keyof UsageCounts;
  /** Today's share: what was left at the start of today, spread over the days left. */
  allowanceToday: UsageCounts;
  remaining: UsageCounts;
}

/**
 * A run may start when today's calls plus what it needs stay within today's share of the quota left.
 * The share is recomputed every day, so a schedule can never spend more than the month's remainder
 * spread evenly over its remaining days — it cannot burn the quota in a week.
 */
export function quotaDecision(i: QuotaInput): QuotaDecision {
  const quota = i.policy.monthlyQuota;
  const used = { read: i.beforeToday.read + i.today.read, write: i.beforeToday.write + i.today.write };
  if (!quota) {
    const none = { read: Number.POSITIVE_INFINITY, write: Number.POSITIVE_INFINITY };
    return { allowed: true, allowanceToday: none, remaining: none };
  }
  const days = Math.max(1, i.daysLeft);
  const allowanceToday = {
    read: Math.max(0, quota.read - i.beforeToday.read) / days,
    write: Math.max(0, quota.write - i.beforeToday.write) / days,
  };
  const remaining = {
    read: Math.max(0, quota.read - used.read),
    write: Math.max(0, quota.write - used.write),
  };
  for (const k of ["read", "write"] as const) {
    const need = i.runNeeds[k];
    if (need > 0 && (i.today[k] + need > allowanceToday[k] || need > remaining[k])) {
      return { allowed: false, short: k, allowanceToday, remaining };
    }
  }
  return { allowed: true, allowanceToday, remaining };
}

/** Which quotas a month's usage crossed the warning share of, going from `before` to `after`. */
export function crossedWarning(
  policy: MeteringPolicy,
  before: UsageCounts,
  after: UsageCounts,
): Array<keyof UsageCounts> {
  const quota = policy.monthlyQuota;
  if (!quota) return [];
  const at = policy.warnAt ?? 0.8;
  return (["read", "write"] as const).filter(
    (k) => quota[k] > 0 && before[k] < quota[k] * at && after[k] >= quota[k] * at,
  );
}
