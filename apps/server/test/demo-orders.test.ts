import { engineSchema } from "@ep/engine";
import { and, asc, eq, gte, like, lt, notLike } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { startDemoCompany } from "../src/modules/demo/demo-company.ts";
import { HISTORY_ORDER_PREFIX } from "../src/modules/demo/history.ts";
import { TURKEY_OFFSET_MS, turkishDayStart } from "../src/platform/time/turkey.ts";
import { call, TestClock } from "./harness.ts";
import { runJobOfType } from "./support/job-run.ts";
import { type BootedServer, restartableServer } from "./support/listening-server.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DEMO = { email: "demo@entegrasyonpaneli.com", password: "Demo.Panel2026", orderCheckMs: 200 };

// 14:00 in Turkey today: the demo shop's customers have been ordering since the morning.
const clock = new TestClock();
clock.advance(turkishDayStart(new Date()).getTime() + 14 * HOUR_MS - Date.now());

const restartable = await restartableServer("demo-orders", { host: "127.0.0.1", clock });

type Running = BootedServer & { companyId: number; token: string };

/** `npm start` with the demo, on the same data directory and database each time. */
async function boot(): Promise<Running> {
  const server = await restartable.boot();
  const { app, ctx } = server;
  const { companyId } = await startDemoCompany(ctx, DEMO);
  const login = await call(app, "POST", "/api/account/login", { body: DEMO, ip: "10.41.0.1" });
  return { ...server, companyId, token: login.body.data.token };
}

async function runOrders({ app, token }: Running) {
  return runJobOfType(app, token, "OrderIntegration", 600_000);
}

/** The demo shop's orders of today in the ledger, oldest first. */
async function todaysOrders({ ctx, companyId }: Running) {
  const { orderLedger } = engineSchema;
  const today = turkishDayStart(clock.now());
  return ctx.database.db
    .select({ orderNo: orderLedger.orderNo, orderDate: orderLedger.orderDate, state: orderLedger.state })
    .from(orderLedger)
    .where(
      and(
        eq(orderLedger.companyId, companyId),
        gte(orderLedger.orderDate, today),
        notLike(orderLedger.orderNo, `${HISTORY_ORDER_PREFIX}%`),
      ),
    )
    .orderBy(asc(orderLedger.orderDate));
}

/** How many orders the demo's past had, on average, on today's weekday (the last four of them). */
async function sameWeekdayAverage({ ctx, companyId }: Running) {
  const { orderLedger } = engineSchema;
  const today = turkishDayStart(clock.now()).getTime();
  let total = 0;
  for (let week = 1; week <= 4; week++) {
    const from = new Date(today - week * 7 * DAY_MS);
    const rows = await ctx.database.db
      .select({ orderNo: orderLedger.orderNo })
      .from(orderLedger)
      .where(
        and(
          eq(orderLedger.companyId, companyId),
          gte(orderLedger.orderDate, from),
          lt(orderLedger.orderDate, new Date(from.getTime() + DAY_MS)),
          like(orderLedger.orderNo, `${HISTORY_ORDER_PREFIX}%`),
        ),
      );
    total += rows.length;
  }
  return total / 4;
}

const number = (orderNo: string) => Number(orderNo);
const turkishHour = (at: Date) => new Date(at.getTime() + TURKEY_OFFSET_MS).getUTCHours();

let server: Running | undefined;
afterAll(async () => {
  await server?.stop();
  await restartable.drop();
});

describe("the demo shop's orders of today", () => {
  let first: Awaited<ReturnType<typeof todaysOrders>> = [];
  let stoppedAt = 0;

  it("arrive through the day at the pace of the demo's own past, not in a heap at start", async () => {
    server = await boot();
    const run = await runOrders(server);
    expect(run.status, run.report).toBe("Succeeded");
    first = await todaysOrders(server);
    const average = await sameWeekdayAverage(server);
    // By 14:00 some of the day's orders are in, fewer than a whole day's.
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(average);
    expect(first.every((o) => o.state === "confirmed")).toBe(true);
    // Placed when they were due, over the morning, not all at the start's instant.
    expect(new Set(first.map((o) => turkishHour(o.orderDate))).size).toBeGreaterThan(1);
    expect(first.every((o) => o.orderDate.getTime() <= clock.now().getTime())).toBe(true);
  }, 240_000);

  it("are kept after a restart, none doubled, and the shop's numbers go on from the last one", async () => {
    await server!.stop();
    stoppedAt = clock.now().getTime();
    server = await boot();
    const run = await runOrders(server);
    expect(run.status, run.report).toBe("Succeeded");
    const after = await todaysOrders(server);
    const before = new Map(first.map((o) => [o.orderNo, o.orderDate.getTime()]));
    // Every order of the morning is still there, with its own time.
    for (const [orderNo, at] of before)
      expect(after.find((o) => o.orderNo === orderNo)?.orderDate.getTime()).toBe(at);
    // Anything more is a new order that fell due since the stop, numbered after the last one.
    const added = after.filter((o) => !before.has(o.orderNo));
    const lastBefore = Math.max(...first.map((o) => number(o.orderNo)));
    for (const o of added) {
      expect(o.orderDate.getTime()).toBeGreaterThan(stoppedAt - 60_000);
      expect(number(o.orderNo)).toBeGreaterThan(lastBefore);
    }
    expect(added.length).toBeLessThanOrEqual(1);
  }, 240_000);

  it("keep arriving as the day goes on", async () => {
    const before = await todaysOrders(server!);
    const lastBefore = Math.max(...before.map((o) => number(o.orderNo)));
    // Four hours later (18:00): a share of the day's custom has come in meanwhile.
    clock.advance(4 * HOUR_MS);
    await new Promise((r) => setTimeout(r, 1_000));
    const run = await runOrders(server!);
    expect(run.status, run.report).toBe("Succeeded");
    const after = await todaysOrders(server!);
    const added = after.filter((o) => number(o.orderNo) > lastBefore);
    expect(added.length).toBeGreaterThanOrEqual(2);
    expect(after.length).toBe(before.length + added.length);
    expect(after.length).toBeLessThan(await sameWeekdayAverage(server!));
    expect(added.every((o) => turkishHour(o.orderDate) >= 14 && turkishHour(o.orderDate) <= 18)).toBe(true);
  }, 240_000);
});
