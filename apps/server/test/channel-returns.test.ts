import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import {
  CallCounter,
  type HepsiburadaEmulator,
  type MikroEmulator,
  type TrendyolEmulator,
} from "@ep/connectors";
import { engineSchema, pendingOrderQuantities } from "@ep/engine";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createContext, stopServer } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { openCompanyConnectors } from "../src/modules/connections/connector-factory.ts";
import type { ServerContext } from "../src/server-context.ts";
import { call, registerAndLogin, until } from "./harness.ts";
import { freePort } from "./support/free-port.ts";
import { freshPostgres } from "./support/fresh-database.ts";
import { runJobById } from "./support/job-run.ts";

/**
 * Issue 37, items 2 and 4: cancellations and returns coming back from Trendyol and Hepsiburada reach
 * the ledger once and Mikro once (a cancelled order is removed there unless already invoiced; a return
 * stays and is counted), also after a repeat run; and an order on one channel lowers what the other
 * channels offer at once (a targeted stock run), never above the pool.
 */
type Running = { app: FastifyInstance; ctx: ServerContext; stop(): Promise<void> };

const pg = await freshPostgres();
const port = await freePort();
const env = {
  DATA_DIR: mkdtempSync(join(tmpdir(), "ep-returns-")),
  PORT: String(port),
  DEMO: "0",
  CAPTCHA: "off",
  LOG_LEVEL: "warn",
  ...(pg ? { DATABASE_URL: pg.url } : {}),
};

let server: Running;
beforeAll(async () => {
  const ctx = await createContext(loadConfig(env), {
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
    scheduler: false,
  });
  const app = await buildApp(ctx);
  await app.listen({ port, host: "0.0.0.0" });
  server = { app, ctx, stop: () => stopServer(ctx, { app }) };
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await pg?.drop();
});

/** A stock job a targeted run holds (an order on another channel starts one) answers 409 until it ends. */
const runJob = (token: string, jobId: number) => runJobById(server.app, token, jobId);

type Job = { id: number; channel_id: number | null };
const jobsOf = async (token: string, type: string) =>
  (await call(server.app, "GET", `/api/Job/type-filter/${type}`, { token })).body.data as Job[];

describe("cancellations and returns from the marketplaces", () => {
  const { orderLedger, syncLedger, jobRuns } = engineSchema;
  let token = "";
  let companyId = 0;
  let channels: Array<{ id: number; system: string }> = [];
  const db = () => server.ctx.database.db;
  const rowsOf = (connectionId: number) =>
    db()
      .select()
      .from(orderLedger)
      .where(and(eq(orderLedger.shopConnectionId, connectionId), eq(orderLedger.state, "confirmed")));

  it("connects Mikro, IKAS, Trendyol and Hepsiburada and moves the channels' orders into Mikro", async () => {
    const a = await registerAndLogin(server.app);
    token = a.token;
    companyId = a.account.company.id;
    const res = await call(server.app, "POST", "/api/sandbox/connect", {
      token,
      body: { channels: ["trendyol", "hepsiburada"] },
    });
    expect(res.status).toBe(200);
    channels = (await call(server.app, "GET", "/api/channels", { token })).body.data;
    for (const job of (await jobsOf(token, "OrderIntegration")).filter((j) => j.channel_id !== null)) {
      const run = await runJob(token, job.id);
      expect(run.counts.written, run.report).toBeGreaterThan(1);
    }
  }, 300_000);

  it("removes a cancelled order from Mikro once and keeps a returned one, for Trendyol and Hepsiburada", async () => {
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter());
    const prefix: Record<string, string> = { trendyol: "TY-", hepsiburada: "HB-" };
    const orderJobs = await jobsOf(token, "OrderIntegration");
    const picked: Array<{ channel: number; key: string; kind: "cancel" | "return"; ref: string }> = [];
    for (const c of channels) {
      const [cancelled, returned] = await rowsOf(c.id);
      expect(cancelled && returned, `two confirmed orders on ${c.system}`).toBeTruthy();
      const payloadNo = (r: typeof cancelled) => String((r!.payload as { orderNo: string }).orderNo);
      if (c.system === "trendyol") {
        const emu = (await server.ctx.sandbox.emulatorOf("trendyol", companyId)) as TrendyolEmulator;
        emu.cancelPackage(cancelled!.shopOrderId);
        // A return accepted through Trendyol's claims (the package's own status stays as it was).
        emu.acceptClaim(returned!.shopOrderId);
      } else {
        const emu = (await server.ctx.sandbox.emulatorOf("hepsiburada", companyId)) as HepsiburadaEmulator;
        emu.cancelOrder(payloadNo(cancelled));
        emu.returnOrder(payloadNo(returned), "Accepted");
      }
      picked.push({
        channel: c.id,
        key: cancelled!.orderNo,
        kind: "cancel",
        ref: `${prefix[c.system]}${cancelled!.orderNo}`,
      });
      picked.push({
        channel: c.id,
        key: returned!.orderNo,
        kind: "return",
        ref: `${prefix[c.system]}${returned!.orderNo}`,
      });
      // Still in Mikro before the channel's order job reads the change.
      expect(await opened.erp.findOrderByRef(`${prefix[c.system]}${cancelled!.orderNo}`)).not.toBeNull();
    }
    // Twice: the second run finds every change settled and removes nothing more.
    for (let round = 0; round < 2; round++) {
      for (const job of orderJobs.filter((j) => j.channel_id !== null)) {
        const run = await runJob(token, job.id);
        expect(["Succeeded", "PartiallyFailed"], run.report).toContain(run.status);
      }
      for (const p of picked) {
        const [row] = await db()
          .select()
          .from(orderLedger)
          .where(and(eq(orderLedger.shopConnectionId, p.channel), eq(orderLedger.orderNo, p.key)));
        expect(row?.returnKind, `${p.ref}: recorded as ${p.kind}`).toBe(p.kind);
        if (p.kind === "return") {
          // Mikro keeps the sale; the merchant books the return (the run says how many).
          expect(row?.returnState).toBe("kept");
          expect(await opened.erp.findOrderByRef(p.ref)).not.toBeNull();
        } else if (row?.returnState === "erp_cancelled") {
          expect(await opened.erp.findOrderByRef(p.ref), `${p.ref} removed from Mikro`).toBeNull();
        } else {
          // The sandbox's accountant invoiced it first: Mikro keeps an invoiced order.
          expect(row?.returnState).toBe("kept");
          expect((await opened.erp.listInvoicesForOrder(p.ref)).length).toBeGreaterThan(0);
        }
      }
    }
    // Exactly one removal per cancelled order: Mikro's delete was called no more often than that.
    const mikro = (await server.ctx.sandbox.emulatorOf("mikro", companyId)) as MikroEmulator;
    const removed = await db()
      .select()
      .from(orderLedger)
      .where(and(eq(orderLedger.companyId, companyId), eq(orderLedger.returnState, "erp_cancelled")));
    expect(mikro.counters.byOperation.SiparisSilV2 ?? 0).toBe(removed.length);
    // The sandbox's accountant first invoices two minutes after the connect: these were removed.
    expect(removed.length).toBeGreaterThanOrEqual(1);
    // A cancelled order holds no stock any more.
    const recorded = await db()
      .select()
      .from(orderLedger)
      .where(and(eq(orderLedger.companyId, companyId), isNotNull(orderLedger.returnKind)));
    expect(recorded.length).toBeGreaterThanOrEqual(4);
  }, 600_000);

  it("lowers the other channels' offers at once when an order arrives on Trendyol, never above the pool", async () => {
    const stockJobs = await jobsOf(token, "StockIntegration");
    expect(stockJobs).toHaveLength(3);
    for (const j of stockJobs) await runJob(token, j.id);
    const trendyol = channels.find((c) => c.system === "trendyol")!;
    const hepsiburada = channels.find((c) => c.system === "hepsiburada")!;
    const hbJob = stockJobs.find((j) => j.channel_id === hepsiburada.id)!;
    const offered = async (connectionId: number, sku: string) => {
      const rows = await db()
        .select()
        .from(syncLedger)
        .where(and(eq(syncLedger.connectionId, connectionId), eq(syncLedger.entity, "stock")));
      return rows
        .filter((r) => r.key.slice(0, r.key.lastIndexOf("@")) === sku)
        .reduce((s, r) => s + Number(r.hash ?? 0), 0);
    };
    // A new Trendyol order whose SKU Hepsiburada offers; Mikro refuses to take it for now, so it stays
    // pending (not in the ERP) and must come off the other channels' offers.
    const ty = (await server.ctx.sandbox.emulatorOf("trendyol", companyId)) as TrendyolEmulator;
    const mikro = (await server.ctx.sandbox.emulatorOf("mikro", companyId)) as MikroEmulator;
    let sku = "";
    let before = 0;
    for (let i = 0; i < 20 && before === 0; i++) {
      const [pkg] = ty.generateOrders(1);
      const lines = (pkg?.lines ?? []) as Array<{ merchantSku?: string; stockCode?: string }>;
      for (const l of lines) {
        const s = String(l.merchantSku ?? l.stockCode ?? "");
        const b = await offered(hepsiburada.id, s);
        if (b > 0) {
          sku = s;
          before = b;
          break;
        }
      }
    }
    expect(before, "Hepsiburada offers the ordered SKU").toBeGreaterThan(0);
    const lastRun = async () =>
      (
        await db()
          .select()
          .from(jobRuns)
          .where(eq(jobRuns.jobId, hbJob.id))
          .orderBy(desc(jobRuns.id))
          .limit(1)
      )[0];
    const runBefore = (await lastRun())!.id;
    mikro.setFaults({ queue: [{ kind: "5xx", operation: "SiparisKaydetV2", times: 100_000 }] });
    try {
      const orderJob = (await jobsOf(token, "OrderIntegration")).find((j) => j.channel_id === trendyol.id)!;
      await runJob(token, orderJob.id);
      // Hepsiburada's stock job runs for the ordered SKUs now, not on its schedule.
      const targeted = await until(
        "Hepsiburada's targeted stock run",
        async () => {
          const r = await lastRun();
          return r && r.id > runBefore && r.status !== "Queued" && r.status !== "Running" ? r : undefined;
        },
        120_000,
      );
      expect(targeted.trigger).toBe("webhook");
      expect(targeted.onlyKeys).toContain(sku);
    } finally {
      mikro.setFaults({});
    }
    const pending = await pendingOrderQuantities(db(), companyId, [sku]);
    expect(pending.get(sku) ?? 0).toBeGreaterThan(0);
    expect(await offered(hepsiburada.id, sku)).toBeLessThan(before);
    // Never above the pool: the three channels together offer at most the ERP's stock minus pending.
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter());
    let erp = 0;
    let pageToken: string | undefined;
    do {
      const page = await opened.erp.listStock({ pageToken });
      for (const l of page.items) if (l.sku === sku) erp += Math.max(0, l.qty);
      pageToken = page.nextPageToken;
    } while (pageToken);
    const ids = [opened.shopConnectionId, ...channels.map((c) => c.id)];
    let sum = 0;
    for (const id of ids) sum += await offered(id, sku);
    expect(sum).toBeLessThanOrEqual(Math.max(0, erp - (pending.get(sku) ?? 0)));
    expect(ids).toHaveLength(3);
  }, 600_000);
});
