import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const DELETION_STATUSES = ["pending", "cancelled", "completed"] as const;

/**
 * KVKK account deletions: the request, its grace period and, once done, the log of what was
 * removed. No foreign key to the company on purpose: the row outlives it and holds no personal data.
 */
export const companyDeletions = pgTable(
  "company_deletions",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    status: text("status", { enum: DELETION_STATUSES }).notNull().default("pending"),
    requestedBy: integer("requested_by"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    cancelledBy: integer("cancelled_by"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Rows removed per table, kept as the deletion's record. */
    removed: jsonb("removed").$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex("company_deletions_pending_uq").on(t.companyId).where(sql`${t.status} = 'pending'`),
    index("company_deletions_status_due_idx").on(t.status, t.dueAt),
  ],
);
