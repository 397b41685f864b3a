import { type AnyPgColumn, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies, users } from "../../platform/db/schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** Ticket categories; a sub-category names its parent (spec section 3). Seeded by a migration. */
export const ticketCategories = pgTable("ticket_categories", {
  id: serial("id").primaryKey(),
  parentId: integer("parent_id").references((): AnyPgColumn => ticketCategories.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
});

/** A company's support ticket; status 0 Açık, 1 Cevap Bekliyor, 2 Cevaplandı, 3 Kapatıldı. */
export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categoryId: integer("category_id").references(() => ticketCategories.id, { onDelete: "set null" }),
    subject: text("subject").notNull(),
    status: integer("status").notNull().default(0),
    /** Opened from a job run or a failed task: what support needs to see it. */
    jobRunId: integer("job_run_id"),
    jobErrorReportId: integer("job_error_report_id"),
    /** Last support answer: the 24-hour auto-close counts from here. */
    lastSupportReplyAt: ts("last_support_reply_at"),
    closedAt: ts("closed_at"),
    closedBy: text("closed_by", { enum: ["customer", "support", "auto"] }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("tickets_company_idx").on(t.companyId, t.createdAt),
    index("tickets_status_idx").on(t.status, t.lastSupportReplyAt),
  ],
);

/** One message in a ticket's conversation; `answeredBy` is the customer's user id or -1 (support). */
export const ticketReplies = pgTable(
  "ticket_replies",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    answeredBy: integer("answered_by").notNull(),
    /** The support user who wrote it (support replies only; never shown to the customer). */
    supportUserId: integer("support_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("ticket_replies_ticket_idx").on(t.ticketId, t.createdAt)],
);

/** A file attached to a reply; stored under DATA_DIR with a server-made name, never the user's. */
export const ticketAttachments = pgTable(
  "ticket_attachments",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    replyId: integer("reply_id")
      .notNull()
      .references(() => ticketReplies.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("ticket_attachments_ticket_idx").on(t.ticketId)],
);

export type TicketRow = typeof tickets.$inferSelect;
export type TicketReplyRow = typeof ticketReplies.$inferSelect;
export type TicketAttachmentRow = typeof ticketAttachments.$inferSelect;
export type TicketCategoryRow = typeof ticketCategories.$inferSelect;
