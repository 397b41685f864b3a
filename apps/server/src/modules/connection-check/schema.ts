import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "../../platform/db/schema.ts";

/**
 * The last connection check of each side of a company (issue 36): per read, what the check found, as
 * stored data the panel renders in Turkish. `proceedAt` is the merchant's "go on" past a difference
 * for the first sync, until the next check.
 */
export const connectionChecks = pgTable(
  "connection_checks",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["erp", "shop"] }).notNull(),
    systemType: integer("system_type").notNull(),
    system: text("system").notNull(),
    trigger: text("trigger", { enum: ["save", "daily", "firstSync", "manual"] }).notNull(),
    plannedCalls: integer("planned_calls").notNull(),
    calls: integer("calls").notNull(),
    operations: jsonb("operations").$type<unknown[]>().notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
    /** The connection's `updatedAt` when it was checked: the check stands for that version of it. */
    connectionUpdatedAt: timestamp("connection_updated_at", { withTimezone: true }),
    proceedAt: timestamp("proceed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("connection_checks_company_kind_uq").on(t.companyId, t.kind)],
);

/**
 * A difference between a system's answers and our judge, across companies: one row per system,
 * operation and rule, with a redacted sample (the shape only). Support is told once it is seen at two
 * or more companies (`notifiedAt`).
 */
export const checkDifferences = pgTable(
  "check_differences",
  {
    id: serial("id").primaryKey(),
    system: text("system").notNull(),
    operation: text("operation").notNull(),
    rule: text("rule").notNull(),
    field: text("field").notNull(),
    detail: text("detail").notNull(),
    sample: jsonb("sample").notNull(),
    verified: text("verified").notNull(),
    firstSeen: timestamp("first_seen", { withTimezone: true }).notNull(),
    lastSeen: timestamp("last_seen", { withTimezone: true }).notNull(),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("check_differences_group_uq").on(t.system, t.operation, t.rule)],
);

/** Which companies a difference was seen at, and when last. */
export const checkDifferenceCompanies = pgTable(
  "check_difference_companies",
  {
    differenceId: integer("difference_id")
      .notNull()
      .references(() => checkDifferences.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    lastSeen: timestamp("last_seen", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("check_difference_companies_uq").on(t.differenceId, t.companyId),
    index("check_difference_companies_company_idx").on(t.companyId),
  ],
);
