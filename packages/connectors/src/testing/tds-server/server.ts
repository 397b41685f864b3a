/** The responder itself: connections, one statement at a time per connection, ATTENTION, judge and rules. */

import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { RuleGate } from "../runtime-rules";
import { judgeTsql } from "../sql-judge";
import { MessageAssembler, replyPackets } from "./framing";
import { loginAckReply, loginRefusal, prelogin, readLogin7 } from "./login";
import { isTdsError, readRequest, type TdsRequest } from "./requests";
import { answerTokens, doneToken, errorReply } from "./tokens";
import { TransactionLog } from "./transactions";
import type { TdsAnswer, TdsServer, TdsServerError, TdsServerOptions, TdsStatement } from "./types";
import { DONE_ATTN, PKT, TOKEN } from "./wire";

interface Job {
  cancelled: boolean;
  statement?: TdsStatement;
  onCancel?: () => void;
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
  const transactions = new TransactionLog();
  const sockets = new Set<Socket>();

  /** Judges, rule-checks and answers one statement; undefined when it was cancelled meanwhile. */
  const runStatement = async (request: TdsRequest, rpc: boolean, job: Job): Promise<Buffer | undefined> => {
    const { text, params, declared, wireTypes, transaction } = request;
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
      return errorReply(
        {
          number: verdict.number ?? 102,
          message: `Judge refused the statement: ${verdict.errors.join("; ")}`,
        },
        final,
      );
    }
    const refused = rules.check(statement);
    if (refused) {
      ruleRefusals.push(statement);
      return errorReply(refused, final);
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
      const tds = isTdsError(e) ? e : { number: 50000, message: e instanceof Error ? e.message : String(e) };
      return errorReply(tds, final);
    }
    if (job.cancelled) return undefined;
    return answerTokens(answer, rpc);
  };

  const server = createServer((socket) => {
    stats.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const assembler = new MessageAssembler();
    let loggedIn = false;
    const connection: { open?: Buffer } = {};
    // One statement at a time per connection (TDS without MARS); ATTENTION cancels the current one.
    let queue: Promise<void> = Promise.resolve();
    let current: Job | undefined;

    const send = (payload: Buffer) => {
      if (socket.destroyed) return;
      for (const packet of replyPackets(payload)) socket.write(packet);
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
        const refused = loginRefusal(login, options);
        if (refused) {
          stats.refusedLogins++;
          send(errorReply(refused));
          socket.end();
          return undefined;
        }
        stats.logins++;
        loggedIn = true;
        return loginAckReply(login.database || options.database || "master");
      }
      if (!loggedIn) {
        socket.destroy();
        return undefined;
      }
      if (type === PKT.TRANSACTION_MANAGER) return transactions.answer(body, connection, statements.length);
      if (type !== PKT.SQL_BATCH && type !== PKT.RPC)
        return errorReply({
          number: 8009,
          message: `TDS message type 0x${type.toString(16)} not supported here`,
        });
      const rpc = type === PKT.RPC;
      let request: TdsRequest;
      try {
        request = readRequest(body, rpc);
      } catch (e) {
        const tds = (e as { tds?: TdsServerError }).tds ?? (isTdsError(e) ? e : undefined);
        if (!tds) throw e;
        return errorReply(tds, rpc ? TOKEN.DONEPROC : TOKEN.DONE);
      }
      // The driver's session options right after login: acknowledged, not recorded.
      if (request.sessionOptions) return doneToken(TOKEN.DONE, 0, 0, 0);
      return runStatement(request, rpc, job);
    };

    socket.on("data", (chunk: Buffer) => {
      let messages: Array<{ type: number; body: Buffer }>;
      try {
        messages = assembler.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const m of messages) onMessage(m.type, m.body);
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
    transactions: transactions.events,
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
