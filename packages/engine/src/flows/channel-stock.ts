import { sql } from "drizzle-orm";
import { pendingOrderQuantities } from "../channels/pending-orders.ts";
import { offerBesideOthers } from "../channels/stock-pool.ts";
import type { StockPoolView } from "../deps.ts";
import type { FlowContext } from "./flow.ts";

/**
 * Units ordered on any channel and not yet in the ERP, read when the stock run starts, before it reads
 * the ERP's stock: an order that reaches the ERP while the run reads is then counted twice for a moment
 * (offers a little low), never not at all (see `channelOffers`).
 */
export function pendingAtStart(ctx: Pick<FlowContext, "db" | "companyId">): Promise<Map<string, number>> {
  return pendingOrderQuantities(ctx.db, ctx.companyId);
}

/** What the other channels show of each SKU now: what was last pushed to them (their stock ledger). */
async function shownByOthers(
  ctx: Pick<FlowContext, "db">,
  others: readonly number[],
  skus: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (others.length === 0 || skus.length === 0) return out;
  const result = await ctx.db.execute<{ sku: string; qty: string | number }>(sql`
    select left(key, length(key) - strpos(reverse(key), '@')) as sku, sum(coalesce(nullif(hash, '')::numeric, 0)) as qty
    from sync_ledger
    where connection_id = any(${sql.param([...others])}::int[]) and entity = 'stock'
      and left(key, length(key) - strpos(reverse(key), '@')) = any(${sql.param(skus)}::text[])
    group by 1`);
  for (const row of result.rows) out.set(row.sku, Number(row.qty));
  return out;
}

/**
 * What this channel offers of each key (`sku@location`) of a chunk: per SKU, its share of the pool
 * (ERP stock − pending orders, less each channel's safety stock), never more than the pool minus what
 * the other channels show now (shares pushed at different moments would not add up), laid over the
 * SKU's keys in order. Pending is read again now and the larger of both reads counts, so an order
 * ingested since the start is not missed.
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
  const skus = [...bySku.keys()];
  const now = await pendingOrderQuantities(ctx.db, ctx.companyId, skus);
  const shown = await shownByOthers(ctx, pool.otherConnections, skus);
  const out = new Map<string, number>();
  for (const [sku, skuKeys] of bySku) {
    const available = skuKeys.reduce((sum, k) => sum + Math.max(0, desired.get(k) ?? 0), 0);
    const pending = Math.max(now.get(sku) ?? 0, atStart.get(sku) ?? 0);
    let left = offerBesideOthers({
      erpAvailable: available,
      pendingNotInErp: pending,
      channels: pool.channels,
      channelKey: pool.channelKey,
      shownByOthers: shown.get(sku) ?? 0,
    });
    for (const key of skuKeys) {
      const give = Math.min(left, Math.max(0, Math.floor(desired.get(key) ?? 0)));
      out.set(key, give);
      left -= give;
    }
  }
  return out;
}
