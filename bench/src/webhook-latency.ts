/**
 * Orders by webhook against polling: the time from an order created in the shop emulator (IKAS, signed
 * deliveries; Ideasoft, unsigned deliveries authenticated by the URL token) to its document in the Mikro
 * emulator, p50/p95, in one run of the real server (engine workers, queue, webhook endpoint; embedded
 * PGlite in memory). One company per shop.
 *
 * - webhook: the emulator POSTs the signed delivery to the server, which starts the order run; the
 *   latency is measured end to end on the wall clock.
 * - polling: the 5-minute schedule. Waiting 5 minutes per sample is not practical, so the wait for the
 *   next tick is drawn uniformly from [0, 300 s) (an order lands at a random moment of the interval)
 *   and the run that follows is executed and timed for real: latency = wait + measured run.
 *
 * Run: npm run bench:webhooks -w @ep/bench   (BENCH_ORDERS=20 by default)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import {
  ideasoftDescriptor,
  startIdeasoftEmulator,
  startIkasEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import { engineSchema, enqueueRun } from "@ep/engine";
import { buildApp } from "@ep/server/app";
import { closeContext, createContext } from "@ep/server/bootstrap";
import { loadConfig } from "@ep/server/config";
import { DELIVERIES_PER_MINUTE, WebhookService } from "@ep/server/webhooks";
import { and, eq, inArray } from "drizzle-orm";
import { benchCompany } from "./bench-company.ts";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20);
const POLL_INTERVAL_MS = 5 * 60_000;

function pct(values: number[], p: number): number {
  const s = [...values].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
}

async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

type Shop = "ikas" | "ideasoft";
type Ctx = Awaited<ReturnType<typeof createContext>>;
type App = Awaited<ReturnType<typeof buildApp>>;

/** The shop emulator with what the bench needs of it: new orders and the subscriptions' callbacks. */
async function startShop(kind: Shop) {
  if (kind === "ikas") {
    const shop = await startIkasEmulator({
      host: "127.0.0.1",
      seed: 5,
      productCount: 50,
      orderCount: 0,
      rateLimit: { requests: 500, windowMs: 1000 },
    });
    return { type: 1, credentials: { ...shop.credentials }, emulator: shop, webhooks: shop.webhooks };
  }
  const shop = await startIdeasoftEmulator({
    host: "127.0.0.1",
    seed: 5,
    productCount: 50,
    orderCount: 0,
    rateLimit: false,
  });
  return {
    type: ideasoftDescriptor.type,
    credentials: { ...shop.credentials },
    emulator: shop,
    webhooks: shop.webhooks,
  };
}

async function measure(ctx: Ctx, app: App, listenUrl: string, kind: Shop, orders: number) {
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed: 5, productCount: 60 });
  const shop = await startShop(kind);
  try {
    const companyId = await benchCompany(ctx, app, erp, shop);
    const db = ctx.database.db;
    const [job] = await db
      .select()
      .from(engineSchema.jobs)
      .where(and(eq(engineSchema.jobs.companyId, companyId), eq(engineSchema.jobs.type, "OrderIntegration")));
    if (!job) throw new Error("no order job");
    const status = await new WebhookService(ctx).register(companyId);
    if (!status.registered) throw new Error(`webhooks not registered: ${status.lastError}`);
    for (const s of shop.webhooks.subscriptions) s.uri = s.uri.replace("http://127.0.0.1", listenUrl);

    const erpOrders = () => erp.state.table("SIPARISLER").rows.length;
    const idle = async () => {
      for (;;) {
        const active = await db
          .select({ id: engineSchema.jobRuns.id })
          .from(engineSchema.jobRuns)
          .where(
            and(
              eq(engineSchema.jobRuns.companyId, companyId),
              inArray(engineSchema.jobRuns.status, ["Queued", "Running"]),
            ),
          );
        if (active.length === 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    // A first run moves nothing but warms the connectors' tokens and the database.
    await enqueueRun(ctx.engine.deps, companyId, job.id, "manual");
    await idle();

    const webhook: number[] = [];
    for (let i = 0; i < orders; i++) {
      const before = erpOrders();
      const t0 = performance.now();
      shop.emulator.generateOrders(1);
      await waitFor(() => erpOrders() > before);
      webhook.push(performance.now() - t0);
      await idle();
    }

    // Polling: no subscriptions, so only a scheduled run moves the order.
    shop.webhooks.subscriptions.splice(0);
    const polling: number[] = [];
    const runs: number[] = [];
    for (let i = 0; i < orders; i++) {
      const wait = Math.random() * POLL_INTERVAL_MS;
      const before = erpOrders();
      shop.emulator.generateOrders(1);
      const t0 = performance.now();
      await enqueueRun(ctx.engine.deps, companyId, job.id, "schedule");
      await waitFor(() => erpOrders() > before);
      const run = performance.now() - t0;
      runs.push(run);
      polling.push(wait + run);
      await idle();
    }

    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `${kind}: orders per mode: ${orders} (${kind} emulator → Mikro emulator, real server, PGlite)`,
    );
    console.log(
      `${kind} webhook: p50 ${s(pct(webhook, 50))}  p95 ${s(pct(webhook, 95))}  (wall clock, end to end)`,
    );
    console.log(
      `${kind} polling: p50 ${s(pct(polling, 50))}  p95 ${s(pct(polling, 95))}  (5-min schedule: uniform wait + measured run; run alone p50 ${s(pct(runs, 50))} p95 ${s(pct(runs, 95))})`,
    );
    console.log(`${kind} webhook/polling p50 ratio: ${(pct(webhook, 50) / pct(polling, 50)).toFixed(4)}`);
  } finally {
    await Promise.all([erp.close(), shop.emulator.close()]);
  }
}

async function main() {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), "ep-bench-wh-")),
    LOG_LEVEL: "warn",
    PUBLIC_URL: "http://127.0.0.1",
    OUTBOUND_ALLOW: "127.0.0.1",
    DEMO: "0",
    CAPTCHA: "off",
  });
  const ctx = await createContext(config, {
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
    dataDirOverride: "memory",
    scheduler: false,
  });
  const app = await buildApp(ctx);
  const listenUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    // Deliveries are capped per connection per minute, signed or not: each run stays under the cap.
    await measure(ctx, app, listenUrl, "ikas", Math.min(ORDERS, DELIVERIES_PER_MINUTE - 5));
    await measure(ctx, app, listenUrl, "ideasoft", Math.min(ORDERS, DELIVERIES_PER_MINUTE - 5));
  } finally {
    await app.close();
    await closeContext(ctx);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
