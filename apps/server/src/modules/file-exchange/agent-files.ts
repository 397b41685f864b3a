/**
 * The agent's watched folders on the server side: the folder list it reports (the panel's status), the
 * files it sends (checked and kept like a panel upload, source "agent", once per content hash), and the
 * orders files handed to it for its outbox folder.
 */

import { randomUUID } from "node:crypto";
import {
  AGENT_FILE_MAX_BYTES,
  type AgentFileOutFrame,
  type AgentFileResultFrame,
  type AgentFolderStatus,
  message,
} from "@ep/contracts";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { agents } from "../agents/schema.ts";
import { agentHubOf } from "../agents/service.ts";
import { FileExchange, FileRefused } from "./service.ts";

type Ctx = Pick<AppContext, "config" | "database" | "credentials">;

const kindSchema = z.enum(["products", "stock", "prices"]);
const foldersFrame = z.object({
  type: z.literal("folders"),
  folders: z
    .array(
      z.object({
        path: z.string().max(1000),
        kind: kindSchema,
        outbox: z.string().max(1000).nullable(),
        readable: z.boolean(),
        lastFile: z.string().max(500).nullable(),
        lastResult: z.string().max(1000).nullable(),
        lastAt: z.string().max(40).nullable(),
      }),
    )
    .max(50),
});
const fileFrame = z.object({
  type: z.literal("file-import"),
  id: z.string().max(100),
  kind: kindSchema,
  name: z.string().min(1).max(255),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  // base64 of at most AGENT_FILE_MAX_BYTES
  content: z.string().max(Math.ceil(AGENT_FILE_MAX_BYTES / 3) * 4 + 4),
});
const outDoneFrame = z.object({
  type: z.literal("file-out-done"),
  id: z.string().max(100),
  exportId: z.number().int().positive(),
  ok: z.boolean(),
  message: z.string().max(1000).nullable(),
});

const FILE_FRAMES = new Set(["folders", "file-import", "file-out-done"]);

/**
 * Handles a file frame of an agent (of `companyId`); answers through `reply`. Returns false for frames
 * that are not about files.
 */
export async function handleAgentFileFrame(
  ctx: Ctx,
  agent: { id: number; companyId: number },
  frame: { type?: unknown; id?: unknown },
  reply: (frame: object) => void,
): Promise<boolean> {
  if (typeof frame.type !== "string" || !FILE_FRAMES.has(frame.type)) return false;
  const files = new FileExchange(ctx);
  if (frame.type === "folders") {
    const parsed = foldersFrame.safeParse(frame);
    if (!parsed.success) return true;
    await ctx.database.db
      .update(agents)
      .set({ folders: parsed.data.folders satisfies AgentFolderStatus[] })
      .where(eq(agents.id, agent.id));
    await deliverOrdersFiles(ctx, agent.companyId);
    return true;
  }
  if (frame.type === "file-out-done") {
    const parsed = outDoneFrame.safeParse(frame);
    if (parsed.success && parsed.data.ok)
      await files.markDelivered(agent.companyId, parsed.data.exportId, new Date());
    return true;
  }
  const id = typeof frame.id === "string" ? frame.id.slice(0, 100) : "";
  const refused = (reason: FileRefused["reason"]): AgentFileResultFrame => ({
    type: "file-import-result",
    id,
    status: "refused",
    importId: null,
    accepted: 0,
    rejected: 0,
    rows: [],
    message: message(`fileExchange.${reason}`),
  });
  const parsed = fileFrame.safeParse(frame);
  if (!parsed.success) {
    const tooLarge = typeof (frame as { content?: unknown }).content === "string";
    reply(refused(tooLarge ? "tooLarge" : "unreadable"));
    return true;
  }
  const content = Buffer.from(parsed.data.content, "base64");
  try {
    // A file damaged on the way (its hash, made in the reader's worker, is not the agent's) is refused.
    const { status, record } = await files.importFile({
      companyId: agent.companyId,
      kind: parsed.data.kind,
      fileName: parsed.data.name,
      content,
      sha256: parsed.data.sha256,
      source: "agent",
      agentId: agent.id,
    });
    reply({
      type: "file-import-result",
      id,
      status: record.rowsAccepted === 0 ? "rejected" : status,
      importId: record.id,
      accepted: record.rowsAccepted,
      rejected: record.rowsRejected,
      rows: record.results,
      message: null,
    } satisfies AgentFileResultFrame);
  } catch (e) {
    if (!(e instanceof FileRefused)) throw e;
    reply(refused(e.reason));
  }
  return true;
}

/**
 * Hands the company's orders files not yet delivered to its agents connected here that have an outbox
 * folder; the agent answers `file-out-done` and the file is marked delivered. Files wait for the next
 * connection otherwise (the agent reports its folders at each connect).
 */
export async function deliverOrdersFiles(ctx: Ctx, companyId: number): Promise<number> {
  const hub = agentHubOf(ctx);
  const rows = await ctx.database.db
    .select({ id: agents.id, folders: agents.folders })
    .from(agents)
    .where(and(eq(agents.companyId, companyId), isNull(agents.revokedAt)));
  const targets = rows.filter((a) => a.folders?.some((f) => f.outbox) && hub.isOnline(a.id));
  if (targets.length === 0) return 0;
  const pending = await new FileExchange(ctx).undelivered(companyId);
  let sent = 0;
  for (const file of pending) {
    if (!file.content) continue;
    const frame: AgentFileOutFrame = {
      type: "file-out",
      id: randomUUID(),
      exportId: file.id,
      name: file.fileName,
      content: file.content,
    };
    // One agent is enough: the first one holding an outbox.
    if (targets.some((a) => hub.send(a.id, frame))) sent++;
  }
  return sent;
}
