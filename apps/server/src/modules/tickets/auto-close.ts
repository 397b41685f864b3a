import type { AppContext } from "../../platform/context.ts";
import { TicketService } from "./service.ts";

export const TICKET_AUTO_CLOSE_QUEUE = "ticket-auto-close";

/**
 * The 24-hour auto-close on the queue: pg-boss's cron sends one job per tick for the whole cluster,
 * and the singleton queue lets only one worker hold it at a time.
 */
export async function startTicketAutoClose(ctx: AppContext): Promise<void> {
  const { boss } = ctx.queue;
  await boss.createQueue(TICKET_AUTO_CLOSE_QUEUE, { name: TICKET_AUTO_CLOSE_QUEUE, policy: "singleton" });
  await boss.schedule(TICKET_AUTO_CLOSE_QUEUE, "*/5 * * * *", {}, { tz: "UTC" });
  const service = new TicketService(ctx);
  await boss.work(TICKET_AUTO_CLOSE_QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
    await service.autoClose();
  });
}
