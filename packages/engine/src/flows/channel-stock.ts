import { sql } from "drizzle-orm";
import { pendingOrderQuantities } from "../channels/pending-orders.ts";
import { allocateStock } from "../channels/stock-pool.ts";
import type { StockPoolView } from "../deps.ts";
import type { FlowContext } from "./flow.ts";

/**
 * Units ordered on any channel and not yet in the ERP, read when the stock run starts, before it reads
 * the ERP's stock: an order that reaches the ERP while the run reads is then counted twice for a moment
 * (offers a little low), never not at all (see `channelOffers`).
 */
export async function pendingAtStart(
  ctx: Pick<FlowContext, "db" | "companyId">,
): Promise<Map<string, number>> {
  const result = await ctx.db.execute<{ sku: string }>(sql`
    select distinct l->>'sku' as sku
    from order_ledger o cross join lateral jsonb_array_elements(
      case when jsonb_typeof(o.payload->'lines') = 'array' then o.payload->'lines' else '[]'::jsonb end
    ) l
    where o.company_id = ${ctx.companyId}::integer and o.state <> 'confirmed' and l->>'sku' is not null`);
  return pendingOrderQuantities(
    ctx.db,
    ctx.companyId,
    result.rows.map((r) => r.sku),
  );
}

/**
 * What this channel offers of each key (`sku@location`) of a chunk: per SKU, its share of the pool
 * (ERP stock − pending orders, less each channel's safety stock), laid over the SKU's keys in order.
 * Pending is read again now and the larger of both reads counts, so an order ingested since the start
 * is not missed.
 */
export async function channelShareOf(
  ctx: Pick<FlowContext, "db" | "companyId">,
  pool: StockPoolView,
  keys: string[],
  desired: Map<string, number>,
  atStart: Map<string, number>,
): Promise<Map<string, number>> {
  const bySku = new Map<string, string[]>();
  for (const key of keys) {
    const sku = key.slice(0, key.lastIndexOf("@"));
    const list = bySku.get(sku) ?? [];
    list.push(key);
    bySku.set(sku, list);
  }
  const now = await pendingOrderQuantities(ctx.db, ctx.companyId, [...bySku.keys()]);
  const out = new Map<string, number>();
  for (const [sku, skuKeys] of bySku) {
    const available = skuKeys.reduce((sum, k) => sum + Math.max(0, desired.get(k) ?? 0), 0);
    const pending = Math.max(now.get(sku) ?? 0, atStart.get(sku) ?? 0);
    let left =
      allocateStock({ erpAvailable: available, pendingNotInErp: pending, channels: pool.channels }).get(
        pool.channelKey,
      ) ?? 0;
    for (const key of skuKeys) {
      const give = Math.min(left, Math.max(0, Math.floor(desired.get(key) ?? 0)));
      out.set(key, give);
      left -= give;
    }
  }
  return out;
}
