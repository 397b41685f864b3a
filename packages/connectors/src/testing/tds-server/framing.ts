/** Packet framing ([MS-TDS] 2.2.3): replies cut into packets, client packets joined back into messages. */

import { EOM, PACKET_SIZE, PKT } from "./wire";

/** One reply message as the packets that carry it (at least one, even for an empty payload). */
export function replyPackets(payload: Buffer): Buffer[] {
  const packets: Buffer[] = [];
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
    packets.push(Buffer.concat([header, part]));
    if (last) break;
  }
  return packets;
}

/** Joins a connection's packets into whole client messages; `push` returns the messages a chunk ends. */
export class MessageAssembler {
  private pending: Buffer = Buffer.alloc(0);
  private message: Buffer[] = [];

  /** Throws on a packet whose length is below its own header (the connection is then dropped). */
  push(chunk: Buffer): Array<{ type: number; body: Buffer }> {
    const done: Array<{ type: number; body: Buffer }> = [];
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt16BE(2);
      if (length < 8) throw new Error("TDS packet length below its header");
      if (this.pending.length < length) break;
      const type = this.pending.readUInt8(0);
      const status = this.pending.readUInt8(1);
      this.message.push(this.pending.subarray(8, length));
      this.pending = this.pending.subarray(length);
      if (status & EOM) {
        done.push({ type, body: Buffer.concat(this.message) });
        this.message = [];
      }
    }
    return done;
  }
}
