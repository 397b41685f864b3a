import { integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The last real (not sandbox) login a company saved for each system it has used, so that choosing the
 * sandbox, or another system, and coming back finds the fields, queries and mappings as they were
 * (the connection row holds only the system in use). Sealed like the connection's own credentials.
 */
export const connectionProfiles = pgTable(
  "connection_profiles",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    kind: text("kind", { enum: ["erp", "shop", "einvoice"] }).notNull(),
    systemType: integer("system_type").notNull(),
    credentialsSealed: text("credentials_sealed").notNull(),
    agentId: integer("agent_id"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("connection_profiles_company_kind_system_uq").on(t.companyId, t.kind, t.systemType)],
);
