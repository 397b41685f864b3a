import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { webhookEndpoints } from "../src/modules/webhooks/schema.ts";
import type { TestApp } from "./harness.ts";

/** The shared steps of the webhook suites: a delivery, the runs it started, and waiting them out. */

/** A delivery as the shop sends it: a raw JSON body to the company's webhook URL. */
export const postWebhook = (t: TestApp, token: string, body: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/webhooks/${token}`,
    headers: { "content-type": "application/json" },
    payload: body,
  });

/** The company's runs started by a webhook. */
export const webhookRunsOf = (t: TestApp, companyId: number) =>
  t.ctx.database.db
    .select()
    .from(engineSchema.jobRuns)
    .where(and(eq(engineSchema.jobRuns.companyId, companyId), eq(engineSchema.jobRuns.trigger, "webhook")));

/** Waits until no run of the company is queued or running and no re-run is asked for. */
export async function webhooksIdle(t: TestApp, companyId: number, timeoutMs = 30_000) {
  const db = t.ctx.database.db;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const runs = await db
      .select()
      .from(engineSchema.jobRuns)
      .where(eq(engineSchema.jobRuns.companyId, companyId));
    const [ep] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, companyId));
    if (runs.every((r) => r.status !== "Queued" && r.status !== "Running") && !ep?.rerunRequestedAt) return;
    if (Date.now() > end) throw new Error("runs still active");
    await new Promise((r) => setTimeout(r, 100));
  }
}
