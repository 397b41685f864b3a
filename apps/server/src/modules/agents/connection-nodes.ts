import { engineSchema } from "@ep/engine";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import type { Database } from "../../platform/db/database.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { connectionAgentNodes } from "./schema.ts";

const { connections } = engineSchema;

export type ConnectionKind = "erp" | "shop";

/**
 * The agents serving a connection, its own (`connections.agent_id`) first, then the further ones in the
 * order they joined; revoked ones are left out. The hub's `nodesOf`.
 */
export async function connectionNodes(database: Database, connectionId: number): Promise<number[]> {
  const { rows } = await database.executeSql(
    `SELECT c.agent_id AS id, 0 AS ord, c.updated_at AS since FROM connections c
       JOIN agents a ON a.id = c.agent_id AND a.revoked_at IS NULL
       WHERE c.id = $1
     UNION ALL
     SELECT n.agent_id, 1, n.created_at FROM connection_agent_nodes n
       JOIN connections c ON c.id = n.connection_id AND c.agent_id IS NOT NULL AND c.agent_id <> n.agent_id
       JOIN agents a ON a.id = n.agent_id AND a.revoked_at IS NULL
       WHERE n.connection_id = $1
     ORDER BY 2, 3, 1`,
    [connectionId],
  );
  return rows.map((r) => Number(r.id));
}

/** Every connection of the company that goes through agents, with its agents in `connectionNodes` order. */
export async function companyConnectionNodes(
  database: Database,
  companyId: number,
): Promise<{ connectionId: number; kind: ConnectionKind; agentIds: number[] }[]> {
  const { rows } = await database.executeSql(
    `SELECT c.id, c.kind, c.agent_id, 0 AS ord, c.updated_at AS since FROM connections c
       WHERE c.company_id = $1 AND c.agent_id IS NOT NULL
     UNION ALL
     SELECT c.id, c.kind, n.agent_id, 1, n.created_at FROM connection_agent_nodes n
       JOIN connections c ON c.id = n.connection_id AND c.agent_id IS NOT NULL AND c.agent_id <> n.agent_id
       WHERE c.company_id = $1
     ORDER BY 1, 4, 5, 3`,
    [companyId],
  );
  const out = new Map<number, { connectionId: number; kind: ConnectionKind; agentIds: number[] }>();
  for (const r of rows) {
    const id = Number(r.id);
    const entry = out.get(id) ?? { connectionId: id, kind: r.kind as ConnectionKind, agentIds: [] };
    entry.agentIds.push(Number(r.agent_id));
    out.set(id, entry);
  }
  return [...out.values()];
}

/**
 * Makes one of the company's agents serve its connection of `kind` (beside the agents already serving
 * it: a second machine for the same ERP), or stop serving it. A connection without an agent takes it as
 * its own; when its own agent stops, the next one takes its place (none left: the connection goes direct).
 * The caller has checked that the agent is the company's.
 */
export async function serveConnection(
  ctx: Pick<AppContext, "database" | "clock">,
  companyId: number,
  agentId: number,
  kind: ConnectionKind,
  serves: boolean,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const [connection] = await tx
      .select({ id: connections.id, agentId: connections.agentId })
      .from(connections)
      .where(and(eq(connections.companyId, companyId), eq(connections.kind, kind)))
      .for("update");
    if (!connection) throw new AppError(409, "connectionSettings.notConnected");
    const setOwn = (own: number | null) =>
      tx.update(connections).set({ agentId: own, updatedAt: now }).where(eq(connections.id, connection.id));
    const node = and(
      eq(connectionAgentNodes.connectionId, connection.id),
      eq(connectionAgentNodes.agentId, agentId),
    );
    if (serves) {
      if (connection.agentId === null) await setOwn(agentId);
      else if (connection.agentId !== agentId)
        await tx
          .insert(connectionAgentNodes)
          .values({ connectionId: connection.id, agentId, companyId, createdAt: now })
          .onConflictDoNothing();
      return;
    }
    if (connection.agentId !== agentId) {
      await tx.delete(connectionAgentNodes).where(node);
      return;
    }
    const [next] = await tx
      .select({ agentId: connectionAgentNodes.agentId })
      .from(connectionAgentNodes)
      .where(eq(connectionAgentNodes.connectionId, connection.id))
      .orderBy(asc(connectionAgentNodes.createdAt), asc(connectionAgentNodes.agentId))
      .limit(1);
    await setOwn(next?.agentId ?? null);
    if (next)
      await tx
        .delete(connectionAgentNodes)
        .where(
          and(
            eq(connectionAgentNodes.connectionId, connection.id),
            eq(connectionAgentNodes.agentId, next.agentId),
          ),
        );
  });
}

/**
 * The agent of a connection the panel shows as active: the one that carried its last call, while online;
 * else the first online one in `connectionNodes` order.
 */
export function activeNode(
  agentIds: number[],
  online: (agentId: number) => boolean,
  carrier: number | undefined,
): number | undefined {
  if (carrier !== undefined && agentIds.includes(carrier) && online(carrier)) return carrier;
  return agentIds.find(online);
}
