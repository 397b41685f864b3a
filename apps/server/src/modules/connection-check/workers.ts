import type { AppContext } from "../../platform/context.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { ConnectionCheckService } from "./service.ts";

export const CONNECTION_CHECK_DAILY_QUEUE = "connection-check-daily";
/** Every minute of the quiet hours of Turkish night (03:00–04:59): each tick checks a few sides. */
export const CONNECTION_CHECK_DAILY_CRON = "* 3-4 * * *";

/**
 * The daily connection check on the queue: pg-boss's cron sends one tick a minute in the quiet hours for
 * the whole cluster and the singleton queue lets one worker hold it, so two processes never check the
 * same side side by side (the sweep itself keeps to the quiet hours and to sides due).
 */
export async function startConnectionCheckWorker(ctx: AppContext & WithSandbox): Promise<void> {
  const { boss } = ctx.queue;
  await boss.createQueue(CONNECTION_CHECK_DAILY_QUEUE, {
    name: CONNECTION_CHECK_DAILY_QUEUE,
    policy: "singleton",
  });
  await boss.schedule(
    CONNECTION_CHECK_DAILY_QUEUE,
    CONNECTION_CHECK_DAILY_CRON,
    {},
    { tz: "Europe/Istanbul" },
  );
  const service = new ConnectionCheckService(ctx);
  await boss.work(CONNECTION_CHECK_DAILY_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
    await service.dailySweep();
  });
}
