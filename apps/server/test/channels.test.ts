import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { CallCounter } from "@ep/connectors";
import { engineSchema, pendingOrderQuantities } from "@ep/engine";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createContext, stopServer } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { openCompanyConnectors } from "../src/modules/connections/connector-factory.ts";
import { channelSandboxFor } from "../src/modules/sandbox/registry.ts";
import type { ServerContext } from "../src/server-context.ts";
import { call, registerAndLogin } from "./harness.ts";
import { freePort } from "./support/free-port.ts";
import { freshPostgres } from "./support/fresh-database.ts";
import { endedRun } from "./support/runs.ts";

/**
 * Issue 37: one ERP, many sales channels. A company on Mikro and IKAS sandboxes connects the Trendyol and
 * Hepsiburada sandboxes as channels; each channel has its own jobs, and the orders of every channel land
 * in Mikro once, under a reference naming the channel.
 */
type Running = { app: FastifyInstance; ctx: ServerContext; stop(): Promise<void> };

const pg = await freshPostgres();
const dataDir = mkdtempSync(join(tmpdir(), "ep-channels-"));
const port = await freePort();
const env = {
  DATA_DIR: dataDir,
  PORT: String(port),
  DEMO: "0",
  CAPTCHA: "off",
  LOG_LEVEL: "warn",
  ...(pg ? { DATABASE_URL: pg.url } : {}),
};

async function boot(): Promise<Running> {
  const config = loadConfig(env);
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const ctx = await createContext(config, { logDestination: sink, scheduler: false });
  const app = await buildApp(ctx);
  await app.listen({ port, host: "0.0.0.0" });
  return { app, ctx, stop: () => stopServer(ctx, { app }) };
}

async function runJob(app: FastifyInstance, token: string, jobId: number) {
  // A targeted stock run (an order on another channel starts one) may hold the job: 409 until it ends.
  let started = await call(app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token });
  for (let i = 0; i < 600 && started.status === 409; i++) {
    await new Promise((r) => setTimeout(r, 100));
    started = await call(app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token });
  }
  expect(started.status).toBe(200);
  return endedRun(app, token, started.body.data.runId as number);
}

let server: Running | undefined;
beforeAll(async () => {
  server = await boot();
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await pg?.drop();
});

describe("sales channels beside the shop", () => {
  let token = "";
  let other = "";
  let companyId = 0;
  let channels: Array<{ id: number; system: string; name: string }> = [];

  it("connects Mikro, IKAS and the Trendyol and Hepsiburada sandboxes in one call", async () => {
    const a = await registerAndLogin(server!.app);
    token = a.token;
    companyId = a.account.company.id;
    const res = await call(server!.app, "POST", "/api/sandbox/connect", {
      token,
      body: { channels: ["trendyol", "hepsiburada"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain("Deneme sistemlerine bağlandınız");
    expect(res.body.data.erp).toMatchObject({ productType: 9, lastTest: { ok: true } });
    expect(res.body.data.ecommerce).toMatchObject({ productType: 1, lastTest: { ok: true } });
    expect(res.body.data.channels).toEqual([
      expect.objectContaining({ system: "trendyol", name: "Trendyol", ok: true, jobsReady: true }),
      expect.objectContaining({ system: "hepsiburada", name: "Hepsiburada", ok: true, jobsReady: true }),
    ]);
    const list = await call(server!.app, "GET", "/api/channels", { token });
    expect(list.status).toBe(200);
    channels = list.body.data;
    expect(channels.map((c) => c.system)).toEqual(["trendyol", "hepsiburada"]);
    expect(list.body.data[0]).toMatchObject({ isEmulated: true, jobsReady: true, lastTest: { ok: true } });
    // Four sandboxes start and answer their first calls: seconds each on a busy machine.
  }, 180_000);

  it("keeps the shop's connection and its jobs as they were, and gives each channel its own jobs", async () => {
    const shop = await call(server!.app, "GET", "/api/Job/type-filter/OrderIntegration", { token });
    const orderJobs = shop.body.data as Array<{ id: number; channel_id: number | null; name: string }>;
    expect(orderJobs.map((j) => j.channel_id).sort()).toEqual([null, ...channels.map((c) => c.id)].sort());
    expect(new Set(orderJobs.map((j) => j.name))).toEqual(new Set(["Sipariş Aktarımı"]));
    // The shop keeps every job type; a channel has its stock, price, order and invoice jobs.
    const all = await call(
      server!.app,
      "GET",
      "/api/Job/type-filter/ProductIntegration,StockIntegration,PriceIntegration,OrderIntegration,InvoiceIntegration,CategoryIntegration,ProductUpdate",
      { token },
    );
    const ofChannel = (id: number | null) =>
      (all.body.data as Array<{ type: string; channel_id: number | null }>)
        .filter((j) => j.channel_id === id)
        .map((j) => j.type)
        .sort();
    expect(ofChannel(null)).toHaveLength(7);
    expect(ofChannel(channels[0]!.id)).toEqual([
      "InvoiceIntegration",
      "OrderIntegration",
      "PriceIntegration",
      "StockIntegration",
    ]);
    // The channel filter: the shop's jobs alone, or one channel's.
    const shopOnly = await call(server!.app, "GET", "/api/Job/type-filter/StockIntegration?channel=shop", {
      token,
    });
    expect(shopOnly.body.data.map((j: { channel_id: number | null }) => j.channel_id)).toEqual([null]);
    const one = await call(
      server!.app,
      "GET",
      `/api/Job/type-filter/StockIntegration?channel=${channels[1]!.id}`,
      {
        token,
      },
    );
    expect(one.body.data.map((j: { channel_id: number | null }) => j.channel_id)).toEqual([channels[1]!.id]);
    // The dashboard's connection status is the shop's, as before.
    const dash = await call(server!.app, "GET", "/api/Dashboard", { token });
    expect(dash.body.data.eCommerceAPIConnectionStatus).toBe(true);
    expect(dash.body.data.channels.map((c: { name: string }) => c.name)).toEqual(["Trendyol", "Hepsiburada"]);
  }, 60_000);

  it("answers another company's channel ids as unknown", async () => {
    const b = await registerAndLogin(server!.app);
    other = b.token;
    const id = channels[0]!.id;
    expect((await call(server!.app, "GET", "/api/channels", { token: other })).body.data).toEqual([]);
    expect((await call(server!.app, "POST", `/api/channels/${id}/test`, { token: other })).status).toBe(404);
    expect(
      (
        await call(server!.app, "PUT", `/api/channels/${id}/settings`, {
          token: other,
          body: { safety: { units: 1 } },
        })
      ).status,
    ).toBe(404);
    expect((await call(server!.app, "DELETE", `/api/channels/${id}`, { token: other })).status).toBe(404);
    // Still there for its own company.
    expect((await call(server!.app, "GET", "/api/channels", { token })).body.data).toHaveLength(2);
    const unknown = await call(server!.app, "POST", "/api/channels", {
      token,
      body: { system: "nope", fields: {} },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Bu pazaryeri için bağlantı henüz desteklenmiyor.");
  });

  it("tests a marketplace login before it is saved: the N11 and Amazon sandboxes answer as the others", async () => {
    for (const system of ["n11", "amazon"]) {
      const sandbox = channelSandboxFor(system);
      expect(sandbox, `${system} sandbox`).toBeDefined();
      const fields = server!.ctx.sandbox.credentials(sandbox!, companyId);
      const tested = await call(server!.app, "POST", "/api/channels/test", {
        token,
        body: { system, fields },
      });
      expect(tested.status).toBe(200);
      expect(tested.body.data, `${system}: ${tested.body.data.message}`).toMatchObject({ ok: true });
      const secret = Object.keys(fields).find((k) => /secret/i.test(k))!;
      const wrong = await call(server!.app, "POST", "/api/channels/test", {
        token,
        body: { system, fields: { ...fields, [secret]: `${fields[secret]}x` } },
      });
      expect(wrong.body.data.ok, `${system} with a wrong secret`).toBe(false);
    }
    // Nothing was saved by testing; a field the marketplace does not declare is refused.
    expect((await call(server!.app, "GET", "/api/channels", { token })).body.data).toHaveLength(2);
    const unknownField = await call(server!.app, "POST", "/api/channels/test", {
      token,
      body: { system: "n11", fields: { nope: "1" } },
    });
    expect(unknownField.status).toBe(400);
    const systems = await call(server!.app, "GET", "/api/channels/systems", { token });
    expect(
      systems.body.data
        .filter((s: { sandbox: boolean }) => s.sandbox)
        .map((s: { system: string }) => s.system),
    ).toEqual(["trendyol", "hepsiburada", "n11", "amazon"]);
  }, 120_000);

  it("moves every channel's orders into Mikro once, each under its channel's reference", async () => {
    const { orderLedger } = engineSchema;
    const orderJobs = (await call(server!.app, "GET", "/api/Job/type-filter/OrderIntegration", { token }))
      .body.data as Array<{ id: number; channel_id: number | null }>;
    // Run every channel's order job (and the shop's) twice: the second run finds nothing new to write.
    const first = [];
    for (const job of orderJobs) first.push({ job, run: await runJob(server!.app, token, job.id) });
    for (const { job, run } of first) {
      expect(run.status, `order run of channel ${job.channel_id}`).toBe("Succeeded");
      expect(
        run.counts.written,
        `orders written for channel ${job.channel_id}: ${run.report}`,
      ).toBeGreaterThan(0);
    }
    for (const job of orderJobs) {
      const again = await runJob(server!.app, token, job.id);
      expect(again.counts.written).toBe(0);
    }
    const db = server!.ctx.database.db;
    const rows = await db
      .select()
      .from(orderLedger)
      .where(and(eq(orderLedger.companyId, companyId), eq(orderLedger.state, "confirmed")));
    const byConnection = new Map<number, number>();
    for (const r of rows)
      byConnection.set(r.shopConnectionId, (byConnection.get(r.shopConnectionId) ?? 0) + 1);
    for (const c of channels) expect(byConnection.get(c.id) ?? 0).toBeGreaterThan(0);
    // One ERP document per order, never shared between channels.
    const documents = rows.map((r) => r.erpDocumentId);
    expect(new Set(documents).size).toBe(rows.length);
    // Each channel's history shows its own runs (its order runs, and the stock runs the other channels'
    // orders started for it); without a channel, every channel's (the total).
    const channelJobs = (
      await call(
        server!.app,
        "GET",
        `/api/Job/type-filter/StockIntegration,PriceIntegration,OrderIntegration?channel=${channels[0]!.id}`,
        { token },
      )
    ).body.data as Array<{ id: number }>;
    const history = await call(server!.app, "GET", `/api/JobHistory?channel=${channels[0]!.id}&pageSize=50`, {
      token,
    });
    expect(history.body.data.dataList.length).toBeGreaterThan(0);
    const orderJob = orderJobs.find((j) => j.channel_id === channels[0]!.id)!;
    expect(history.body.data.dataList.map((r: { jobId: number }) => r.jobId)).toContain(orderJob.id);
    for (const run of history.body.data.dataList) expect(channelJobs.map((j) => j.id)).toContain(run.jobId);
    const total = await call(server!.app, "GET", "/api/JobHistory?pageSize=50", { token });
    expect(total.body.data.totalCount).toBeGreaterThan(history.body.data.totalCount);
    // Mikro finds each channel's order by its prefixed reference, and the same number unprefixed is not
    // the channel's (it would be the shop's).
    const opened = await openCompanyConnectors(server!.ctx, companyId, new CallCounter());
    const prefix: Record<string, string> = { trendyol: "TY-", hepsiburada: "HB-" };
    for (const c of channels) {
      const mine = rows.filter((r) => r.shopConnectionId === c.id).slice(0, 3);
      for (const r of mine) {
        const found = await opened.erp.findOrderByRef(`${prefix[c.system]}${r.orderNo}`);
        expect(found?.documentId).toBe(r.erpDocumentId);
      }
    }
  }, 300_000);

  it("never offers more on the three channels together than the ERP holds minus open orders, under concurrent orders", async () => {
    const { orderLedger, syncLedger } = engineSchema;
    const db = server!.ctx.database.db;
    // Trendyol keeps 2 units back; Hepsiburada counts double.
    await call(server!.app, "PUT", `/api/channels/${channels[0]!.id}/settings`, {
      token,
      body: { safety: { units: 2 } },
    });
    await call(server!.app, "PUT", `/api/channels/${channels[1]!.id}/settings`, {
      token,
      body: { weight: 2 },
    });
    const stockJobs = (await call(server!.app, "GET", "/api/Job/type-filter/StockIntegration", { token }))
      .body.data as Array<{ id: number; channel_id: number | null }>;
    expect(stockJobs).toHaveLength(3);
    const opened = await openCompanyConnectors(server!.ctx, companyId, new CallCounter());
    const erpStock = new Map<string, number>();
    let pageToken: string | undefined;
    do {
      const page = await opened.erp.listStock({ pageToken });
      for (const l of page.items) erpStock.set(l.sku, (erpStock.get(l.sku) ?? 0) + Math.max(0, l.qty));
      pageToken = page.nextPageToken;
    } while (pageToken);
    const skus = [...erpStock.entries()]
      .filter(([, q]) => q > 0)
      .map(([sku]) => sku)
      .slice(0, 12);
    const connectionIds = [opened.shopConnectionId, ...channels.map((c) => c.id)];
    const template = (
      await db.select().from(orderLedger).where(eq(orderLedger.shopConnectionId, channels[0]!.id)).limit(1)
    )[0]!;
    let n = 0;
    /** An order arriving on a channel and not yet in the ERP (as order transfer ingests it). */
    const order = (connectionId: number, sku: string, qty: number) => {
      const orderNo = `CONC-${++n}`;
      return db.insert(orderLedger).values({
        companyId,
        shopConnectionId: connectionId,
        orderNo,
        shopOrderId: orderNo,
        orderDate: new Date(),
        payload: { ...(template.payload as object), orderNo, status: "Created", lines: [{ sku, qty }] },
      });
    };
    const offeredSum = async () => {
      const rows = await db
        .select()
        .from(syncLedger)
        .where(and(eq(syncLedger.entity, "stock"), inArray(syncLedger.connectionId, connectionIds)));
      const sum = new Map<string, number>();
      for (const r of rows) {
        const sku = r.key.slice(0, r.key.lastIndexOf("@"));
        sum.set(sku, (sum.get(sku) ?? 0) + Number(r.hash ?? 0));
      }
      return sum;
    };
    for (let round = 0; round < 3; round++) {
      // Orders on all three channels at once, while the three stock runs go.
      await Promise.all([
        ...stockJobs.map((j) => runJob(server!.app, token, j.id)),
        ...skus.flatMap((sku, i) => connectionIds.map((id, c) => order(id, sku, 1 + ((i + c + round) % 2)))),
      ]);
      // The runs after the orders: every channel's offer now counts them.
      const runs = await Promise.all(stockJobs.map((j) => runJob(server!.app, token, j.id)));
      for (const r of runs) expect(["Succeeded", "PartiallyFailed"]).toContain(r.status);
      const pending = await pendingOrderQuantities(db, companyId, skus);
      const offered = await offeredSum();
      let written = 0;
      for (const sku of skus) {
        const limit = Math.max(0, (erpStock.get(sku) ?? 0) - (pending.get(sku) ?? 0));
        expect(offered.get(sku) ?? 0, `${sku}: offered on all channels, round ${round}`).toBeLessThanOrEqual(
          limit,
        );
        written += offered.get(sku) ?? 0;
      }
      // Not vacuous: the channels do offer stock.
      if (round === 0) expect(written).toBeGreaterThan(0);
    }
  }, 600_000);

  it("keeps each channel's settings with it and removes a channel with its jobs", async () => {
    const id = channels[1]!.id;
    const saved = await call(server!.app, "PUT", `/api/channels/${id}/settings`, {
      token,
      body: { safety: { percent: 10 }, priceRule: { markupPercent: 12, rounding: "90" }, orderSeries: "HB" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.settings).toEqual({
      safety: { percent: 10 },
      priceRule: { markupPercent: 12, rounding: "90" },
      orderSeries: "HB",
    });
    // The preview shows the channel's prices under its rule before anything is sent (another company: none).
    const preview = await call(server!.app, "POST", `/api/settings/preview/PriceIntegration?channel=${id}`, {
      token,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data.rows.length).toBeGreaterThan(0);
    for (const row of preview.body.data.rows as Array<{ after: number }>)
      expect(Math.round(row.after * 100) % 100, `price ${row.after}`).toBe(90);
    const theirs = await call(server!.app, "POST", `/api/settings/preview/PriceIntegration?channel=${id}`, {
      token: other,
    });
    expect(theirs.status).not.toBe(200);
    const invalid = await call(server!.app, "PUT", `/api/channels/${id}/settings`, {
      token,
      body: { safety: { percent: 150 } },
    });
    expect(invalid.status).toBe(400);
    const removed = await call(server!.app, "DELETE", `/api/channels/${id}`, { token });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe("Hepsiburada satış kanalı kaldırıldı.");
    const jobs = (await call(server!.app, "GET", "/api/Job/type-filter/OrderIntegration", { token })).body
      .data;
    expect(jobs.map((j: { channel_id: number | null }) => j.channel_id).sort()).toEqual(
      [null, channels[0]!.id].sort(),
    );
  });
});
