import type { OutboundGuard } from "@ep/connectors";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Database } from "./db/database.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { Queue } from "./queue/queue.ts";
import type { CaptchaService } from "./security/captcha.ts";
import type { CredentialCipher } from "./security/credentials.ts";
import type { TokenService } from "./security/tokens.ts";

import type { Clock } from "./time/clock.ts";

export { type Clock, systemClock } from "./time/clock.ts";

/**
 * What every module gets: the platform parts, built once at start. The rooms above (the engine, the
 * sandboxes) add themselves in `server-context.ts`; the platform knows none of them.
 */
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
};
