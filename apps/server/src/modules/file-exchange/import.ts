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

type WorkerAnswer = { ok: true; table: FileTable } | { ok: false; reason: ReadRefusal };

/** One reader at a time in this process, so two large files cannot add up their workers' heaps. */
let readers: Promise<unknown> = Promise.resolve();

function inWorker(content: Buffer, fileName: string, limits: ReadLimits): Promise<FileTable> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./read-worker.mjs", import.meta.url), {
      workerData: { content, fileName, limits },
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
    worker.once("message", (answer: WorkerAnswer) =>
      settle(() => (answer.ok ? resolve(answer.table) : reject(new TableRefused(answer.reason)))),
    );
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

/** The file's header and records, or a `TableRefused` with the reason it is not read. */
export async function readTable(
  buffer: Buffer,
  filename: string,
  limits: ReadLimits = READ_LIMITS,
): Promise<FileTable> {
  const ext = filename.toLowerCase().split(".").pop();
  if (!ext || !["xlsx", "csv", "txt", "xml"].includes(ext)) throw new TableRefused("unreadable");
  const turn = readers.then(() => inWorker(buffer, filename, limits));
  readers = turn.catch(() => undefined);
  return turn;
}

/**
 * Each row's outcome through the mapping (file column per model field); without a mapping the file's
 * headers are the field names themselves (sku, name, warehouse, quantity, price…).
 */
export function checkRows(kind: FileKind, table: FileTable, mapping?: Record<string, string>): RowOutcome[] {
  const columns = mapping ?? Object.fromEntries(table.columns.map((c) => [c, c]));
  const map = MAPPERS[kind] as (
    row: Row,
    columns: Record<string, string>,
  ) => ReturnType<(typeof MAPPERS)["stock"]>;
  return table.rows.map((row, i) => {
    const r = map(row, columns);
    // Row 1 is the header: the first record is the file's row 2.
    return r.ok
      ? { row: i + 2, key: (r.value as { sku: string }).sku, accepted: true, reasons: [] }
      : { row: i + 2, key: r.key, accepted: false, reasons: r.errors };
  });
}
