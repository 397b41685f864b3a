import { EINVOICE_STATES } from "@ep/contracts";
import type { InvoiceProfile } from "@ep/einvoice";
import {
  type AnyPgColumn,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
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

/**
 * Where a foreign-currency invoice's rate came from, never a guess: the order's own (`Order.exchangeRate`,
 * filled by the shop or the ERP that carries one) or the merchant's dated rate.
 */
export const RATE_SOURCES = ["order", "merchant"] as const;
export type RateSource = (typeof RATE_SOURCES)[number];

export { EINVOICE_STATES, type EInvoiceState } from "@ep/contracts";

/**
 * One e-invoice per shop order and type (migrations 0025, 0026: a return adds an IADE row), keyed by its ETTN. The row is written with state
 * `prepared` in the transaction that takes the GİB number, before the provider hears of it.
 */
export const einvoices = pgTable(
  "einvoices",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    shopConnectionId: integer("shop_connection_id").notNull(),
    orderNo: text("order_no").notNull(),
    shopOrderId: text("shop_order_id").notNull(),
    ettn: uuid("ettn").notNull(),
    number: text("number").notNull(),
    profile: text("profile").$type<InvoiceProfile>().notNull(),
    state: text("state", { enum: EINVOICE_STATES }).notNull().default("prepared"),
    /** SATIS, or IADE for a return of a sent invoice (migration 0026). */
    type: text("type", { enum: ["SATIS", "IADE"] })
      .notNull()
      .default("SATIS"),
    /** The invoice an IADE returns. */
    returnOfId: integer("return_of_id").references((): AnyPgColumn => einvoices.id, { onDelete: "cascade" }),
    sendAttempts: integer("send_attempts").notNull().default(0),
    /** A send that failed transiently is tried again from this time (backoff, migration 0026). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    providerStatus: text("provider_status"),
    message: text("message"),
    buyer: text("buyer").notNull(),
    total: doublePrecision("total").notNull(),
    currency: text("currency").notNull(),
    issueDate: date("issue_date").notNull(),
    /** HH:MM:SS, Turkish time, taken with the number (migration 0048): every rebuild prints the same. */
    issueTime: text("issue_time"),
    /** TRY per unit of a foreign currency, and where it came from (the order's own, the merchant's). */
    exchangeRate: doublePrecision("exchange_rate"),
    rateSource: text("rate_source", { enum: RATE_SOURCES }),
    /**
     * A returned sale's route (einvoice's return rules): cancelled at the service, the buyer's IADE, or none
     * (a consumer's return after the period: the merchant's gider pusulası); with its reason code (returns.ts).
     */
    returnRoute: text("return_route", { enum: ["cancel", "iade", "none"] }),
    returnReason: text("return_reason"),
    /** The UBL-TR document as it was sent or generated: what the customer's page and PDF show. */
    ubl: text("ubl"),
    attachedAt: timestamp("attached_at", { withTimezone: true }),
    /**
     * A marketplace channel's feedback (migration 0052, feedback.ts): the invoice link's claim (attempts),
     * its next try after a 429/5xx, a permanent refusal with the marketplace's words; then the same for the
     * shipment's tracking number the merchant entered.
     */
    attachAttempts: integer("attach_attempts").notNull().default(0),
    attachNextAt: timestamp("attach_next_at", { withTimezone: true }),
    attachRefusedAt: timestamp("attach_refused_at", { withTimezone: true }),
    attachMessage: text("attach_message"),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    trackingAttempts: integer("tracking_attempts").notNull().default(0),
    trackingNextAt: timestamp("tracking_next_at", { withTimezone: true }),
    trackingSentAt: timestamp("tracking_sent_at", { withTimezone: true }),
    trackingRefusedAt: timestamp("tracking_refused_at", { withTimezone: true }),
    trackingMessage: text("tracking_message"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("einvoices_ettn_uq").on(t.ettn),
    unique("einvoices_order_uq").on(t.companyId, t.shopConnectionId, t.orderNo, t.type),
    unique("einvoices_number_uq").on(t.companyId, t.number),
    index("einvoices_company_state_idx").on(t.companyId, t.state, t.issueDate),
  ],
);

/** The merchant's exchange rates (Ayarlar › Faturalar): TRY per one unit, dated (migration 0048). */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    rateDate: date("rate_date").notNull(),
    rate: doublePrecision("rate").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "exchange_rates_pk", columns: [t.companyId, t.currency, t.rateDate] })],
);

/** The invoice job's settings per company (Sipariş Entegrasyonu › Fatura Ayarları). */
export const invoiceSettings = pgTable("invoice_settings", {
  companyId: integer("company_id")
    .primaryKey()
    .references(() => companies.id, { onDelete: "cascade" }),
  series: text("series").notNull().default("WEB"),
  draft: boolean("draft").notNull().default(false),
  invoiceWhen: text("invoice_when", { enum: ["paid", "shipped", "all"] })
    .notNull()
    .default("paid"),
  eInvoiceProfile: text("einvoice_profile", { enum: ["TEMELFATURA", "TICARIFATURA"] })
    .notNull()
    .default("TEMELFATURA"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
