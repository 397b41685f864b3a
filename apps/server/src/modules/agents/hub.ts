import { randomUUID } from "node:crypto";
import {
  type SqlDialect,
  type SqlQuery,
  type SqlQueryOptions,
  type SqlResult,
  type SqlTarget,
  type SqlTransport,
  TRANSPORT_LOST,
  TRANSPORT_OFFLINE,
} from "@ep/connectors";
import type {
  AgentAnswerFrame,
  AgentHelloFrame,
  AgentHttpRequestFrame,
  AgentRequestFrame,
  AgentSqlRequestFrame,
} from "@ep/contracts";
import { AGENT_BINARY_PROTOCOL, decodeAgentFrame, encodeAgentFrame } from "@ep/contracts/agent-wire";
import type { WebSocket } from "ws";
import { chooseNode, mayMoveCall } from "./nodes.ts";
import {
  abortable,
  frameParams,
  fromRequest,
  NEVER,
  type SimpleCall,
  simpleCall,
  sqlError,
  sqlTransportError,
  TransportError,
  transportCodeOf,
  transportFailure,
} from "./relay-frames.ts";

export type AgentHello = AgentHelloFrame;

/** A `fetch` through an agent, with the SDK's `ready` wait (see `TransportFetch` in the connector SDK). */
export type AgentFetch = typeof fetch & { ready: (signal?: AbortSignal) => Promise<void> };

/**
 * Routes calls to an agent whose socket another server process holds (PostgreSQL: see `PgAgentRouter`).
 * Without one (the embedded database: one process) every call is local.
 */
export interface AgentRouter {
  readonly instance: string;
  start(handlers: {
    onCall: (agentId: number, frame: AgentRequestFrame) => Promise<AgentAnswerFrame>;
    onPresence: (agentId: number) => void;
  }): Promise<void>;
  /** The process holding the agent's socket, or null. */
  holderOf(agentId: number): Promise<string | null>;
  claim(agentId: number): Promise<void>;
  release(agentId: number): Promise<void>;
  call(
    holder: string,
    agentId: number,
    frame: AgentRequestFrame,
    timeoutMs: number,
  ): Promise<AgentAnswerFrame>;
  close(): Promise<void>;
}

export type AgentHubOptions = {
  offlineWaitMs: number;
  callTimeoutMs: number;
  /** The merchant's sentence for an agent that stayed offline ("… (son görülme: …)"). */
  offlineText?: (agentId: number) => Promise<string | undefined>;
  router?: AgentRouter;
  /** The agents serving a connection, its own first (none: the connection's own agent alone). */
  nodesOf?: (connectionId: number) => Promise<number[]>;
};

type Pending = {
  resolve: (r: AgentAnswerFrame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
};
type Online = {
  socket: WebSocket;
  pending: Map<string, Pending>;
  version: string;
  machineName: string;
  /** The agent takes HTTP calls as binary frames (its hello said protocol 2 or more). */
  binary: boolean;
  /** Last WebSocket ping → pong time (the panel's round-trip time). */
  rttMs: number | null;
  pingAt: number;
  /** When its last hello or heartbeat came (a connection's agents: the one seen last is preferred). */
  seenAt: number;
};

/** Where a call goes: an agent connected here, or the process holding its socket. */
type Node = { agentId: number; target: Online | string };

/**
 * Holds the sockets of the agents connected to this process and relays HTTP calls over them; a call for an
 * agent whose socket another process holds goes through the router. A call for an agent connected nowhere
 * waits up to `offlineWaitMs` for it to come back, then fails as offline.
 */
export class AgentHub {
  private readonly online = new Map<number, Online>();
  private readonly waiters = new Map<number, Set<() => void>>();
  /** Agents a call has already waited the whole bound for: later calls fail at once until they return. */
  private readonly gaveUp = new Set<number>();
  private readonly relayed = new Map<number, number>();
  /** A connection's agent that carried its last call (the panel's "active" one). */
  private readonly carriers = new Map<number, number>();
  private moved = 0;
  private started: Promise<void> | undefined;

  constructor(private readonly options: AgentHubOptions) {}

  /** Starts listening for routed calls (once; every relay awaits it). */
  start(): Promise<void> {
    this.started ??= this.options.router
      ? this.options.router.start({
          onCall: (agentId, frame) => this.answerRouted(agentId, frame),
          onPresence: (agentId) => this.wake(agentId),
        })
      : Promise.resolve();
    return this.started;
  }

  async close(): Promise<void> {
    this.closeAll();
    await this.options.router?.close();
  }

  /** Calls relayed to an agent by this process since it started. */
  relayedCalls(agentId: number): number {
    return this.relayed.get(agentId) ?? 0;
  }

  /** Calls moved to another agent of their connection because theirs went away (see `mayMoveCall`). */
  movedCalls(): number {
    return this.moved;
  }

  /** The agent that carried the connection's last call from this process, if any. */
  carrierOf(connectionId: number): number | undefined {
    return this.carriers.get(connectionId);
  }

  /** Measures the round trip to the agent once more (called at each of its heartbeats). */
  ping(agentId: number): void {
    const entry = this.online.get(agentId);
    if (!entry) return;
    entry.pingAt = Date.now();
    entry.seenAt = entry.pingAt;
    entry.socket.ping();
  }

  /** The last measured round trip to an agent connected to this process, or null. */
  roundTripMs(agentId: number): number | null {
    return this.online.get(agentId)?.rttMs ?? null;
  }

  /** Whether this process holds the agent's socket. */
  isOnline(agentId: number): boolean {
    return this.online.has(agentId);
  }

  private wake(agentId: number) {
    this.gaveUp.delete(agentId);
    for (const wake of this.waiters.get(agentId) ?? []) wake();
    this.waiters.delete(agentId);
  }

  attach(agentId: number, socket: WebSocket, hello: AgentHello): void {
    this.online.get(agentId)?.socket.close(4000, "replaced");
    const entry: Online = {
      socket,
      pending: new Map(),
      version: hello.version,
      machineName: hello.machineName,
      binary: (hello.protocol ?? 1) >= AGENT_BINARY_PROTOCOL,
      rttMs: null,
      pingAt: 0,
      seenAt: Date.now(),
    };
    this.online.set(agentId, entry);
    socket.on("pong", () => {
      if (entry.pingAt) entry.rttMs = Date.now() - entry.pingAt;
    });
    socket.on("message", (data, isBinary) => {
      const frame = decodeAgentFrame<AgentAnswerFrame>(data, isBinary);
      const waiting = frame && "id" in frame ? entry.pending.get(frame.id) : undefined;
      if (!frame || !waiting) return;
      entry.pending.delete(frame.id);
      clearTimeout(waiting.timer);
      waiting.resolve(frame);
    });
    socket.on("close", () => {
      if (this.online.get(agentId) === entry) {
        this.online.delete(agentId);
        this.options.router?.release(agentId).catch(() => undefined);
      }
      for (const [id, p] of entry.pending) {
        clearTimeout(p.timer);
        p.reject(new TransportError(`agent ${agentId} went away during call ${id}`, TRANSPORT_LOST));
      }
      entry.pending.clear();
    });
    this.options.router?.claim(agentId).catch(() => undefined);
    this.wake(agentId);
  }

  /** Sends a frame that waits for no answer (an orders file) to an agent connected here; false if not here. */
  send(agentId: number, frame: object): boolean {
    const entry = this.online.get(agentId);
    if (!entry) return false;
    entry.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Closes the agent's socket (revocation); its open calls fail as lost. */
  disconnect(agentId: number, reason: string): void {
    // A revoked agent never comes back: calls for it fail at once instead of waiting.
    if (reason === "revoked") this.gaveUp.add(agentId);
    const entry = this.online.get(agentId);
    if (!entry) return;
    // Gone at once: a call made now waits for the agent's next connection instead of this closing socket.
    this.online.delete(agentId);
    this.options.router?.release(agentId).catch(() => undefined);
    entry.socket.close(4001, reason);
  }

  closeAll(): void {
    for (const [id] of this.online) this.disconnect(id, "server shutting down");
  }

  /**
   * A `fetch` that runs every request through the agent: the connector SDK takes it as its transport.
   * With `connectionId`, through whichever of the connection's agents is online (see `nodesOf`).
   */
  fetchFor(agentId: number, connectionId?: number): AgentFetch {
    const relayed = (input: string | URL | Request, init?: RequestInit) =>
      this.relay(agentId, simpleCall(input, init) ?? new Request(input, init), connectionId);
    return Object.assign(relayed, {
      ready: async (signal?: AbortSignal) => {
        await this.waitNode(await this.nodes(agentId, connectionId), signal ?? null, connectionId);
      },
    }) as AgentFetch;
  }

  /** The agents that may carry a call: the connection's (its own first), else the one agent. */
  private async nodes(agentId: number, connectionId: number | undefined): Promise<number[]> {
    if (connectionId === undefined || !this.options.nodesOf) return [agentId];
    // The list unreadable (a database hiccup): the connection's own agent still carries the call.
    const ids = await this.options.nodesOf(connectionId).catch(() => []);
    return ids.length > 0 ? ids : [agentId];
  }

  private async offline(agentId: number): Promise<TransportError> {
    const text = await this.options.offlineText?.(agentId).catch(() => undefined);
    return new TransportError(`agent ${agentId} is offline`, TRANSPORT_OFFLINE, text);
  }

  /**
   * Where a call for these agents can go now: the best one connected here (`chooseNode`), else one whose
   * socket another process holds (the last carrier first).
   */
  private async findNode(ids: number[], connectionId: number | undefined): Promise<Node | undefined> {
    const carrier = connectionId === undefined ? undefined : this.carriers.get(connectionId);
    const here = ids.flatMap((agentId) => {
      const entry = this.online.get(agentId);
      return entry ? [{ agentId, busy: entry.pending.size, seenAt: entry.seenAt, entry }] : [];
    });
    const best = chooseNode(here, carrier);
    if (best) return { agentId: best.agentId, target: best.entry };
    const router = this.options.router;
    if (!router) return undefined;
    await this.start();
    for (const agentId of [...ids].sort((a, b) => Number(b === carrier) - Number(a === carrier))) {
      const holder = await router.holderOf(agentId);
      if (holder && holder !== router.instance) return { agentId, target: holder };
      const entry = this.online.get(agentId);
      if (entry) return { agentId, target: entry };
    }
    return undefined;
  }

  /** A node for these agents, waiting within the bound for one of them to come (back) online. */
  private async waitNode(ids: number[], signal: AbortSignal | null, connectionId?: number): Promise<Node> {
    const now = await this.findNode(ids, connectionId);
    if (now) return now;
    if (ids.every((id) => this.gaveUp.has(id))) throw await this.offline(ids[0]!);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const id of ids) this.waiters.get(id)?.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, this.options.offlineWaitMs);
      signal?.addEventListener("abort", done);
      for (const id of ids) {
        const set = this.waiters.get(id) ?? new Set();
        this.waiters.set(id, set);
        set.add(done);
      }
    });
    const later = await this.findNode(ids, connectionId);
    if (!later) {
      if (!signal?.aborted) for (const id of ids) this.gaveUp.add(id);
      throw await this.offline(ids[0]!);
    }
    return later;
  }

  async relay(agentId: number, call: Request | SimpleCall, connectionId?: number): Promise<Response> {
    const request = call instanceof Request ? await fromRequest(call) : call;
    const frame: AgentHttpRequestFrame = {
      type: "http",
      id: randomUUID(),
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      timeoutMs: this.options.callTimeoutMs,
    };
    const answer = await this.exchange(agentId, frame, request.signal, connectionId);
    if (answer.type === "http-error") {
      // The agent reached nothing (refused, unknown host): keep its code so the client can classify.
      throw Object.assign(new Error(answer.message), { code: answer.code });
    }
    if (answer.type !== "http-result")
      throw new TransportError(`agent ${agentId}: unexpected answer`, TRANSPORT_LOST);
    const bodyless = answer.status === 204 || answer.status === 304;
    return new Response(bodyless ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  }

  /**
   * The SQL seam through an agent: each statement is relayed like an HTTP call (same offline wait,
   * same cross-process route) and run there by the agent's driver for the database's dialect.
   */
  sqlFor(agentId: number, target: SqlTarget, dialect?: SqlDialect, connectionId?: number): SqlTransport {
    const resolved: SqlDialect = dialect ?? ("dialect" in target ? target.dialect : "mssql");
    return {
      dialect: resolved,
      query: async (query: SqlQuery, options: SqlQueryOptions = {}): Promise<SqlResult> => {
        const timeoutMs = Math.min(
          options.timeoutMs ?? this.options.callTimeoutMs,
          this.options.callTimeoutMs,
        );
        const frame: AgentSqlRequestFrame = {
          type: "sql",
          id: randomUUID(),
          target,
          text: query.text,
          params: query.params ? frameParams(query.params) : undefined,
          maxRows: options.maxRows,
          timeoutMs,
          ...(query.readOnly ? { readOnly: true } : {}),
        };
        const answer = await this.exchange(agentId, frame, options.signal ?? NEVER, connectionId).catch(
          (e: unknown) => {
            throw sqlTransportError(e);
          },
        );
        if (answer.type === "sql-result") {
          return { rows: answer.rows, rowsAffected: answer.rowsAffected, truncated: answer.truncated };
        }
        if (answer.type === "sql-error") throw sqlError(answer);
        throw sqlTransportError(new TransportError(`agent ${agentId}: unexpected answer`, TRANSPORT_LOST));
      },
    };
  }

  /**
   * Sends one frame to the agent wherever its socket is (here or another process) and waits for the
   * answer. With several agents for the connection, a call whose agent went away moves to another one
   * when `mayMoveCall` allows (never sent, or a read); a write that may have been applied does not.
   */
  private async exchange(
    agentId: number,
    firstFrame: AgentRequestFrame,
    signal: AbortSignal,
    connectionId?: number,
  ): Promise<AgentAnswerFrame> {
    const ids = await this.nodes(agentId, connectionId);
    const tried = new Set<number>();
    let frame = firstFrame;
    for (;;) {
      const { agentId: via, target } = await this.waitNode(
        ids.filter((id) => !tried.has(id)),
        signal,
        connectionId,
      );
      signal.throwIfAborted();
      this.relayed.set(via, this.relayedCalls(via) + 1);
      if (connectionId !== undefined) this.carriers.set(connectionId, via);
      const others = ids.some((id) => id !== via && !tried.has(id));
      try {
        const answer =
          typeof target === "string"
            ? await abortable(
                // The router's bound covers the hop to the holder and back.
                this.options.router!.call(target, via, frame, frame.timeoutMs + 2000),
                signal,
              )
            : await this.sendLocal(via, target, frame, signal);
        // A routed call's holder says in an error frame that the agent was gone.
        if (!others || !mayMoveCall(frame, transportCodeOf(answer))) return answer;
      } catch (e) {
        if (!others || !(e instanceof TransportError) || !mayMoveCall(frame, e.code)) throw e;
      }
      tried.add(via);
      this.moved++;
      frame = { ...frame, id: randomUUID() };
    }
  }

  /** A call another process routed here: carried out on the local socket, failures as error frames. */
  private async answerRouted(agentId: number, frame: AgentRequestFrame): Promise<AgentAnswerFrame> {
    const entry = this.online.get(agentId);
    if (!entry) return transportFailure(frame, TRANSPORT_OFFLINE, "agent not here");
    try {
      return await this.sendLocal(agentId, entry, frame, null);
    } catch (e) {
      return transportFailure(
        frame,
        (e as { code?: string }).code ?? TRANSPORT_LOST,
        String((e as Error).message),
      );
    }
  }

  private sendLocal(
    agentId: number,
    entry: Online,
    frame: AgentRequestFrame,
    signal: AbortSignal | null,
  ): Promise<AgentAnswerFrame> {
    return new Promise<AgentAnswerFrame>((resolve, reject) => {
      const finish = () => {
        entry.pending.delete(frame.id);
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        clearTimeout(timer);
        finish();
        reject(signal?.reason);
      };
      // A bound of our own, so a silent agent never leaves the call hanging.
      const timer = setTimeout(() => {
        finish();
        reject(new TransportError(`agent ${agentId} did not answer call ${frame.id}`, TRANSPORT_LOST));
      }, frame.timeoutMs + 1000);
      signal?.addEventListener("abort", onAbort);
      entry.pending.set(frame.id, {
        timer,
        resolve: (r) => {
          finish();
          resolve(r);
        },
        reject: (e) => {
          finish();
          reject(e);
        },
      });
      entry.socket.send(encodeAgentFrame(frame, entry.binary), (err) => {
        if (!err) return;
        clearTimeout(timer);
        finish();
        reject(new TransportError(`agent ${agentId}: send failed`, TRANSPORT_OFFLINE));
      });
    });
  }
}
