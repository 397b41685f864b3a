/**
 * The HTTP scaffolding every emulator repeats: a Fastify server, call counting, the emulated rate limit,
 * injected faults (answered in the system's own shapes), request recording for conformance, timers and
 * shutdown. An emulator supplies its judge, its state and its handlers; it calls `gate` at the top of each
 * handler and sends its own answer unless the gate already did.
 */

import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import {
  type CallInfo,
  countCall,
  delay,
  dropConnection,
  EmulatedRateLimit,
  type EmulatorCounters,
  type ErrorBlockPolicy,
  ErrorRateBlock,
  type FaultConfig,
  FaultInjector,
  hangAndDrop,
  newCounters,
} from "./faults";
import { RequestRecorder, recordedFrom } from "./recorder";

/** How one system answers the failures the kit produces (each system has its own error bodies). */
export interface FaultAnswers {
  /** HTTP 5xx (the kit sends it with `status`; default 500). */
  serverError: { status?: number; contentType?: string; body: unknown };
  /** 429, from the emulated rate limit (`limit`) or an injected burst (`fault`). */
  tooManyRequests: (cause: "limit" | "fault") => unknown;
  /** "Record locked" (deadlock, LOCKED …): status and body. */
  lock: { status?: number; body: unknown };
  /** An injected `auth` fault: a valid token refused (default 401 `{ error: "unauthorized" }`). */
  unauthorized?: { status?: number; body: unknown };
  /** 429 while the client is blocked for its error share (with `errorBlock`); `until` is epoch ms. */
  blocked?: (until: number) => unknown;
}

/** The options every emulator takes (its own options extend these; `createEmulatorServer` reads them). */
export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** `false`: open no port; a host serves the app at `baseUrl` (see `mountEmulators`). */
  listen?: boolean;
  baseUrl?: string;
  seed?: number | string;
  faults?: FaultConfig;
  /** Requests per sliding window; `false`/absent = unlimited (unless the emulator has a default). */
  rateLimit?: { requests: number; windowMs: number } | false;
  /** How many requests the recorder keeps (newest first out of the cap; default 2,000). */
  maxRecorded?: number;
  now?: () => number;
}

/** What every emulator hands its test: where it listens, its counters, faults and recorded requests. */
export interface Emulator<C extends EmulatorCounters = EmulatorCounters> {
  url: string;
  port: number;
  /** The Fastify app (a host serves it when `listen: false`). */
  app: FastifyInstance;
  counters: C;
  faults: FaultInjector;
  /** Every request received, for conformance against the system's judge. */
  recorder: RequestRecorder;
  close(): Promise<void>;
}

export interface EmulatorServerOptions extends Omit<EmulatorOptions, "listen" | "baseUrl"> {
  /** Block a client whose share of failed answers is too high (handlers report via `noteOutcome`). */
  errorBlock?: ErrorBlockPolicy | false;
  answers: FaultAnswers;
  /** Route matching ignores case (MikroAPI methods do). */
  caseInsensitiveRoutes?: boolean;
  bodyLimit?: number;
  /** Parse `application/x-www-form-urlencoded` bodies into an object (OAuth token endpoints). */
  formBodies?: boolean;
}

/** What `gate` decided: answered (return the reply), drop the connection after the write, or go on. */
export type GateResult = "handled" | "drop" | undefined;

export interface EmulatorServer<C extends EmulatorCounters = EmulatorCounters> {
  app: FastifyInstance;
  counters: C;
  faults: FaultInjector;
  recorder: RequestRecorder;
  now: () => number;
  /**
   * Rate limit first (an over-limit request is counted as a violation, not as a call), then the call is
   * counted, then latency and the injected fault. `operation` names the call for counters and queued faults.
   */
  gate(
    req: FastifyRequest,
    reply: FastifyReply,
    call: CallInfo,
    opts?: { skipRateLimit?: boolean },
  ): Promise<GateResult>;
  /**
   * A token endpoint (OAuth and the like): POST `path`, gated as a read named `operation` outside the
   * rate limit, handing `handle` the form or JSON body.
   */
  tokenEndpoint(
    path: string,
    operation: string,
    handle: (body: Record<string, string>, req: FastifyRequest, reply: FastifyReply) => unknown,
  ): void;
  /** Only the rate-limit part of `gate` (for handlers that must check something else before counting). */
  rateLimit(reply: FastifyReply): Promise<boolean>;
  /** With `errorBlock`: answer 429 (`answers.blocked`) while the client is blocked; true when answered. */
  blocked(reply: FastifyReply): Promise<boolean>;
  /** Report an answered request to the error-share block (a failure also counts in `counters.errors`). */
  noteOutcome(isError: boolean): void;
  /** Epoch ms until which the client is blocked (0 = not blocked). */
  blockedUntil(): number;
  /** Only the fault part of `gate` (the call is counted by the caller). */
  injectFault(req: FastifyRequest, reply: FastifyReply, call: CallInfo): Promise<GateResult>;
  /** Finish a write whose answer the fault drops: the state is changed, the client never hears. */
  drop(req: FastifyRequest, reply: FastifyReply): FastifyReply;
  setRateLimit(limit: { requests: number; windowMs: number } | false): void;
  /** Run `fn` every `intervalMs` until the returned stop (or close) is called. */
  every(intervalMs: number, fn: () => void): () => void;
  resetCounters(extra?: Partial<C>): void;
  /** Start listening; the URL uses 127.0.0.1 so clients never depend on IPv6 resolution. */
  listen(): Promise<{ url: string; port: number }>;
  /**
   * Listen (or, with `listen: false`, only get ready to be served at `baseUrl`) and hand out what every
   * emulator gives its test; the emulator adds its own parts (credentials, state, controls).
   */
  start(opts: Pick<EmulatorOptions, "listen" | "baseUrl">): Promise<Emulator<C>>;
  close(): Promise<void>;
}

export function createEmulatorServer<C extends EmulatorCounters = EmulatorCounters>(
  opts: EmulatorServerOptions,
  extraCounters?: Omit<C, keyof EmulatorCounters>,
): EmulatorServer<C> {
  const now = opts.now ?? Date.now;
  const counters = { ...newCounters(), ...extraCounters } as C;
  const faults = new FaultInjector(opts.faults, opts.seed ?? 1);
  const recorder = new RequestRecorder(opts.maxRecorded);
  let limiter = opts.rateLimit
    ? new EmulatedRateLimit(opts.rateLimit.requests, opts.rateLimit.windowMs)
    : undefined;
  const errorBlock = opts.errorBlock ? new ErrorRateBlock(opts.errorBlock) : undefined;
  const timers = new Set<NodeJS.Timeout>();

  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: opts.bodyLimit ?? 64 * 1024 * 1024,
    routerOptions: { caseSensitive: !opts.caseInsensitiveRoutes },
  });
  if (opts.formBodies) {
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
  }
  // Every request, as the client sent it, before any fault or limit decides its fate.
  app.addHook("preHandler", async (req) => {
    recorder.record(recordedFrom(req, now()));
  });

  const answers = opts.answers;

  function noteOutcome(isError: boolean): void {
    if (isError) counters.errors++;
    errorBlock?.note(now(), isError);
  }

  async function rateLimit(reply: FastifyReply): Promise<boolean> {
    if (!limiter) return false;
    const wait = limiter.arrive(now());
    if (wait <= 0) return false;
    counters.requests++;
    counters.rateLimitViolations++;
    noteOutcome(true);
    await reply
      .code(429)
      .header("retry-after", String(Math.ceil(wait / 1000)))
      .send(answers.tooManyRequests("limit"));
    return true;
  }

  async function injectFault(req: FastifyRequest, reply: FastifyReply, call: CallInfo): Promise<GateResult> {
    const lat = faults.latency();
    if (lat > 0) await delay(lat);
    const kind = faults.decide(call);
    if (!kind) return undefined;
    counters.faults[kind]++;
    switch (kind) {
      case "5xx": {
        counters.errors++;
        const a = answers.serverError;
        const r = reply.code(a.status ?? 500);
        if (a.contentType) r.type(a.contentType);
        await r.send(a.body);
        return "handled";
      }
      case "429":
        counters.errors++;
        await reply
          .code(429)
          .header("retry-after", String(faults.retryAfterSeconds()))
          .send(answers.tooManyRequests("fault"));
        return "handled";
      case "timeout":
        await hangAndDrop(req, reply, faults.hangMs());
        return "handled";
      case "lock":
        counters.errors++;
        await reply.code(answers.lock.status ?? 200).send(answers.lock.body);
        return "handled";
      case "auth": {
        counters.errors++;
        counters.authFailures++;
        const a = answers.unauthorized ?? { body: { error: "unauthorized" } };
        await reply.code(a.status ?? 401).send(a.body);
        return "handled";
      }
      case "dropAfterWrite":
        return "drop";
    }
  }

  async function blocked(reply: FastifyReply): Promise<boolean> {
    const left = errorBlock?.remaining(now()) ?? 0;
    if (!errorBlock || left <= 0) return false;
    counters.requests++;
    counters.blockedResponses++;
    counters.errors++;
    await reply
      .code(429)
      .header("retry-after", String(Math.ceil(left / 1000)))
      .send(answers.blocked?.(errorBlock.blockedUntil) ?? answers.tooManyRequests("limit"));
    return true;
  }

  const gate: EmulatorServer<C>["gate"] = async (req, reply, call, o) => {
    if (!o?.skipRateLimit && (await rateLimit(reply))) return "handled";
    countCall(counters, call);
    return injectFault(req, reply, call);
  };

  return {
    app,
    counters,
    faults,
    recorder,
    now,
    rateLimit,
    blocked,
    noteOutcome,
    blockedUntil: () => errorBlock?.blockedUntil ?? 0,
    injectFault,
    gate,
    tokenEndpoint(path, operation, handle) {
      app.post(path, async (req, reply) => {
        if ((await gate(req, reply, { kind: "read", operation }, { skipRateLimit: true })) === "handled") {
          return reply;
        }
        return handle((req.body ?? {}) as Record<string, string>, req, reply);
      });
    },
    drop(req, reply) {
      dropConnection(req, reply);
      return reply;
    },
    setRateLimit(limit) {
      limiter = limit === false ? undefined : new EmulatedRateLimit(limit.requests, limit.windowMs);
    },
    every(intervalMs, fn) {
      const t = setInterval(fn, intervalMs);
      t.unref();
      timers.add(t);
      return () => {
        clearInterval(t);
        timers.delete(t);
      };
    },
    resetCounters(extra) {
      Object.assign(counters, newCounters(), extraCounters, extra);
      limiter?.reset();
    },
    async listen() {
      const address = await app.listen({ port: opts.port ?? 0, host: opts.host ?? "127.0.0.1" });
      const url = address.replace("[::1]", "127.0.0.1");
      return { url, port: Number(new URL(url).port) };
    },
    async start(o) {
      let url = o.baseUrl ?? "";
      let port = 0;
      if (o.listen === false) await app.ready();
      else ({ url, port } = await this.listen());
      return { url, port, app, counters, faults, recorder, close: () => this.close() };
    },
    async close() {
      for (const t of timers) clearInterval(t);
      timers.clear();
      await app.close();
    },
  };
}

/**
 * Serves emulators inside an existing Fastify app instead of on ports of their own: every request under
 * `prefix/<tenant>/…` is handed, body untouched, to the emulator app `resolve` answers for that tenant
 * (one emulator per tenant, created when first asked). Faults that cut the socket do not apply here:
 * mounted emulators are sandboxes, not test doubles.
 */
export async function mountEmulators(
  parent: FastifyInstance,
  opts: {
    prefix: string;
    resolve: (tenant: string) => Promise<FastifyInstance | undefined>;
    /** The host's request log for these routes (a busy sandbox would drown the host's own lines). */
    logLevel?: "warn" | "info" | "silent";
  },
): Promise<void> {
  await parent.register(
    async (scope) => {
      // The emulator parses the body itself, exactly as a standalone one would.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
      scope.all("/:tenant/*", async (req, reply) => {
        const { tenant, "*": rest } = req.params as { tenant: string; "*": string };
        const target = await opts.resolve(tenant);
        if (!target) return reply.code(404).send({ message: "Unknown sandbox" });
        const query = req.url.indexOf("?");
        const headers = { ...req.headers };
        for (const h of ["host", "content-length", "transfer-encoding", "connection"]) delete headers[h];
        const res = await target.inject({
          method: req.method as "GET",
          // The host router drops a trailing slash from `*` (ignoreTrailingSlash); the emulator's paths keep it.
          url: `/${rest ?? ""}${rest && !rest.endsWith("/") && /\/$/.test(req.url.split("?")[0]!) ? "/" : ""}${query >= 0 ? req.url.slice(query) : ""}`,
          headers: headers as Record<string, string>,
          payload: Buffer.isBuffer(req.body) ? req.body : undefined,
        });
        reply.code(res.statusCode);
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined && !["content-length", "transfer-encoding", "connection", "date"].includes(k))
            reply.header(k, v);
        }
        return reply.send(res.rawPayload);
      });
    },
    { prefix: opts.prefix, ...(opts.logLevel ? { logLevel: opts.logLevel } : {}) },
  );
}
