import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "../../platform/db/schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export type StoredRowOutcome = { row: number; key: string; accepted: boolean; reasons: string[] };

/**
 * Files of the systems with no API: products / stock / prices files checked row by row and kept (the
 * generic connector reads the latest accepted one per kind), and the orders files written by the sync.
 * The same file (content hash) is kept once per company and kind, whatever the resends.
 */
export const fileImports = pgTable(
  "file_imports",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    kind: text("kind", { enum: ["products", "stock", "prices", "orders"] }).notNull(),
    fileName: text("file_name").notNull(),
    source: text("source", { enum: ["panel", "agent", "sync"] }).notNull(),
    /** The agent that sent it (source "agent"). */
    agentId: integer("agent_id"),
    contentHash: text("content_hash").notNull(),
    rowsAccepted: integer("rows_accepted").notNull().default(0),
    rowsRejected: integer("rows_rejected").notNull().default(0),
    /** Each row's outcome (in), or each order line's (out). */
    results: jsonb("results").$type<StoredRowOutcome[]>().notNull().default([]),
    /** The file's rows (in: the raw rows the connector maps again). */
    rows: jsonb("rows").$type<Record<string, unknown>[]>().notNull().default([]),
    /** The file's columns in their order (jsonb keeps object keys sorted). */
    columns: jsonb("columns").$type<string[]>().notNull().default([]),
    /** Model field → file column used by the check (in). */
    mapping: jsonb("mapping").$type<Record<string, string>>().notNull().default({}),
    /** The file itself, base64 (out: the orders file to download). */
    content: text("content"),
    /** When the agent put the orders file into its outbox folder (out). */
    deliveredAt: ts("delivered_at"),
    uploadedAt: ts("uploaded_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("file_imports_hash_uq").on(t.companyId, t.direction, t.kind, t.contentHash),
    index("file_imports_company_idx").on(t.companyId, t.direction, t.kind, t.uploadedAt),
  ],
);

/** An order the sync handed to the orders file, once per order number; `exportId` = the file it is in. */
export const fileOrders = pgTable(
  "file_orders",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    orderNo: text("order_no").notNull(),
    rows: jsonb("rows").$type<Record<string, string | number | null>[]>().notNull(),
    exportId: integer("export_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("file_orders_order_uq").on(t.companyId, t.orderNo),
    index("file_orders_pending_idx").on(t.companyId).where(sql`${t.exportId} is null`),
  ],
);
