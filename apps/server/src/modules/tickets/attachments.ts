import { randomUUID } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { TICKET_ATTACHMENT_MAX_BYTES, TICKET_ATTACHMENT_MAX_COUNT } from "@ep/contracts";
import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../platform/http/envelope.ts";

export type Upload = { fileName: string; buffer: Buffer };
export type StoredFile = { fileName: string; contentType: string; size: number; storageKey: string };

const startsWith = (buffer: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => buffer[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The file's real type from its first bytes; the name and the browser's claim are never trusted. */
export function sniffType(buffer: Buffer): { contentType: string; ext: string } | null {
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { contentType: "image/png", ext: "png" };
  }
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return { contentType: "image/jpeg", ext: "jpg" };
  if (startsWith(buffer, ascii("GIF87a")) || startsWith(buffer, ascii("GIF89a"))) {
    return { contentType: "image/gif", ext: "gif" };
  }
  if (startsWith(buffer, ascii("RIFF")) && startsWith(buffer, ascii("WEBP"), 8)) {
    return { contentType: "image/webp", ext: "webp" };
  }
  if (startsWith(buffer, ascii("%PDF-"))) return { contentType: "application/pdf", ext: "pdf" };
  return null;
}

/** A display name only: no path parts, no control characters, bounded length. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f"<>]/g, "").trim();
  return (cleaned || "dosya").slice(0, 120);
}

/**
 * Reads a create/reply request: multipart form (fields + files) or a JSON body without files.
 * Enforces the size and count limits while streaming, so an oversized file is never held whole.
 */
export async function readTicketForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, unknown>; files: Upload[] }> {
  if (!request.isMultipart()) {
    const body =
      request.body && typeof request.body === "object" ? (request.body as Record<string, unknown>) : {};
    return { fields: body, files: [] };
  }
  const fields: Record<string, unknown> = {};
  const files: Upload[] = [];
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: TICKET_ATTACHMENT_MAX_BYTES,
        files: TICKET_ATTACHMENT_MAX_COUNT,
        fields: 20,
        fieldSize: 64 * 1024,
      },
    })) {
      if (part.type === "file") {
        const file = part as MultipartFile;
        const buffer = await file.toBuffer();
        if (buffer.length > 0) files.push({ fileName: file.filename, buffer });
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(400, "tickets.attachmentTooLarge");
    if (code === "FST_FILES_LIMIT") throw new AppError(400, "tickets.attachmentTooMany");
    // Anything else the form parser stops on (no boundary, a cut-off part, bad headers) is the
    // client's malformed form, not our failure.
    throw new AppError(400, "request.malformedMultipart");
  }
  return { fields, files };
}

/** Checks every upload's content before anything is written. */
export function checkUploads(files: Upload[]): Array<Upload & { contentType: string; ext: string }> {
  if (files.length > TICKET_ATTACHMENT_MAX_COUNT) throw new AppError(400, "tickets.attachmentTooMany");
  return files.map((f) => {
    if (f.buffer.length > TICKET_ATTACHMENT_MAX_BYTES) throw new AppError(400, "tickets.attachmentTooLarge");
    const type = sniffType(f.buffer);
    if (!type) throw new AppError(400, "tickets.attachmentType");
    return { ...f, ...type };
  });
}

/** Ticket files under DATA_DIR/tickets/<company>/<random>.<ext>. */
export class AttachmentStore {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = resolve(dataDir, "tickets");
  }

  async save(
    companyId: number,
    files: Array<Upload & { contentType: string; ext: string }>,
  ): Promise<StoredFile[]> {
    const dir = join(this.root, String(companyId));
    await mkdir(dir, { recursive: true });
    const stored: StoredFile[] = [];
    for (const f of files) {
      const storageKey = `${companyId}/${randomUUID()}.${f.ext}`;
      await writeFile(this.pathOf(storageKey), f.buffer, { flag: "wx" });
      stored.push({
        fileName: cleanFileName(f.fileName),
        contentType: f.contentType,
        size: f.buffer.length,
        storageKey,
      });
    }
    return stored;
  }

  async remove(files: StoredFile[]): Promise<void> {
    await Promise.all(files.map((f) => unlink(this.pathOf(f.storageKey)).catch(() => undefined)));
  }

  open(storageKey: string): ReadStream {
    return createReadStream(this.pathOf(storageKey));
  }

  private pathOf(storageKey: string): string {
    const path = resolve(this.root, storageKey);
    if (!path.startsWith(this.root + sep)) throw new Error("attachment path escapes its folder");
    return path;
  }
}
