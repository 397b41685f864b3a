import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "../../platform/db/schema.ts";

/**
 * The last GİB invoice number handed out per company, series and year (migration 0019). A row is
 * updated inside the transaction that records the invoice, so a rollback gives the number back.
 */
export const invoiceNumberCounters = pgTable(
  "invoice_number_counters",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    series: text("series").notNull(),
    year: integer("year").notNull(),
    lastValue: integer("last_value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "invoice_number_counters_pk", columns: [t.companyId, t.series, t.year] })],
);
