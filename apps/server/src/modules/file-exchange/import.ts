/**
 * Files in for the systems with no API (generic SQL / file connector): an Excel, CSV or XML file of
 * products, stock or prices read with maintained parsers (yauzl and saxes for Excel, csv-parse,
 * fast-xml-parser) and each row mapped to our model with the same column mapping as the SQL queries:
 * accepted, or the Turkish reason it is not. Orders go out through the existing sales export
 * (reports/export.ts).
 *
 * A file is read in a worker thread (read-worker.mjs), one at a time, with caps on its unpacked size,
 * rows, columns and cell length and a bound on the worker's heap: a one-million-row workbook, a zip
 * bomb or a cell at row 1,048,576 is refused when the cap is crossed, and the event loop keeps
 * answering meanwhile (issue 33, item 3; bench/README.md, "Uploads").
 */

import { Worker } from "node:worker_threads";
import { MAPPERS, type Row } from "@ep/connectors";

export type FileKind = "products" | "stock" | "prices";
export type FileTable = { columns: string[]; rows: Row[] };
export type RowOutcome = { row: number; key: string; accepted: boolean; reasons: string[] };

/** The caps of one file; the Turkish refusals (fileExchange.*) name the same numbers. */
export const READ_LIMITS = {
  /** What the zip's parts the reader opens may inflate to, in all. */
  maxUnpackedBytes: 100 * 1024 * 1024,
  /** Records after the header row (and the last row number an Excel file may use, plus one). */
  maxRows: 100_000,
  maxColumns: 100,
  /** Excel's own limit for one cell. */
  maxCellChars: 32_767,
};
export type ReadLimits = typeof READ_LIMITS;

/** Why a file cannot be read: a key of `fileExchange` in the message catalogue. */
export type ReadRefusal =
  | "unreadable"
  | "tooManyRows"
  | "tooManyColumns"
  | "cellTooLong"
  | "unpackedTooLarge";

export class TableRefused extends Error {
  constructor(readonly reason: ReadRefusal) {
    super(`file not read: ${reason}`);
  }
}

/** The worker's heap: a file that needs more than this is refused, not given the server's memory. */
const WORKER_HEAP_MB = 160;
/** A file the caps let through is read in a few seconds; past this the worker is stopped. */
const READ_TIMEOUT_MS = 60_000;

/**
 * Rows cross from the worker to the event loop this many at a time, the next batch only once the
 * event loop has dealt with the last one and answered its other calls (a 100,000-row file arrives as
 * 50 short turns, not one long one: Node hands a port's queued messages over in one go).
 */
export const ROWS_PER_MESSAGE = 2_000;

/** The worker's messages: the header first, then the rows in batches, then the end (or a refusal). */
type WorkerMessage =
  | { type: "head"; columns: string[]; contentHash: string }
  | { type: "rows"; rows: Row[]; json: string }
  | { type: "end" }
  | { type: "refused"; reason: ReadRefusal };

/** What a read hands back besides the rows it gave to `onRows`. */
export type StreamedTable = {
  columns: string[];
  /** SHA-256 of the file (hex), computed in the worker. */
  contentHash: string;
  /** The rows as they are stored (a JSON array; dates as ISO text), written in the worker. */
  rowsJson: string;
};

export type RowBatch = {
  columns: string[];
  rows: Row[] /** Index of the batch's first record. */;
  first: number;
};

/**
 * A file's bytes: in memory (an agent's frame), or a file on disk (a panel upload, streamed there so the
 * event loop never holds the whole body: an 18 MB buffer and its collection stalled every other call).
 */
export type FileContent = Buffer | { path: string; size: number };

/** The file's size in bytes. */
export const sizeOf = (content: FileContent): number =>
  Buffer.isBuffer(content) ? content.length : content.size;

/** One reader at a time in this process, so two large files cannot add up their workers' heaps. */
let readers: Promise<unknown> = Promise.resolve();

function inWorker(
  content: FileContent,
  fileName: string,
  limits: ReadLimits,
  onRows: (batch: RowBatch) => void,
): Promise<StreamedTable> {
  return new Promise((resolve, reject) => {
    // Bytes in memory are handed over, not copied, when the buffer is its own (a 20 MB copy on the
    // event loop held /health up); the caller does not read them again. A file on disk goes by its path.
    const bytes = Buffer.isBuffer(content) ? content : undefined;
    const own = bytes !== undefined && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const source = bytes ? { content: bytes } : { path: (content as { path: string }).path };
    const worker = new Worker(new URL("./read-worker.mjs", import.meta.url), {
      workerData: { ...source, fileName, limits, rowsPerMessage: ROWS_PER_MESSAGE },
      transferList: own && bytes.byteLength > 0 ? [bytes.buffer as ArrayBuffer] : [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new TableRefused("unreadable"))), READ_TIMEOUT_MS);
    let head: { columns: string[]; contentHash: string } | undefined;
    const json: string[] = [];
    let first = 0;
    worker.on("message", (message: WorkerMessage) => {
      if (settled) return;
      if (message.type === "head") {
        head = { columns: message.columns, contentHash: message.contentHash };
        worker.postMessage("next");
      } else if (message.type === "rows" && head) {
        try {
          onRows({ columns: head.columns, rows: message.rows, first });
        } catch (error) {
          return settle(() => reject(error));
        }
        first += message.rows.length;
        if (message.json) json.push(message.json);
        // The next batch after the event loop's other work (I/O, timers) has had its turn.
        setImmediate(() => {
          if (!settled) worker.postMessage("next");
        });
      } else if (message.type === "end" && head) {
        const table = { ...head, rowsJson: `[${json.join(",")}]` };
        settle(() => resolve(table));
      } else if (message.type === "refused") {
        settle(() => reject(new TableRefused(message.reason)));
      }
    });
    worker.once("error", (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          new TableRefused(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "unpackedTooLarge" : "unreadable"),
        ),
      ),
    );
    worker.once("exit", () => settle(() => reject(new TableRefused("unreadable"))));
  });
}

/**
 * Reads a file in the worker: its header, hash and stored rows, with the rows handed to `onRows` in
 * batches of at most `ROWS_PER_MESSAGE`, each in a turn of its own; a `TableRefused` with the reason
 * a file is not read. A buffer is handed to the worker: the caller must not read it afterwards.
 */
export async function streamTable(
  content: FileContent,
  filename: string,
  onRows: (batch: RowBatch) => void,
  limits: ReadLimits = READ_LIMITS,
): Promise<StreamedTable> {
  const ext = filename.toLowerCase().split(".").pop();
  if (!ext || !["xlsx", "csv", "txt", "xml"].includes(ext)) throw new TableRefused("unreadable");
  const turn = readers.then(() => inWorker(content, filename, limits, onRows));
  readers = turn.catch(() => undefined);
  return turn;
}

/** The file's header and records, or a `TableRefused` with the reason it is not read. */
export async function readTable(
  content: FileContent,
  filename: string,
  limits: ReadLimits = READ_LIMITS,
): Promise<FileTable> {
  const rows: Row[] = [];
  const { columns } = await streamTable(
    content,
    filename,
    (batch) => {
      for (const row of batch.rows) rows.push(row);
    },
    limits,
  );
  return { columns, rows };
}

/**
 * Each row's outcome through the mapping (file column per model field); without a mapping the file's
 * headers are the field names themselves (sku, name, warehouse, quantity, price…).
 */
export function checkRows(
  kind: FileKind,
  table: FileTable,
  mapping?: Record<string, string>,
  /** Index of `table.rows[0]` among the file's records (a batch of `streamTable`). */
  first = 0,
): RowOutcome[] {
  const columns = mapping ?? Object.fromEntries(table.columns.map((c) => [c, c]));
  const map = MAPPERS[kind] as (
    row: Row,
    columns: Record<string, string>,
  ) => ReturnType<(typeof MAPPERS)["stock"]>;
  return table.rows.map((row, i) => {
    const r = map(row, columns);
    // Row 1 is the header: the first record is the file's row 2.
    const line = first + i + 2;
    return r.ok
      ? { row: line, key: (r.value as { sku: string }).sku, accepted: true, reasons: [] }
      : { row: line, key: r.key, accepted: false, reasons: r.errors };
  });
}
