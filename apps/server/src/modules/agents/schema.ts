import type { AgentFolderStatus } from "@ep/contracts";
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "../../platform/db/schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** One-time pairing codes issued in the panel; only the hash is kept, and a code works once. */
export const agentPairingCodes = pgTable(
  "agent_pairing_codes",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("agent_pairing_codes_hash_uq").on(t.codeHash)],
);

/** A paired on-site agent; the long-lived credential is stored only as a hash. */
export const agents = pgTable(
  "agents",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    credentialHash: text("credential_hash").notNull(),
    machineName: text("machine_name").notNull().default(""),
    version: text("version").notNull().default(""),
    lastSeenAt: ts("last_seen_at"),
    /** The server process holding the agent's socket (PostgreSQL: other processes route calls to it). */
    socketHolder: text("socket_holder"),
    /** The agent's watched folders as it last reported them (panel: watched-folder status). */
    folders: jsonb("folders").$type<AgentFolderStatus[]>(),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Self-update hours (agent's local clock, [from, to); from = to: any hour), set in the panel. */
    updateFrom: smallint("update_from").notNull().default(2),
    updateTo: smallint("update_to").notNull().default(5),
    /** The version the agent said it is installing, and since when (the panel: "Güncelleniyor"). */
    updatingTo: text("updating_to"),
    updatingSince: ts("updating_since"),
  },
  (t) => [
    uniqueIndex("agents_credential_hash_uq").on(t.credentialHash),
    index("agents_company_idx").on(t.companyId),
  ],
);

export type AgentRow = typeof agents.$inferSelect;

/**
 * A call a process relays through an agent whose socket another process holds (PostgreSQL only): the
 * request and the answer travel here, NOTIFY only says which row to read. Deleted once answered.
 */
export const agentRelayCalls = pgTable("agent_relay_calls", {
  id: text("id").primaryKey(),
  agentId: integer("agent_id").notNull(),
  request: jsonb("request").notNull(),
  answer: jsonb("answer"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * Further agents serving a connection besides its own (`connections.agent_id`), on other machines of the
 * company's network (as an integration runtime has nodes): a call goes to whichever of them is online.
 */
export const connectionAgentNodes = pgTable(
  "connection_agent_nodes",
  {
    connectionId: integer("connection_id").notNull(),
    agentId: integer("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "connection_agent_nodes_pk", columns: [t.connectionId, t.agentId] }),
    index("connection_agent_nodes_agent_idx").on(t.agentId),
  ],
);
