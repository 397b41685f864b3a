import type { Order } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { notInvoiced } from "./not-invoiced.ts";
import { exchangeRates, type RateSource } from "./schema.ts";

const { orderLedger } = engineSchema;

export interface MerchantRate {
  currency: string;
  /** YYYY-MM-DD: the day the merchant's rate is for. */
  date: string;
  /** TRY per one unit. */
  rate: number;
}

/** The company's rates, newest first per currency. */
export async function listRates(db: Db, companyId: number): Promise<MerchantRate[]> {
  const rows = await db
    .select()
    .from(exchangeRates)
    .where(eq(exchangeRates.companyId, companyId))
    .orderBy(asc(exchangeRates.currency), desc(exchangeRates.rateDate));
  return rows.map((r) => ({ currency: r.currency, date: r.rateDate, rate: r.rate }));
}

export async function saveRate(db: Db, companyId: number, rate: MerchantRate, at: Date): Promise<void> {
  await db
    .insert(exchangeRates)
    .values({ companyId, currency: rate.currency, rateDate: rate.date, rate: rate.rate, updatedAt: at })
    .onConflictDoUpdate({
      target: [exchangeRates.companyId, exchangeRates.currency, exchangeRates.rateDate],
      set: { rate: rate.rate, updatedAt: at },
    });
}

export async function deleteRate(db: Db, companyId: number, currency: string, date: string) {
  const gone = await db
    .delete(exchangeRates)
    .where(
      and(
        eq(exchangeRates.companyId, companyId),
        eq(exchangeRates.currency, currency),
        eq(exchangeRates.rateDate, date),
      ),
    )
    .returning({ currency: exchangeRates.currency });
  return gone.length > 0;
}

/**
 * The rate an invoice of `order` issued on `day` uses: the order's own (the shop's or, once written there,
 * the ERP's) when it carries one, else the merchant's newest rate for the currency dated on or before that
 * day. Never a guess: undefined when there is none (the invoice waits). A TRY order needs none.
 */
export function rateFor(
  order: Pick<Order, "currency" | "exchangeRate">,
  day: string,
  merchant: readonly MerchantRate[],
): { rate: number; source: RateSource; date?: string } | null | undefined {
  const currency = order.currency.toUpperCase();
  if (currency === "TRY") return null;
  if (order.exchangeRate !== undefined && Number.isFinite(order.exchangeRate) && order.exchangeRate > 0)
    return { rate: order.exchangeRate, source: "order" };
  const own = merchant.find((r) => r.currency === currency && r.date <= day);
  return own ? { rate: own.rate, source: "merchant", date: own.date } : undefined;
}

/**
 * Foreign-currency orders that wait for a rate: not invoiced yet, no rate of their own and none of the
 * merchant's dated on or before `day`, counted per currency (the Faturalar screen says which to enter).
 */
export async function ordersWaitingForRate(
  db: Db,
  companyId: number,
  day: string,
  eligible: (order: Order) => boolean,
): Promise<Array<{ currency: string; orders: number }>> {
  const currency = sql<string>`upper(${orderLedger.payload}->>'currency')`;
  const rows = await db
    .select({ payload: orderLedger.payload })
    .from(orderLedger)
    .where(and(eq(orderLedger.companyId, companyId), sql`${currency} <> 'TRY'`, notInvoiced(db, companyId)))
    .limit(5_000);
  const merchant = await listRates(db, companyId);
  const counts = new Map<string, number>();
  for (const { payload } of rows) {
    const order = payload as Order;
    if (!eligible(order) || rateFor(order, day, merchant) !== undefined) continue;
    const c = order.currency.toUpperCase();
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts].map(([c, orders]) => ({ currency: c, orders }));
}
