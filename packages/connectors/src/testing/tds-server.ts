/**
 * A canned TDS responder: enough of SQL Server's wire protocol ([MS-TDS]) for the real `mssql`/`tedious`
 * client to connect, log in, send statements and read rows, so the agent's SQL Server path is tested
 * without SQL Server (which cannot run here). Modelled on how tedious's own unit tests stand up a server
 * (tediousjs/tedious test/unit/connection-retry-test.ts @ f9683d56: PRELOGIN, LOGIN7 answered by
 * LOGINACK or ERROR); the token layouts follow [MS-TDS] 2.2.7 as tedious's parsers read them.
 *
 * It verifies the wire/driver path (connection, login, parameter encoding, row decoding, errors,
 * cancel), not SQL semantics: the answers come from the test's `answer` handler. Every statement is
 * read by the T-SQL judge (`sql-judge.ts`); a text the judge refuses is answered with an ERROR and kept
 * in `judgeFailures`. A connector's runtime rules (`rules`) are checked next, and a statement that breaks
 * one is answered with that rule's error number and kept in `ruleRefusals`.
 *
 * Interface (stable; other connectors' tests write `answer` handlers against it):
 *   startTdsServer({ user, password, database?, schema?, rules?, answer })
 *     -> { port, statements, judgeFailures, ruleRefusals, close }
 *   answer(text, params, info) -> { columns: [{ name, type }], rows, rowsAffected? } or throw { number, message }
 *   params: `@name` values without the `@`: number (int, decimal, float), bigint (bigint), string
 *   (nvarchar/varchar), Date (datetime, datetime2, date), boolean (bit), null.
 */

import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { RuleGate, type RuleViolation } from "./runtime-rules";
import { judgeTsql, type SqlJudgeVerdict, type SqlSchemaFixture, type TsqlRule } from "./sql-judge";

export type TdsColumnType = "int" | "bigint" | "decimal" | "nvarchar" | "datetime" | "bit";
export interface TdsColumn {
  name: string;
  type: TdsColumnType;
  /** Digits after the point of a decimal column (default 4). */
  scale?: number;
}
export type TdsValue = string | number | bigint | boolean | Date | null;
export interface TdsAnswer {
  columns: TdsColumn[];
  /** Values in column order, or objects keyed by column name. */
  rows: Array<unknown[] | Record<string, unknown>>;
  /** For statements without rows (INSERT/UPDATE/EXEC); default: the number of rows. */
  rowsAffected?: number;
}
/** Throw this shape (or an Error with `number`) from `answer` to send SQL Server's ERROR token. */
export interface TdsServerError {
  number: number;
  message: string;
  /** Severity (default 16: a statement error). */
  class?: number;
}
export interface TdsStatementInfo {
  kind: "batch" | "rpc";
  /** Declared parameter types from sp_executesql's definition string (`@a int, @b nvarchar(4000)`). */
  declared: Record<string, string>;
  /** Wire type of each parameter as decoded (`intn`, `nvarchar`, `decimaln`, ...). */
  wireTypes: Record<string, string>;
}
export type TdsAnswerHandler = (
  text: string,
  params: Record<string, TdsValue>,
  info: TdsStatementInfo,
) => Promise<TdsAnswer> | TdsAnswer;

export interface TdsStatement extends TdsStatementInfo {
  text: string;
  params: Record<string, TdsValue>;
  verdict: SqlJudgeVerdict;
  /** The client cancelled it (ATTENTION) before or while it was answered. */
  cancelled?: boolean;
  /** The transaction it ran in (hex descriptor from its ALL_HEADERS), absent outside one. */
  transaction?: string;
  /** The runtime rule it broke (answered with that rule's error instead of rows). */
  refusedBy?: RuleViolation;
}

/** A Transaction Manager request ([MS-TDS] 2.2.6.9): begin, commit or roll back, with its descriptor. */
export interface TdsTransactionEvent {
  op: "begin" | "commit" | "rollback";
  transaction: string;
  /** Index of the next statement at the time (statements before it ran earlier). */
  statementsBefore: number;
}

export interface TdsServerOptions {
  user: string;
  password: string;
  /** When set, a login naming another database is refused (error 4060). */
  database?: string;
  /** Vendor schema fixture for the judge's table/column check. */
  schema?: SqlSchemaFixture;
  answer: TdsAnswerHandler;
  /** A connector's runtime rules: a statement that breaks one is answered with the rule's error. */
  rules?: readonly TsqlRule<TdsStatement>[];
  port?: number;
  host?: string;
}

export interface TdsServer {
  port: number;
  host: string;
  /** Every statement received (the driver's own SET batch at login excluded), in order. */
  statements: TdsStatement[];
  /** Statements the judge refused (also answered with an ERROR). */
  judgeFailures: TdsStatement[];
  /** Statements a runtime rule refused (`options.rules`), answered with the rule's error. */
  ruleRefusals: TdsStatement[];
  /** Transactions begun, committed and rolled back through Transaction Manager requests, in order. */
  transactions: TdsTransactionEvent[];
  /** Logins accepted / refused, connections opened so far. */
  stats: { logins: number; refusedLogins: number; connections: number; attentions: number };
  /** Drops every open connection (the server keeps listening): "connection lost" for clients. */
  dropConnections(): void;
  close(): Promise<void>;
}

interface Job {
  cancelled: boolean;
  statement?: TdsStatement;
  onCancel?: () => void;
}

// Packet types ([MS-TDS] 2.2.3.1.1).
const PKT = {
  SQL_BATCH: 0x01,
  RPC: 0x03,
  REPLY: 0x04,
  ATTENTION: 0x06,
  TRANSACTION_MANAGER: 0x0e,
  LOGIN7: 0x10,
  PRELOGIN: 0x12,
};
// Transaction Manager request types ([MS-TDS] 2.2.6.9) and their ENVCHANGE answers (2.2.7.9).
const TM = { BEGIN: 5, COMMIT: 7, ROLLBACK: 8 } as const;
const ENV_TXN = { [TM.BEGIN]: 8, [TM.COMMIT]: 9, [TM.ROLLBACK]: 10 } as const;
const EOM = 0x01;
// Tokens ([MS-TDS] 2.2.7).
const TOKEN = {
  COLMETADATA: 0x81,
  ERROR: 0xaa,
  LOGINACK: 0xad,
  ROW: 0xd1,
  ENVCHANGE: 0xe3,
  RETURNSTATUS: 0x79,
  DONE: 0xfd,
  DONEPROC: 0xfe,
  DONEINPROC: 0xff,
};
const DONE_MORE = 0x01;
const DONE_ERROR = 0x02;
const DONE_COUNT = 0x10;
const DONE_ATTN = 0x20;
// Data types ([MS-TDS] 2.2.5.4).
const TYPE = {
  INTN: 0x26,
  BITN: 0x68,
  DECIMALN: 0x6a,
  NUMERICN: 0x6c,
  FLTN: 0x6d,
  MONEYN: 0x6e,
  DATETIMN: 0x6f,
  DATEN: 0x28,
  DATETIME2N: 0x2a,
  BIGVARCHR: 0xa7,
  BIGCHAR: 0xaf,
  NVARCHAR: 0xe7,
  NCHAR: 0xef,
};
/** TDS 7.4, the version tedious 19 asks for. */
const TDS_74 = 0x74000004;
/** Turkish_CI_AS: LCID 0x041F, flags for case-insensitive/accent-sensitive, sort id 0. */
const COLLATION = Buffer.from([0x1f, 0x04, 0xd0, 0x00, 0x00]);
const PACKET_SIZE = 4096;
const SP_EXECUTESQL = 10;
const MS_PER_DAY = 86_400_000;
const EPOCH_1900 = Date.UTC(1900, 0, 1);
const EPOCH_0001 = Date.parse("0001-01-01T00:00:00Z");

/** The driver's session options sent right after login (`set ansi_nulls on` … one per line). */
function isSessionOptions(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  return lines.length > 0 && lines.every((l) => /^\s*set\s+[a-z_]+(?:\s+[a-z0-9_-]+)*\s*;?\s*$/i.test(l));
}

class Writer {
  private chunks: Buffer[] = [];
  u8(v: number) {
    const b = Buffer.alloc(1);
    b.writeUInt8(v);
    return this.push(b);
  }
  u16(v: number) {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(v);
    return this.push(b);
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    return this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    return this.push(b);
  }
  u64(v: bigint | number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    return this.push(b);
  }
  /** B_VARCHAR: length in characters (u8), UCS-2. */
  bVarchar(s: string) {
    this.u8(s.length);
    return this.push(Buffer.from(s, "ucs2"));
  }
  /** US_VARCHAR: length in characters (u16), UCS-2. */
  usVarchar(s: string) {
    this.u16(s.length);
    return this.push(Buffer.from(s, "ucs2"));
  }
  push(b: Buffer) {
    this.chunks.push(b);
    return this;
  }
  buffer() {
    return Buffer.concat(this.chunks);
  }
}

/** A token with a u16 length prefix after its type byte. */
function lengthToken(type: number, body: Buffer): Buffer {
  return new Writer().u8(type).u16(body.length).push(body).buffer();
}

function envChange(type: number, next: string, previous: string): Buffer {
  return lengthToken(TOKEN.ENVCHANGE, new Writer().u8(type).bVarchar(next).bVarchar(previous).buffer());
}

function doneToken(token: number, status: number, curCmd: number, rowCount: number): Buffer {
  return new Writer().u8(token).u16(status).u16(curCmd).u64(rowCount).buffer();
}

function errorToken(e: TdsServerError, serverName = "TDS-CANNED"): Buffer {
  const body = new Writer()
    .i32(e.number)
    .u8(1)
    .u8(e.class ?? 16)
    .usVarchar(e.message)
    .bVarchar(serverName)
    .bVarchar("")
    .i32(1)
    .buffer();
  return lengthToken(TOKEN.ERROR, body);
}

function colMetadata(columns: TdsColumn[]): Buffer {
  const w = new Writer().u8(TOKEN.COLMETADATA).u16(columns.length);
  for (const c of columns) {
    w.u32(0).u16(0x0001 /* nullable */);
    switch (c.type) {
      case "int":
        w.u8(TYPE.INTN).u8(4);
        break;
      case "bigint":
        w.u8(TYPE.INTN).u8(8);
        break;
      case "bit":
        w.u8(TYPE.BITN).u8(1);
        break;
      case "datetime":
        w.u8(TYPE.DATETIMN).u8(8);
        break;
      case "decimal":
        w.u8(TYPE.DECIMALN)
          .u8(17)
          .u8(38)
          .u8(c.scale ?? 4);
        break;
      case "nvarchar":
        w.u8(TYPE.NVARCHAR).u16(8000).push(COLLATION);
        break;
    }
    w.bVarchar(c.name);
  }
  return w.buffer();
}

function rowToken(columns: TdsColumn[], row: unknown[] | Record<string, unknown>): Buffer {
  const w = new Writer().u8(TOKEN.ROW);
  columns.forEach((c, i) => {
    const value = Array.isArray(row) ? row[i] : row[c.name];
    writeValue(w, c, value);
  });
  return w.buffer();
}

function writeValue(w: Writer, c: TdsColumn, value: unknown): void {
  const isNull = value === null || value === undefined;
  switch (c.type) {
    case "int": {
      if (isNull) w.u8(0);
      else w.u8(4).i32(Number(value));
      return;
    }
    case "bigint": {
      if (isNull) w.u8(0);
      else {
        const b = Buffer.alloc(8);
        b.writeBigInt64LE(BigInt(value as number | bigint | string));
        w.u8(8).push(b);
      }
      return;
    }
    case "bit":
      if (isNull) w.u8(0);
      else w.u8(1).u8(value ? 1 : 0);
      return;
    case "datetime": {
      if (isNull) {
        w.u8(0);
        return;
      }
      const ms = (value instanceof Date ? value : new Date(String(value))).getTime() - EPOCH_1900;
      const days = Math.floor(ms / MS_PER_DAY);
      const ticks = Math.round(((ms - days * MS_PER_DAY) * 300) / 1000);
      w.u8(8).i32(days).u32(ticks);
      return;
    }
    case "decimal": {
      if (isNull) {
        w.u8(0);
        return;
      }
      const scale = c.scale ?? 4;
      const scaled = scaledInteger(String(value), scale);
      const magnitude = scaled < 0n ? -scaled : scaled;
      const b = Buffer.alloc(16);
      b.writeBigUInt64LE(magnitude & 0xffffffffffffffffn, 0);
      b.writeBigUInt64LE(magnitude >> 64n, 8);
      w.u8(17)
        .u8(scaled < 0n ? 0 : 1)
        .push(b);
      return;
    }
    case "nvarchar": {
      if (isNull) {
        w.u16(0xffff);
        return;
      }
      const b = Buffer.from(String(value), "ucs2");
      if (b.length > 8000) throw new Error(`nvarchar value of ${c.name} longer than 4000 characters`);
      w.u16(b.length).push(b);
      return;
    }
  }
}

/** "12.345" at scale 4 -> 123450n, exactly (no float rounding). */
function scaledInteger(text: string, scale: number): bigint {
  const m = /^(-)?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  if (m[4]) return BigInt(Math.round(Number(text) * 10 ** scale));
  const whole = m[2] || "0";
  const frac = (m[3] ?? "").padEnd(scale + 1, "0");
  let n = BigInt(whole + frac.slice(0, scale));
  if (Number(frac[scale]) >= 5) n += 1n;
  return m[1] ? -n : n;
}

/** Reads a client message body; throws on a malformed one. */
class Reader {
  constructor(
    private readonly b: Buffer,
    public offset = 0,
  ) {}
  u8() {
    const v = this.b.readUInt8(this.offset);
    this.offset += 1;
    return v;
  }
  u16() {
    const v = this.b.readUInt16LE(this.offset);
    this.offset += 2;
    return v;
  }
  u32() {
    const v = this.b.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }
  bytes(n: number) {
    if (this.offset + n > this.b.length) throw new Error("TDS message shorter than its lengths");
    const v = this.b.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }
  bVarchar() {
    return this.bytes(this.u8() * 2).toString("ucs2");
  }
  usVarchar() {
    return this.bytes(this.u16() * 2).toString("ucs2");
  }
  get done() {
    return this.offset >= this.b.length;
  }
}

/**
 * ALL_HEADERS (TDS 7.2+, [MS-TDS] 2.2.5.3): a u32 total length that counts itself; the transaction
 * descriptor header (type 2) read when it is not zero.
 */
function skipAllHeaders(r: Reader): string | undefined {
  const total = r.u32();
  if (total < 4) throw new Error("ALL_HEADERS length below 4");
  const headers = new Reader(r.bytes(total - 4));
  let transaction: string | undefined;
  while (!headers.done) {
    const length = headers.u32();
    const type = headers.u16();
    const data = headers.bytes(length - 6);
    if (type === 2 && data.subarray(0, 8).some((b) => b !== 0))
      transaction = data.subarray(0, 8).toString("hex");
  }
  return transaction;
}

function readLogin7(body: Buffer): { user: string; password: string; database: string } {
  const field = (at: number) => {
    const offset = body.readUInt16LE(at);
    const chars = body.readUInt16LE(at + 2);
    return body.subarray(offset, offset + chars * 2);
  };
  const user = field(40).toString("ucs2");
  // The password is scrambled: each byte had its nibbles swapped, then XOR 0xA5 ([MS-TDS] 2.2.6.4).
  const scrambled = Buffer.from(field(44));
  for (let i = 0; i < scrambled.length; i++) {
    const x = (scrambled[i] as number) ^ 0xa5;
    scrambled[i] = ((x & 0x0f) << 4) | (x >> 4);
  }
  return { user, password: scrambled.toString("ucs2"), database: field(68).toString("ucs2") };
}

/** One RPC parameter: its TYPE_INFO and value ([MS-TDS] 2.2.6.6, 2.2.5.5). */
function readParam(r: Reader): { name: string; wire: string; value: TdsValue } {
  const name = r.bVarchar().replace(/^@/, "");
  r.u8(); // status flags (output parameter)
  const type = r.u8();
  switch (type) {
    case TYPE.INTN: {
      r.u8();
      const len = r.u8();
      if (len === 0) return { name, wire: "intn", value: null };
      const b = r.bytes(len);
      const value =
        len === 8 ? b.readBigInt64LE(0) : len === 4 ? b.readInt32LE(0) : len === 2 ? b.readInt16LE(0) : b[0];
      return { name, wire: len === 8 ? "bigint" : "int", value: value as number | bigint };
    }
    case TYPE.BITN: {
      r.u8();
      const len = r.u8();
      return { name, wire: "bit", value: len === 0 ? null : r.u8() !== 0 };
    }
    case TYPE.FLTN: {
      r.u8();
      const len = r.u8();
      if (len === 0) return { name, wire: "float", value: null };
      const b = r.bytes(len);
      return { name, wire: "float", value: len === 8 ? b.readDoubleLE(0) : b.readFloatLE(0) };
    }
    case TYPE.DECIMALN:
    case TYPE.NUMERICN: {
      r.u8();
      r.u8(); // precision
      const scale = r.u8();
      const len = r.u8();
      if (len === 0) return { name, wire: "decimal", value: null };
      const sign = r.u8();
      const mag = r.bytes(len - 1);
      let n = 0n;
      for (let i = mag.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(mag[i] as number);
      const text = n.toString().padStart(scale + 1, "0");
      const decimal = scale ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text;
      return { name, wire: "decimal", value: Number(sign === 1 ? decimal : `-${decimal}`) };
    }
    case TYPE.DATETIMN: {
      r.u8();
      const len = r.u8();
      if (len === 0) return { name, wire: "datetime", value: null };
      if (len === 4) {
        const days = r.u16();
        const minutes = r.u16();
        return {
          name,
          wire: "smalldatetime",
          value: new Date(EPOCH_1900 + days * MS_PER_DAY + minutes * 60_000),
        };
      }
      const b = r.bytes(8);
      const ms = b.readInt32LE(0) * MS_PER_DAY + Math.round((b.readUInt32LE(4) * 1000) / 300);
      return { name, wire: "datetime", value: new Date(EPOCH_1900 + ms) };
    }
    case TYPE.DATEN: {
      const len = r.u8();
      if (len === 0) return { name, wire: "date", value: null };
      return { name, wire: "date", value: new Date(EPOCH_0001 + r.bytes(3).readUIntLE(0, 3) * MS_PER_DAY) };
    }
    case TYPE.DATETIME2N: {
      const scale = r.u8();
      const len = r.u8();
      if (len === 0) return { name, wire: "datetime2", value: null };
      const timeLen = len - 3;
      const time = r.bytes(timeLen).readUIntLE(0, timeLen);
      const days = r.bytes(3).readUIntLE(0, 3);
      const ms = (time / 10 ** scale) * 1000;
      return { name, wire: "datetime2", value: new Date(EPOCH_0001 + days * MS_PER_DAY + Math.round(ms)) };
    }
    case TYPE.NVARCHAR:
    case TYPE.NCHAR:
    case TYPE.BIGVARCHR:
    case TYPE.BIGCHAR: {
      const max = r.u16();
      r.bytes(5); // collation
      const wide = type === TYPE.NVARCHAR || type === TYPE.NCHAR;
      const wire = wide ? "nvarchar" : "varchar";
      const decode = (b: Buffer) => (wide ? b.toString("ucs2") : b.toString("latin1"));
      if (max !== 0xffff) {
        const len = r.u16();
        return { name, wire, value: len === 0xffff ? null : decode(r.bytes(len)) };
      }
      // PLP ([MS-TDS] 2.2.5.2.3): u64 total (all ones = NULL), then u32-length chunks up to a 0 chunk.
      const total = r.bytes(8);
      if (total.every((x) => x === 0xff)) return { name, wire, value: null };
      const parts: Buffer[] = [];
      for (let len = r.u32(); len !== 0; len = r.u32()) parts.push(r.bytes(len));
      return { name, wire, value: decode(Buffer.concat(parts)) };
    }
    default:
      throw Object.assign(
        new Error(`parameter @${name}: TDS type 0x${type.toString(16)} not supported here`),
        {
          tds: { number: 8016, message: `unsupported parameter type 0x${type.toString(16)} for @${name}` },
        },
      );
  }
}

/** `@a int, @b nvarchar(4000)` -> { a: "int", b: "nvarchar(4000)" }. */
function readDeclarations(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/@([A-Za-z_]\w*)\s+([A-Za-z0-9_]+(?:\s*\([^)]*\))?)/g))
    out[m[1] as string] = (m[2] as string).toLowerCase();
  return out;
}

function isTdsError(e: unknown): e is TdsServerError {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as { number?: unknown }).number === "number" &&
    typeof (e as { message?: unknown }).message === "string"
  );
}

export async function startTdsServer(options: TdsServerOptions): Promise<TdsServer> {
  const statements: TdsStatement[] = [];
  const judgeFailures: TdsStatement[] = [];
  const ruleRefusals: TdsStatement[] = [];
  // The rule's own error (number, severity, text): what SQL Server answers, or 50000 for our rules.
  const rules = new RuleGate<TdsStatement, TdsServerError>(options.rules ?? [], (v, statement) => {
    statement.refusedBy = v;
    const rule = options.rules?.find((r) => r.id === v.rule);
    return { number: rule?.number ?? 50000, class: rule?.class ?? 16, message: v.problems.join("; ") };
  });
  const stats = { logins: 0, refusedLogins: 0, connections: 0, attentions: 0 };
  const transactions: TdsTransactionEvent[] = [];
  let transactionCount = 0;
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    stats.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let pending: Buffer = Buffer.alloc(0);
    let message: Buffer[] = [];
    let loggedIn = false;
    /** The open transaction's descriptor on this connection (one level: tedious nests none here). */
    let openTransaction: Buffer | undefined;

    /** Begin / commit / roll back: recorded, answered with the ENVCHANGE tedious tracks descriptors by. */
    const transactionManager = (body: Buffer): Buffer => {
      const r = new Reader(body);
      skipAllHeaders(r);
      const op = r.u16();
      if (op !== TM.BEGIN && op !== TM.COMMIT && op !== TM.ROLLBACK)
        return Buffer.concat([
          errorToken({ number: 8009, message: `Transaction Manager request ${op} not supported here` }),
          doneToken(TOKEN.DONE, DONE_ERROR, 0, 0),
        ]);
      if (op !== TM.BEGIN && !openTransaction)
        return Buffer.concat([
          errorToken({
            number: 3903,
            message: "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.",
          }),
          doneToken(TOKEN.DONE, DONE_ERROR, 0, 0),
        ]);
      const descriptor = op === TM.BEGIN ? Buffer.alloc(8) : (openTransaction as Buffer);
      if (op === TM.BEGIN) descriptor.writeBigUInt64LE(BigInt(++transactionCount));
      openTransaction = op === TM.BEGIN ? descriptor : undefined;
      transactions.push({
        op: op === TM.BEGIN ? "begin" : op === TM.COMMIT ? "commit" : "rollback",
        transaction: descriptor.toString("hex"),
        statementsBefore: statements.length,
      });
      const [next, previous] =
        op === TM.BEGIN ? [descriptor, Buffer.alloc(0)] : [Buffer.alloc(0), descriptor];
      const env = new Writer().u8(ENV_TXN[op]).u8(next.length).push(next).u8(previous.length).push(previous);
      return Buffer.concat([lengthToken(TOKEN.ENVCHANGE, env.buffer()), doneToken(TOKEN.DONE, 0, 0, 0)]);
    };
    // One statement at a time per connection (TDS without MARS); ATTENTION cancels the current one.
    let queue: Promise<void> = Promise.resolve();
    let current: Job | undefined;

    const send = (payload: Buffer) => {
      if (socket.destroyed) return;
      const max = PACKET_SIZE - 8;
      for (let at = 0, id = 1; at < payload.length || at === 0; at += max, id++) {
        const part = payload.subarray(at, at + max);
        const last = at + max >= payload.length;
        const header = Buffer.alloc(8);
        header.writeUInt8(PKT.REPLY, 0);
        header.writeUInt8(last ? EOM : 0, 1);
        header.writeUInt16BE(part.length + 8, 2);
        header.writeUInt16BE(52, 4); // SPID
        header.writeUInt8(id % 256, 6);
        socket.write(Buffer.concat([header, part]));
        if (last) break;
      }
    };

    const onMessage = (type: number, body: Buffer) => {
      if (type === PKT.ATTENTION) {
        stats.attentions++;
        // Answers are written whole. An answer not yet written is dropped: its response message is
        // ended with a bare DONE (the client reads one message per request before it looks for the
        // acknowledgement, as tedious's SentClientRequest/SentAttention states do), then the
        // acknowledgement follows in a message of its own ([MS-TDS] 2.2.1.7, 3.2.5.7).
        if (current && !current.cancelled) {
          current.cancelled = true;
          if (current.statement) current.statement.cancelled = true;
          current.onCancel?.();
          send(doneToken(TOKEN.DONE, 0, 0, 0));
        }
        send(doneToken(TOKEN.DONE, DONE_ATTN, 0, 0));
        return;
      }
      const job: Job = { cancelled: false };
      queue = queue
        .then(async () => {
          current = job;
          const reply = await handle(type, body, job);
          if (current === job) current = undefined;
          if (!job.cancelled && reply) send(reply);
        })
        .catch(() => {
          socket.destroy();
        });
    };

    const handle = async (type: number, body: Buffer, job: Job): Promise<Buffer | undefined> => {
      if (type === PKT.PRELOGIN) return prelogin();
      if (type === PKT.LOGIN7) {
        const login = readLogin7(body);
        const refused =
          login.user !== options.user || login.password !== options.password
            ? { number: 18456, class: 14, message: `Login failed for user '${login.user}'.` }
            : options.database &&
                login.database &&
                login.database.toLowerCase() !== options.database.toLowerCase()
              ? {
                  number: 4060,
                  class: 11,
                  message: `Cannot open database "${login.database}" requested by the login. The login failed.`,
                }
              : undefined;
        if (refused) {
          stats.refusedLogins++;
          send(Buffer.concat([errorToken(refused), doneToken(TOKEN.DONE, DONE_ERROR, 0, 0)]));
          socket.end();
          return undefined;
        }
        stats.logins++;
        loggedIn = true;
        const database = login.database || options.database || "master";
        const ack = new Writer()
          .u8(1) // interface: SQL_TSQL
          .push(tdsVersion())
          .bVarchar("Microsoft SQL Server")
          .push(Buffer.from([16, 0, 0x0f, 0xa0])) // 16.0.4000
          .buffer();
        return Buffer.concat([
          envChange(1, database, "master"),
          lengthToken(TOKEN.ENVCHANGE, new Writer().u8(7).u8(5).push(COLLATION).u8(0).buffer()),
          lengthToken(TOKEN.LOGINACK, ack),
          envChange(4, String(PACKET_SIZE), String(PACKET_SIZE)),
          doneToken(TOKEN.DONE, 0, 0, 0),
        ]);
      }
      if (!loggedIn) {
        socket.destroy();
        return undefined;
      }
      if (type === PKT.TRANSACTION_MANAGER) return transactionManager(body);
      if (type !== PKT.SQL_BATCH && type !== PKT.RPC) {
        return Buffer.concat([
          errorToken({ number: 8009, message: `TDS message type 0x${type.toString(16)} not supported here` }),
          doneToken(TOKEN.DONE, DONE_ERROR, 0, 0),
        ]);
      }
      const rpc = type === PKT.RPC;
      let text: string;
      let params: Record<string, TdsValue> = {};
      let declared: Record<string, string> = {};
      const wireTypes: Record<string, string> = {};
      let transaction: string | undefined;
      try {
        const r = new Reader(body);
        transaction = skipAllHeaders(r);
        if (!rpc) {
          text = body.subarray(r.offset).toString("ucs2");
          if (isSessionOptions(text)) return doneToken(TOKEN.DONE, 0, 0, 0);
        } else {
          const marker = r.u16();
          const procedure = marker === 0xffff ? r.u16() : r.bytes(marker * 2).toString("ucs2");
          r.u16(); // option flags
          if (procedure !== SP_EXECUTESQL && String(procedure).toLowerCase() !== "sp_executesql")
            throw {
              number: 2812,
              message: `Could not find stored procedure '${procedure}' (only sp_executesql here).`,
            };
          const values: Array<{ name: string; wire: string; value: TdsValue }> = [];
          while (!r.done) values.push(readParam(r));
          text = String(values[0]?.value ?? "");
          declared = readDeclarations(String(values[1]?.value ?? ""));
          params = {};
          for (const v of values.slice(2)) {
            params[v.name] = v.value;
            wireTypes[v.name] = v.wire;
          }
        }
      } catch (e) {
        const tds = (e as { tds?: TdsServerError }).tds ?? (isTdsError(e) ? e : undefined);
        if (!tds) throw e;
        return Buffer.concat([
          errorToken(tds),
          doneToken(rpc ? TOKEN.DONEPROC : TOKEN.DONE, DONE_ERROR, 0, 0),
        ]);
      }
      const verdict = judgeTsql(text, options.schema);
      const statement: TdsStatement = {
        kind: rpc ? "rpc" : "batch",
        text,
        params,
        declared,
        wireTypes,
        verdict,
        ...(transaction ? { transaction } : {}),
      };
      job.statement = statement;
      statements.push(statement);
      const final = rpc ? TOKEN.DONEPROC : TOKEN.DONE;
      if (!verdict.ok) {
        judgeFailures.push(statement);
        return Buffer.concat([
          errorToken({
            number: verdict.number ?? 102,
            message: `Judge refused the statement: ${verdict.errors.join("; ")}`,
          }),
          doneToken(final, DONE_ERROR, 0, 0),
        ]);
      }
      const refused = rules.check(statement);
      if (refused) {
        ruleRefusals.push(statement);
        return Buffer.concat([errorToken(refused), doneToken(final, DONE_ERROR, 0, 0)]);
      }
      let answer: TdsAnswer;
      try {
        // A cancelled statement stops waiting for its answer (the next one on this connection may run).
        const cancelled = new Promise<undefined>((resolve) => {
          job.onCancel = () => resolve(undefined);
        });
        const answered = await Promise.race([
          Promise.resolve(options.answer(text, params, { kind: statement.kind, declared, wireTypes })),
          cancelled,
        ]);
        if (!answered) return undefined;
        answer = answered;
      } catch (e) {
        const tds = isTdsError(e)
          ? e
          : { number: 50000, message: e instanceof Error ? e.message : String(e) };
        return Buffer.concat([errorToken(tds), doneToken(final, DONE_ERROR, 0, 0)]);
      }
      if (job.cancelled) return undefined;
      const parts: Buffer[] = [];
      if (answer.columns.length > 0) {
        parts.push(colMetadata(answer.columns));
        for (const row of answer.rows) parts.push(rowToken(answer.columns, row));
      }
      const count = answer.rowsAffected ?? answer.rows.length;
      const curCmd = answer.columns.length > 0 ? 0xc1 /* SELECT */ : 0xc3; /* INSERT */
      if (rpc) {
        parts.push(doneToken(TOKEN.DONEINPROC, DONE_COUNT | DONE_MORE, curCmd, count));
        parts.push(new Writer().u8(TOKEN.RETURNSTATUS).i32(0).buffer());
        parts.push(doneToken(TOKEN.DONEPROC, 0, 0xe0, 0));
      } else {
        parts.push(doneToken(TOKEN.DONE, DONE_COUNT, curCmd, count));
      }
      return Buffer.concat(parts);
    };

    socket.on("data", (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 8) {
        const length = pending.readUInt16BE(2);
        if (length < 8) {
          socket.destroy();
          return;
        }
        if (pending.length < length) break;
        const type = pending.readUInt8(0);
        const status = pending.readUInt8(1);
        message.push(pending.subarray(8, length));
        pending = pending.subarray(length);
        if (status & EOM) {
          const body = Buffer.concat(message);
          message = [];
          onMessage(type, body);
        }
      }
    });
  });

  server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    host: address.address,
    statements,
    judgeFailures,
    ruleRefusals,
    transactions,
    stats,
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function tdsVersion(): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(TDS_74);
  return b;
}

/** PRELOGIN answer: version, encryption not supported (so no TLS), no instance, no MARS. */
function prelogin(): Buffer {
  const options: Array<[number, Buffer]> = [
    [0x00, Buffer.from([16, 0, 0x0f, 0xa0, 0, 0])], // VERSION 16.0.4000.0
    [0x01, Buffer.from([0x02])], // ENCRYPTION: NOT_SUP
    [0x02, Buffer.from([0x00])], // INSTOPT
    [0x03, Buffer.alloc(0)], // THREADID
    [0x04, Buffer.from([0x00])], // MARS off
  ];
  const header = Buffer.alloc(options.length * 5 + 1);
  const data: Buffer[] = [];
  let offset = header.length;
  options.forEach(([token, value], i) => {
    header.writeUInt8(token, i * 5);
    header.writeUInt16BE(offset, i * 5 + 1);
    header.writeUInt16BE(value.length, i * 5 + 3);
    data.push(value);
    offset += value.length;
  });
  header.writeUInt8(0xff, options.length * 5);
  return Buffer.concat([header, ...data]);
}
