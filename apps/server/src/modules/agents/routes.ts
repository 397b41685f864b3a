import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { envelopeSchema, idInput, idParam, lineInput } from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { WebSocketServer } from "ws";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { ok } from "../../platform/http/envelope.ts";
import { handleAgentFileFrame } from "../file-exchange/agent-files.ts";
import type { AgentHello } from "./hub.ts";
import { AgentService, agentHubOf } from "./service.ts";

const tags = ["Agents"];
export const AGENT_CONNECT_PATH = "/api/agent/connect";

const agentSchema = z.object({
  id: z.number(),
  machineName: z.string(),
  version: z.string(),
  online: z.boolean(),
  lastSeenAt: z.string().nullable(),
  statusText: z.string().nullable(),
  roundTripMs: z.number().nullable(),
  createdAt: z.string(),
});
const helloSchema = z.object({
  type: z.enum(["hello", "heartbeat"]),
  version: z.string().max(50),
  machineName: z.string().max(200),
  protocol: z.number().int().min(1).max(1000).optional(),
});

/** The on-site agent: pairing, the company's agent list, revocation and the agents' WebSocket. */
export function agentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new AgentService(ctx);
    const hub = agentHubOf(ctx);
    await hub.start();
    const companyUser = requireCompanyUser(ctx);

    app.post(
      "/api/agents/pairing-code",
      {
        onRequest: companyUser,
        schema: {
          tags,
          response: { 200: envelopeSchema(z.object({ code: z.string(), expiresAt: z.string() })) },
        },
      },
      async (request) => ok(await service.issuePairingCode(companyOf(request)), "agents.pairingCodeCreated"),
    );

    // Called by the agent, which has no session: the one-time code is its proof.
    app.post(
      "/api/agents/pair",
      {
        schema: {
          tags,
          body: z.object({ code: lineInput().min(1).max(40), machineName: lineInput().max(200).default("") }),
          response: { 200: envelopeSchema(z.object({ agentId: z.number(), credential: z.string() })) },
        },
      },
      async (request) => ok(await service.pair(request.body.code, request.body.machineName), "agents.paired"),
    );

    app.get(
      "/api/agents",
      { onRequest: companyUser, schema: { tags, response: { 200: envelopeSchema(z.array(agentSchema)) } } },
      async (request) => ok(await service.list(companyOf(request))),
    );

    app.delete(
      "/api/agents/:id",
      {
        onRequest: companyUser,
        schema: { tags, params: z.object({ id: idParam() }), response: { 200: envelopeSchema(z.null()) } },
      },
      async (request) => {
        await service.revoke(companyOf(request), request.params.id);
        return ok(null, "agents.revoked");
      },
    );

    app.put(
      "/api/agents/connection",
      {
        onRequest: companyUser,
        schema: {
          tags,
          body: z.object({ kind: z.enum(["erp", "shop"]), agentId: idInput().nullable() }),
          response: { 200: envelopeSchema(z.null()) },
        },
      },
      async (request) => {
        await service.assignConnection(companyOf(request), request.body.kind, request.body.agentId);
        return ok(null);
      },
    );

    const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
    const refuse = (socket: Duplex, status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? "").split("?")[0]!.toLowerCase();
      if (path !== AGENT_CONNECT_PATH) return;
      const header = req.headers.authorization ?? "";
      const credential = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
      let agent: Awaited<ReturnType<AgentService["authenticate"]>>;
      try {
        agent = credential ? await service.authenticate(credential) : undefined;
      } catch (e) {
        ctx.logger.error({ err: e }, "agent authentication failed");
        return refuse(socket, "500 Internal Server Error");
      }
      if (!agent) return refuse(socket, "401 Unauthorized");
      const agentId = agent.id;
      const companyId = agent.companyId;
      wss.handleUpgrade(req, socket, head, (ws) => {
        let attached = false;
        ws.on("message", (data, isBinary) => {
          // Binary frames are answers to relayed calls: the hub reads those.
          if (isBinary) return;
          let parsed: AgentHello | undefined;
          try {
            const frame = JSON.parse(String(data)) as { type?: unknown; id?: unknown };
            if (frame.type !== "hello" && frame.type !== "heartbeat") {
              // Files of the agent's watched folders (and its outbox receipts).
              if (attached)
                handleAgentFileFrame(ctx, { id: agentId, companyId }, frame, (answer) => {
                  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(answer));
                }).catch((e: unknown) => ctx.logger.warn({ err: e, agentId }, "agent file frame failed"));
              return;
            }
            parsed = helloSchema.parse(frame);
          } catch {
            return;
          }
          if (!attached) {
            attached = true;
            hub.attach(agentId, ws, parsed);
          }
          hub.ping(agentId);
          service.recordHeartbeat(agentId, parsed.version, parsed.machineName).catch((e) => {
            ctx.logger.warn({ err: e, agentId }, "agent heartbeat not recorded");
          });
        });
      });
    };
    const listener = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      void onUpgrade(req, socket, head);
    app.server.on("upgrade", listener);
    app.addHook("preClose", async () => {
      app.server.off("upgrade", listener);
      await hub.close();
      for (const client of wss.clients) client.terminate();
      wss.close();
    });
  };
}
