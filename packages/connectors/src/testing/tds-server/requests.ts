/**
 * SQL batches and RPC calls ([MS-TDS] 2.2.6.6, 2.2.6.7): the statement text, its sp_executesql parameters
 * and declarations, and the transaction it runs in, read from a client message.
 */

import type { TdsServerError, TdsValue } from "./types";
import { EPOCH_0001, EPOCH_1900, MS_PER_DAY, Reader, SP_EXECUTESQL, TYPE } from "./wire";

/** A statement as the client sent it; `sessionOptions` marks the driver's own SET batch after login. */
export interface TdsRequest {
  text: string;
  params: Record<string, TdsValue>;
  declared: Record<string, string>;
  wireTypes: Record<string, string>;
  transaction?: string;
  sessionOptions?: boolean;
}

/**
 * Reads a SQL_BATCH (`rpc` false) or an sp_executesql RPC. Throws a TdsServerError (or an Error with a
 * `tds` one) for a request SQL Server would refuse, e.g. another stored procedure.
 */
export function readRequest(body: Buffer, rpc: boolean): TdsRequest {
  const r = new Reader(body);
  const transaction = skipAllHeaders(r);
  const at = transaction ? { transaction } : {};
  if (!rpc) {
    const text = body.subarray(r.offset).toString("ucs2");
    return { text, params: {}, declared: {}, wireTypes: {}, ...at, sessionOptions: isSessionOptions(text) };
  }
  const marker = r.u16();
  const procedure = marker === 0xffff ? r.u16() : r.bytes(marker * 2).toString("ucs2");
  r.u16(); // option flags
  if (procedure !== SP_EXECUTESQL && String(procedure).toLowerCase() !== "sp_executesql")
    throw {
      number: 2812,
      message: `Could not find stored procedure '${procedure}' (only sp_executesql here).`,
    } satisfies TdsServerError;
  const values: Array<{ name: string; wire: string; value: TdsValue }> = [];
  while (!r.done) values.push(readParam(r));
  const params: Record<string, TdsValue> = {};
  const wireTypes: Record<string, string> = {};
  for (const v of values.slice(2)) {
    params[v.name] = v.value;
    wireTypes[v.name] = v.wire;
  }
  return {
    text: String(values[0]?.value ?? ""),
    params,
    declared: readDeclarations(String(values[1]?.value ?? "")),
    wireTypes,
    ...at,
  };
}

/** The driver's session options sent right after login (`set ansi_nulls on` … one per line). */
function isSessionOptions(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  return lines.length > 0 && lines.every((l) => /^\s*set\s+[a-z_]+(?:\s+[a-z0-9_-]+)*\s*;?\s*$/i.test(l));
}

/**
 * ALL_HEADERS (TDS 7.2+, [MS-TDS] 2.2.5.3): a u32 total length that counts itself; the transaction
 * descriptor header (type 2) read when it is not zero.
 */
export function skipAllHeaders(r: Reader): string | undefined {
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

export function isTdsError(e: unknown): e is TdsServerError {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as { number?: unknown }).number === "number" &&
    typeof (e as { message?: unknown }).message === "string"
  );
}
