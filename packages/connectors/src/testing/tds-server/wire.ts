/** [MS-TDS] numbers (packet types, tokens, data types) and the little-endian writer/reader the other parts share. */

// Packet types ([MS-TDS] 2.2.3.1.1).
export const PKT = {
  SQL_BATCH: 0x01,
  RPC: 0x03,
  REPLY: 0x04,
  ATTENTION: 0x06,
  TRANSACTION_MANAGER: 0x0e,
  LOGIN7: 0x10,
  PRELOGIN: 0x12,
};
// Transaction Manager request types ([MS-TDS] 2.2.6.9) and their ENVCHANGE answers (2.2.7.9).
export const TM = { BEGIN: 5, COMMIT: 7, ROLLBACK: 8 } as const;
export const ENV_TXN = { [TM.BEGIN]: 8, [TM.COMMIT]: 9, [TM.ROLLBACK]: 10 } as const;
/** Packet status bit: the last packet of a message. */
export const EOM = 0x01;
// Tokens ([MS-TDS] 2.2.7).
export const TOKEN = {
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
export const DONE_MORE = 0x01;
export const DONE_ERROR = 0x02;
export const DONE_COUNT = 0x10;
export const DONE_ATTN = 0x20;
// Data types ([MS-TDS] 2.2.5.4).
export const TYPE = {
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
export const TDS_74 = 0x74000004;
/** Turkish_CI_AS: LCID 0x041F, flags for case-insensitive/accent-sensitive, sort id 0. */
export const COLLATION = Buffer.from([0x1f, 0x04, 0xd0, 0x00, 0x00]);
export const PACKET_SIZE = 4096;
export const SP_EXECUTESQL = 10;
export const MS_PER_DAY = 86_400_000;
export const EPOCH_1900 = Date.UTC(1900, 0, 1);
export const EPOCH_0001 = Date.parse("0001-01-01T00:00:00Z");

export class Writer {
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

/** Reads a client message body; throws on a malformed one. */
export class Reader {
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
