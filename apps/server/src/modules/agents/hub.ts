import { randomUUID } from "node:crypto";
import { TRANSPORT_LOST, TRANSPORT_OFFLINE } from "@ep/connectors";
import type { AgentHelloFrame, AgentHttpAnswerFrame, AgentHttpRequestFrame } from "@ep/contracts";
import type { WebSocket } from "ws";

export type AgentHello = AgentHelloFrame;

class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** What the merchant reads (run report, failed tasks): the SDK passes it on. */
    readonly merchantMessage?: string,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

/** A `fetch` through an agent, with the SDK's `ready` wait (see `TransportFetch` in the connector SDK). */
export type AgentFetch = typeof fetch & { ready: (signal?: AbortSignal) => Promise<void> };

export type AgentHubOptions = {
  offlineWaitMs: number;
  callTimeoutMs: number;
  /** The merchant's sentence for an agent that stayed offline ("… (son görülme: …)"). */
  offlineText?: (agentId: number) => Promise<string | undefined>;
};

type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
type Online = { socket: WebSocket; pending: Map<string, Pending>; version: string; machineName: string };

/** A call as the frame carries it (body base64). */
type SimpleCall = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
};

const NEVER = new AbortController().signal;

/**
 * The connector SDK's calls (a URL string, a header object, a string body): framed without building a
 * WHATWG Request and reading its body stream back, which is most of the relay's own cost on loopback.
 */
function simpleCall(input: string | URL | Request, init: RequestInit | undefined): SimpleCall | undefined {
  if (typeof input !== "string") return undefined;
  const headers = init?.headers;
  const body = init?.body;
  if (headers !== undefined && (headers instanceof Headers || Array.isArray(headers))) return undefined;
  if (body !== undefined && body !== null && typeof body !== "string") return undefined;
  return {
    method: (init?.method ?? "GET").toUpperCase(),
    url: new URL(input).toString(),
    headers: Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    body: typeof body === "string" ? Buffer.from(body).toString("base64") : undefined,
    signal: init?.signal ?? NEVER,
  };
}

async function fromRequest(request: Request): Promise<SimpleCall> {
  return {
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body: request.body ? Buffer.from(await request.arrayBuffer()).toString("base64") : undefined,
    signal: request.signal,
  };
}

/**
 * Holds the sockets of the agents connected to this process and relays HTTP calls over them. A call for an
 * agent that is not connected waits up to `offlineWaitMs` for it to come back, then fails as offline.
 * Cross-process routing (LISTEN/NOTIFY) would sit behind `relay`: the interface stays the same.
 */
export class AgentHub {
  private readonly online = new Map<number, Online>();
  private readonly waiters = new Map<number, Set<() => void>>();
  /** Agents a call has already waited the whole bound for: later calls fail at once until they return. */
  private readonly gaveUp = new Set<number>();
  private readonly relayed = new Map<number, number>();

  constructor(private readonly options: AgentHubOptions) {}

  /** Calls relayed to an agent by this process since it started. */
  relayedCalls(agentId: number): number {
    return this.relayed.get(agentId) ?? 0;
  }

  isOnline(agentId: number): boolean {
    return this.online.has(agentId);
  }

  attach(agentId: number, socket: WebSocket, hello: AgentHello): void {
    this.online.get(agentId)?.socket.close(4000, "replaced");
    const entry: Online = {
      socket,
      pending: new Map(),
      version: hello.version,
      machineName: hello.machineName,
    };
    this.online.set(agentId, entry);
    this.gaveUp.delete(agentId);
    socket.on("message", (data) => {
      let frame: AgentHttpAnswerFrame;
      try {
        frame = JSON.parse(String(data)) as AgentHttpAnswerFrame;
      } catch {
        return;
      }
      const waiting = "id" in frame ? entry.pending.get(frame.id) : undefined;
      if (!waiting) return;
      entry.pending.delete(frame.id);
      clearTimeout(waiting.timer);
      if (frame.type === "http-result") {
        const bodyless = frame.status === 204 || frame.status === 304;
        waiting.resolve(
          new Response(bodyless ? null : Buffer.from(frame.body, "base64"), {
            status: frame.status,
            headers: frame.headers,
          }),
        );
      } else if (frame.type === "http-error") {
        // The agent reached nothing (refused, unknown host): keep its code so the client can classify.
        waiting.reject(Object.assign(new Error(frame.message), { code: frame.code }));
      }
    });
    socket.on("close", () => {
      if (this.online.get(agentId) === entry) this.online.delete(agentId);
      for (const [id, p] of entry.pending) {
        clearTimeout(p.timer);
        p.reject(new TransportError(`agent ${agentId} went away during call ${id}`, TRANSPORT_LOST));
      }
      entry.pending.clear();
    });
    for (const wake of this.waiters.get(agentId) ?? []) wake();
    this.waiters.delete(agentId);
  }

  /** Closes the agent's socket (revocation); its open calls fail as lost. */
  disconnect(agentId: number, reason: string): void {
    // A revoked agent never comes back: calls for it fail at once instead of waiting.
    if (reason === "revoked") this.gaveUp.add(agentId);
    const entry = this.online.get(agentId);
    if (!entry) return;
    // Gone at once: a call made now waits for the agent's next connection instead of this closing socket.
    this.online.delete(agentId);
    entry.socket.close(4001, reason);
  }

  closeAll(): void {
    for (const [id] of this.online) this.disconnect(id, "server shutting down");
  }

  /** A `fetch` that runs every request through the agent: the connector SDK takes it as its transport. */
  fetchFor(agentId: number): AgentFetch {
    const relayed = (input: string | URL | Request, init?: RequestInit) =>
      this.relay(agentId, simpleCall(input, init) ?? new Request(input, init));
    return Object.assign(relayed, {
      ready: async (signal?: AbortSignal) => {
        await this.waitOnline(agentId, signal ?? null);
      },
    }) as AgentFetch;
  }

  private async offline(agentId: number): Promise<TransportError> {
    const text = await this.options.offlineText?.(agentId).catch(() => undefined);
    return new TransportError(`agent ${agentId} is offline`, TRANSPORT_OFFLINE, text);
  }

  private async waitOnline(agentId: number, signal: AbortSignal | null): Promise<Online> {
    const now = this.online.get(agentId);
    if (now) return now;
    if (this.gaveUp.has(agentId)) throw await this.offline(agentId);
    await new Promise<void>((resolve) => {
      const set = this.waiters.get(agentId) ?? new Set();
      this.waiters.set(agentId, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, this.options.offlineWaitMs);
      signal?.addEventListener("abort", done);
      set.add(done);
    });
    const later = this.online.get(agentId);
    if (!later) {
      if (!signal?.aborted) this.gaveUp.add(agentId);
      throw await this.offline(agentId);
    }
    return later;
  }

  async relay(agentId: number, call: Request | SimpleCall): Promise<Response> {
    const request = call instanceof Request ? await fromRequest(call) : call;
    const entry = await this.waitOnline(agentId, request.signal);
    request.signal.throwIfAborted();
    this.relayed.set(agentId, this.relayedCalls(agentId) + 1);
    const frame: AgentHttpRequestFrame = {
      type: "http",
      id: randomUUID(),
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      timeoutMs: this.options.callTimeoutMs,
    };
    return new Promise<Response>((resolve, reject) => {
      const finish = () => {
        entry.pending.delete(frame.id);
        request.signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        clearTimeout(timer);
        finish();
        reject(request.signal.reason);
      };
      // A bound of our own, so a silent agent never leaves the call hanging.
      const timer = setTimeout(() => {
        finish();
        reject(new TransportError(`agent ${agentId} did not answer call ${frame.id}`, TRANSPORT_LOST));
      }, this.options.callTimeoutMs + 1000);
      request.signal.addEventListener("abort", onAbort);
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
      entry.socket.send(JSON.stringify(frame), (err) => {
        if (!err) return;
        clearTimeout(timer);
        finish();
        reject(new TransportError(`agent ${agentId}: send failed`, TRANSPORT_OFFLINE));
      });
    });
  }
}
