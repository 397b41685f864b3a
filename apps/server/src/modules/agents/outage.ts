import { message } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, desc, eq, isNotNull, isNull, like } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { formatDateTime } from "../../platform/time/turkey.ts";
import { agents } from "./schema.ts";
import { agentHubOf, agentOnline } from "./service.ts";

const { connections, jobs, notifications } = engineSchema;

/** An agent offline this long, while its company's jobs are due, raises one notification. */
export const AGENT_OUTAGE_NOTICE_MS = 10 * 60_000;
/** How often the scheduler looks (the notice comes at most this late). */
export const AGENT_OUTAGE_CHECK_MS = 60_000;

/**
 * One notification per outage: its source names the agent and the last-seen time the outage began at,
 * which stays the same for the whole outage (the unique source index drops repeats, across processes).
 * When the agent is back, the outage's notice is marked read and "tekrar çevrimiçi" is said once.
 * Only agents that carry a connection of a company with enabled, scheduled jobs are watched.
 */
export async function sweepAgentOutages(
  ctx: Pick<AppContext, "config" | "database">,
  now: Date,
): Promise<{ raised: number; cleared: number }> {
  const db = ctx.database.db;
  const hub = agentHubOf(ctx);
  const rows = await db
    .selectDistinct({ agent: agents })
    .from(agents)
    .innerJoin(connections, eq(connections.agentId, agents.id))
    .innerJoin(jobs, and(eq(jobs.companyId, agents.companyId), eq(jobs.isEnabled, true)))
    .where(and(isNull(agents.revokedAt), isNotNull(jobs.nextRunAt)));
  let raised = 0;
  let cleared = 0;
  for (const { agent } of rows) {
    const since = agent.lastSeenAt ?? agent.createdAt;
    const outage = `agent-offline:${agent.id}:${since.toISOString()}`;
    if (!agentOnline(hub, agent, now)) {
      if (now.getTime() - since.getTime() <= AGENT_OUTAGE_NOTICE_MS) continue;
      const text = message("agents.offlineNotice", {
        machine: agent.machineName || `#${agent.id}`,
        lastSeen: agent.lastSeenAt ? formatDateTime(agent.lastSeenAt) : "-",
      });
      const inserted = await db
        .insert(notifications)
        .values({ companyId: agent.companyId, type: "Error", text, source: outage })
        .onConflictDoNothing()
        .returning({ id: notifications.id });
      raised += inserted.length;
      continue;
    }
    // Online: the last outage noticed, if it has not been answered yet.
    const [last] = await db
      .select({ id: notifications.id, source: notifications.source })
      .from(notifications)
      .where(
        and(
          eq(notifications.companyId, agent.companyId),
          like(notifications.source, `agent-offline:${agent.id}:%`),
        ),
      )
      .orderBy(desc(notifications.id))
      .limit(1);
    if (!last?.source) continue;
    const back = last.source.replace("agent-offline:", "agent-online:");
    const inserted = await db
      .insert(notifications)
      .values({
        companyId: agent.companyId,
        type: "Info",
        text: message("agents.backOnline", { machine: agent.machineName || `#${agent.id}` }),
        source: back,
      })
      .onConflictDoNothing()
      .returning({ id: notifications.id });
    if (inserted.length === 0) continue;
    await db.update(notifications).set({ isRead: true }).where(eq(notifications.id, last.id));
    cleared++;
  }
  return { raised, cleared };
}
