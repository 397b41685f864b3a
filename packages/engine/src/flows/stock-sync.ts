import type { StockUpdate } from "@ep/connectors";
import { message } from "@ep/contracts";
import { MerchantFacingError } from "../runs/failure-text.ts";
import { BatchWriter } from "./batch-writer.ts";
import { channelShareOf, pendingAtStart } from "./channel-stock.ts";
import { type Flow, failBindingConflict, inSync } from "./flow.ts";
import { fullReadStarts, readChains } from "./read-ahead.ts";
import { resolveVariantBindings } from "./shop-bindings.ts";

const DIFF_CHUNK = 2000;

/**
 * StockSync: ERP stock per warehouse, summed into the shop's stock locations as the company maps
 * them, compared with what was last pushed, and only the differences written, in the shop's
 * largest stock batches. A run with nothing changed makes no write call.
 */
export const stockSync: Flow = async (ctx) => {
  // Selling on several channels, each writes only its share of one pool (read pending orders first).
  const pool = ctx.stockPool ?? null;
  const pendingBefore = pool ? await pendingAtStart(ctx) : new Map<string, number>();
  // A run the stock probe started reads only what changed since the last mark (both systems' ledger
  // already holds the rest); without a mark, or for an ERP without stock marks, it reads everything.
  const stream = stockMarkStream(ctx.erpConnectionId);
  const marks = ctx.erp.descriptor.changeCursors?.stock === true;
  const since = marks && ctx.trigger === "change" ? await ctx.ledger.cursor(stream) : undefined;
  let mark: string | undefined;
  const readStock = async (pageToken: string | undefined) => {
    const page = await ctx.erp.listStock(since ? { since, pageToken } : { pageToken });
    if (page.cursor) mark = page.cursor;
    return page;
  };

  // A full read the ERP can split goes as several chains of disjoint code ranges at once. The split
  // needs nothing of the locations: it is asked for beside them, so the first page is not a round
  // trip later (a failure still surfaces when it is awaited below).
  const startsOfRead = since ? Promise.resolve([undefined]) : fullReadStarts(ctx.erp, "stock");
  startsOfRead.catch(() => undefined);
  const [shopLocations, erpLocations] = await Promise.all([
    ctx.shop.listStockLocations(),
    ctx.erp.listStockLocations(),
  ]);
  const firstShopLocation = shopLocations[0];
  if (!firstShopLocation) throw new MerchantFacingError("engine.noShopStockLocation");
  const mapping =
    ctx.mappings.stockLocations.length > 0
      ? ctx.mappings.stockLocations
      : [{ shopLocationId: firstShopLocation.id, erpLocations: erpLocations.map((l) => l.id) }];
  const erpToShop = new Map<string, string>();
  for (const m of mapping) for (const e of m.erpLocations) erpToShop.set(e, m.shopLocationId);

  const shopKey = (sku: string, location: string) => {
    if (ctx.onlyKeys && !ctx.onlyKeys.has(sku)) return undefined;
    const shopLocation = erpToShop.get(location);
    return shopLocation ? `${sku}@${shopLocation}` : undefined;
  };

  const writer = new BatchWriter<StockUpdate>(
    ctx,
    "stock",
    ctx.shop.descriptor.batch.stock ?? 100,
    (items) => ctx.shop.setStock(items),
    (item) => item.sku,
    { failurePayload: (item) => ({ sku: item.sku, location: item.locationId, qty: item.qty }) },
  );
  let missing = 0;

  /** Compares keys (sku@shopLocation) whose totals are complete with the ledger; queues the differences. */
  const diffAndWrite = async (keys: string[], erpDesired: Map<string, number>) => {
    for (let i = 0; i < keys.length; i += DIFF_CHUNK) {
      const chunk = keys.slice(i, i + DIFF_CHUNK);
      const desired = pool ? await channelShareOf(ctx, pool, chunk, erpDesired, pendingBefore) : erpDesired;
      const last = await ctx.ledger.get("stock", chunk);
      const changed = chunk.filter(
        (key) => last.get(key)?.hash !== String(shownQty(desired.get(key)!, ctx.mappings.minStock)),
      );
      // A retried record the shop already shows as the ERP has it needs nothing more: its task resolves.
      if (ctx.onlyKeys) ctx.tally.moved(inSync(chunk, changed, (key) => key.slice(0, key.lastIndexOf("@"))));
      if (changed.length === 0) continue;
      const skus = changed.map((key) => key.slice(0, key.lastIndexOf("@")));
      const { bound, conflicts } = await resolveVariantBindings(ctx, [...new Set(skus)]);
      for (const key of changed) {
        const at = key.lastIndexOf("@");
        const sku = key.slice(0, at);
        const binding = bound.get(sku);
        if (!binding) {
          const heldBy = conflicts.get(sku);
          if (heldBy) {
            const qty = shownQty(desired.get(key)!, ctx.mappings.minStock);
            failBindingConflict(ctx, sku, { key: sku, heldBy }, { sku, location: key.slice(at + 1), qty });
          } else missing++;
          continue;
        }
        ctx.tally.changed(1);
        const qty = shownQty(desired.get(key)!, ctx.mappings.minStock);
        await writer.add({
          key: sku,
          ledgerKey: key,
          hash: String(qty),
          item: {
            sku,
            locationId: key.slice(at + 1),
            qty,
            productId: binding.productId,
            variantId: binding.variantId,
          },
        });
      }
    }
  };

  /**
   * Adds one SKU's warehouse quantities into the shop locations they are mapped to; answers the keys.
   * Each ERP warehouse counts once: one listed twice (the ERP paged while it was being edited) keeps
   * its last row.
   */
  const addLevels = (sku: string, levels: Map<string, number>, desired: Map<string, number>) => {
    const keys = new Set<string>();
    for (const [location, qty] of levels) {
      const key = shopKey(sku, location);
      if (!key) continue;
      keys.add(key);
      desired.set(key, (desired.get(key) ?? 0) + qty);
    }
    return keys;
  };

  const starts = await startsOfRead;

  /**
   * A SKU's total is known once all its warehouses are read. An ERP that lists a SKU's warehouses
   * together (Mikro orders by stock code) completes each SKU when the next one of the same chain
   * starts: those are compared and written while reading goes on, and memory holds one chunk.
   * Answers false, having written only complete SKUs, when a SKU shows up again after another one.
   */
  const streamed = async (): Promise<boolean> => {
    const seen = new Set<string>();
    const desired = new Map<string, number>();
    let complete: string[] = [];
    // Per chain: the SKU being read and its warehouses so far.
    const open = starts.map(() => ({
      sku: undefined as string | undefined,
      levels: new Map<string, number>(),
    }));
    const completeOpen = (o: (typeof open)[number]) => {
      if (o.sku !== undefined) complete.push(...addLevels(o.sku, o.levels, desired));
    };
    for await (const { chain, page } of readChains(readStock, starts)) {
      ctx.tally.read(page.items.length);
      const o = open[chain] as (typeof open)[number];
      for (const level of page.items) {
        if (level.sku !== o.sku) {
          if (seen.has(level.sku)) return false;
          seen.add(level.sku);
          completeOpen(o);
          o.sku = level.sku;
          o.levels = new Map();
        }
        o.levels.set(level.location, level.qty);
      }
      if (complete.length >= DIFF_CHUNK) {
        const keys = complete;
        complete = [];
        await diffAndWrite(keys, desired);
        for (const key of keys) desired.delete(key);
      }
    }
    for (const o of open) completeOpen(o);
    await diffAndWrite(complete, desired);
    return true;
  };

  /** Any other order: every warehouse of every SKU first, then the comparison. */
  const wholeRead = async () => {
    const levels = new Map<string, Map<string, number>>();
    for await (const { page } of readChains(readStock, starts)) {
      ctx.tally.read(page.items.length);
      for (const level of page.items) {
        if (!shopKey(level.sku, level.location)) continue;
        const bySku = levels.get(level.sku) ?? new Map<string, number>();
        bySku.set(level.location, level.qty);
        levels.set(level.sku, bySku);
      }
    }
    const desired = new Map<string, number>();
    for (const [sku, bySku] of levels) addLevels(sku, bySku, desired);
    await diffAndWrite([...desired.keys()], desired);
  };

  try {
    if (!(await streamed())) {
      // What went out is recorded first, so the second pass compares against it.
      await writer.flush();
      await wholeRead();
    }
    await writer.flush();
    // Everything up to the mark is now compared and recorded: the next delta run starts there. Rows
    // left by a transient shop failure keep the old mark, so the next delta reads them again.
    if (marks && mark && !ctx.onlyKeys && writer.transientLeft === 0) {
      await ctx.ledger.saveCursor(stream, mark);
    }
  } finally {
    // A failure mid-way: the batch in flight still lands (and is recorded) before the run moves on.
    await writer.drain();
  }
  if (missing > 0) ctx.tally.note(message("engine.reportNotInShop", { count: missing }));
  if (writer.transientLeft > 0)
    ctx.tally.note(message("engine.reportTransientLeft", { count: writer.transientLeft }));
};

/** Where the ERP's stock "changed since" mark is kept (per ERP connection, beside the shop's ledger). */
export const stockMarkStream = (erpConnectionId: number) => `stock:erp${erpConnectionId}`;

/** Negative stock shows as 0; below the company's minimum, too. */
export const shownQty = (qty: number, minStock: number) =>
  qty < Math.max(minStock, 0) || qty < 0 ? 0 : Math.floor(qty);
