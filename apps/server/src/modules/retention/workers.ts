import type { AppContext } from "../../platform/context.ts";
import { RetentionService } from "./service.ts";

export const RETENTION_QUEUE = "retention";
/** A quiet hour in Turkey, away from the tickets' and the auth counters' own ticks. */
const RETENTION_CRON = "40 3 * * *";

/**
 * The nightly clean-up on the queue: pg-boss's cron sends one job a night for the whole cluster and
 * the singleton queue lets one worker hold it, so two worker processes never delete side by side.
 */
export async function startRetentionWorker(ctx: AppContext): Promise<void> {
  const { boss } = ctx.queue;
  await boss.createQueue(RETENTION_QUEUE, { name: RETENTION_QUEUE, policy: "singleton" });
  await boss.schedule(RETENTION_QUEUE, RETENTION_CRON, {}, { tz: "Europe/Istanbul" });
  const service = new RetentionService(ctx);
  await boss.work(RETENTION_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
    await service.applyAll();
  });
}
