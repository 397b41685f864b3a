/** Token writers ([MS-TDS] 2.2.7): the pieces of every reply, from ERROR and DONE to column metadata and rows. */

import type { TdsAnswer, TdsColumn, TdsServerError } from "./types";
import {
  COLLATION,
  DONE_COUNT,
  DONE_ERROR,
  DONE_MORE,
  EPOCH_1900,
  MS_PER_DAY,
  TOKEN,
  TYPE,
  Writer,
} from "./wire";

/** A token with a u16 length prefix after its type byte. */
export function lengthToken(type: number, body: Buffer): Buffer {
  return new Writer().u8(type).u16(body.length).push(body).buffer();
}

export function envChange(type: number, next: string, previous: string): Buffer {
  return lengthToken(TOKEN.ENVCHANGE, new Writer().u8(type).bVarchar(next).bVarchar(previous).buffer());
}

export function doneToken(token: number, status: number, curCmd: number, rowCount: number): Buffer {
  return new Writer().u8(token).u16(status).u16(curCmd).u64(rowCount).buffer();
}

export function errorToken(e: TdsServerError, serverName = "TDS-CANNED"): Buffer {
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

/** An ERROR token and the DONE (or DONEPROC) that ends the reply with the error bit set. */
export function errorReply(e: TdsServerError, final: number = TOKEN.DONE): Buffer {
  return Buffer.concat([errorToken(e), doneToken(final, DONE_ERROR, 0, 0)]);
}

/** The rows of an answer and the DONE tokens a batch (or an sp_executesql call) ends with. */
export function answerTokens(answer: TdsAnswer, rpc: boolean): Buffer {
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
