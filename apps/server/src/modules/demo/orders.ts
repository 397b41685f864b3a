import { Prng } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { and, eq, gte, lt, notLike, sql } from "drizzle-orm";
import type { Clock } from "../../platform/context.ts";
import type { Db } from "../../platform/db/database.ts";
import { TURKEY_OFFSET_MS, turkishDayStart } from "../../platform/time/turkey.ts";
import type { OrderArrivals } from "../sandbox/registry.ts";
import { HISTORY_ORDER_PREFIX } from "./history.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How far back the demo's own orders set its pace: four of each weekday. */
const RATE_DAYS = 28;

/**
 * When the demo shop's customers order: as many a day as the demo's past had on the same weekday
 * (the average of the last four), at the hours its past orders came in. A day's order times are fixed
 * by the day (seeded), so a restart finds the same day: the orders already in the ledger count as
 * placed, those due meanwhile arrive at start with the time they were due, and the store's order
 * numbers continue after the highest one kept.
 */
export async function demoOrderArrivals(
  db: Db,
  companyId: number,
  shopConnectionId: number,
  clock: Clock,
  checkEveryMs = 60_000,
): Promise<OrderArrivals> {
  const { orderLedger } = engineSchema;
  const today = turkishDayStart(clock.now());
  const past = await db
    .select({ at: orderLedger.orderDate })
    .from(orderLedger)
    .where(
      and(
        eq(orderLedger.companyId, companyId),
        gte(orderLedger.orderDate, new Date(today.getTime() - RATE_DAYS * DAY_MS)),
        lt(orderLedger.orderDate, today),
      ),
    );
  const perWeekday = Array.from({ length: 7 }, () => 0);
  const hours = Array.from({ length: 24 }, () => 0);
  for (const { at } of past) {
    const local = new Date(at.getTime() + TURKEY_OFFSET_MS);
    perWeekday[local.getUTCDay()]! += 1;
    hours[local.getUTCHours()]! += 1;
  }
  // Four of each weekday in the window; a demo with no past yet has no customers either.
  const dailyCount = (dayStart: number) =>
    Math.round(perWeekday[new Date(dayStart + TURKEY_OFFSET_MS).getUTCDay()]! / (RATE_DAYS / 7));
  const hourTotal = hours.reduce((a, b) => a + b, 0);

  const live = and(
    eq(orderLedger.shopConnectionId, shopConnectionId),
    notLike(orderLedger.orderNo, `${HISTORY_ORDER_PREFIX}%`),
  );
  const [kept] = await db
    .select({
      last: sql<
        number | null
      >`max(case when ${orderLedger.orderNo} ~ '^[0-9]{1,9}$' then ${orderLedger.orderNo}::int end)`,
      today: sql<number>`count(*) filter (where ${orderLedger.orderDate} >= ${today})`.mapWith(Number),
    })
    .from(orderLedger)
    .where(live);

  const schedules = new Map<number, number[]>();
  /** The instants a Turkish day's orders are placed: its count spread over the hours by their weight. */
  const schedule = (dayStart: number): number[] => {
    const found = schedules.get(dayStart);
    if (found) return found;
    const count = hourTotal === 0 ? 0 : dailyCount(dayStart);
    const prng = new Prng(`demo-orders-${companyId}-${dayStart}`);
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      // One order in each equal share of the day's custom, somewhere inside its share.
      let share = ((i + prng.next()) / count) * hourTotal;
      let hour = 0;
      while (hour < 23 && share >= hours[hour]!) share -= hours[hour++]!;
      times.push(dayStart + hour * HOUR_MS + Math.floor((share / (hours[hour]! || 1)) * HOUR_MS));
    }
    schedules.clear();
    schedules.set(dayStart, times);
    return times;
  };

  let day = today.getTime();
  let placed = Number(kept?.today ?? 0);
  return {
    lastOrderNumber: kept?.last ?? undefined,
    checkEveryMs,
    due() {
      const now = clock.now();
      const out: number[] = [];
      const current = turkishDayStart(now).getTime();
      if (current !== day) {
        // The rest of the day that ended, then the new day from its start.
        out.push(...schedule(day).slice(placed));
        day = current;
        placed = 0;
      }
      const dueNow = schedule(day).filter((at) => at <= now.getTime());
      out.push(...dueNow.slice(placed));
      placed = Math.max(placed, dueNow.length);
      return out;
    },
  };
}
