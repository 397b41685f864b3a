import type { DestinationStream } from "pino";
import type { Config } from "./config.ts";
import { ENGINE_RUN_QUEUE, EngineHost } from "./modules/jobs/engine-host.ts";
import { SandboxHub } from "./modules/sandbox/hub.ts";
import { ensureSupportAccount } from "./modules/support/create-support-user.ts";
import { startTicketAutoClose } from "./modules/tickets/auto-close.ts";
import { type AppContext, type Clock, systemClock } from "./platform/context.ts";
import { openDatabase } from "./platform/db/database.ts";
import { createLogger } from "./platform/logging.ts";
import { MAIL_QUEUE, Mailer } from "./platform/mail/mailer.ts";
import { startQueue } from "./platform/queue/queue.ts";
import { CaptchaService } from "./platform/security/captcha.ts";
import { CredentialCipher } from "./platform/security/credentials.ts";
import { loadSecrets } from "./platform/security/secrets.ts";
import { TokenService } from "./platform/security/tokens.ts";

export type BootOptions = {
  clock?: Clock;
  logDestination?: DestinationStream;
  /** `memory` keeps the embedded database in memory (tests). */
  dataDirOverride?: string | "memory";
  /** Start the queue workers, scheduler and sweeper in this process (default: unless ROLE=api). */
  workers?: boolean;
  /** Run lease length (tests shorten it to watch the sweeper). */
  leaseMs?: number;
  /** Tick the scheduler and the sweeper (tests drive them by hand). */
  scheduler?: boolean;
};

/** Opens every platform part once: database and migrations, queue, secrets, mail. */
export async function createContext(config: Config, options: BootOptions = {}): Promise<AppContext> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const secrets = loadSecrets(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: options.dataDirOverride ?? config.dataDir,
    onIdleError: (error) => logger.warn({ err: error }, "idle database connection lost"),
  });
  const queue = await startQueue(database, logger, [MAIL_QUEUE, ENGINE_RUN_QUEUE]);
  const mailer = new Mailer(database, logger, config.smtpUrl, config.mailFrom);
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
    clock: options.clock ?? systemClock,
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
    // The embedded database belongs to this one process: whatever it found running died with the last one.
    recoverAtStart: database.kind === "pglite",
  });
  const ctx: AppContext = { ...base, engine };
  if (workers) await mailer.startWorker(queue);
  if (workers) await startTicketAutoClose(ctx);
  if (config.supportAccount) await ensureSupportAccount(ctx, config.supportAccount);
  await engine.start();
  return ctx;
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.engine.stop().catch((error) => ctx.logger.warn({ err: error }, "engine stop failed"));
  await ctx.queue.stop().catch((error) => ctx.logger.warn({ err: error }, "queue stop failed"));
  await ctx.sandbox.close();
  await ctx.database.close();
}
