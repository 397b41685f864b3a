import { lt } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { captchaUses, loginAttempts } from "../../platform/db/schema.ts";
import { pruneHits } from "../../platform/security/throttle.ts";
import { AccountService, PASSWORD_RECOVERY_QUEUE, type RecoveryJob } from "./service.ts";

export const AUTH_HOUSEKEEPING_QUEUE = "auth-housekeeping";
/** Longer than every throttle window, so pruning never changes a count. */
const KEEP_COUNTERS_MS = 24 * 60 * 60_000;

/**
 * The account module's queue work: the password-recovery worker (its queue is created at start
 * with the others, so an API-only process can send to it) and an hourly prune of sign-in and
 * throttle counters and spent captchas.
 */
export async function startAccountWorkers(ctx: AppContext): Promise<void> {
  const { boss } = ctx.queue;
  const service = new AccountService(ctx);
  await boss.work<RecoveryJob>(
    PASSWORD_RECOVERY_QUEUE,
    { pollingIntervalSeconds: 0.5, batchSize: 20 },
    async (jobs) => {
      // One failure fails (and retries) only its own job: the batch's other links are already mailed.
      for (const job of jobs) {
        try {
          await service.sendResetLink(job.data);
        } catch (error) {
          // The error class only: a driver's message may carry the address (personal data).
          const errorClass = error instanceof Error ? error.constructor.name : typeof error;
          ctx.logger.warn({ jobId: job.id, errorClass }, "password recovery job failed");
          await boss.fail(PASSWORD_RECOVERY_QUEUE, job.id, { errorClass });
        }
      }
    },
  );
  await boss.createQueue(AUTH_HOUSEKEEPING_QUEUE, { name: AUTH_HOUSEKEEPING_QUEUE, policy: "singleton" });
  await boss.schedule(AUTH_HOUSEKEEPING_QUEUE, "17 * * * *", {}, { tz: "UTC" });
  await boss.work(AUTH_HOUSEKEEPING_QUEUE, { pollingIntervalSeconds: 0.5 }, () => pruneAuthCounters(ctx));
}

export async function pruneAuthCounters(ctx: Pick<AppContext, "database" | "clock">): Promise<void> {
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const before = new Date(now.getTime() - KEEP_COUNTERS_MS);
  await pruneHits(db, before);
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, before));
  await db.delete(captchaUses).where(lt(captchaUses.expiresAt, now));
}
