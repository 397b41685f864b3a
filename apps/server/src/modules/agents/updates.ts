import { envelopeSchema, idParam } from "@ep/contracts";
import {
  AGENT_UPDATE_PATH,
  type AgentReleaseFrame,
  type AgentUpdateFrame,
  isNewerVersion,
} from "@ep/contracts/agent-update";
import { engineSchema } from "@ep/engine";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { WebSocket } from "ws";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { AGENT_PLATFORMS, openAgentFile, readAgentRelease } from "./downloads.ts";
import { type AgentRow, agents } from "./schema.ts";
import { AgentService } from "./service.ts";

const { connections, jobRuns } = engineSchema;
const tags = ["Agents"];
/** Whether a run of the agent's company that goes through this agent is in flight now. */
async function runThroughAgent(ctx: AppContext, agent: Pick<AgentRow, "id" | "companyId">): Promise<boolean> {
  const [row] = await ctx.database.db
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .innerJoin(connections, eq(connections.companyId, jobRuns.companyId))
    .where(
      and(
        eq(jobRuns.companyId, agent.companyId),
        eq(jobRuns.status, "Running"),
        eq(connections.agentId, agent.id),
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * After the agent's hello or heartbeat is recorded: tells it the release this server offers (version,
 * the merchant's hours, whether a run uses it now). An agent that now runs the version it was installing
 * is no longer "updating".
 */
export async function announceRelease(
  ctx: AppContext,
  agentId: number,
  socket: Pick<WebSocket, "send" | "readyState" | "OPEN">,
): Promise<void> {
  const [row] = await ctx.database.db.select().from(agents).where(eq(agents.id, agentId));
  if (!row) return;
  if (row.updatingTo !== null && row.updatingTo === row.version) {
    await ctx.database.db
      .update(agents)
      .set({ updatingTo: null, updatingSince: null })
      .where(eq(agents.id, agentId));
  }
  const release = readAgentRelease();
  if (!release || socket.readyState !== socket.OPEN) return;
  const frame: AgentReleaseFrame = {
    type: "release",
    version: release.version,
    window: { from: row.updateFrom, to: row.updateTo },
    busy: isNewerVersion(release.version, row.version) ? await runThroughAgent(ctx, row) : false,
  };
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

const updateFrameSchema = z.object({
  type: z.literal("update"),
  state: z.enum(["started", "done", "failed"]),
  version: z.string().max(50),
  reason: z.string().max(500).optional(),
});

/** The agent's `update` frame: started (the panel shows "Güncelleniyor"), done or failed (it stops). */
export async function recordAgentUpdate(ctx: AppContext, agentId: number, frame: unknown): Promise<void> {
  const parsed = updateFrameSchema.safeParse(frame);
  if (!parsed.success) return;
  const update: AgentUpdateFrame = parsed.data;
  const started = update.state === "started";
  await ctx.database.db
    .update(agents)
    .set({
      updatingTo: started ? update.version : null,
      updatingSince: started ? ctx.clock.now() : null,
    })
    .where(eq(agents.id, agentId));
  if (update.state === "failed")
    ctx.logger.warn({ agentId, version: update.version, reason: update.reason }, "agent update failed");
}

const hour = z.number().int().min(0).max(23);

/** The agents' download of their new version, and the merchant's update hours per agent. */
export function agentUpdateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new AgentService(ctx);
    const companyUser = requireCompanyUser(ctx);

    // Called by the agent with its credential: the file, its version, SHA-256 and the build's signature.
    app.get(
      `${AGENT_UPDATE_PATH}/:platform`,
      { schema: { tags, params: z.object({ platform: z.enum(AGENT_PLATFORMS) }) } },
      async (request, reply) => {
        const header = request.headers.authorization ?? "";
        const credential = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
        if (!credential || !(await service.authenticate(credential))) throw AppError.unauthorized();
        const release = readAgentRelease();
        const file = release?.files.find((f) => f.platform === request.params.platform);
        if (!release || !file) throw new AppError(404, "agents.downloadNotBuilt");
        reply.header("content-type", "application/octet-stream");
        reply.header("content-length", String(file.size));
        reply.header("x-agent-version", release.version);
        reply.header("x-agent-sha256", file.sha256);
        reply.header("x-agent-signature", file.signature ?? "");
        reply.header("cache-control", "private, no-store");
        return reply.send(openAgentFile(file));
      },
    );

    app.put(
      "/api/agents/:id/update-window",
      {
        onRequest: companyUser,
        schema: {
          tags,
          params: z.object({ id: idParam() }),
          body: z.object({ from: hour, to: hour }),
          response: { 200: envelopeSchema(z.null()) },
        },
      },
      async (request) => {
        const [row] = await ctx.database.db
          .update(agents)
          .set({ updateFrom: request.body.from, updateTo: request.body.to })
          .where(
            and(
              eq(agents.id, request.params.id),
              eq(agents.companyId, companyOf(request)),
              isNull(agents.revokedAt),
            ),
          )
          .returning({ id: agents.id });
        if (!row) throw AppError.notFound();
        return ok(null, "agents.updateWindowSaved");
      },
    );
  };
}
