import { RUN_TRIGGERS } from "@ep/contracts";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The engine's tables. Company ids reference the server's `companies` table; the engine package
 * does not import the server, so those foreign keys are written in the SQL migration.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true });
const createdAt = () => ts("created_at").notNull().defaultNow();

/**
 * A company's ERP, shop or e-invoice service connection (the third is optional: it issues the invoices
 * when the ERP does not), and its marketplace sales channels (kind `channel`, any number, one per
 * system key); credentials are sealed with AES-256-GCM by the server.
 */
export const connections = pgTable(
  "connections",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    kind: text("kind", { enum: ["erp", "shop", "einvoice", "channel"] }).notNull(),
    systemType: integer("system_type").notNull(),
    /** A channel's system key (`trendyol`, `hepsiburada`…): marketplaces have no type number in the spec. */
    systemKey: text("system_key"),
    /** A channel's settings (safety stock, price rule, order series…); empty for the other kinds. */
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    credentialsSealed: text("credentials_sealed").notNull(),
    /** Emulated systems of the demo company (the panel marks them). */
    isEmulated: boolean("is_emulated").notNull().default(false),
    /** The on-site agent that carries this connection's calls (inside the company's network); null: direct. */
    agentId: integer("agent_id"),
    lastTestAt: ts("last_test_at"),
    lastTestOk: boolean("last_test_ok"),
    lastTestMessage: text("last_test_message"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("connections_company_kind_uq").on(t.companyId, t.kind).where(sql`${t.kind} <> 'channel'`),
    uniqueIndex("connections_company_channel_uq")
      .on(t.companyId, t.systemKey)
      .where(sql`${t.kind} = 'channel'`),
  ],
);

export type JobSchedule = { kind: "interval"; minutes: number } | { kind: "cron"; expression: string };

export const jobs = pgTable(
  "jobs",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    /** The sales channel this job serves; null: the shop (every job of the spec's screens). */
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    name: text("name").notNull(),
    isEnabled: boolean("is_enabled").notNull().default(true),
    schedule: jsonb("schedule").$type<JobSchedule>().notNull(),
    /** Job options (price group, VAT handling, minimum stock…); empty = defaults. */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    lastRunState: boolean("last_run_state"),
    lastRunDate: ts("last_run_date"),
    lastSuccessAt: ts("last_success_at"),
    nextRunAt: ts("next_run_at"),
    /** Stock jobs: when the light "changed since" probe next asks the ERP (see jobs/change-probe.ts). */
    nextProbeAt: ts("next_probe_at").defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("jobs_company_type_uq").on(t.companyId, t.type).where(sql`${t.connectionId} is null`),
    uniqueIndex("jobs_channel_type_uq").on(t.connectionId, t.type).where(sql`${t.connectionId} is not null`),
    index("jobs_due_idx").on(t.nextRunAt).where(sql`${t.isEnabled}`),
    index("jobs_probe_idx").on(t.nextProbeAt).where(sql`${t.isEnabled} and ${t.type} = 'StockIntegration'`),
  ],
);

export const RUN_STATUSES = [
  "Queued",
  "Running",
  "Succeeded",
  "PartiallyFailed",
  "Failed",
  "Crashed",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export type RunCounts = { read: number; changed: number; written: number; failed: number };
export type RunCalls = { erp: { read: number; write: number }; shop: { read: number; write: number } };

/** JobHistory: one row per run, from queued to its end. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: serial("id").primaryKey(),
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    companyId: integer("company_id").notNull(),
    jobType: text("job_type").notNull(),
    jobName: text("job_name").notNull(),
    trigger: text("trigger", { enum: RUN_TRIGGERS }).notNull(),
    status: text("status", { enum: RUN_STATUSES }).notNull().default("Queued"),
    queuedAt: createdAt(),
    /** Last time the run was put on the queue (the sweeper re-queues a run whose message was lost). */
    enqueuedAt: ts("enqueued_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    counts: jsonb("counts")
      .$type<RunCounts>()
      .notNull()
      .default({ read: 0, changed: 0, written: 0, failed: 0 }),
    calls: jsonb("calls")
      .$type<RunCalls>()
      .notNull()
      .default({ erp: { read: 0, write: 0 }, shop: { read: 0, write: 0 } }),
    /** Readable report (Turkish), written at the end of the run. */
    report: text("report").notNull().default(""),
    /** Only these entity keys (a retry of selected failed tasks); null = everything. */
    onlyKeys: jsonb("only_keys").$type<string[]>(),
    /** Which side a failed run could not use ("erp" | "shop"), and the connector's reason: the connection status reads them. */
    failureSide: text("failure_side", { enum: ["erp", "shop"] }),
    failureReason: text("failure_reason"),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: ts("lease_expires_at"),
  },
  (t) => [
    // One active run per job: the database refuses a second one.
    uniqueIndex("job_runs_one_active_uq").on(t.jobId).where(sql`${t.status} in ('Queued', 'Running')`),
    // JobHistory pages (newest first, id breaks ties) and each job's latest finished run.
    index("job_runs_company_idx").on(t.companyId, t.queuedAt, t.id),
    index("job_runs_job_finished_idx")
      .on(t.jobId, t.finishedAt.desc())
      .where(sql`${t.finishedAt} is not null`),
    index("job_runs_lease_idx").on(t.leaseExpiresAt).where(sql`${t.status} = 'Running'`),
  ],
);

/** A failed task: one record that a run could not move, open until a later run moves it. */
export const jobErrorReports = pgTable(
  "job_error_reports",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    jobType: text("job_type").notNull(),
    jobRunId: integer("job_run_id").notNull(),
    entityKey: text("entity_key").notNull(),
    errorType: text("error_type").notNull(),
    message: text("message").notNull(),
    payload: jsonb("payload").$type<unknown>(),
    status: text("status", { enum: ["Open", "Resolved"] })
      .notNull()
      .default("Open"),
    occurrences: integer("occurrences").notNull().default(1),
    createdAt: createdAt(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    resolvedAt: ts("resolved_at"),
  },
  (t) => [
    // Per job: each sales channel's job keeps its own failed tasks.
    uniqueIndex("job_error_reports_open_uq").on(t.jobId, t.entityKey).where(sql`${t.status} = 'Open'`),
    index("job_error_reports_list_idx").on(t.companyId, t.jobType, t.createdAt),
    index("job_error_reports_seen_idx").on(t.companyId, t.jobType, t.lastSeenAt, t.id),
    index("job_error_reports_open_job_idx").on(t.jobId).where(sql`${t.status} = 'Open'`),
  ],
);

/**
 * Bindings and the delta ledger: (connection, entity, our key) ↔ external id, with the hash of what
 * was last pushed. Unique on both sides, so the database itself refuses a second creation.
 */
export const syncLedger = pgTable(
  "sync_ledger",
  {
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    companyId: integer("company_id").notNull(),
    entity: text("entity").notNull(),
    key: text("key").notNull(),
    externalId: text("external_id"),
    hash: text("hash"),
    pushedAt: ts("pushed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.entity, t.key] }),
    uniqueIndex("sync_ledger_external_uq")
      .on(t.connectionId, t.entity, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

export const ORDER_STATES = ["received", "mapped", "sent", "confirmed", "failed", "needs_review"] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const RETURN_KINDS = ["cancel", "return"] as const;
export const RETURN_STATES = ["pending", "erp_cancelled", "not_in_erp", "kept"] as const;

/**
 * Every shop or channel order seen, keyed by (shop or channel connection, order no): the exactly-once
 * record. A channel whose packages share an order number (Trendyol) keys each package `orderNo/packageId`.
 */
export const orderLedger = pgTable(
  "order_ledger",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    shopConnectionId: integer("shop_connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    orderNo: text("order_no").notNull(),
    shopOrderId: text("shop_order_id").notNull(),
    state: text("state", { enum: ORDER_STATES }).notNull().default("received"),
    erpDocumentId: text("erp_document_id"),
    erpCustomerCode: text("erp_customer_code"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Per-order lock: only the holder transfers it; a dead holder's lock runs out. */
    lockOwner: text("lock_owner"),
    lockUntil: ts("lock_until"),
    orderDate: ts("order_date").notNull(),
    grandTotal: doublePrecision("grand_total").notNull().default(0),
    currency: text("currency").notNull().default("TRY"),
    shopUpdatedAt: ts("shop_updated_at"),
    payload: jsonb("payload").$type<unknown>().notNull(),
    receivedAt: createdAt(),
    sentAt: ts("sent_at"),
    confirmedAt: ts("confirmed_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    /** Cancelled or returned on its shop/channel (recorded once, `order-returns.ts`); null: neither. */
    returnKind: text("return_kind", { enum: RETURN_KINDS }),
    /** The shop's or channel's own status word for it. */
    channelStatus: text("channel_status"),
    returnedAt: ts("returned_at"),
    /** How the ERP was settled: pending, erp_cancelled (order removed), not_in_erp, kept (the ERP keeps it). */
    returnState: text("return_state", { enum: RETURN_STATES }),
  },
  (t) => [
    uniqueIndex("order_ledger_shop_order_uq").on(t.shopConnectionId, t.orderNo),
    index("order_ledger_return_pending_idx").on(t.shopConnectionId).where(sql`${t.returnState} = 'pending'`),
    index("order_ledger_company_date_idx").on(t.companyId, t.orderDate),
    index("order_ledger_state_idx").on(t.companyId, t.state),
  ],
);

/**
 * Returns line by line (migration 0053, `order-returns.ts`): each return the marketplace reports, once per
 * order by its own `ref`, as `qty` units of the ledger payload's line `lineNo`. A line's units never exceed
 * what was ordered. The invoice cycle decides each once (`route`, `reason`, against the sale `einvoiceId`).
 */
export const orderReturnLines = pgTable(
  "order_return_lines",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    ledgerId: integer("ledger_id")
      .notNull()
      .references(() => orderLedger.id, { onDelete: "cascade" }),
    ref: text("ref").notNull(),
    lineNo: integer("line_no").notNull(),
    sku: text("sku").notNull(),
    qty: doublePrecision("qty").notNull(),
    returnedAt: ts("returned_at").notNull().defaultNow(),
    route: text("route", { enum: ["cancel", "iade", "none"] }),
    reason: text("reason"),
    einvoiceId: integer("einvoice_id"),
    /** The sale's 1st, 2nd … decided return: the lines decided together. */
    part: integer("part"),
    routedAt: ts("routed_at"),
  },
  (t) => [
    uniqueIndex("order_return_lines_ref_uq").on(t.ledgerId, t.ref),
    index("order_return_lines_unrouted_idx").on(t.companyId).where(sql`${t.routedAt} is null`),
  ],
);

/** Invoices moved to the shop, keyed by their ETTN (UBL-TR UUID). */
export const invoiceLedger = pgTable(
  "invoice_ledger",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    shopConnectionId: integer("shop_connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    ettn: text("ettn").notNull(),
    orderNo: text("order_no").notNull(),
    invoiceNo: text("invoice_no").notNull(),
    shopOrderId: text("shop_order_id").notNull(),
    state: text("state", { enum: ["received", "sending", "sent", "failed"] })
      .notNull()
      .default("received"),
    attachedAt: ts("attached_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invoice_ledger_ettn_uq").on(t.shopConnectionId, t.ettn)],
);

/** "Changed since" cursors; advanced only after the batch they cover is committed. */
export const syncCursors = pgTable(
  "sync_cursors",
  {
    companyId: integer("company_id").notNull(),
    stream: text("stream").notNull(),
    cursor: text("cursor").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.stream] })],
);

/** Shared rate-limit windows per (company, external system), across every worker process. */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  /** Epoch-ms timestamps of the calls inside the current window. */
  stamps: jsonb("stamps").$type<number[]>().notNull().default([]),
  blockedUntil: bigint("blocked_until", { mode: "number" }).notNull().default(0),
});

export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    type: text("type", { enum: ["Info", "Error"] }).notNull(),
    text: text("text").notNull(),
    isRead: boolean("is_read").notNull().default(false),
    /** What raised it (e.g. `run:42`, `licence-expiring:7`), so one event notifies once. */
    source: text("source"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_company_idx").on(t.companyId, t.createdAt, t.id),
    index("notifications_unread_idx").on(t.companyId).where(sql`${t.isRead} = false`),
    uniqueIndex("notifications_source_uq").on(t.companyId, t.source),
  ],
);

/** A company's integration settings and mappings, one JSON value per key (see `flows/mappings.ts`). */
export const companySettings = pgTable(
  "company_settings",
  {
    companyId: integer("company_id").notNull(),
    key: text("key").notNull(),
    value: jsonb("value").$type<unknown>().notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] })],
);

/**
 * Billable calls of metered systems (DİA kontör, İşbaşı monthly quota) per connection and Istanbul day;
 * a month's use is the sum of its days. Days let the quota guard spread what is left over the month.
 */
export const connectionUsage = pgTable(
  "connection_usage",
  {
    companyId: integer("company_id").notNull(),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    /** Istanbul calendar day, "yyyy-MM-dd". */
    day: text("day").notNull(),
    system: text("system").notNull(),
    reads: integer("reads").notNull().default(0),
    writes: integer("writes").notNull().default(0),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.day] }),
    index("connection_usage_company_idx").on(t.companyId, t.day),
  ],
);

/** One attribute value of a category mapping: the marketplace's attribute, a listed value id or free text. */
export type MappedAttribute = { attributeId: string; name: string; valueId?: string; value?: string };

/**
 * A variant attribute of a category mapping: the ERP variant option that feeds the marketplace's variant
 * attribute, and each ERP value of it onto the marketplace's value (listed id and name, or free text).
 */
export type MappedVariant = {
  attributeId: string;
  name: string;
  erpOption: string;
  values: Array<{ erpValue: string; valueId?: string; value: string }>;
};

/**
 * Product listing (issue 37): per sales channel, an ERP category (its path joined by " > ") mapped to
 * the marketplace's own category, the brand the products are opened under, and the values of the
 * category's attributes from the marketplace's lists. The channel's listing run opens the ERP's
 * products of mapped categories that the marketplace does not have yet.
 */
export const channelCategoryMappings = pgTable(
  "channel_category_mappings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    erpCategory: text("erp_category").notNull(),
    categoryId: text("category_id").notNull(),
    categoryName: text("category_name").notNull(),
    brandId: text("brand_id").notNull(),
    brandName: text("brand_name").notNull(),
    attributes: jsonb("attributes").$type<MappedAttribute[]>().notNull().default([]),
    variants: jsonb("variants").$type<MappedVariant[]>().notNull().default([]),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("channel_category_mappings_uq").on(t.connectionId, t.erpCategory),
    index("channel_category_mappings_company_idx").on(t.companyId, t.connectionId),
  ],
);
