/** Transaction Manager requests ([MS-TDS] 2.2.6.9): begin, commit and roll back, answered by ENVCHANGE. */

import { skipAllHeaders } from "./requests";
import { doneToken, errorReply, lengthToken } from "./tokens";
import type { TdsTransactionEvent } from "./types";
import { ENV_TXN, Reader, TM, TOKEN, Writer } from "./wire";

/** The server-wide log and numbering of transactions; each connection keeps its own open descriptor. */
export class TransactionLog {
  readonly events: TdsTransactionEvent[] = [];
  private count = 0;

  /**
   * Records the request and answers it with the ENVCHANGE tedious tracks descriptors by. `connection.open`
   * is the open transaction's descriptor on that connection (one level: tedious nests none here).
   */
  answer(body: Buffer, connection: { open?: Buffer }, statementsBefore: number): Buffer {
    const r = new Reader(body);
    skipAllHeaders(r);
    const op = r.u16();
    if (op !== TM.BEGIN && op !== TM.COMMIT && op !== TM.ROLLBACK)
      return errorReply({ number: 8009, message: `Transaction Manager request ${op} not supported here` });
    if (op !== TM.BEGIN && !connection.open)
      return errorReply({
        number: 3903,
        message: "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.",
      });
    const descriptor = op === TM.BEGIN ? Buffer.alloc(8) : (connection.open as Buffer);
    if (op === TM.BEGIN) descriptor.writeBigUInt64LE(BigInt(++this.count));
    connection.open = op === TM.BEGIN ? descriptor : undefined;
    this.events.push({
      op: op === TM.BEGIN ? "begin" : op === TM.COMMIT ? "commit" : "rollback",
      transaction: descriptor.toString("hex"),
      statementsBefore,
    });
    const [next, previous] = op === TM.BEGIN ? [descriptor, Buffer.alloc(0)] : [Buffer.alloc(0), descriptor];
    const env = new Writer().u8(ENV_TXN[op]).u8(next.length).push(next).u8(previous.length).push(previous);
    return Buffer.concat([lengthToken(TOKEN.ENVCHANGE, env.buffer()), doneToken(TOKEN.DONE, 0, 0, 0)]);
  }
}
