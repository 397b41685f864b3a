import { getSalesChannelDescriptor } from "@ep/connectors";
import { type ChannelSettings, engineSchema, type SalesChannel } from "@ep/engine";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import type { CredentialCipher } from "../../platform/security/credentials.ts";
import { connectionProfiles } from "./schema.ts";

const { connections } = engineSchema;
export type ConnectionRow = typeof connections.$inferSelect;
/** The ERP, the shop, and the optional e-invoice service that issues the invoices when the ERP does not. */
export type ConnectionKind = "erp" | "shop" | "einvoice";

export async function findConnection(
  db: Db,
  companyId: number,
  kind: ConnectionKind,
): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.kind, kind)));
  return row;
}

/** The company's marketplace sales channels (issue 37), in the order they were connected. */
export async function listChannels(db: Db, companyId: number): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.kind, "channel")))
    .orderBy(asc(connections.id));
}

/** One of the company's channels by id; another company's id finds nothing. */
export async function findChannel(db: Db, companyId: number, id: number): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(connections)
    .where(
      and(eq(connections.id, id), eq(connections.companyId, companyId), eq(connections.kind, "channel")),
    );
  return row;
}

/** The channel as the engine sees it (its system, name and settings). */
export function channelOf(row: ConnectionRow): SalesChannel {
  const system = row.systemKey ?? "";
  return {
    connectionId: row.id,
    system,
    name: getSalesChannelDescriptor(system)?.name ?? system,
    settings: row.settings as ChannelSettings,
  };
}

/**
 * Connects (or reconnects) a marketplace channel: one row per company and system, credentials sealed.
 * A sales channel has no type number in the spec: `system_type` stays 0, the system key names it.
 */
export async function saveChannel(
  db: Db,
  cipher: CredentialCipher,
  input: {
    companyId: number;
    system: string;
    credentials: Record<string, string>;
    isEmulated?: boolean;
    settings?: ChannelSettings;
  },
): Promise<ConnectionRow> {
  const credentialsSealed = cipher.encrypt(JSON.stringify(input.credentials));
  const [row] = await db
    .insert(connections)
    .values({
      companyId: input.companyId,
      kind: "channel",
      systemType: 0,
      systemKey: input.system,
      credentialsSealed,
      isEmulated: input.isEmulated ?? false,
      settings: input.settings ?? {},
    })
    .onConflictDoUpdate({
      target: [connections.companyId, connections.systemKey],
      targetWhere: sql`${connections.kind} = 'channel'`,
      set: {
        credentialsSealed,
        isEmulated: input.isEmulated ?? false,
        ...(input.settings ? { settings: input.settings } : {}),
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

/** A channel's settings replaced (safety stock, price rule, order series); another company's id: false. */
export async function saveChannelSettings(
  db: Db,
  companyId: number,
  id: number,
  settings: ChannelSettings,
): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .update(connections)
    .set({ settings, updatedAt: new Date() })
    .where(and(eq(connections.id, id), eq(connections.companyId, companyId), eq(connections.kind, "channel")))
    .returning();
  return row;
}

/** Removes a channel with its jobs, runs, failed tasks and ledgers (cascades); another company's id: false. */
export async function removeChannel(db: Db, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(connections)
    .where(and(eq(connections.id, id), eq(connections.companyId, companyId), eq(connections.kind, "channel")))
    .returning({ id: connections.id });
  return rows.length > 0;
}

/** A channel's rotated token pair merged into its own row (see `credentialPersister`). */
export function channelCredentialPersister(
  db: Db,
  cipher: CredentialCipher,
  connectionId: number,
  started: Record<string, string>,
): (changed: Record<string, string | undefined>) => Promise<void> {
  let current = started.refreshToken;
  return async (changed) => {
    const [row] = await db.select().from(connections).where(eq(connections.id, connectionId));
    if (!row) return;
    const stored = openCredentials(cipher, row);
    if (stored.refreshToken !== current) return;
    const next: Record<string, string> = { ...stored };
    for (const [k, v] of Object.entries(changed)) if (v !== undefined) next[k] = v;
    await db
      .update(connections)
      .set({ credentialsSealed: cipher.encrypt(JSON.stringify(next)) })
      .where(eq(connections.id, row.id));
    current = next.refreshToken;
  };
}

/**
 * Stores (or replaces) a company's connection; the credentials are sealed before they touch the database.
 * A real login is also kept as its system's profile, to come back to after the sandbox or another system.
 */
export async function saveConnection(
  db: Db,
  cipher: CredentialCipher,
  input: {
    companyId: number;
    kind: ConnectionKind;
    systemType: number;
    credentials: Record<string, string>;
    isEmulated?: boolean;
    /** The on-site agent carrying the calls; undefined keeps what is stored, null makes it direct. */
    agentId?: number | null;
  },
): Promise<ConnectionRow> {
  const credentialsSealed = cipher.encrypt(JSON.stringify(input.credentials));
  const [row] = await db
    .insert(connections)
    .values({
      companyId: input.companyId,
      kind: input.kind,
      systemType: input.systemType,
      credentialsSealed,
      isEmulated: input.isEmulated ?? false,
      agentId: input.agentId ?? null,
    })
    .onConflictDoUpdate({
      target: [connections.companyId, connections.kind],
      targetWhere: sql`${connections.kind} <> 'channel'`,
      set: {
        systemType: input.systemType,
        credentialsSealed,
        isEmulated: input.isEmulated ?? false,
        ...(input.agentId === undefined ? {} : { agentId: input.agentId }),
        updatedAt: new Date(),
      },
    })
    .returning();
  if (!row!.isEmulated) {
    await saveConnectionProfile(db, {
      companyId: input.companyId,
      kind: input.kind,
      systemType: input.systemType,
      credentialsSealed,
      agentId: row!.agentId,
    });
  }
  return row!;
}

export type ConnectionProfileRow = typeof connectionProfiles.$inferSelect;

/** Keeps a real login as the one to come back to for its system (the sandbox's are derived, never kept). */
export async function saveConnectionProfile(
  db: Db,
  input: {
    companyId: number;
    kind: ConnectionKind;
    systemType: number;
    credentialsSealed: string;
    agentId: number | null;
  },
): Promise<void> {
  await db
    .insert(connectionProfiles)
    .values(input)
    .onConflictDoUpdate({
      target: [connectionProfiles.companyId, connectionProfiles.kind, connectionProfiles.systemType],
      set: { credentialsSealed: input.credentialsSealed, agentId: input.agentId, updatedAt: new Date() },
    });
}

/** The company's kept logins of one side, one per system it has saved a real login for. */
export async function listConnectionProfiles(
  db: Db,
  companyId: number,
  kind: ConnectionKind,
): Promise<ConnectionProfileRow[]> {
  return db
    .select()
    .from(connectionProfiles)
    .where(and(eq(connectionProfiles.companyId, companyId), eq(connectionProfiles.kind, kind)));
}

export function openCredentials(
  cipher: CredentialCipher,
  row: { credentialsSealed: string },
): Record<string, string> {
  return JSON.parse(cipher.decrypt(row.credentialsSealed)) as Record<string, string>;
}

/** Keeps the outcome of the last connection test (the dashboard's connection status reads it). */
export async function recordConnectionTest(
  db: Db,
  connectionId: number,
  test: { ok: boolean; message: string; at: Date } | null,
): Promise<void> {
  await db
    .update(connections)
    .set({
      lastTestAt: test?.at ?? null,
      lastTestOk: test?.ok ?? null,
      lastTestMessage: test?.message ?? null,
    })
    .where(eq(connections.id, connectionId));
}

/**
 * The seam a connector persists credentials it obtained itself through (a rotated OAuth token pair):
 * merged into the company's stored connection of that kind, but only while that connection still holds
 * the token the connector started from, so testing other credentials never overwrites the stored ones.
 */
export function credentialPersister(
  db: Db,
  cipher: CredentialCipher,
  companyId: number,
  kind: ConnectionKind,
  started: Record<string, string>,
): (changed: Record<string, string | undefined>) => Promise<void> {
  let current = started.refreshToken;
  return async (changed) => {
    const row = await findConnection(db, companyId, kind);
    if (!row) return;
    const stored = openCredentials(cipher, row);
    if (stored.refreshToken !== current) return;
    const next: Record<string, string> = { ...stored };
    for (const [k, v] of Object.entries(changed)) if (v !== undefined) next[k] = v;
    const credentialsSealed = cipher.encrypt(JSON.stringify(next));
    // Not `updatedAt`: a token the connector rotated itself is the same connection (its check still stands).
    await db.update(connections).set({ credentialsSealed }).where(eq(connections.id, row.id));
    // The kept login of that system follows, so coming back from the sandbox never restores a spent token.
    if (!row.isEmulated) {
      await saveConnectionProfile(db, {
        companyId,
        kind,
        systemType: row.systemType,
        credentialsSealed,
        agentId: row.agentId,
      });
    }
    current = next.refreshToken;
  };
}
