import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies, users } from "../../platform/db/schema.ts";

/** Every user action that changed something: who, what and when ('Son Aktiviteler'). */
export const activities = pgTable(
  "activities",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** One of ACTIVITY_ACTIONS; the text is the catalogue entry `activity.<action>`. */
    action: text("action").notNull(),
    /** What the action was about (a job name, a count, a ticket subject …), filled into the text. */
    detail: text("detail").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("activities_company_created_idx").on(t.companyId, t.createdAt)],
);
