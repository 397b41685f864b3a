import { engineSchema } from "@ep/engine";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "../../platform/db/schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One webhook endpoint per shop connection (migration 0024): the unguessable token in its callback
 * URL, what the shop has subscribed, when a delivery last arrived, and whether an order run must
 * follow the one that was active when a delivery came in.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => engineSchema.connections.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    systemType: integer("system_type").notNull(),
    topics: jsonb("topics").$type<string[]>().notNull().default([]),
    registeredAt: ts("registered_at"),
    lastError: text("last_error"),
    lastDeliveryAt: ts("last_delivery_at"),
    rerunRequestedAt: ts("rerun_requested_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_endpoints_connection_uq").on(t.connectionId),
    uniqueIndex("webhook_endpoints_token_uq").on(t.token),
    index("webhook_endpoints_rerun_idx").on(t.rerunRequestedAt).where(sql`${t.rerunRequestedAt} IS NOT NULL`),
  ],
);

/** Deliveries seen, by the shop's delivery id: a repeated delivery finds its row and does nothing. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id").notNull(),
    topic: text("topic").notNull(),
    receivedAt: ts("received_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("webhook_deliveries_endpoint_delivery_uq").on(t.endpointId, t.deliveryId)],
);
