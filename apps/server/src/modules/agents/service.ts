import { randomBytes } from "node:crypto";
import { type AgentView, message } from "@ep/contracts";
import { isNewerVersion } from "@ep/contracts/agent-update";
import { engineSchema } from "@ep/engine";
import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { companies } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { hashCode } from "../../platform/security/codes.ts";
import { formatDateTime } from "../../platform/time/turkey.ts";
import {
  activeNode,
  type ConnectionKind,
  companyConnectionNodes,
  connectionNodes,
  serveConnection,
} from "./connection-nodes.ts";
import { readAgentRelease } from "./downloads.ts";
import { AgentHub } from "./hub.ts";
import { PgAgentRouter } from "./router.ts";
import { type AgentRow, agentPairingCodes, agents } from "./schema.ts";
import { agentUpdating } from "./update-state.ts";

const { connections } = engineSchema;

export const PAIRING_CODE_TTL_MS = 10 * 60_000;
/** Codes a company may issue in an hour: enough to re-pair every agent, too few to flood the table. */
export const PAIRING_CODES_PER_HOUR = 20;
/** Agents (not revoked) a company may have paired at once (the message "agents.agentLimit" says 10). */
export const AGENTS_PER_COMPANY = 10;
/** A holder whose agent sent no heartbeat (every 30 s) for this long is a process that died. */
const HOLDER_FRESH_MS = 90_000;

/** Held by this process, or (PostgreSQL) by another one whose agent sent a heartbeat lately. */
export function agentOnline(hub: AgentHub, row: AgentRow, now: Date): boolean {
  return (
    hub.isOnline(row.id) ||
    (row.socketHolder !== null &&
      !!row.lastSeenAt &&
      now.getTime() - row.lastSeenAt.getTime() < HOLDER_FRESH_MS)
  );
}

/** "Yerel bağlantı aracı çevrimdışı (son görülme: 23.11.2026 21:40)…": the panel's and the run report's words. */
export const offlineText = (lastSeenAt: Date | null) =>
  message("agents.offline", { lastSeen: lastSeenAt ? formatDateTime(lastSeenAt) : "-" });

const hubs = new WeakMap<object, AgentHub>();

/** The one hub of this process; connectors of agent-backed connections take `hub.fetchFor(agentId)`. */
export function agentHubOf(ctx: Pick<AppContext, "config" | "database">): AgentHub {
  // Keyed by the database: the engine host holds a narrower context object than the routes do.
  let hub = hubs.get(ctx.database);
  if (!hub) {
    hub = new AgentHub({
      // Several processes share PostgreSQL; the embedded database has one process, so every call is local.
      router: ctx.database.kind === "postgres" ? new PgAgentRouter(ctx.database) : undefined,
      offlineWaitMs: ctx.config.agentOfflineWaitMs,
      callTimeoutMs: ctx.config.connectorTimeoutMs,
      nodesOf: (connectionId) => connectionNodes(ctx.database, connectionId),
      offlineText: async (agentId) => {
        const [row] = await ctx.database.db
          .select({ lastSeenAt: agents.lastSeenAt })
          .from(agents)
          .where(eq(agents.id, agentId));
        return offlineText(row?.lastSeenAt ?? null);
      },
    });
    hubs.set(ctx.database, hub);
  }
  return hub;
}

/** Easy to read aloud and type: 10 characters of Crockford base32 in two groups (e.g. 7KQ2M-X9RTA). */
function newPairingCode(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % 32]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const normalizeCode = (code: string) => code.trim().toUpperCase().replace(/\s+/g, "");

export class AgentService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async issuePairingCode(companyId: number): Promise<{ code: string; expiresAt: string }> {
    const now = this.ctx.clock.now();
    const [issued] = await this.db
      .select({ n: count() })
      .from(agentPairingCodes)
      .where(
        and(
          eq(agentPairingCodes.companyId, companyId),
          gt(agentPairingCodes.createdAt, new Date(now.getTime() - 3_600_000)),
        ),
      );
    if ((issued?.n ?? 0) >= PAIRING_CODES_PER_HOUR) throw AppError.tooMany("agents.pairingCodeLimit", 600);
    const code = newPairingCode();
    const expiresAt = new Date(now.getTime() + PAIRING_CODE_TTL_MS);
    await this.db
      .insert(agentPairingCodes)
      .values({ companyId, codeHash: hashCode(code), expiresAt, createdAt: now });
    return { code, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Spends the code (once, atomically: racing requests with one code get one agent) and answers the
   * credential; only its hash is stored. A company at AGENTS_PER_COMPANY is refused and keeps its code.
   */
  async pair(code: string, machineName: string): Promise<{ agentId: number; credential: string }> {
    const now = this.ctx.clock.now();
    return this.db.transaction(async (tx) => {
      const [spent] = await tx
        .update(agentPairingCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(agentPairingCodes.codeHash, hashCode(normalizeCode(code))),
            isNull(agentPairingCodes.usedAt),
            gt(agentPairingCodes.expiresAt, now),
          ),
        )
        .returning();
      if (!spent) throw new AppError(400, "agents.pairingCodeInvalid");
      // One pairing at a time per company, so two codes spent at once cannot pass the limit together.
      await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, spent.companyId))
        .for("update");
      const [paired] = await tx
        .select({ n: count() })
        .from(agents)
        .where(and(eq(agents.companyId, spent.companyId), isNull(agents.revokedAt)));
      if ((paired?.n ?? 0) >= AGENTS_PER_COMPANY) throw new AppError(409, "agents.agentLimit");
      const credential = `epa_${randomBytes(32).toString("base64url")}`;
      const [agent] = await tx
        .insert(agents)
        .values({ companyId: spent.companyId, credentialHash: hashCode(credential), machineName })
        .returning();
      return { agentId: agent!.id, credential };
    });
  }

  /** The agent a credential belongs to, unless revoked. */
  async authenticate(credential: string): Promise<AgentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(agents)
      .where(and(eq(agents.credentialHash, hashCode(credential)), isNull(agents.revokedAt)));
    return row;
  }

  async recordHeartbeat(agentId: number, version: string, machineName: string): Promise<void> {
    await this.db
      .update(agents)
      .set({
        version: version.slice(0, 50),
        machineName: machineName.slice(0, 200),
        lastSeenAt: this.ctx.clock.now(),
      })
      .where(eq(agents.id, agentId));
  }

  async list(companyId: number): Promise<AgentView[]> {
    const hub = agentHubOf(this.ctx);
    const rows = await this.db
      .select()
      .from(agents)
      .where(and(eq(agents.companyId, companyId), isNull(agents.revokedAt)))
      .orderBy(asc(agents.id));
    const now = this.ctx.clock.now();
    const release = readAgentRelease()?.version;
    const onlineIds = new Set(rows.filter((r) => agentOnline(hub, r, now)).map((r) => r.id));
    const served = await companyConnectionNodes(this.ctx.database, companyId);
    const active = new Map(
      served.map((c) => [
        c.connectionId,
        activeNode(c.agentIds, (id) => onlineIds.has(id), hub.carrierOf(c.connectionId)),
      ]),
    );
    return rows.map((r) => {
      const online = onlineIds.has(r.id);
      return {
        id: r.id,
        machineName: r.machineName,
        version: r.version,
        online,
        lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
        statusText: online ? null : offlineText(r.lastSeenAt),
        roundTripMs: hub.roundTripMs(r.id),
        // Only a release newer than the agent's own (an agent built ahead of the server's file is not behind).
        newerVersion: release && r.version && isNewerVersion(release, r.version) ? release : null,
        serves: served
          .filter((c) => c.agentIds.includes(r.id))
          .map((c) => ({ kind: c.kind, active: active.get(c.connectionId) === r.id })),
        updating: agentUpdating(r, now),
        updateWindow: { from: r.updateFrom, to: r.updateTo },
        createdAt: r.createdAt.toISOString(),
      };
    });
  }

  /** Whether the agent is one of the company's, not revoked. */
  async owns(companyId: number, agentId: number): Promise<boolean> {
    const [agent] = await this.db
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.id, agentId), eq(agents.companyId, companyId), isNull(agents.revokedAt)));
    return !!agent;
  }

  /** Sends a connection's calls through one of the company's agents (or straight out again: null). */
  async assignConnection(companyId: number, kind: "erp" | "shop", agentId: number | null): Promise<void> {
    if (agentId !== null && !(await this.owns(companyId, agentId))) throw AppError.notFound();
    const [row] = await this.db
      .update(connections)
      .set({ agentId, updatedAt: this.ctx.clock.now() })
      .where(and(eq(connections.companyId, companyId), eq(connections.kind, kind)))
      .returning({ id: connections.id });
    if (!row) throw new AppError(409, "connectionSettings.notConnected");
  }

  /** One more (or one fewer) agent for the company's connection of `kind`: see `serveConnection`. */
  async serve(companyId: number, agentId: number, kind: ConnectionKind, serves: boolean): Promise<void> {
    if (!(await this.owns(companyId, agentId))) throw AppError.notFound();
    await serveConnection(this.ctx, companyId, agentId, kind, serves);
  }

  async revoke(companyId: number, agentId: number): Promise<void> {
    const [row] = await this.db
      .update(agents)
      .set({ revokedAt: this.ctx.clock.now() })
      .where(and(eq(agents.id, agentId), eq(agents.companyId, companyId), isNull(agents.revokedAt)))
      .returning();
    if (!row) throw AppError.notFound();
    agentHubOf(this.ctx).disconnect(agentId, "revoked");
  }
}
