/**
 * Reads one uploaded file (xlsx, csv, xml) in a worker thread, within caps: the server's event loop
 * never parses a workbook, and a file past a cap is refused as soon as the cap is crossed, not after
 * it has been read whole. Plain JavaScript because a worker thread loads its file with Node itself
 * (no TypeScript loader, in the tests nor in the bundle); the types are in read-table.ts.
 *
 * xlsx: the zip's central directory first (yauzl); each part is inflated as a stream whose actual size
 * must match the size the directory declares (yauzl's validateEntrySizes) and whose declared sizes add
 * up to at most `maxUnpackedBytes`; the sheet's XML goes through a SAX parser (saxes) row by row.
 *
 * workerData: { content?: Uint8Array, path?: string, fileName: string, limits: ReadLimits, rowsPerMessage: number }
 * (the bytes in memory, or a file on disk: an upload streamed there, never held whole by the event loop;
 * a workbook on disk is read by the zip's directory, not loaded whole here either).
 * Answers { type: "head", columns, contentHash } once the whole file is read within the caps, then
 * one { type: "rows", rows, json } per "next" the event loop sends (at most rowsPerMessage rows; json is
 * the rows as stored, without the array's brackets), then { type: "end" }; or { type: "refused", reason }.
 * The file's hash and the stored rows' JSON are made here too, not on the event loop.
 */
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser } from "fast-xml-parser";
import { SaxesParser } from "saxes";
import yauzl from "yauzl";

/** A refusal the user reads (a key of `fileExchange` in the message catalogue). */
class Refused extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

const { content, path, fileName, limits, rowsPerMessage } = workerData;
/** The file's bytes in memory, when it came that way; a file on disk is read when a reader needs it. */
const inMemory = content ? Buffer.from(content.buffer, content.byteOffset, content.byteLength) : undefined;
const wholeFile = () => inMemory ?? readFileSync(path);

/** SHA-256 of the file (hex); a file on disk is hashed as a stream. */
async function hashOfFile() {
  const hash = createHash("sha256");
  if (inMemory) return hash.update(inMemory).digest("hex");
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest("hex");
}

function checkCell(text) {
  if (typeof text === "string" && text.length > limits.maxCellChars) throw new Refused("cellTooLong");
}

function checkShape(columns, rowCount) {
  if (columns.length > limits.maxColumns) throw new Refused("tooManyColumns");
  if (rowCount > limits.maxRows) throw new Refused("tooManyRows");
}

// ---------------------------------------------------------------- xlsx

function openZip() {
  return new Promise((resolve, reject) => {
    const options = { lazyEntries: true, validateEntrySizes: true, autoClose: false };
    const opened = (error, zip) => {
      if (error) return reject(error);
      const entries = new Map();
      zip.on("entry", (entry) => {
        // A directory of a million names is itself a way to spend memory.
        if (entries.size >= 10_000) return reject(new Refused("unpackedTooLarge"));
        entries.set(entry.fileName.replace(/^\//, ""), entry);
        zip.readEntry();
      });
      zip.on("end", () => resolve({ zip, entries }));
      zip.on("error", reject);
      zip.readEntry();
    };
    if (inMemory) yauzl.fromBuffer(inMemory, options, opened);
    else yauzl.open(path, options, opened);
  });
}

/** Sizes inflated so far, against the cap; parts are counted by what their directory entry declares. */
let unpacked = 0;

/** Streams one part of the zip into a SAX parser; `handlers` gets the parser before the first chunk. */
function saxPart(zip, entry, handlers) {
  unpacked += entry.uncompressedSize;
  if (unpacked > limits.maxUnpackedBytes) return Promise.reject(new Refused("unpackedTooLarge"));
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const parser = new SaxesParser();
      handlers(parser);
      let failed = false;
      const fail = (e) => {
        if (failed) return;
        failed = true;
        stream.destroy();
        reject(e);
      };
      parser.on("error", fail);
      stream.on("data", (chunk) => {
        if (failed) return;
        try {
          parser.write(chunk.toString("utf8"));
        } catch (e) {
          fail(e);
        }
      });
      stream.on("error", fail);
      stream.on("end", () => {
        if (failed) return;
        try {
          parser.close();
          resolve();
        } catch (e) {
          fail(e);
        }
      });
    });
  });
}

/** The first sheet in the workbook's order (as exceljs' `worksheets[0]`) and the shared strings' part. */
async function workbookParts(zip, entries) {
  const sheets = [];
  const workbook = entries.get("xl/workbook.xml");
  if (!workbook) throw new Error("no workbook");
  await saxPart(zip, workbook, (p) =>
    p.on("opentag", (tag) => {
      if (tag.name === "sheet") sheets.push(tag.attributes["r:id"]);
    }),
  );
  const targets = new Map();
  let sharedStrings = "xl/sharedStrings.xml";
  const rels = entries.get("xl/_rels/workbook.xml.rels");
  if (rels)
    await saxPart(zip, rels, (p) =>
      p.on("opentag", (tag) => {
        if (tag.name !== "Relationship") return;
        const target = String(tag.attributes.Target ?? "");
        const path = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
        targets.set(tag.attributes.Id, path);
        if (String(tag.attributes.Type ?? "").endsWith("/sharedStrings")) sharedStrings = path;
      }),
    );
  const first = sheets.length ? targets.get(sheets[0]) : undefined;
  return { sheet: first ?? "xl/worksheets/sheet1.xml", sharedStrings };
}

/** Each shared string (rich text runs joined, phonetic runs left out). */
async function readSharedStrings(zip, entry) {
  const strings = [];
  if (!entry) return strings;
  let text = "";
  let inText = false;
  let phonetic = 0;
  await saxPart(zip, entry, (p) => {
    p.on("opentag", (tag) => {
      if (tag.name === "si") text = "";
      else if (tag.name === "rPh") phonetic++;
      else if (tag.name === "t" && phonetic === 0) inText = true;
    });
    p.on("text", (t) => {
      if (!inText) return;
      text += t;
      checkCell(text);
    });
    p.on("closetag", (tag) => {
      if (tag.name === "t") inText = false;
      else if (tag.name === "rPh") phonetic--;
      else if (tag.name === "si") strings.push(text);
    });
  });
  return strings;
}

/** Built-in number formats that are dates (ECMA-376 18.8.30). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** Style index → whether its number format shows a date, as exceljs decides which numbers are Dates. */
async function readDateStyles(zip, entry) {
  const dates = [];
  if (!entry) return dates;
  const custom = new Map();
  let inCellXfs = false;
  await saxPart(zip, entry, (p) => {
    p.on("opentag", (tag) => {
      if (tag.name === "numFmt")
        custom.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode));
      else if (tag.name === "cellXfs") inCellXfs = true;
      else if (tag.name === "xf" && inCellXfs) {
        const id = Number(tag.attributes.numFmtId ?? 0);
        const code = custom.get(id);
        // A custom format is a date when it has day, month or year tokens outside quotes and brackets.
        const isDate = code
          ? /[dmy]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ""))
          : DATE_FORMAT_IDS.has(id);
        dates.push(isDate);
      }
    });
    p.on("closetag", (tag) => {
      if (tag.name === "cellXfs") inCellXfs = false;
    });
  });
  return dates;
}

/** "BC12" → 55 (1-based column of a cell reference). */
function columnOf(ref) {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n;
}

/** An Excel serial day (1900 system) as exceljs gives it. */
const excelDate = (serial) => new Date(Math.round((serial - 25569) * 24 * 3600 * 1000));

async function readXlsx() {
  const { zip, entries } = await openZip();
  try {
    return await readSheet(zip, entries);
  } finally {
    zip.close();
  }
}

async function readSheet(zip, entries) {
  const parts = await workbookParts(zip, entries);
  const sheetEntry = entries.get(parts.sheet);
  if (!sheetEntry) return { columns: [], rows: [] };
  // What the parts to read declare, before inflating any of them.
  const declared = [sheetEntry, entries.get(parts.sharedStrings), entries.get("xl/styles.xml")];
  if (unpacked + declared.reduce((sum, e) => sum + (e?.uncompressedSize ?? 0), 0) > limits.maxUnpackedBytes)
    throw new Refused("unpackedTooLarge");
  const shared = await readSharedStrings(zip, entries.get(parts.sharedStrings));
  const dateStyles = await readDateStyles(zip, entries.get("xl/styles.xml"));

  const columns = [];
  const rows = [];
  let rowNumber = 0;
  let cells = [];
  let hasValues = false;
  let cell;
  let text;
  let inValue = false;
  const pushRow = () => {
    if (rowNumber === 1) {
      cells.forEach((v, i) => {
        if (v !== null && v !== undefined) columns[i] = String(v).trim();
      });
    } else if (rowNumber > 1 && hasValues) {
      const row = {};
      columns.forEach((name, i) => {
        row[name] = cells[i] ?? null;
      });
      rows.push(row);
      if (rows.length > limits.maxRows) throw new Refused("tooManyRows");
    }
  };
  await saxPart(zip, sheetEntry, (p) => {
    p.on("opentag", (tag) => {
      const a = tag.attributes;
      if (tag.name === "row") {
        rowNumber = a.r ? Number(a.r) : rowNumber + 1;
        // Row 1 is the header: a row past the cap is refused before anything fills the rows between.
        if (!(rowNumber >= 1) || rowNumber - 1 > limits.maxRows) throw new Refused("tooManyRows");
        cells = [];
        hasValues = false;
      } else if (tag.name === "c") {
        const col = a.r ? columnOf(String(a.r)) : cells.length + 1;
        if (col > limits.maxColumns) throw new Refused("tooManyColumns");
        cell = { col, type: a.t ?? "n", style: Number(a.s ?? 0) };
        text = "";
      } else if ((tag.name === "v" || tag.name === "t") && cell) {
        inValue = true;
      }
    });
    p.on("text", (t) => {
      if (!inValue) return;
      text += t;
      checkCell(text);
    });
    p.on("closetag", (tag) => {
      if (tag.name === "v" || tag.name === "t") inValue = false;
      else if (tag.name === "c" && cell) {
        const value = cellValue(cell, text, shared, dateStyles);
        if (value !== null) {
          cells[cell.col - 1] = value;
          hasValues = true;
        }
        cell = undefined;
      } else if (tag.name === "row") pushRow();
    });
  });
  return { columns: columns.filter(Boolean), rows };
}

function cellValue(cell, text, shared, dateStyles) {
  switch (cell.type) {
    case "s": {
      const s = shared[Number(text)];
      return s === undefined ? null : s;
    }
    case "inlineStr":
    case "str":
      return text;
    case "b":
      return text === "1" || text === "true";
    case "e":
      return text || null;
    case "d":
      return text ? new Date(text) : null;
    default: {
      if (text === "") return null;
      const n = Number(text);
      return dateStyles[cell.style] ? excelDate(n) : n;
    }
  }
}

// ---------------------------------------------------------------- csv, xml

function readCsv() {
  const text = wholeFile()
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  // Turkish Excel writes ';' (the decimal separator is ','); others write ','.
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  let records = 0;
  const rows = parseCsv(text, {
    columns: (header) => {
      checkShape(header, 0);
      return header;
    },
    delimiter,
    skip_empty_lines: true,
    trim: true,
    // A field longer than the cell cap, open quotes running to the end of the file included.
    max_record_size: limits.maxCellChars * limits.maxColumns,
    on_record: (record) => {
      if (++records > limits.maxRows) throw new Refused("tooManyRows");
      for (const v of Object.values(record)) checkCell(v);
      return record;
    },
  });
  return { columns: rows[0] ? Object.keys(rows[0]) : [], rows };
}

/** The first list of records in the document (<Urunler><Urun>…</Urun>…</Urunler>). */
function readXml() {
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  }).parse(wholeFile().toString("utf8"));
  const find = (node) => {
    if (Array.isArray(node)) return node.every((x) => x && typeof x === "object") ? node : undefined;
    if (node && typeof node === "object") {
      const values = Object.values(node);
      for (const v of values) {
        const found = find(v);
        if (found) return found;
      }
      // One record only: an object of scalar fields under a list element.
      if (values.length && values.every((v) => v === null || typeof v !== "object")) return [node];
    }
    return undefined;
  };
  const rows = find(doc) ?? [];
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  checkShape(columns, rows.length);
  for (const row of rows) for (const v of Object.values(row)) checkCell(v);
  return { columns, rows };
}

async function read() {
  const ext = fileName.toLowerCase().split(".").pop();
  if (ext === "xlsx") return readXlsx();
  if (ext === "csv" || ext === "txt") return readCsv();
  if (ext === "xml") return readXml();
  throw new Error(`unsupported file type: ${ext}`);
}

/** A parsed cell as stored (dates as ISO text, nothing left undefined): the connector reads it again. */
const storedRow = (row) =>
  JSON.stringify(row, (key, value) => (key !== "" && value === undefined ? null : value));

/** Hands the rows over one batch per "next" from the event loop, then the end. */
function sendRows(rows) {
  let at = 0;
  parentPort.on("message", () => {
    if (at >= rows.length) {
      parentPort.postMessage({ type: "end" });
      parentPort.close();
      return;
    }
    const batch = rows.slice(at, at + rowsPerMessage);
    at += batch.length;
    parentPort.postMessage({ type: "rows", rows: batch, json: batch.map(storedRow).join(",") });
  });
}

try {
  const contentHash = await hashOfFile();
  const { columns, rows } = await read();
  parentPort.postMessage({ type: "head", columns, contentHash });
  sendRows(rows);
} catch (e) {
  // csv-parse wraps what on_record throws; its cause is ours.
  const refused = e instanceof Refused ? e : e?.cause instanceof Refused ? e.cause : undefined;
  const reason = refused
    ? refused.reason
    : /too many bytes|uncompressed size/i.test(String(e?.message))
      ? "unpackedTooLarge"
      : /max_record_size|Max Record Size/i.test(String(e?.message))
        ? "cellTooLong"
        : "unreadable";
  parentPort.postMessage({ type: "refused", reason });
}
