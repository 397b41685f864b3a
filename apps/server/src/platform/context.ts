import type { OutboundGuard } from "@ep/connectors";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { EngineHost } from "../modules/jobs/engine-host.ts";
import type { SandboxHub } from "../modules/sandbox/hub.ts";
import type { Database } from "./db/database.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { Queue } from "./queue/queue.ts";
import type { CaptchaService } from "./security/captcha.ts";
import type { CredentialCipher } from "./security/credentials.ts";
import type { TokenService } from "./security/tokens.ts";

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

/** What every module gets: the platform parts, built once at start. */
export type AppContext = {
  config: Config;
  database: Database;
  queue: Queue;
  logger: Logger;
  tokens: TokenService;
  captcha: CaptchaService;
  credentials: CredentialCipher;
  mailer: Mailer;
  /** Every call to an external system connects through it: public addresses only, unless allowed. */
  outbound: OutboundGuard;
  clock: Clock;
  /** The demo company's sign-in, shown on the login screen; null when no demo is seeded. */
  demoLogin: { email: string; password: string } | null;
  /** The built-in sandbox systems served at `/sandbox/{system}/…`. */
  sandbox: SandboxHub;
  /** The integration engine: run workers, scheduler, sweeper and the run-event hub. */
  engine: EngineHost;
};
