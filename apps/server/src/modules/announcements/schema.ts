import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../../platform/db/schema.ts";

/** Announcements our support team writes; every company's dashboard shows the latest ones. */
export const announcements = pgTable(
  "announcements",
  {
    id: serial("id").primaryKey(),
    /** A short label such as 'Bilgi', 'Bakım' or 'Yenilik'. */
    type: text("type").notNull(),
    content: text("content").notNull(),
    /** The date the announcement is about (shown as DD-MM on the dashboard). */
    date: timestamp("date", { withTimezone: true }).notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("announcements_date_idx").on(t.date)],
);
