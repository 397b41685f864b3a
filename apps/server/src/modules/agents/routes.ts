import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { envelopeSchema, idInput, idParam, lineInput } from "@ep/contracts";
import {
  AGENT_MAX_PAYLOAD,
  AGENT_PROTOCOL,
  AgentMessageTooLarge,
  AgentPartAssembler,
  type AgentPartBudget,
} from "@ep/contracts/agent-wire";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { WebSocketServer } from "ws";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { handleAgentFileFrame } from "../file-exchange/agent-files.ts";
import { AGENT_PLATFORMS, openAgentFile, readAgentRelease } from "./downloads.ts";
import type { AgentHello } from "./hub.ts";
import { AgentService, agentHubOf } from "./service.ts";
import { announceRelease, recordAgentUpdate } from "./updates.ts";

const tags = ["Agents"];
/** The largest message an agent may send in parts (a watched folder's 20 MB file is 27 MB as base64). */
const AGENT_MAX_MESSAGE = 48 * 1024 * 1024;
/** Bytes of unfinished parted messages all agents of this process may hold together. */
const agentPartBudget: AgentPartBudget = { used: 0, max: 256 * 1024 * 1024 };
export const AGENT_CONNECT_PATH = "/api/agent/connect";

const agentSchema = z.object({
  id: z.number(),
  machineName: z.string(),
  version: z.string(),
  online: z.boolean(),
  lastSeenAt: z.string().nullable(),
  statusText: z.string().nullable(),
  roundTripMs: z.number().nullable(),
  newerVersion: z.string().nullable(),
  serves: z.array(z.object({ kind: z.enum(["erp", "shop"]), active: z.boolean() })),
  updating: z.boolean(),
  updateWindow: z.object({ from: z.number(), to: z.number() }),
  createdAt: z.string(),
});
const helloSchema = z.object({
  type: z.enum(["hello", "heartbeat"]),
  version: z.string().max(50),
  machineName: z.string().max(200),
  protocol: z.number().int().min(1).max(1000).optional(),
  /** The agent sends long messages in parts once welcomed (agent-wire, protocol 3; in JSON too). */
  parts: z.boolean().optional(),
  /** The agent reads `release` frames (it updates itself; agents before 0.1.1 do not). */
  updates: z.boolean().optional(),
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

    // The card's download buttons: version, size and SHA-256 of each built executable (null: not built).
    app.get(
      "/api/agents/downloads",
      {
        onRequest: companyUser,
        schema: {
          tags,
          response: {
            200: envelopeSchema(
              z
                .object({
                  version: z.string(),
                  builtAt: z.string(),
                  files: z.array(
                    z.object({
                      platform: z.enum(AGENT_PLATFORMS),
                      fileName: z.string(),
                      size: z.number(),
                      sha256: z.string(),
                    }),
                  ),
                })
                .nullable(),
            ),
          },
        },
      },
      async () => {
        const release = readAgentRelease();
        return release ? ok(release) : ok(null, "agents.downloadNotBuilt");
      },
    );

    app.get(
      "/api/agents/download/:platform",
      {
        onRequest: companyUser,
        schema: { tags, params: z.object({ platform: z.enum(AGENT_PLATFORMS) }) },
      },
      async (request, reply) => {
        const release = readAgentRelease();
        const file = release?.files.find((f) => f.platform === request.params.platform);
        if (!release || !file) throw new AppError(404, "agents.downloadNotBuilt");
        reply.header("content-type", "application/octet-stream");
        reply.header("content-length", String(file.size));
        reply.header("content-disposition", `attachment; filename="${file.fileName}"`);
        reply.header("x-agent-version", release.version);
        reply.header("x-agent-sha256", file.sha256);
        reply.header("cache-control", "private, no-store");
        return reply.send(openAgentFile(file));
      },
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

    // A second (third…) machine for the same connection: calls go to whichever of its agents is online.
    app.put(
      "/api/agents/:id/serves",
      {
        onRequest: companyUser,
        schema: {
          tags,
          params: z.object({ id: idParam() }),
          body: z.object({ kind: z.enum(["erp", "shop"]), serves: z.boolean() }),
          response: { 200: envelopeSchema(z.null()) },
        },
      },
      async (request) => {
        const { kind, serves } = request.body;
        await service.serve(companyOf(request), request.params.id, kind, serves);
        return ok(null, serves ? "agents.servesConnection" : "agents.leftConnection");
      },
    );

    // Each message from an agent is bounded; a longer one comes in parts (agent-wire, protocol 3).
    const wss = new WebSocketServer({ noServer: true, maxPayload: AGENT_MAX_PAYLOAD });
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
        const parts = new AgentPartAssembler(AGENT_MAX_MESSAGE, agentPartBudget);
        ws.on("close", () => parts.release());
        // A message above maxPayload (ws closes the socket with 1009) or a broken frame: without a
        // listener, ws's "error" event would bring the whole process down.
        ws.on("error", (e) => ctx.logger.warn({ err: e, agentId }, "agent socket error: socket closed"));
        ws.on("message", (data, isBinary) => {
          let whole: ReturnType<AgentPartAssembler["accept"]>;
          try {
            whole = parts.accept(data, isBinary);
          } catch (e) {
            if (!(e instanceof AgentMessageTooLarge)) throw e;
            ctx.logger.warn({ agentId, bytes: e.bytes }, "agent message above the bound: socket closed");
            ws.close(1009, "message too big");
            return;
          }
          if (whole === null) return;
          // The last part: the whole message goes to every listener (the hub's too) as if sent at once.
          if (whole) return void ws.emit("message", whole.data, whole.isBinary);
          // Binary frames are answers to relayed calls: the hub reads those.
          if (isBinary) return;
          let parsed: AgentHello | undefined;
          try {
            const frame = JSON.parse(String(data)) as { type?: unknown; id?: unknown };
            if (frame.type === "update") {
              // The agent's self-update: started / done / failed (the panel's "Güncelleniyor").
              if (attached)
                recordAgentUpdate(ctx, agentId, frame).catch((e: unknown) =>
                  ctx.logger.warn({ err: e, agentId }, "agent update frame not recorded"),
                );
              return;
            }
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
            // Tells an agent that sends parts (its hello says so) the bound and that parts are read here.
            if (parsed.parts)
              ws.send(
                JSON.stringify({ type: "welcome", protocol: AGENT_PROTOCOL, maxPayload: AGENT_MAX_PAYLOAD }),
              );
          }
          hub.ping(agentId);
          service
            .recordHeartbeat(agentId, parsed.version, parsed.machineName)
            .then(() => (parsed.updates ? announceRelease(ctx, agentId, ws) : undefined))
            .catch((e) => {
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
