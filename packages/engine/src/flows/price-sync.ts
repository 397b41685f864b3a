import type { PriceUpdate } from "@ep/connectors";
import { message } from "@ep/contracts";
import { applyPriceRule } from "../channels/price-rule.ts";
import { convertVat } from "../pricing/vat.ts";
import { MerchantFacingError } from "../runs/failure-text.ts";
import { BatchWriter } from "./batch-writer.ts";
import { type Flow, failBindingConflict, failRejected, inSync } from "./flow.ts";
import { fullReadStarts, readAhead, readChains } from "./read-ahead.ts";
import { resolveVariantBindings } from "./shop-bindings.ts";

const DIFF_CHUNK = 3000;

/**
 * PriceSync: the mapped ERP price group, turned into what the shop expects (KDV included or not,
 * at the product's own rate, rounded to kuruş), compared with what was last pushed; only the
 * differences go out, in the shop's largest price batches.
 */
export const priceSync: Flow = async (ctx) => {
  const groups = await ctx.erp.listPriceGroups();
  const group =
    groups.find((g) => g.id === ctx.mappings.erpPriceGroup) ?? groups.find((g) => g.isDefault) ?? groups[0];
  if (!group) throw new MerchantFacingError("engine.noErpPriceGroup");
  const priceList = ctx.mappings.shopPriceList ?? undefined;
  const shopIncludesVat = ctx.mappings.shopPricesIncludeVat;
  const priceRule = ctx.channel?.settings.priceRule;

  // VAT rate per SKU, from the ERP's products (a price alone does not carry it). Only needed when a
  // price must change basis (VAT included on one side, excluded on the other): read then, once.
  let vatBySku: Map<string, number> | undefined;
  const loadVatRates = async () => {
    const out = new Map<string, number>();
    for await (const page of readAhead((pageToken) => ctx.erp.listProducts({ pageToken }))) {
      failRejected(ctx, page);
      for (const p of page.items) for (const v of p.variants) out.set(v.sku, p.vatRate);
    }
    return out;
  };

  const ledgerKey = (sku: string) => `${sku}@${priceList ?? "default"}`;
  const hashOf = (d: { amount: number; currency: string }) => `${d.amount.toFixed(2)} ${d.currency}`;
  const writer = new BatchWriter<PriceUpdate>(
    ctx,
    "price",
    ctx.shop.descriptor.batch.prices ?? 100,
    (items) => ctx.shop.setPrices(items),
    (item) => item.sku,
    {
      failurePayload: (item) => ({
        sku: item.sku,
        priceGroup: group.id,
        priceList: priceList ?? null,
        amount: item.amount,
        currency: item.currency,
      }),
    },
  );
  let missing = 0;

  /** Compares a chunk of desired prices with the ledger and queues the differences for the shop. */
  const diffAndWrite = async (desired: Map<string, { amount: number; currency: string }>) => {
    const skus = [...desired.keys()];
    const last = await ctx.ledger.get("price", skus.map(ledgerKey));
    const changed = skus.filter((sku) => last.get(ledgerKey(sku))?.hash !== hashOf(desired.get(sku)!));
    // A retried record the shop already shows as the ERP has it needs nothing more: its task resolves.
    if (ctx.onlyKeys) ctx.tally.moved(inSync(skus, changed));
    if (changed.length === 0) return;
    const { bound, conflicts } = await resolveVariantBindings(ctx, changed);
    for (const sku of changed) {
      const binding = bound.get(sku);
      const d = desired.get(sku)!;
      if (!binding) {
        const heldBy = conflicts.get(sku);
        if (heldBy) failBindingConflict(ctx, sku, { key: sku, heldBy }, { sku, amount: d.amount });
        else missing++;
        continue;
      }
      ctx.tally.changed(1);
      await writer.add({
        key: sku,
        ledgerKey: ledgerKey(sku),
        hash: hashOf(d),
        item: {
          sku,
          priceListId: priceList,
          amount: d.amount,
          currency: d.currency,
          productId: binding.productId,
          variantId: binding.variantId,
        },
      });
    }
  };

  // Pages are compared and written as they come (one price per SKU and group), so reading the ERP
  // and writing the shop overlap and memory holds one chunk, not the catalogue.
  const pending = new Map<string, { amount: number; currency: string }>();
  try {
    // A full read the ERP can split goes as several chains of disjoint ranges at once.
    const starts = await fullReadStarts(ctx.erp, "prices", { priceGroups: [group.id] });
    const pages = readChains(
      (pageToken) => ctx.erp.listPrices({ pageToken, priceGroups: [group.id] }),
      starts,
    );
    for await (const { page } of pages) {
      ctx.tally.read(page.items.length);
      for (const price of page.items) {
        if (price.priceGroup !== group.id) continue;
        if (ctx.onlyKeys && !ctx.onlyKeys.has(price.sku)) continue;
        let vat = 0;
        if (price.vatIncluded !== shopIncludesVat) {
          vatBySku ??= await loadVatRates();
          const rate = vatBySku.get(price.sku);
          if (rate === undefined) continue;
          vat = rate;
        }
        const amount = convertVat(price.amount, vat, price.vatIncluded, shopIncludesVat);
        // A sales channel's own price: the ERP's with the channel's rule (markup, ,90/,99, minimum).
        pending.set(price.sku, {
          amount: priceRule ? applyPriceRule(amount, priceRule) : amount,
          currency: price.currency,
        });
      }
      if (pending.size >= DIFF_CHUNK) {
        await diffAndWrite(pending);
        pending.clear();
      }
    }
    if (pending.size > 0) await diffAndWrite(pending);
    await writer.flush();
  } finally {
    // A failure mid-way: the batch in flight still lands (and is recorded) before the run moves on.
    await writer.drain();
  }
  if (missing > 0) ctx.tally.note(message("engine.reportNotInShop", { count: missing }));
  if (writer.transientLeft > 0)
    ctx.tally.note(message("engine.reportTransientLeft", { count: writer.transientLeft }));
};
