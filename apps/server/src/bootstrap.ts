import { OutboundGuard } from "@ep/connectors";
import type { DestinationStream } from "pino";
import type { Config } from "./config.ts";
import { PASSWORD_RECOVERY_QUEUE } from "./modules/account/service.ts";
import { startAccountWorkers } from "./modules/account/workers.ts";
import { startConnectionCheckWorker } from "./modules/connection-check/workers.ts";
import { ENGINE_RUN_QUEUE, EngineHost } from "./modules/jobs/engine-host.ts";
import { COMPANY_DELETION_QUEUE, startCompanyDeletionWorker } from "./modules/privacy/service.ts";
import { startRetentionWorker } from "./modules/retention/workers.ts";
import { SandboxHub, sandboxOutboundAllow } from "./modules/sandbox/hub.ts";
import { ensureSupportAccount } from "./modules/support/create-support-user.ts";
import { startTicketAutoClose } from "./modules/tickets/auto-close.ts";
import { type Clock, systemClock } from "./platform/context.ts";
import { openDatabase } from "./platform/db/database.ts";
import { excel } from "./platform/excel.ts";
import { createLogger } from "./platform/logging.ts";
import { MAIL_QUEUE, Mailer } from "./platform/mail/mailer.ts";
import { startQueue } from "./platform/queue/queue.ts";
import { CaptchaService } from "./platform/security/captcha.ts";
import { CredentialCipher } from "./platform/security/credentials.ts";
import { loadSecrets } from "./platform/security/secrets.ts";
import { TokenService } from "./platform/security/tokens.ts";
import type { ServerContext } from "./server-context.ts";

export type BootOptions = {
  clock?: Clock;
  logDestination?: DestinationStream;
  /** `memory` keeps the embedded database in memory (tests). */
  dataDirOverride?: string | "memory";
  /** With `memory`: start from this migrated database dump (`writePgliteTemplate`; tests). */
  memoryTemplate?: string;
  /** Start the queue workers, scheduler and sweeper in this process (default: unless ROLE=api). */
  workers?: boolean;
  /** Run lease length (tests shorten it to watch the sweeper). */
  leaseMs?: number;
  /** Tick the scheduler and the sweeper (tests drive them by hand). */
  scheduler?: boolean;
};

/** A reason the server cannot start, already one line in Turkish and English: printed, never a stack. */
export class StartupError extends Error {}

const DATABASE_REASONS: Record<string, [tr: string, en: string]> = {
  ECONNREFUSED: ["sunucu bağlantıyı reddetti", "the server refused the connection"],
  ENOTFOUND: ["sunucu adı bulunamadı", "the host name was not found"],
  EAI_AGAIN: ["sunucu adı çözülemedi", "the host name could not be resolved"],
  ETIMEDOUT: ["sunucu zamanında yanıt vermedi", "the server did not answer in time"],
  EHOSTUNREACH: ["sunucuya ulaşılamıyor", "the host is unreachable"],
  "28P01": ["kullanıcı adı veya parola kabul edilmedi", "the user name or password was refused"],
  "28000": ["bu kullanıcının bağlanma izni yok", "this user may not connect"],
  "3D000": ["veritabanı bulunamadı", "the database does not exist"],
  "42501": ["kullanıcının yetkisi yetmiyor", "the user lacks a privilege"],
};

/** Where DATABASE_URL points, without its user name or password. */
function databaseTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "?";
  }
}

/** Maps a failure to open PostgreSQL to one line saying where and why (the driver's text stays out). */
export function databaseStartError(error: unknown, url: string): StartupError {
  const code = String((error as { code?: unknown })?.code ?? "");
  const [tr, en] = DATABASE_REASONS[code] ?? [
    `bağlantı kurulamadı${code ? ` (${code})` : ""}`,
    `the connection failed${code ? ` (${code})` : ""}`,
  ];
  const where = databaseTarget(url);
  return new StartupError(
    `DATABASE_URL: Veritabanına bağlanılamadı (${where}): ${tr}. / Cannot open the database (${where}): ${en}.`,
  );
}

/** Opens every platform part once: database and migrations, queue, secrets, mail. */
export async function createContext(config: Config, options: BootOptions = {}): Promise<ServerContext> {
  const logger = createLogger(config.logLevel, options.logDestination, config.logFormat);
  const secrets = loadSecrets(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: options.dataDirOverride ?? config.dataDir,
    embedded: config.embeddedDb,
    memoryTemplate: options.memoryTemplate,
    onIdleError: (error) => logger.warn({ err: error }, "idle database connection lost"),
    log: (message) => logger.info(message),
  }).catch((error: unknown) => {
    if (config.databaseUrl) throw databaseStartError(error, config.databaseUrl);
    if (String(error).includes("embedded PostgreSQL"))
      throw new StartupError(
        `Gömülü veritabanı başlatılamadı; EMBEDDED_DB=pglite ile PGlite kullanılabilir. / The embedded database did not start; EMBEDDED_DB=pglite uses PGlite instead. (${String(error).slice(0, 300)})`,
      );
    throw error;
  });
  const queue = await startQueue(database, logger, [
    MAIL_QUEUE,
    ENGINE_RUN_QUEUE,
    PASSWORD_RECOVERY_QUEUE,
    COMPANY_DELETION_QUEUE,
  ]);
  const clock = options.clock ?? systemClock;
  const mailer = new Mailer(database, logger, config.smtpUrl, config.mailFrom, clock);
  const base = {
    config,
    database,
    queue,
    logger,
    tokens: new TokenService(secrets.tokenSecret),
    captcha: new CaptchaService(secrets.tokenSecret),
    credentials: new CredentialCipher(
      new Map([[secrets.credentialKey.id, secrets.credentialKey.key]]),
      secrets.credentialKey.id,
    ),
    mailer,
    // The built-in sandboxes are served by this server: their one address is allowed, nothing else private.
    outbound: new OutboundGuard({
      allow: [...config.outboundAllow, ...sandboxOutboundAllow(config.sandboxUrl)],
      connectTimeoutMs: config.connectorTimeoutMs,
    }),
    clock,
    demoLogin: null,
    sandbox: new SandboxHub(config.sandboxUrl, secrets.tokenSecret, logger),
  };
  const workers = options.workers ?? config.role !== "api";
  const engine = new EngineHost(base, {
    workers,
    leaseMs: options.leaseMs ?? config.engineLeaseMs,
    connectorTimeoutMs: config.connectorTimeoutMs,
    connectorRateMultiplier: config.connectorRateMultiplier,
    scheduler: options.scheduler ?? true,
    stockProbeMs: config.stockProbeMs,
    // The embedded database belongs to this one process: whatever it found running died with the last one.
    recoverAtStart: database.kind === "pglite" || database.embedded === true,
  });
  const ctx: ServerContext = { ...base, engine };
  if (workers) await mailer.startWorker(queue);
  if (workers) await startAccountWorkers(ctx);
  if (workers) await startTicketAutoClose(ctx);
  if (workers) await startCompanyDeletionWorker(ctx);
  if (workers) await startRetentionWorker(ctx);
  // The daily connection check is a schedule like the engine's own: off where the engine's is.
  if (workers && (options.scheduler ?? true)) await startConnectionCheckWorker(ctx);
  if (config.supportAccount) await ensureSupportAccount(ctx, config.supportAccount);
  await engine.start();
  return ctx;
}

/**
 * How long a stop lets the work under way finish, all parts together: the whole stop (then the HTTP side
 * and the embedded database) must end before a process manager's kill (`docker stop`: 10 s).
 */
const DRAIN_MS = 5_000;

/** Takes no new work and lets the work under way finish: the engine's runs, then the other queue workers. */
export async function drainContext(ctx: ServerContext): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  await ctx.engine.stop(DRAIN_MS).catch((error) => ctx.logger.warn({ err: error }, "engine stop failed"));
  await ctx.queue
    .stop(deadline - Date.now())
    .catch((error) => ctx.logger.warn({ err: error }, "queue stop failed"));
}

/** Drains, then closes the platform parts; the database (the embedded cluster's stop) is the very last. */
export async function closeContext(ctx: ServerContext): Promise<void> {
  await drainContext(ctx);
  await ctx.outbound.close().catch(() => undefined);
  await ctx.sandbox.close();
  await ctx.database.close();
}

/**
 * Opens the HTTP side once what a first call would otherwise load synchronously is loaded: exceljs
 * for the exports (1–2 s of the event loop on a busy box), so no call ever waits on it.
 */
export async function listenWhenWarm(
  app: { listen(options: { port: number; host: string }): Promise<unknown> },
  config: Pick<Config, "port" | "host">,
): Promise<void> {
  excel();
  await app.listen({ port: config.port, host: config.host });
}

/**
 * The server's stop (SIGINT / SIGTERM). The runs under way drain first: they may still call the built-in
 * sandboxes and the demo's ERP through its agent, both reached over this server's own HTTP side. Then the
 * demo agent and the HTTP side close, then the platform parts, the database last.
 */
export async function stopServer(
  ctx: ServerContext,
  parts: { app?: { close(): Promise<unknown> }; demoAgent?: { stop(): Promise<void> } },
): Promise<void> {
  await drainContext(ctx);
  await parts.demoAgent?.stop();
  await parts.app?.close();
  await closeContext(ctx);
}
