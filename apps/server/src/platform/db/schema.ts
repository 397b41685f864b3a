import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  taxOffice: text("tax_office").notNull().default(""),
  taxNumber: text("tax_number").notNull().default(""),
  address: text("address").notNull().default(""),
  phone: text("phone").notNull().default(""),
  /** The shop's web address, printed on every e-Arşiv of an internet sale (migration 0048). */
  website: text("website").notNull().default(""),
  erpType: integer("erp_type").notNull(),
  ecommerceType: integer("ecommerce_type").notNull(),
  isDemo: boolean("is_demo").notNull().default(false),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Null for our own support team, who belong to no company. */
    companyId: integer("company_id").references(() => companies.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone").notNull().default(""),
    role: text("role", { enum: ["company", "support"] })
      .notNull()
      .default("company"),
    language: text("language").notNull().default("tr"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`),
    index("users_company_idx").on(t.companyId),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    succeeded: boolean("succeeded").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_attempts_email_idx").on(t.email, t.createdAt),
    index("login_attempts_ip_idx").on(t.ip, t.createdAt),
  ],
);

/** One-time codes: password-reset links and partner sign-in codes. Only a hash of the code is kept. */
export const oneTimeCodes = pgTable(
  "one_time_codes",
  {
    id: serial("id").primaryKey(),
    purpose: text("purpose", { enum: ["password_reset", "login"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("one_time_codes_hash_uq").on(t.codeHash)],
);

export const licenses = pgTable(
  "licenses",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    productType: text("product_type").notNull(),
    imageFileName: text("image_file_name").notNull(),
    isTrial: boolean("is_trial").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("licenses_company_product_uq").on(t.companyId, t.productType)],
);

/**
 * A company that came from a partner (an Ideasoft store that installed our app, later Logo sign-on):
 * the partner's own id of the customer (the store domain) finds the company again on the next install.
 */
export const partnerAccounts = pgTable(
  "partner_accounts",
  {
    id: serial("id").primaryKey(),
    partner: text("partner").notNull(),
    externalId: text("external_id").notNull(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("partner_accounts_partner_external_uq").on(t.partner, t.externalId),
    index("partner_accounts_company_idx").on(t.companyId),
  ],
);

/** Every mail the product sends; without SMTP this table is the outbox the operator reads. */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: serial("id").primaryKey(),
    to: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["queued", "sent", "outbox", "failed"] })
      .notNull()
      .default("queued"),
    error: text("error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** A body carrying a link is cleared once the link expires (null: kept). */
    bodyExpiresAt: timestamp("body_expires_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_messages_status_idx").on(t.status, t.createdAt),
    index("mail_messages_body_expires_idx").on(t.bodyExpiresAt),
  ],
);

/** One row per throttled request (e.g. password recovery by address and by e-mail), counted in a window. */
export const throttleEvents = pgTable(
  "throttle_events",
  {
    id: serial("id").primaryKey(),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("throttle_events_bucket_key_idx").on(t.bucket, t.key, t.createdAt)],
);

/** Solved captcha signatures, so one proof of work cannot be replayed. */
export const captchaUses = pgTable("captcha_uses", {
  signature: text("signature").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
