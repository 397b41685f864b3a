import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../../platform/db/schema.ts";

/** Every action a support user takes in the console: who, what, on which company or ticket. */
export const supportActions = pgTable(
  "support_actions",
  {
    id: serial("id").primaryKey(),
    supportUserId: integer("support_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    companyId: integer("company_id"),
    ticketId: integer("ticket_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("support_actions_created_idx").on(t.createdAt)],
);
