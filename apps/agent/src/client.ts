import { randomUUID } from "node:crypto";
import { type Agent as HttpAgent, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { hostname } from "node:os";
import {
  type AgentFileOutFrame,
  type AgentFileResultFrame,
  type AgentRequestFrame,
  message,
} from "@ep/contracts";
import type { AgentReleaseFrame } from "@ep/contracts/agent-update";
import {
  AGENT_BINARY_PROTOCOL,
  AGENT_PROTOCOL,
  agentMessageParts,
  decodeAgentFrame,
  encodeAgentFrame,
} from "@ep/contracts/agent-wire";
import { HttpsProxyAgent } from "https-proxy-agent";
import WebSocket from "ws";
import { FolderWatcher, type FolderWatcherOptions } from "./folders.ts";
import { NtlmProxyAgent, ProxyAuthError } from "./ntlm-proxy.ts";
import { authFor, codeOf, performHttp } from "./relay.ts";
import { SqlRunner } from "./sql/runner.ts";
import type { AgentConfig, AgentHttpAuth, AgentState, AgentStatus, AgentStore } from "./store.ts";

declare const __AGENT_VERSION__: string | undefined;
/** The package's version; the build stamps it (build-exe.mjs `--agent-version`, as the update tests do). */
export const AGENT_VERSION = typeof __AGENT_VERSION__ === "string" ? __AGENT_VERSION__ : "0.1.0";
export const CONNECT_PATH = "/api/agent/connect";

export type AgentClientOptions = {
  heartbeatMs?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  machineName?: string;
  random?: () => number;
  folders?: FolderWatcherOptions;
  /** The wire protocol offered in the hello (default AGENT_PROTOCOL; 1 keeps every frame JSON text). */
  protocol?: number;
  /** The office's proxy (`http://user:password@proxy:8080`): the WebSocket goes through it (CONNECT). */
  proxy?: string;
  /** The server's `release` frame (after the hello, at each heartbeat): the self-update reads it. */
  onRelease?: (frame: AgentReleaseFrame) => void;
};

/**
 * The proxy to reach the panel through: `--proxy`, else HTTPS_PROXY / https_proxy (Basic credentials in the
 * URL stay on this machine). A CONNECT tunnel, so TLS to the panel stays end to end. A proxy with a
 * Windows account in `auth` (`http-auth add PROXY:PORT --ntlm …`) is authenticated with NTLM instead.
 * Everything that reaches the panel (pairing, the WebSocket, downloads) takes its agent from here.
 */
export function proxyAgentFor(proxy?: string, auth: AgentHttpAuth = {}): HttpAgent | undefined {
  const url = proxy || process.env.HTTPS_PROXY || process.env.https_proxy;
  if (!url) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new TypeError(url);
  const windows = authFor(url, auth);
  if (windows) return new NtlmProxyAgent(parsed, windows);
  return new HttpsProxyAgent(parsed, { keepAlive: false });
}

/** `http://panel:8080` → `ws://panel:8080/api/agent/connect` (https → wss). */
export function connectUrl(server: string): string {
  const url = new URL(CONNECT_PATH, server);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

/**
 * The run loop: one outbound WebSocket, a hello and then heartbeats, relayed HTTP calls carried out,
 * reconnects with exponential backoff and jitter. A refused credential (revoked) stops the loop.
 */
export class AgentClient {
  private socket: WebSocket | undefined;
  private stopped = false;
  private attempt = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private status: AgentStatus;
  private readonly done: Promise<AgentState>;
  private finish!: (state: AgentState) => void;
  private readonly stateListeners = new Set<(state: AgentState) => void>();
  private readonly sql: SqlRunner;
  private readonly folders: FolderWatcher;
  private readonly proxyAgent: HttpAgent | undefined;
  /** The server said it reads parted messages (its `welcome`): long answers go in parts. */
  private partsAccepted = false;
  /** Relayed calls being carried out, and when the last one came (an update waits for quiet). */
  private inFlight = 0;
  private lastCallAt = 0;

  constructor(
    private readonly config: AgentConfig,
    private readonly store: AgentStore,
    private readonly options: AgentClientOptions = {},
  ) {
    this.status = {
      state: "connecting",
      server: config.server,
      connectedAt: null,
      lastError: null,
      updatedAt: "",
    };
    this.sql = new SqlRunner(store);
    this.proxyAgent = proxyAgentFor(options.proxy ?? config.proxy, store.loadHttpAuth());
    this.folders = new FolderWatcher(store, (frame) => this.notify(frame), options.folders);
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  get state(): AgentState {
    return this.status.state;
  }

  /** Resolves when the state next becomes `state` (tests, the CLI). */
  waitFor(state: AgentState): Promise<void> {
    if (this.status.state === state) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (s: AgentState) => {
        if (s !== state) return;
        this.stateListeners.delete(listener);
        resolve();
      };
      this.stateListeners.add(listener);
    });
  }

  /** Starts the loop; the promise resolves with the final state (`refused` or `stopped`). */
  run(): Promise<AgentState> {
    this.folders.start();
    this.connect();
    return this.done;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    this.folders.stop();
    this.socket?.close(1000, "stopped");
    void this.sql.close();
    this.setState("stopped");
    this.finish("stopped");
  }

  /** Relayed calls in flight now, and when the last one arrived (epoch ms; 0: none yet). */
  activity(): { inFlight: number; lastCallAt: number } {
    return { inFlight: this.inFlight, lastCallAt: this.lastCallAt };
  }

  /** The proxy agent the WebSocket uses (the update's download goes the same way). */
  get proxy(): HttpAgent | undefined {
    return this.proxyAgent;
  }

  /** A JSON frame to the server when connected; false when not. */
  notify(frame: object): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    this.send(socket, JSON.stringify(frame));
    return true;
  }

  /** One message to the server, in parts when it is long and the server reads parts (protocol 3). */
  private send(socket: WebSocket, message: string | Buffer) {
    const json = (this.options.protocol ?? AGENT_PROTOCOL) < AGENT_BINARY_PROTOCOL;
    const parts = this.partsAccepted ? agentMessageParts(message, `part-${randomUUID()}`, json) : undefined;
    for (const part of parts ?? [message]) socket.send(part);
  }

  private setState(state: AgentState, patch: Partial<AgentStatus> = {}) {
    this.status = { ...this.status, ...patch, state, updatedAt: new Date().toISOString() };
    this.store.saveStatus(this.status);
    for (const listener of [...this.stateListeners]) listener(state);
  }

  private hello(type: "hello" | "heartbeat") {
    const machineName = this.options.machineName ?? hostname();
    this.socket?.send(
      JSON.stringify({
        type,
        version: AGENT_VERSION,
        machineName,
        protocol: this.options.protocol ?? AGENT_PROTOCOL,
        parts: true,
        // Reads the server's `release` frames (self-update, src/update/).
        updates: true,
      }),
    );
  }

  private connect() {
    if (this.stopped) return;
    const socket = new WebSocket(connectUrl(this.config.server), {
      headers: { authorization: `Bearer ${this.config.credential}` },
      handshakeTimeout: 15_000,
      agent: this.proxyAgent,
    });
    this.socket = socket;
    this.partsAccepted = false;
    let refused = false;
    socket.on("unexpected-response", (_req, res) => {
      refused = res.statusCode === 401;
      socket.terminate();
      if (refused) {
        this.store.log("credential refused by the server (401)");
        this.stopped = true;
        this.setState("refused", { lastError: "401 credential refused" });
        this.finish("refused");
      }
    });
    socket.on("open", () => {
      this.attempt = 0;
      this.hello("hello");
      this.heartbeat = setInterval(() => this.hello("heartbeat"), this.options.heartbeatMs ?? 30_000);
      this.store.log(`connected to ${this.config.server}`);
      this.setState("online", { connectedAt: new Date().toISOString(), lastError: null });
      this.folders.connected();
    });
    socket.on("message", (data, isBinary) => {
      const frame = decodeAgentFrame<AgentRequestFrame | AgentFileResultFrame | AgentFileOutFrame>(
        data,
        isBinary,
      );
      if (!frame) return;
      if ((frame as { type: string }).type === "welcome") {
        this.partsAccepted = ((frame as { protocol?: number }).protocol ?? 0) >= 3;
        return;
      }
      if ((frame as { type: string }).type === "release")
        return this.options.onRelease?.(frame as unknown as AgentReleaseFrame);
      if (frame.type === "file-import-result") return this.folders.onResult(frame);
      if (frame.type === "file-out") return this.folders.onFileOut(frame);
      const work =
        frame.type === "http"
          ? performHttp(frame, this.store.loadHttpAuth())
          : frame.type === "sql"
            ? this.sql.perform(frame)
            : undefined;
      if (!work) return;
      this.inFlight++;
      this.lastCallAt = Date.now();
      work.finally(() => this.inFlight--).catch(() => undefined);
      work.then(
        (answer) => {
          // In the form the call came in: a server that sent JSON may not read binary frames.
          if (socket.readyState === WebSocket.OPEN) this.send(socket, encodeAgentFrame(answer, isBinary));
        },
        (e) => this.store.log(`relay failed: ${String(e)}`),
      );
    });
    socket.on("error", (e) => {
      this.store.log(`connection error: ${e.message}`);
      this.status.lastError = e.message;
    });
    socket.on("close", (code) => {
      clearInterval(this.heartbeat);
      this.folders.disconnected();
      if (this.stopped || refused) return;
      this.setState("offline", { lastError: this.status.lastError ?? `closed (${code})` });
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect() {
    const min = this.options.minBackoffMs ?? 1000;
    const max = this.options.maxBackoffMs ?? 60_000;
    const base = Math.min(max, min * 2 ** this.attempt);
    this.attempt++;
    const delay = base / 2 + (this.options.random ?? Math.random)() * (base / 2);
    this.retry = setTimeout(() => this.connect(), delay);
  }
}

/** Exchanges a one-time code for the long-lived credential; the answer envelope is the server's. */
export async function pair(
  server: string,
  code: string,
  machineName = hostname(),
  proxy?: string,
  /** Windows accounts of this machine (`http-auth`): one for the proxy's host makes it NTLM. */
  auth: AgentHttpAuth = {},
): Promise<AgentConfig> {
  const res = await postJson(
    new URL("/api/agents/pair", server),
    { code, machineName },
    proxyAgentFor(proxy, auth),
  ).catch((e: unknown) => {
    if (e instanceof ProxyAuthError) throw e;
    throw new Error(
      message("agents.cli.serverUnreachable", {
        code: codeOf(e) ?? ((e as { cause?: unknown }).cause as Error | undefined)?.message ?? String(e),
      }),
    );
  });
  const envelope = res.body as {
    successful?: boolean;
    message?: string;
    data?: { agentId: number; credential: string };
  } | null;
  if (res.status !== 200 || !envelope?.successful || !envelope.data) {
    throw new Error(envelope?.message ?? `HTTP ${res.status}`);
  }
  return {
    server,
    agentId: envelope.data.agentId,
    credential: envelope.data.credential,
    ...(proxy ? { proxy } : {}),
  };
}

/** A JSON POST with node's client (global fetch takes no proxy agent on Node 20); 30 s bound. */
function postJson(
  url: URL,
  body: unknown,
  agent: HttpAgent | undefined,
): Promise<{ status: number; body: unknown }> {
  const data = Buffer.from(JSON.stringify(body));
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: "POST",
        agent,
        timeout: 30_000,
        headers: { "content-type": "application/json", "content-length": String(data.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })));
    req.on("error", reject);
    req.end(data);
  });
}
