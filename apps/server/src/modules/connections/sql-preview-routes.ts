import { GenericSqlConnector, getDescriptor, isConnectorError } from "@ep/connectors";
import {
  envelopeSchema,
  FILE_IMPORT_KINDS,
  fileImportResultSchema,
  idParam,
  type SqlPreview,
  sqlPreviewRequestSchema,
  sqlPreviewSchema,
} from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import multipart, { type MultipartFile } from "@fastify/multipart";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import { checkRows, readTable } from "../file-exchange/import.ts";
import { rateLimitStoreFor } from "./connector-factory.ts";
import { openCredentials } from "./repository.ts";
import { sqlTransportOf } from "./sql-transport.ts";

const tags = ["Settings"];
const PREVIEW_ROWS = 20;
const FILE_MAX_BYTES = 20 * 1024 * 1024;

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

    /** The caller's generic SQL / file connection by id; another company's is a 404. */
    const mappingConnection = async (companyId: number, connectionId: number) => {
      const [row] = await ctx.database.db
        .select()
        .from(connections)
        .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)));
      const descriptor = row ? getDescriptor(row.kind, row.systemType) : undefined;
      if (!row || !descriptor?.mapping || row.kind !== "erp") throw AppError.notFound();
      return { row, descriptor };
    };

    app.post(
      "/api/settings/file-import/:connectionId/:kind",
      {
        schema: {
          tags,
          params: z.object({ connectionId: idParam(), kind: z.enum(FILE_IMPORT_KINDS) }),
          response: { 200: envelopeSchema(fileImportResultSchema) },
        },
      },
      async (request) => {
        const { row } = await mappingConnection(companyOf(request), request.params.connectionId);
        if (!request.isMultipart()) throw new AppError(400, "request.malformedMultipart");
        let file: MultipartFile | undefined;
        let buffer: Buffer;
        try {
          file = await request.file({ limits: { fileSize: FILE_MAX_BYTES, files: 1 } });
          buffer = file ? await file.toBuffer() : Buffer.alloc(0);
        } catch {
          throw new AppError(400, "request.malformedMultipart");
        }
        if (!file || buffer.length === 0) throw new AppError(400, "request.malformedMultipart");
        const stored = openCredentials(ctx.credentials, row);
        let mapping: Record<string, string> | undefined;
        try {
          const cfg = JSON.parse(stored.sqlConfig || "{}") as Record<
            string,
            { columns?: Record<string, string> }
          >;
          mapping = cfg[request.params.kind]?.columns;
        } catch {
          mapping = undefined;
        }
        let table: Awaited<ReturnType<typeof readTable>>;
        try {
          table = await readTable(buffer, file.filename);
        } catch {
          throw new AppError(400, "request.malformedMultipart");
        }
        const rows = checkRows(request.params.kind, table, mapping);
        const accepted = rows.filter((r) => r.accepted).length;
        return ok({ columns: table.columns, accepted, rejected: rows.length - accepted, rows });
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
        if (!row) throw AppError.notFound();
        const descriptor = getDescriptor(row.kind, row.systemType);
        if (!descriptor?.mapping || row.kind !== "erp") throw AppError.notFound();
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
            sql: sqlTransportOf(ctx, row.agentId, credentials),
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
