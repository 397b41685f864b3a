import { mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GenericSqlConnector, getDescriptor, getFileShop, isConnectorError } from "@ep/connectors";
import {
  envelopeSchema,
  FILE_IMPORT_KINDS,
  type FileImportDeleted,
  fileExchangeOverviewSchema,
  fileImportDeletedSchema,
  fileImportResultSchema,
  fileImportRowsSchema,
  idParam,
  type SqlPreview,
  sqlPreviewRequestSchema,
  sqlPreviewSchema,
} from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import multipart from "@fastify/multipart";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import { agents } from "../agents/schema.ts";
import { agentHubOf } from "../agents/service.ts";
import { FileExchange, FileRefused } from "../file-exchange/service.ts";
import { rateLimitStoreFor } from "./connector-factory.ts";
import { openCredentials } from "./repository.ts";
import { sqlTransportOf } from "./sql-transport.ts";

const tags = ["Settings"];
const PREVIEW_ROWS = 20;
const FILE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Where uploads are written while they are read: a folder of this process only its user can open
 * (mkdtemp's 0700), made on the first upload. @fastify/multipart removes each file when its answer
 * is over.
 */
let uploadDir: Promise<string> | undefined;
export const uploadsFolder = () => {
  uploadDir ??= mkdtemp(join(tmpdir(), "ep-uploads-"));
  return uploadDir;
};

/** A database cell as JSON: dates as ISO text, binary as text, big numbers as text. */
function cell(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString("utf8");
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return JSON.stringify(v);
}

const empty = (error: string): SqlPreview => ({
  error,
  columns: [],
  rows: [],
  mapped: [],
  mappingErrors: [],
  truncated: false,
});

/**
 * "Önizle" of the generic SQL connector: a configured read query run through the connection's own
 * transport (its on-site agent) with the first 20 rows, each row's mapping, in Turkish. Scoped to the
 * caller's company: another company's connection is as unknown as a missing one.
 */
export function sqlPreviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { throwFileSizeLimit: true });
    app.addHook("onRequest", requireCompanyUser(ctx));
    const { connections } = engineSchema;
    const files = new FileExchange(ctx);

    /** The caller's generic SQL / file connection by id; another company's is a 404. */
    const mappingConnection = async (companyId: number, connectionId: number) => {
      const [row] = await ctx.database.db
        .select()
        .from(connections)
        .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)));
      // Only the ERP side has SQL mappings.
      if (row?.kind !== "erp") throw AppError.notFound();
      const descriptor = getDescriptor(row.kind, row.systemType);
      if (!descriptor?.mapping) throw AppError.notFound();
      return { row, descriptor };
    };

    /** The caller's JetStok-like shop connection (no API, files only) by id; another company's is a 404. */
    const fileShopConnection = async (companyId: number, connectionId: number) => {
      const [row] = await ctx.database.db
        .select()
        .from(connections)
        .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)));
      const shopFiles = row?.kind === "shop" ? getFileShop(row.systemType) : undefined;
      if (!row || !shopFiles) throw AppError.notFound();
      return { row, shopFiles };
    };

    /** Either side's file connection: a mapping ERP's, or a file shop's. */
    const fileConnection = async (companyId: number, connectionId: number) => {
      const [row] = await ctx.database.db
        .select({ kind: connections.kind })
        .from(connections)
        .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)));
      if (row?.kind === "shop") return { shop: await fileShopConnection(companyId, connectionId) };
      return { erp: await mappingConnection(companyId, connectionId) };
    };

    app.post(
      "/api/settings/file-import/:connectionId/:kind",
      {
        schema: {
          tags,
          // "orders": the orders file a file shop (JetStok) exported; the rest feed a mapping ERP.
          params: z.object({ connectionId: idParam(), kind: z.enum([...FILE_IMPORT_KINDS, "orders"]) }),
          response: { 200: envelopeSchema(fileImportResultSchema) },
        },
      },
      async (request) => {
        const { kind } = request.params;
        if (kind === "orders") await fileShopConnection(companyOf(request), request.params.connectionId);
        else await mappingConnection(companyOf(request), request.params.connectionId);
        if (!request.isMultipart()) throw new AppError(400, "request.malformedMultipart");
        // The file part goes to disk as it arrives and the reader's worker takes it from there: the
        // event loop never holds the whole body (issue 33, item 3).
        let saved: { filename: string; filepath: string; file: { truncated: boolean } } | undefined;
        try {
          const { files: parts } = await request.saveRequestFiles({
            tmpdir: await uploadsFolder(),
            limits: { fileSize: FILE_MAX_BYTES, files: 1 },
          });
          saved = parts[0];
        } catch (e) {
          const tooLarge = (e as { code?: unknown }).code === "FST_REQ_FILE_TOO_LARGE";
          throw new AppError(400, tooLarge ? "fileExchange.tooLarge" : "request.malformedMultipart");
        }
        if (saved?.file.truncated) throw new AppError(400, "fileExchange.tooLarge");
        const size = saved ? (await stat(saved.filepath)).size : 0;
        if (!saved || size === 0) throw new AppError(400, "request.malformedMultipart");
        // Checked row by row and kept: the latest accepted file per kind is the next sync's source.
        const companyId = companyOf(request);
        let outcome: Awaited<ReturnType<FileExchange["importFile"]>>;
        try {
          outcome = await files.importFile({
            companyId,
            kind: request.params.kind,
            fileName: saved.filename,
            content: { path: saved.filepath, size },
            source: "panel",
          });
        } catch (e) {
          if (e instanceof FileRefused) throw new AppError(400, `fileExchange.${e.reason}`);
          throw e;
        }
        const { record } = outcome;
        // An orders file is read once by the next order transfer; a products / stock / prices file is
        // read while it is the latest accepted one of its kind.
        const usedForSync =
          kind === "orders" ? record.rowsAccepted > 0 : (await files.latestId(companyId, kind)) === record.id;
        return ok({
          importId: record.id,
          status: outcome.status,
          usedForSync,
          columns: record.columns,
          accepted: record.rowsAccepted,
          rejected: record.rowsRejected,
          rows: record.results,
        });
      },
    );

    /** Kept files (in and out) and the watched folders the company's agents reported. */
    app.get(
      "/api/settings/file-exchange/:connectionId",
      {
        schema: {
          tags,
          params: z.object({ connectionId: idParam() }),
          response: { 200: envelopeSchema(fileExchangeOverviewSchema) },
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        const side = await fileConnection(companyId, request.params.connectionId);
        if (side.shop) {
          // A file shop: the orders files uploaded (each read once) and the stock and price file.
          const [uploaded, sheet] = await Promise.all([
            files.list(companyId, "in"),
            files.shopStockSheet(companyId),
          ]);
          return ok({
            imports: uploaded
              .filter((r) => r.kind === "orders")
              .map((r) => ({
                ...r,
                uploadedAt: r.uploadedAt.toISOString(),
                deliveredAt: null,
                usedForSync: r.rowsAccepted > 0,
              })),
            orders: [],
            folders: [],
            stockFile: sheet ? { updatedAt: sheet.updatedAt.toISOString(), rows: sheet.rows.length } : null,
          });
        }
        const [ins, outs, latestIds, agentRows] = await Promise.all([
          files.list(companyId, "in"),
          files.list(companyId, "out"),
          Promise.all(FILE_IMPORT_KINDS.map((k) => files.latestId(companyId, k))),
          ctx.database.db
            .select({ id: agents.id, machineName: agents.machineName, folders: agents.folders })
            .from(agents)
            .where(and(eq(agents.companyId, companyId), isNull(agents.revokedAt))),
        ]);
        const used = new Set(latestIds.filter((id): id is number => id !== undefined));
        const hub = agentHubOf(ctx);
        const item = (r: (typeof ins)[number]) => ({
          ...r,
          uploadedAt: r.uploadedAt.toISOString(),
          deliveredAt: r.deliveredAt?.toISOString() ?? null,
          usedForSync: used.has(r.id),
        });
        return ok({
          imports: ins.map(item),
          orders: outs.map(item),
          folders: agentRows.flatMap((a) =>
            (a.folders ?? []).map((f) => ({
              ...f,
              agentId: a.id,
              machineName: a.machineName,
              online: hub.isOnline(a.id),
            })),
          ),
        });
      },
    );

    /** One page of a kept file's per-row results. */
    app.get(
      "/api/settings/file-exchange/:connectionId/:fileId/rows",
      {
        schema: {
          tags,
          params: z.object({ connectionId: idParam(), fileId: idParam() }),
          querystring: z.object({
            page: z.coerce.number().int().min(1).max(100_000).default(1),
            pageSize: z.coerce.number().int().min(1).max(500).default(50),
            onlyRejected: z.enum(["true", "false"]).optional(),
          }),
          response: { 200: envelopeSchema(fileImportRowsSchema) },
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        await fileConnection(companyId, request.params.connectionId);
        const record = await files.get(companyId, request.params.fileId);
        if (!record) throw AppError.notFound();
        const { page, pageSize, onlyRejected } = request.query;
        const all = onlyRejected === "true" ? record.results.filter((r) => !r.accepted) : record.results;
        return ok({ total: all.length, rows: all.slice((page - 1) * pageSize, page * pageSize) });
      },
    );

    /**
     * Deletes a products / stock / prices file; another company's (or an orders file) is a 404. The
     * answer says what the next sync of that kind reads instead.
     */
    app.delete(
      "/api/settings/file-exchange/:connectionId/:fileId",
      {
        schema: {
          tags,
          params: z.object({ connectionId: idParam(), fileId: idParam() }),
          response: { 200: envelopeSchema(fileImportDeletedSchema) },
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        await mappingConnection(companyId, request.params.connectionId);
        const removed = await files.remove(companyId, request.params.fileId);
        // Files in are never of kind "orders": the check only narrows the type.
        if (!removed || removed.kind === "orders") throw AppError.notFound();
        await recordActivity(ctx.database.db, {
          companyId,
          userId: authOf(request).userId,
          action: "fileImportDeleted",
          detail: removed.fileName,
        });
        const next = await files.latest(companyId, removed.kind);
        return ok<FileImportDeleted>(
          {
            id: removed.id,
            kind: removed.kind,
            nextFile: next ? { id: next.id, fileName: next.fileName } : null,
          },
          "fileExchange.deleted",
        );
      },
    );

    /**
     * A file shop's stock and price file (JetStok: the Excel the merchant imports there), built from the
     * values the last stock and price runs wrote. 404 until a run has written one.
     */
    app.get(
      "/api/settings/file-exchange/:connectionId/stock-file",
      { schema: { tags, params: z.object({ connectionId: idParam() }) } },
      async (request, reply) => {
        const companyId = companyOf(request);
        const { shopFiles } = await fileShopConnection(companyId, request.params.connectionId);
        const sheet = await files.shopStockSheet(companyId);
        if (!sheet || sheet.rows.length === 0) throw AppError.notFound();
        const stamp = sheet.updatedAt.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 13);
        return reply
          .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          .header("content-disposition", `attachment; filename="${shopFiles.stockFileName}-${stamp}.xlsx"`)
          .send(await shopFiles.writeStockFile(sheet.rows));
      },
    );

    /** An orders file as the sync wrote it (CSV, one row per order line with its result). */
    app.get(
      "/api/settings/file-exchange/:connectionId/:fileId/download",
      {
        schema: { tags, params: z.object({ connectionId: idParam(), fileId: idParam() }) },
      },
      async (request, reply) => {
        const companyId = companyOf(request);
        await mappingConnection(companyId, request.params.connectionId);
        const record = await files.get(companyId, request.params.fileId);
        if (!record?.content) throw AppError.notFound();
        return reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${record.fileName}"`)
          .send(Buffer.from(record.content, "base64"));
      },
    );

    app.post(
      "/api/settings/sql-preview/:connectionId",
      {
        schema: {
          tags,
          params: z.object({ connectionId: idParam() }),
          body: sqlPreviewRequestSchema,
          response: { 200: envelopeSchema(sqlPreviewSchema) },
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        const [row] = await ctx.database.db
          .select()
          .from(connections)
          .where(and(eq(connections.id, request.params.connectionId), eq(connections.companyId, companyId)));
        if (row?.kind !== "erp") throw AppError.notFound();
        const descriptor = getDescriptor(row.kind, row.systemType);
        if (!descriptor?.mapping) throw AppError.notFound();
        const stored = openCredentials(ctx.credentials, row);
        const credentials = {
          ...stored,
          ...(request.body.sqlConfig === undefined ? {} : { sqlConfig: request.body.sqlConfig }),
        };
        try {
          const connector = new GenericSqlConnector(descriptor, credentials, {
            companyId: String(companyId),
            rateLimitStore: rateLimitStoreFor(ctx.database),
            timeoutMs: Math.min(ctx.config.connectorTimeoutMs, 15_000),
            sql: sqlTransportOf(ctx, row.agentId, credentials, row.id),
          });
          const p = await connector.preview(request.body.query, PREVIEW_ROWS);
          return ok<SqlPreview>({
            error: null,
            columns: p.columns,
            rows: p.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)]))),
            mapped: p.mapped.map((m) =>
              m.ok
                ? { ok: true, key: null, value: m.value as Record<string, unknown>, errors: [] }
                : { ok: false, key: m.key, value: null, errors: m.errors },
            ),
            mappingErrors: p.mappingErrors,
            truncated: p.truncated,
          });
        } catch (e) {
          if (isConnectorError(e) && e.merchantMessage) return ok(empty(e.merchantMessage));
          throw e;
        }
      },
    );
  };
}
