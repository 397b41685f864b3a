/** PRELOGIN and LOGIN7 ([MS-TDS] 2.2.6.4, 2.2.6.5): reading the login, refusing it, or acknowledging it. */

import { doneToken, envChange, lengthToken } from "./tokens";
import type { TdsServerError, TdsServerOptions } from "./types";
import { COLLATION, PACKET_SIZE, TDS_74, TOKEN, Writer } from "./wire";

export interface Login7 {
  user: string;
  password: string;
  database: string;
}

export function readLogin7(body: Buffer): Login7 {
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

/** SQL Server's error for a login with other credentials (18456) or another database (4060). */
export function loginRefusal(
  login: Login7,
  options: Pick<TdsServerOptions, "user" | "password" | "database">,
): TdsServerError | undefined {
  if (login.user !== options.user || login.password !== options.password)
    return { number: 18456, class: 14, message: `Login failed for user '${login.user}'.` };
  if (options.database && login.database && login.database.toLowerCase() !== options.database.toLowerCase())
    return {
      number: 4060,
      class: 11,
      message: `Cannot open database "${login.database}" requested by the login. The login failed.`,
    };
  return undefined;
}

/** LOGINACK with the database, collation and packet size changes tedious expects around it. */
export function loginAckReply(database: string): Buffer {
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

function tdsVersion(): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(TDS_74);
  return b;
}

/** PRELOGIN answer: version, encryption not supported (so no TLS), no instance, no MARS. */
export function prelogin(): Buffer {
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
