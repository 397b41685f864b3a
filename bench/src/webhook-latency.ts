/**
 * Orders by webhook against polling: the time from an order created in the IKAS emulator to its
 * document in the Mikro emulator, p50/p95, in one run of the real server (engine workers, queue,
 * webhook endpoint; embedded PGlite in memory).
 *
 * - webhook: the emulator POSTs the signed delivery to the server, which starts the order run; the
 *   latency is measured end to end on the wall clock.
 * - polling: the 5-minute schedule. Waiting 5 minutes per sample is not practical, so the wait for the
 *   next tick is drawn uniformly from [0, 300 s) (an order lands at a random moment of the interval)
 *   and the run that follows is executed and timed for real: latency = wait + measured run.
 *
 * Run: npm run bench:webhooks -w @ep/bench   (BENCH_ORDERS=20 by default)
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { startIkasEmulator, startMikroEmulator } from "@ep/connectors";
import { engineSchema, enqueueRun, ensureCompanyJobs } from "@ep/engine";
import { buildApp } from "@ep/server/app";
import { closeContext, createContext } from "@ep/server/bootstrap";
import { loadConfig } from "@ep/server/config";
import { saveConnection } from "@ep/server/connections";
import { WebhookService } from "@ep/server/webhooks";
import { and, eq, inArray } from "drizzle-orm";

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
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed: 5, productCount: 60 });
  const shop = await startIkasEmulator({
    host: "127.0.0.1",
    seed: 5,
    productCount: 50,
    orderCount: 0,
    rateLimit: { requests: 500, windowMs: 1000 },
  });
  try {
    const email = `bench.${randomBytes(4).toString("hex")}@example.com`;
    const reg = await app.inject({
      method: "POST",
      url: "/api/account/register",
      payload: {
        company_Name: "Bench Ticaret",
        email,
        password: "Guclu.Parola1",
        first_Name: "Ayşe",
        last_Name: "Yılmaz",
        phone: "05321234567",
        erpType: 9,
        ecommerceType: 1,
      },
    });
    const companyId = (reg.json() as { data: { company: { id: number } } }).data.company.id;
    const db = ctx.database.db;
    await saveConnection(db, ctx.credentials, {
      companyId,
      kind: "erp",
      systemType: 9,
      credentials: { ...erp.credentials },
    });
    const shopRow = await saveConnection(db, ctx.credentials, {
      companyId,
      kind: "shop",
      systemType: 1,
      credentials: { ...shop.credentials },
    });
    await db
      .update(engineSchema.connections)
      .set({ lastTestOk: true })
      .where(eq(engineSchema.connections.id, shopRow.id));
    await ensureCompanyJobs(db, companyId, new Date());
    const [job] = await db
      .select()
      .from(engineSchema.jobs)
      .where(and(eq(engineSchema.jobs.companyId, companyId), eq(engineSchema.jobs.type, "OrderIntegration")));
    if (!job) throw new Error("no order job");
    const status = await new WebhookService(ctx).register(companyId);
    if (!status.registered) throw new Error(`webhooks not registered: ${status.lastError}`);
    for (const s of shop.webhooks.subscriptions) s.uri = s.uri.replace("http://127.0.0.1", listenUrl);

    const inErp = (orderNo: string) =>
      erp.state.table("SIPARISLER").rows.some((r) => String(r.sip_belgeno) === orderNo);
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
    for (let i = 0; i < ORDERS; i++) {
      const t0 = performance.now();
      const [order] = shop.generateOrders(1);
      await waitFor(() => inErp(order!.orderNumber));
      webhook.push(performance.now() - t0);
      await idle();
    }

    // Polling: no subscriptions, so only a scheduled run moves the order.
    shop.webhooks.unsubscribe("store/order/created");
    shop.webhooks.unsubscribe("store/order/updated");
    const polling: number[] = [];
    const runs: number[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const wait = Math.random() * POLL_INTERVAL_MS;
      const [order] = shop.generateOrders(1);
      const t0 = performance.now();
      await enqueueRun(ctx.engine.deps, companyId, job.id, "schedule");
      await waitFor(() => inErp(order!.orderNumber));
      const run = performance.now() - t0;
      runs.push(run);
      polling.push(wait + run);
      await idle();
    }

    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`orders per mode: ${ORDERS} (IKAS emulator → Mikro emulator, real server, PGlite)`);
    console.log(`webhook: p50 ${s(pct(webhook, 50))}  p95 ${s(pct(webhook, 95))}  (wall clock, end to end)`);
    console.log(
      `polling: p50 ${s(pct(polling, 50))}  p95 ${s(pct(polling, 95))}  (5-min schedule: uniform wait + measured run; run alone p50 ${s(pct(runs, 50))} p95 ${s(pct(runs, 95))})`,
    );
  } finally {
    await app.close();
    await Promise.all([erp.close(), shop.close()]);
    await closeContext(ctx);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
