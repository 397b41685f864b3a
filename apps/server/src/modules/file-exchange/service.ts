/**
 * Files as a source for the systems with no API: a products / stock / prices file (panel upload or the
 * agent's watched folder) is checked row by row, kept per company, and the latest accepted one per kind
 * is what the generic connector reads on the next run. Orders go out as orders files. Everything here is
 * scoped to one company; the same file (by content hash) is kept once.
 */

import { createHash } from "node:crypto";
import {
  type FileSource,
  getDescriptor,
  getFileShop,
  mergeStockRows,
  type ShopFileExchange,
  type ShopOrdersFile,
  type ShopStockFileRow,
  type SourceFile,
  type SourceFileKind,
} from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { stringify } from "csv-stringify/sync";
import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { safeRow } from "../../platform/export-cells.ts";
import { openCredentials } from "../connections/repository.ts";
import {
  checkRows,
  type FileContent,
  type ReadRefusal,
  type RowBatch,
  sizeOf,
  streamTable,
  TableRefused,
} from "./import.ts";
import { fileImports, fileOrders, type StoredRowOutcome } from "./schema.ts";

export type FileImportRow = typeof fileImports.$inferSelect;
type Ctx = Pick<AppContext, "database" | "credentials">;

/** Why a whole file is refused (the panel's 400, the agent's `refused` frame), as a message key. */
export class FileRefused extends Error {
  constructor(readonly reason: ReadRefusal | "tooLarge" | "notFileSystem" | "notFileShop" | "empty") {
    super(`file refused: ${reason}`);
  }
}

export const FILE_MAX_BYTES = 20 * 1024 * 1024;

/** What an upload's answer shows of the kept file: all but its rows (read again only by the connector). */
const { rows: _rows, ...importedColumns } = getTableColumns(fileImports);
export type ImportedFile = Omit<FileImportRow, "rows">;

export type ImportOutcome = {
  status: "imported" | "duplicate";
  record: ImportedFile;
};

/** The company's incoming files of a kind. */
const incoming = (companyId: number, kind: SourceFileKind | "orders") =>
  and(eq(fileImports.companyId, companyId), eq(fileImports.direction, "in"), eq(fileImports.kind, kind));

/** The company's ERP connection when it is a mapping system (generic SQL / file connector). */
export async function mappingConnectionOf(ctx: Ctx, companyId: number) {
  const { connections } = engineSchema;
  const [row] = await ctx.database.db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.kind, "erp")));
  const descriptor = row ? getDescriptor("erp", row.systemType) : undefined;
  return row && descriptor?.mapping ? row : undefined;
}

/** The company's shop connection when the shop has no API and is connected through its files (JetStok). */
export async function fileShopConnectionOf(ctx: Ctx, companyId: number) {
  const { connections } = engineSchema;
  const [row] = await ctx.database.db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.kind, "shop")));
  return row && getFileShop(row.systemType) ? row : undefined;
}

/** The one stock and price file of a file shop is kept as this "out" record, whatever its content. */
const SHOP_STOCK_SHEET = "shop-stock-sheet";

/** What a file shop's stock and price file holds: its rows and when they last changed. */
export type ShopStockSheet = { rows: ShopStockFileRow[]; updatedAt: Date; systemType: number };

/** The column mapping the merchant configured for a kind ("SQL ile bağlantı"), if any. */
function configuredMapping(
  ctx: Ctx,
  row: typeof engineSchema.connections.$inferSelect,
  kind: SourceFileKind,
): Record<string, string> | undefined {
  try {
    const stored = openCredentials(ctx.credentials, row);
    const cfg = JSON.parse(stored.sqlConfig || "{}") as Record<string, { columns?: Record<string, string> }>;
    const columns = cfg[kind]?.columns;
    return columns && Object.keys(columns).length ? columns : undefined;
  } catch {
    return undefined;
  }
}

export class FileExchange {
  constructor(private readonly ctx: Ctx) {}

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * Checks a file row by row and keeps it (with every row and each row's outcome). The same content for
   * the same kind is kept once: a resend answers the earlier import as `duplicate`.
   */
  async importFile(input: {
    companyId: number;
    /** "orders": an orders file a file shop exported (JetStok); the others feed a mapping ERP. */
    kind: SourceFileKind | "orders";
    fileName: string;
    /** Handed to the reader's worker: not read again after this call. */
    content: FileContent;
    /** The hash the sender computed: a file whose bytes hash otherwise is refused as unreadable. */
    sha256?: string;
    source: "panel" | "agent";
    agentId?: number;
  }): Promise<ImportOutcome> {
    const { companyId, kind } = input;
    if (sizeOf(input.content) === 0) throw new FileRefused("empty");
    if (sizeOf(input.content) > FILE_MAX_BYTES) throw new FileRefused("tooLarge");
    let check: (batch: RowBatch) => StoredRowOutcome[];
    let configured: Record<string, string> | undefined;
    if (kind === "orders") {
      const shop = await fileShopConnectionOf(this.ctx, companyId);
      const files = shop && getFileShop(shop.systemType);
      if (!files) throw new FileRefused("notFileShop");
      check = (batch) => files.checkOrderRows(batch.columns, batch.rows, batch.first);
    } else {
      const connection = await mappingConnectionOf(this.ctx, companyId);
      if (!connection) throw new FileRefused("notFileSystem");
      configured = configuredMapping(this.ctx, connection, kind);
      check = (batch) => checkRows(kind, batch, configured, batch.first);
    }
    // The worker reads the file, hashes it and writes its rows' JSON; the event loop checks the rows a
    // batch at a time as they arrive (import.ts, streamTable).
    const outcomes: StoredRowOutcome[] = [];
    const resultsJson: string[] = [];
    let table: Awaited<ReturnType<typeof streamTable>>;
    try {
      table = await streamTable(input.content, input.fileName, (batch) => {
        const checked = check(batch);
        for (const outcome of checked) outcomes.push(outcome);
        if (checked.length) resultsJson.push(JSON.stringify(checked).slice(1, -1));
      });
    } catch (e) {
      throw new FileRefused(e instanceof TableRefused ? e.reason : "unreadable");
    }
    const { contentHash } = table;
    if (input.sha256 !== undefined && input.sha256 !== contentHash) throw new FileRefused("unreadable");
    const existing = await this.byHash(companyId, kind, contentHash);
    if (existing) return { status: "duplicate", record: existing };
    const mapping = configured ?? Object.fromEntries(table.columns.map((c) => [c, c]));
    const accepted = outcomes.filter((o) => o.accepted).length;
    // The rows and results go to the database as the JSON text made batch by batch (a 100,000-row
    // file's JSON written at once held the event loop); only the short columns come back.
    const [inserted] = await this.db
      .insert(fileImports)
      .values({
        companyId,
        direction: "in",
        kind,
        fileName: input.fileName.slice(0, 255),
        source: input.source,
        agentId: input.agentId ?? null,
        contentHash,
        rowsAccepted: accepted,
        rowsRejected: outcomes.length - accepted,
        results: sql`${`[${resultsJson.join(",")}]`}::jsonb`,
        rows: sql`${table.rowsJson}::jsonb`,
        columns: table.columns,
        mapping,
      })
      .onConflictDoNothing()
      .returning(importedColumns);
    if (inserted) return { status: "imported", record: { ...inserted, results: outcomes } };
    // Sent twice at once (an agent resending while the first send was stored): the first one stands.
    const first = await this.byHash(companyId, kind, contentHash);
    if (!first) throw new Error("file import vanished");
    return { status: "duplicate", record: first };
  }

  private async byHash(companyId: number, kind: SourceFileKind | "orders", contentHash: string) {
    const [row] = await this.db
      .select(importedColumns)
      .from(fileImports)
      .where(and(incoming(companyId, kind), eq(fileImports.contentHash, contentHash)));
    return row;
  }

  /** The latest file of a kind with at least one accepted row: the connector's source for that kind. */
  async latest(companyId: number, kind: SourceFileKind): Promise<SourceFile | undefined> {
    const id = await this.latestId(companyId, kind);
    const row = id === undefined ? undefined : await this.get(companyId, id);
    if (!row) return undefined;
    return {
      id: row.id,
      fileName: row.fileName,
      source: row.source === "agent" ? "agent" : "panel",
      uploadedAt: row.uploadedAt.toISOString(),
      mapping: row.mapping,
      rows: row.rows,
    };
  }

  /** The id of `latest`, without reading its rows. */
  async latestId(companyId: number, kind: SourceFileKind): Promise<number | undefined> {
    const [row] = await this.db
      .select({ id: fileImports.id })
      .from(fileImports)
      .where(and(incoming(companyId, kind), gt(fileImports.rowsAccepted, 0)))
      .orderBy(desc(fileImports.uploadedAt), desc(fileImports.id))
      .limit(1);
    return row?.id;
  }

  /** Recent files of the company (newest first), without their rows. */
  async list(companyId: number, direction: "in" | "out", limit = 20) {
    return this.db
      .select({
        id: fileImports.id,
        kind: fileImports.kind,
        fileName: fileImports.fileName,
        source: fileImports.source,
        rowsAccepted: fileImports.rowsAccepted,
        rowsRejected: fileImports.rowsRejected,
        uploadedAt: fileImports.uploadedAt,
        deliveredAt: fileImports.deliveredAt,
      })
      .from(fileImports)
      .where(
        and(
          eq(fileImports.companyId, companyId),
          eq(fileImports.direction, direction),
          // A file shop's stock sheet is an "out" record too, but no orders file.
          direction === "out" ? eq(fileImports.kind, "orders") : undefined,
        ),
      )
      .orderBy(desc(fileImports.uploadedAt), desc(fileImports.id))
      .limit(limit);
  }

  /** One file of the company (another company's id is as unknown as a missing one). */
  async get(companyId: number, id: number): Promise<FileImportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(fileImports)
      .where(and(eq(fileImports.companyId, companyId), eq(fileImports.id, id)));
    return row;
  }

  /**
   * Deletes one of the company's products / stock / prices files; the next run of that kind reads the
   * next-newest accepted file, or the query when none is left. A run already under way keeps the rows it
   * read (the connector reads a kind's file once per run). Orders files are not deletable: each order is
   * recorded as being in exactly one of them. Undefined when the company has no such file.
   */
  async remove(companyId: number, id: number): Promise<FileImportRow | undefined> {
    const [row] = await this.db
      .delete(fileImports)
      .where(
        and(
          eq(fileImports.companyId, companyId),
          eq(fileImports.id, id),
          eq(fileImports.direction, "in"),
          // An uploaded orders file (a file shop's) stays: its orders were read from it.
          inArray(fileImports.kind, ["products", "stock", "prices"]),
        ),
      )
      .returning();
    return row;
  }

  async hasOrder(companyId: number, orderNo: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: fileOrders.id })
      .from(fileOrders)
      .where(and(eq(fileOrders.companyId, companyId), eq(fileOrders.orderNo, orderNo)));
    return Boolean(row);
  }

  async addOrder(
    companyId: number,
    orderNo: string,
    rows: Record<string, string | number | null>[],
  ): Promise<boolean> {
    const inserted = await this.db
      .insert(fileOrders)
      .values({ companyId, orderNo, rows })
      .onConflictDoNothing()
      .returning({ id: fileOrders.id });
    return inserted.length > 0;
  }

  /**
   * Puts every order recorded and not yet in a file into one new orders file (CSV, one row per line with
   * its result); an order is in exactly one file.
   */
  async closeOrders(companyId: number, now: Date): Promise<FileImportRow | undefined> {
    return this.db.transaction(async (tx) => {
      const pending = await tx
        .select()
        .from(fileOrders)
        .where(and(eq(fileOrders.companyId, companyId), isNull(fileOrders.exportId)))
        .orderBy(asc(fileOrders.id))
        .for("update");
      if (pending.length === 0) return undefined;
      const lines = pending.flatMap((o) => o.rows.map((r) => safeRow({ ...r, result: "Aktarılmaya hazır" })));
      const header = Object.keys(lines[0] ?? {});
      const csv = `\uFEFF${stringify(lines, { header: true, columns: header, delimiter: ";" })}`;
      const content = Buffer.from(csv, "utf8");
      const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
      const fileName = `siparisler-${stamp}-${pending[0]!.id}.csv`;
      const [created] = await tx
        .insert(fileImports)
        .values({
          companyId,
          direction: "out",
          kind: "orders",
          fileName,
          source: "sync",
          contentHash: createHash("sha256").update(content).digest("hex"),
          rowsAccepted: pending.length,
          rowsRejected: 0,
          results: pending.map((o, i) => ({ row: i + 2, key: o.orderNo, accepted: true, reasons: [] })),
          content: content.toString("base64"),
          uploadedAt: now,
        })
        .returning();
      await tx
        .update(fileOrders)
        .set({ exportId: created!.id })
        .where(
          and(
            eq(fileOrders.companyId, companyId),
            inArray(
              fileOrders.id,
              pending.map((o) => o.id),
            ),
          ),
        );
      return created;
    });
  }

  /** Orders files not yet in the agent's outbox folder. */
  async undelivered(companyId: number) {
    return this.db
      .select()
      .from(fileImports)
      .where(
        and(
          eq(fileImports.companyId, companyId),
          eq(fileImports.direction, "out"),
          eq(fileImports.kind, "orders"),
          isNull(fileImports.deliveredAt),
        ),
      )
      .orderBy(asc(fileImports.id))
      .limit(20);
  }

  async markDelivered(companyId: number, id: number, at: Date): Promise<void> {
    await this.db
      .update(fileImports)
      .set({ deliveredAt: sql`coalesce(${fileImports.deliveredAt}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(fileImports.companyId, companyId), eq(fileImports.id, id)));
  }

  /**
   * Merges rows into the company's stock and price file (one record per company, rows by SKU). The
   * row lock orders a stock run's and a price run's merges, so neither loses the other's values.
   */
  async putShopStockRows(companyId: number, rows: ShopStockFileRow[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction(async (tx) => {
      await tx
        .insert(fileImports)
        .values({
          companyId,
          direction: "out",
          kind: "stock",
          fileName: "stock-sheet",
          source: "sync",
          contentHash: SHOP_STOCK_SHEET,
          uploadedAt: now,
        })
        .onConflictDoNothing();
      const [sheet] = await tx
        .select({ id: fileImports.id, rows: fileImports.rows })
        .from(fileImports)
        .where(this.stockSheetOf(companyId))
        .for("update");
      if (!sheet) throw new Error("stock sheet vanished");
      const merged = mergeStockRows(sheet.rows as unknown as ShopStockFileRow[], rows);
      await tx
        .update(fileImports)
        .set({
          rows: merged as unknown as Record<string, unknown>[],
          rowsAccepted: merged.length,
          uploadedAt: now,
        })
        .where(eq(fileImports.id, sheet.id));
    });
  }

  private stockSheetOf(companyId: number) {
    return and(
      eq(fileImports.companyId, companyId),
      eq(fileImports.direction, "out"),
      eq(fileImports.kind, "stock"),
      eq(fileImports.contentHash, SHOP_STOCK_SHEET),
    );
  }

  /** The company's stock and price file, when a stock or price run has written one. */
  async shopStockSheet(companyId: number): Promise<Omit<ShopStockSheet, "systemType"> | undefined> {
    const [sheet] = await this.db
      .select({ rows: fileImports.rows, updatedAt: fileImports.uploadedAt })
      .from(fileImports)
      .where(this.stockSheetOf(companyId));
    return sheet
      ? { rows: sheet.rows as unknown as ShopStockFileRow[], updatedAt: sheet.updatedAt }
      : undefined;
  }

  /** Orders files uploaded after the file `afterId` with an accepted row, oldest first. */
  async ordersFilesAfter(
    companyId: number,
    afterId: number | undefined,
    limit: number,
  ): Promise<ShopOrdersFile[]> {
    const rows = await this.db
      .select({
        id: fileImports.id,
        fileName: fileImports.fileName,
        uploadedAt: fileImports.uploadedAt,
        rows: fileImports.rows,
      })
      .from(fileImports)
      .where(
        and(
          eq(fileImports.companyId, companyId),
          eq(fileImports.direction, "in"),
          eq(fileImports.kind, "orders"),
          gt(fileImports.rowsAccepted, 0),
          afterId === undefined ? undefined : gt(fileImports.id, afterId),
        ),
      )
      .orderBy(asc(fileImports.id))
      .limit(limit);
    return rows.map((r) => ({ ...r, uploadedAt: r.uploadedAt.toISOString() }));
  }

  /** A file shop connector's view of the company's files (see `ShopFileExchange`). */
  shopSourceFor(companyId: number, now: () => Date): ShopFileExchange {
    return {
      putStockRows: (rows) => this.putShopStockRows(companyId, rows, now()),
      ordersFilesAfter: (afterId, limit) => this.ordersFilesAfter(companyId, afterId, limit),
    };
  }

  /** The connector's view of the company's files (see `FileSource`). */
  sourceFor(companyId: number, now: () => Date, onOrdersFile?: (file: FileImportRow) => void): FileSource {
    return {
      latest: (kind) => this.latest(companyId, kind),
      hasOrder: (orderNo) => this.hasOrder(companyId, orderNo),
      addOrder: (orderNo, rows) => this.addOrder(companyId, orderNo, rows),
      closeOrders: async () => {
        const file = await this.closeOrders(companyId, now());
        if (!file) return undefined;
        onOrdersFile?.(file);
        return { fileName: file.fileName, orders: file.rowsAccepted };
      },
    };
  }
}
