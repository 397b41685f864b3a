import { z } from "zod";
import type { MessageKey } from "../messages/tr.ts";

const err = (key: MessageKey) => ({ error: key });

/**
 * How long a company's records are kept, per kind, in days. The bounds keep what other screens need:
 * reports and charts read runs of the last 30 days; a failed task's retry reads its run's report.
 */
export const RETENTION_RULES = {
  /** A run's row (JobHistory, reports). Each job's latest finished run is kept whatever its age. */
  runs: { defaultDays: 365, minDays: 30, maxDays: 1825 },
  /** A run's readable report and call counts; the row and its counts stay for reports. */
  runReports: { defaultDays: 90, minDays: 7, maxDays: 1825 },
  /** Failed tasks that a later run or a person resolved (open ones are never removed). */
  resolvedFailedTasks: { defaultDays: 90, minDays: 7, maxDays: 1825 },
  /** Notifications, read or not. */
  notifications: { defaultDays: 90, minDays: 7, maxDays: 1825 },
  /** 'Son Aktiviteler': who changed what. */
  activities: { defaultDays: 365, minDays: 30, maxDays: 1825 },
} as const;

export type RetentionKind = keyof typeof RETENTION_RULES;
export const RETENTION_KINDS = Object.keys(RETENTION_RULES) as RetentionKind[];

const days = (kind: RetentionKind) =>
  z
    .number(err("retention.daysInvalid"))
    .int(err("retention.daysInvalid"))
    .min(RETENTION_RULES[kind].minDays, err("retention.daysTooFew"))
    .max(RETENTION_RULES[kind].maxDays, err("retention.daysTooMany"));

/** PUT /api/retention: every kind, in days. */
export const retentionSettingsSchema = z.object({
  runs: days("runs"),
  runReports: days("runReports"),
  resolvedFailedTasks: days("resolvedFailedTasks"),
  notifications: days("notifications"),
  activities: days("activities"),
});
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;

export const DEFAULT_RETENTION: RetentionSettings = {
  runs: RETENTION_RULES.runs.defaultDays,
  runReports: RETENTION_RULES.runReports.defaultDays,
  resolvedFailedTasks: RETENTION_RULES.resolvedFailedTasks.defaultDays,
  notifications: RETENTION_RULES.notifications.defaultDays,
  activities: RETENTION_RULES.activities.defaultDays,
};

/** GET /api/retention: the company's settings, the defaults and what the last clean-up removed. */
export const retentionStateSchema = z.object({
  settings: retentionSettingsSchema,
  defaults: retentionSettingsSchema,
  lastRun_Date: z.string().nullable(),
  lastRemoved: z.record(z.string(), z.number().int()).nullable(),
});
export type RetentionState = z.infer<typeof retentionStateSchema>;
