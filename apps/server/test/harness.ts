import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { buildApp } from "../src/app.ts";
import { createContext, stopServer } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import type { Clock } from "../src/platform/context.ts";
import type { ServerContext } from "../src/server-context.ts";
import { freshPostgres } from "./support/fresh-database.ts";

/** A clock the test moves by hand (expiry of sessions, reset links, sign-in codes). */
export class TestClock implements Clock {
  private offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export type TestApp = {
  app: FastifyInstance;
  ctx: ServerContext;
  clock: TestClock;
  /** Every log line the server wrote, as text. */
  logs: string[];
  close(): Promise<void>;
};

/**
 * A real server on a fresh database: embedded PGlite in memory, or, when DATABASE_URL is set
 * (CI's second pass), a new PostgreSQL database made for this test file and dropped afterwards.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  boot: { scheduler?: boolean; leaseMs?: number } = {},
): Promise<TestApp> {
  const pgDatabase = await freshPostgres();
  const databaseUrl = pgDatabase?.url;
  const dropDatabase = async () => pgDatabase?.drop();
  const dataDir = mkdtempSync(join(tmpdir(), "ep-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    CONNECTOR_TIMEOUT_SECONDS: "1",
    PUBLIC_URL: "http://panel.test",
    // The tests' emulators listen on loopback, which the outbound guard refuses unless allowed.
    OUTBOUND_ALLOW: "127.0.0.1",
    // No demo company in the suites (the embedded default seeds one); a test that wants it sets DEMO=1.
    DEMO: "0",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = new TestClock();
  const ctx = await createContext(config, {
    clock,
    logDestination: sink,
    dataDirOverride: databaseUrl ? undefined : "memory",
    memoryTemplate: inject("pgliteTemplate"),
    scheduler: boot.scheduler ?? false,
    leaseMs: boot.leaseMs,
  });
  const app = await buildApp(ctx);
  return {
    app,
    ctx,
    clock,
    logs,
    async close() {
      await stopServer(ctx, { app });
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const validRegistration = (overrides: Record<string, unknown> = {}) => ({
  company_Name: "Anadolu Yapı Market",
  email: `ayse.${randomBytes(4).toString("hex")}@example.com`,
  password: "Guclu.Parola1",
  first_Name: "Ayşe",
  last_Name: "Yılmaz",
  phone: "05321234567",
  erpType: 9,
  ecommerceType: 1,
  ...overrides,
});

type Json = { successful: boolean; statusCode: number; message: string; data: any };

/** One call through Fastify's inject, answering status and parsed envelope. */
export async function call(
  app: FastifyInstance,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  options: { body?: unknown; token?: string; ip?: string } = {},
): Promise<{ status: number; body: Json }> {
  const response = await app.inject({
    method,
    url,
    payload: options.body as Record<string, unknown> | undefined,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    remoteAddress: options.ip ?? "127.0.0.1",
  });
  return { status: response.statusCode, body: response.json() as Json };
}

/** Registers a company and signs its user in; answers the token and the registration. */
export async function registerAndLogin(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const registration = validRegistration(overrides);
  // An address of its own, as for the sign-in: registrations are throttled per address.
  const reg = await call(app, "POST", "/api/account/register", {
    body: registration,
    ip: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  if (reg.status !== 200) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
  const login = await call(app, "POST", "/api/account/login", {
    body: { email: registration.email, password: registration.password },
    ip: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { registration, token: login.body.data.token as string, account: reg.body.data };
}

/** Polls `probe` until it answers something truthy; fails naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  pollMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
