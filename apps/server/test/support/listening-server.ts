import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../src/app.ts";
import { type BootOptions, createContext, stopServer } from "../../src/bootstrap.ts";
import { loadConfig } from "../../src/config.ts";
import type { ServerContext } from "../../src/server-context.ts";
import { freePort } from "./free-port.ts";
import { freshPostgres } from "./fresh-database.ts";

/**
 * A free port, held by a probe until `release` (called just before the server listens): building
 * the context takes seconds, and a port left free that long can be taken by another suite's
 * outgoing connection (EADDRINUSE).
 */
async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", ok));
  const { port } = probe.address() as { port: number };
  return { port, release: () => new Promise<void>((ok) => probe.close(() => ok())) };
}

/**
 * The real server listening on a free port for the suite (its sandboxes call it over HTTP): on a fresh
 * PostgreSQL database when DATABASE_URL is set, else on the embedded default in a temp data dir.
 * `server.app` / `server.ctx` are set once `beforeAll` has run.
 */
export function listeningServer(name: string, options: { host?: string } = {}) {
  const server = {} as { app: FastifyInstance; ctx: ServerContext; port: number };
  let pg: Awaited<ReturnType<typeof freshPostgres>>;
  beforeAll(async () => {
    pg = await freshPostgres();
    const reserved = await reservePort();
    server.port = reserved.port;
    // Released even when the server fails to build, so no probe outlives the suite.
    try {
      const config = loadConfig({
        DATA_DIR: mkdtempSync(join(tmpdir(), `ep-${name}-`)),
        PORT: String(server.port),
        DEMO: "0",
        CAPTCHA: "off",
        LOG_LEVEL: "warn",
        ...(pg ? { DATABASE_URL: pg.url } : {}),
      });
      server.ctx = await createContext(config, {
        logDestination: new Writable({ write: (_c, _e, d) => d() }),
        scheduler: false,
      });
      server.app = await buildApp(server.ctx);
    } finally {
      await reserved.release();
    }
    await server.app.listen({ port: server.port, host: options.host ?? "127.0.0.1" });
  }, 120_000);
  afterAll(async () => {
    if (server.ctx) await stopServer(server.ctx, { app: server.app });
    await pg?.drop();
  });
  return server;
}

/** One start of a restartable server: its app, context and stop. */
export type BootedServer = { app: FastifyInstance; ctx: ServerContext; stop(): Promise<void> };

/**
 * A server a suite stops and starts again (a restart test): each `boot()` is the real process's start
 * on the same data directory, database and port. `drop()` removes the fresh PostgreSQL database, if any.
 */
export async function restartableServer(
  name: string,
  options: { host?: string; clock?: BootOptions["clock"] } = {},
) {
  const pg = await freshPostgres();
  const port = await freePort();
  const env = {
    DATA_DIR: mkdtempSync(join(tmpdir(), `ep-${name}-`)),
    PORT: String(port),
    DEMO: "0",
    CAPTCHA: "off",
    LOG_LEVEL: "warn",
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  return {
    port,
    async boot(): Promise<BootedServer> {
      const ctx = await createContext(loadConfig(env), {
        clock: options.clock,
        logDestination: new Writable({ write: (_c, _e, d) => d() }),
        scheduler: false,
      });
      const app = await buildApp(ctx);
      await app.listen({ port, host: options.host ?? "0.0.0.0" });
      return { app, ctx, stop: () => stopServer(ctx, { app }) };
    },
    drop: async () => {
      await pg?.drop();
    },
  };
}
