import { randomUUID } from "node:crypto";
import { TRANSPORT_LOST } from "@ep/connectors";
import type { AgentAnswerFrame, AgentRequestFrame } from "@ep/contracts";
import { agentFrameFromJson, agentFrameToJson } from "@ep/contracts/agent-wire";
import type { Database } from "../../platform/db/database.ts";
import type { AgentRouter } from "./hub.ts";
import { TransportError } from "./relay-frames.ts";

export const AGENT_RELAY_CHANNEL = "agent_relay";

type Signal =
  | { kind: "call"; to: string; from: string; id: string; agentId: number }
  | { kind: "answer"; to: string; id: string }
  | { kind: "presence"; agentId: number };

type Waiting = {
  resolve: (a: AgentAnswerFrame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
};

/**
 * Cross-process routing on PostgreSQL: `agents.socket_holder` names the process holding an agent's
 * socket; a call from any other process is a row of `agent_relay_calls` (request, then answer) and a
 * NOTIFY on one channel saying which row to read. NOTIFY payloads stay tiny (8 kB limit), bodies do not.
 */
export class PgAgentRouter implements AgentRouter {
  readonly instance = randomUUID();
  private readonly waiting = new Map<string, Waiting>();
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  private notify(signal: Signal) {
    return this.database.executeSql("SELECT pg_notify($1, $2)", [
      AGENT_RELAY_CHANNEL,
      JSON.stringify(signal),
    ]);
  }

  async start(handlers: Parameters<AgentRouter["start"]>[0]): Promise<void> {
    this.stop = await this.database.listen(AGENT_RELAY_CHANNEL, (payload) => {
      let signal: Signal;
      try {
        signal = JSON.parse(payload) as Signal;
      } catch {
        return;
      }
      if (signal.kind === "presence") handlers.onPresence(signal.agentId);
      else if (signal.kind === "call" && signal.to === this.instance)
        this.serve(signal, handlers.onCall).catch(this.onError);
      else if (signal.kind === "answer" && signal.to === this.instance)
        this.collect(signal.id).catch(this.onError);
    });
  }

  private async serve(
    signal: Extract<Signal, { kind: "call" }>,
    onCall: Parameters<AgentRouter["start"]>[0]["onCall"],
  ) {
    const { rows } = await this.database.executeSql("SELECT request FROM agent_relay_calls WHERE id = $1", [
      signal.id,
    ]);
    const request = agentFrameFromJson<AgentRequestFrame>(rows[0]?.request);
    if (!request) return;
    const answer = await onCall(signal.agentId, request);
    await this.database.executeSql("UPDATE agent_relay_calls SET answer = $2 WHERE id = $1", [
      signal.id,
      JSON.stringify(agentFrameToJson(answer)),
    ]);
    await this.notify({ kind: "answer", to: signal.from, id: signal.id });
  }

  private async collect(id: string) {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    const { rows } = await this.database.executeSql(
      "DELETE FROM agent_relay_calls WHERE id = $1 RETURNING answer",
      [id],
    );
    const answer = agentFrameFromJson<AgentAnswerFrame>(rows[0]?.answer);
    if (!answer) return;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(answer);
  }

  async holderOf(agentId: number): Promise<string | null> {
    const { rows } = await this.database.executeSql(
      "SELECT socket_holder FROM agents WHERE id = $1 AND revoked_at IS NULL",
      [agentId],
    );
    return (rows[0]?.socket_holder as string | null | undefined) ?? null;
  }

  async claim(agentId: number): Promise<void> {
    await this.database.executeSql("UPDATE agents SET socket_holder = $2 WHERE id = $1", [
      agentId,
      this.instance,
    ]);
    await this.notify({ kind: "presence", agentId });
  }

  async release(agentId: number): Promise<void> {
    await this.database.executeSql(
      "UPDATE agents SET socket_holder = NULL WHERE id = $1 AND socket_holder = $2",
      [agentId, this.instance],
    );
  }

  async call(
    holder: string,
    agentId: number,
    frame: AgentRequestFrame,
    timeoutMs: number,
  ): Promise<AgentAnswerFrame> {
    await this.database.executeSql(
      "INSERT INTO agent_relay_calls (id, agent_id, request) VALUES ($1, $2, $3)",
      [frame.id, agentId, JSON.stringify(agentFrameToJson(frame))],
    );
    const answered = new Promise<AgentAnswerFrame>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(frame.id);
        this.database
          .executeSql("DELETE FROM agent_relay_calls WHERE id = $1", [frame.id])
          .catch(this.onError);
        // The holder may have sent it on (a dead holder did not): unknown, so a write is looked up again.
        reject(new TransportError(`agent ${agentId}: no answer through ${holder}`, TRANSPORT_LOST));
      }, timeoutMs);
      this.waiting.set(frame.id, { resolve, reject, timer });
    });
    await this.notify({ kind: "call", to: holder, from: this.instance, id: frame.id, agentId });
    return answered;
  }

  async close(): Promise<void> {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new TransportError(`call ${id}: server shutting down`, TRANSPORT_LOST));
    }
    this.waiting.clear();
    await this.stop?.();
  }
}
