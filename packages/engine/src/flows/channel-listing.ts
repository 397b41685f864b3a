import { chunkGroups, hasListing, isConnectorError, type ListingItem, type Product } from "@ep/connectors";
import { message } from "@ep/contracts";
import { and, eq } from "drizzle-orm";
import { applyPriceRule } from "../channels/price-rule.ts";
import type { Executor } from "../db.ts";
import { ensureChannelJobs } from "../jobs/company-jobs.ts";
import { convertVat } from "../pricing/vat.ts";
import { MerchantFacingError } from "../runs/failure-text.ts";
import { channelCategoryMappings } from "../store/schema.ts";
import { categoryKey } from "./category-sync.ts";
import { type Flow, type FlowContext, failRecord, failRejected } from "./flow.ts";
import { type ModelVariant, modelVariants, variantValues } from "./listing-variants.ts";
import { readAhead } from "./read-ahead.ts";

/** SKUs asked of the marketplace at once when looking for what it already has. */
const LOOKUP_CHUNK = 500;
/** Items handed to the connector at once (it splits them into the marketplace's own batches). */
const SEND_CHUNK = 5000;
/**
 * How long an accepted product is left to the marketplace's review before it is sent again. Accepted
 * products are reviewed before they show in the seller's list (Trendyol, Hepsiburada: approval), and a
 * second send meanwhile is refused as a taken barcode or stock code.
 */
export const LISTING_REVIEW_MS = 3 * 24 * 60 * 60_000;

type Candidate = ModelVariant & { mapping: Mapping };
type Mapping = typeof channelCategoryMappings.$inferSelect;

/**
 * Product listing on a marketplace channel (issue 37): the ERP's products whose category is mapped to
 * one of the marketplace's categories, and that the marketplace does not have yet (by stock code), are
 * opened there with the mapping's brand and attribute values and the channel's price (the ERP's price
 * group with the channel's rule), each variant with its variant attribute values (the mapping's ERP
 * option values onto the marketplace's), the variants of one ERP model together under its key. Stock
 * follows with the channel's stock job. Each refusal is a failed task of the product with the
 * marketplace's own reason (or ours: an ERP value the mapping does not name); a retry sends just those.
 */
export const channelListing: Flow = async (ctx) => {
  const shop = ctx.shop;
  const channel = ctx.channel;
  if (!channel || !hasListing(shop))
    throw new MerchantFacingError("listing.notSupported", { name: shop.descriptor.name });
  const maps = await ctx.db
    .select()
    .from(channelCategoryMappings)
    .where(
      and(
        eq(channelCategoryMappings.companyId, ctx.companyId),
        eq(channelCategoryMappings.connectionId, channel.connectionId),
      ),
    );
  if (maps.length === 0) {
    ctx.tally.note(message("listing.noMappings"));
    return;
  }
  const byCategory = new Map(maps.map((m) => [m.erpCategory, m]));

  const cards: Product[] = [];
  for await (const page of readAhead((pageToken) => ctx.erp.listProducts({ pageToken }))) {
    ctx.tally.read(page.items.length);
    failRejected(ctx, page);
    for (const card of page.items) if (byCategory.has(categoryKey(card.categoryPath))) cards.push(card);
  }
  const candidates: Candidate[] = [];
  for (const v of modelVariants(cards)) {
    const mapping = byCategory.get(categoryKey(v.model.categoryPath));
    if (mapping && (!ctx.onlyKeys || ctx.onlyKeys.has(v.sku))) candidates.push({ ...v, mapping });
  }

  // What the marketplace already has is left alone (its stock and price jobs keep it current).
  const unlisted: Candidate[] = [];
  let listed = 0;
  for (let i = 0; i < candidates.length; i += LOOKUP_CHUNK) {
    const part = candidates.slice(i, i + LOOKUP_CHUNK);
    const found = await shop.findProductsBySku(part.map((c) => c.sku));
    for (const c of part) {
      if (found.has(c.sku)) {
        listed++;
        ctx.tally.moved([c.sku]);
      } else unlisted.push(c);
    }
  }
  if (listed > 0) ctx.tally.note(message("listing.reportListed", { count: listed }));
  // Sent and accepted lately, not in the list yet: still under the marketplace's review.
  const inReview = await ctx.ledger.pushedSince(
    "listing",
    unlisted.map((c) => c.sku),
    new Date(ctx.now().getTime() - LISTING_REVIEW_MS),
  );
  if (inReview.size > 0) ctx.tally.note(message("listing.reportInReview", { count: inReview.size }));
  const toSend = unlisted.filter((c) => !inReview.has(c.sku));
  if (toSend.length === 0) return;

  const prices = await channelPrices(ctx, new Set(toSend.map((c) => c.sku)));
  const items: ListingItem[] = [];
  for (const c of toSend) {
    const price = prices.get(c.sku);
    const payload = { sku: c.sku, category: c.mapping.categoryName };
    if (!c.barcode) {
      ctx.tally.fail({
        key: c.sku,
        errorType: "validation",
        message: message("listing.noBarcode", { marketplace: channel.name }),
        payload,
      });
      continue;
    }
    const variant = variantValues(c.mapping.variants, c.options);
    if ("unmapped" in variant) {
      ctx.tally.fail({
        key: c.sku,
        errorType: "validation",
        message: message("listing.unmappedVariantValue", variant.unmapped),
        payload: { ...payload, options: c.options },
      });
      continue;
    }
    if (price === undefined) {
      ctx.tally.fail({ key: c.sku, errorType: "validation", message: message("listing.noPrice"), payload });
      continue;
    }
    const options = Object.values(c.options).join(" ");
    const fed = new Set(variant.attributes.map((a) => a.attributeId));
    items.push({
      sku: c.sku,
      barcode: c.barcode,
      modelKey: c.model.sku,
      title: options && !c.model.name.includes(options) ? `${c.model.name} ${options}` : c.model.name,
      description: c.model.description ?? c.model.name,
      brandId: c.mapping.brandId,
      categoryId: c.mapping.categoryId,
      attributes: [
        ...c.mapping.attributes
          .filter((a) => !fed.has(a.attributeId))
          .map((a) => ({ attributeId: a.attributeId, valueId: a.valueId, value: a.value })),
        ...variant.attributes,
      ],
      quantity: 0,
      salePrice: price,
      vatRate: c.model.vatRate,
      images: c.model.images,
    });
  }
  ctx.tally.changed(items.length);
  let created = 0;
  // A model's variants go in one call: the marketplace groups them by the model key.
  for (const part of chunkGroups(items, SEND_CHUNK, (it) => it.modelKey)) {
    const result = await shop.createListings(part);
    const failed = new Set(result.failed.map((f) => f.key));
    const ok = part.filter((it) => !failed.has(it.sku)).map((it) => it.sku);
    created += ok.length;
    await ctx.ledger.put(
      "listing",
      ok.map((key) => ({ key })),
    );
    ctx.tally.written(ok);
    const bySku = new Map(part.map((it) => [it.sku, it]));
    for (const f of result.failed) {
      if (!isConnectorError(f.error)) throw f.error;
      const it = bySku.get(f.key);
      failRecord(ctx, f.key, f.error, { sku: f.key, barcode: it?.barcode, categoryId: it?.categoryId });
    }
  }
  if (created > 0)
    ctx.tally.note(message("listing.reportCreated", { count: created, marketplace: channel.name }));
};

/** The channel's price per SKU: the ERP's price group, with VAT included, under the channel's rule. */
async function channelPrices(ctx: FlowContext, skus: Set<string>): Promise<Map<string, number>> {
  const groups = await ctx.erp.listPriceGroups();
  const group =
    groups.find((g) => g.id === ctx.mappings.erpPriceGroup) ?? groups.find((g) => g.isDefault) ?? groups[0];
  if (!group) throw new MerchantFacingError("engine.noErpPriceGroup");
  const rule = ctx.channel?.settings.priceRule;
  const vat = new Map<string, number>();
  const out = new Map<string, number>();
  const raw: Array<{ sku: string; amount: number; vatIncluded: boolean }> = [];
  for await (const page of readAhead((pageToken) =>
    ctx.erp.listPrices({ pageToken, priceGroups: [group.id] }),
  )) {
    for (const p of page.items) if (p.priceGroup === group.id && skus.has(p.sku)) raw.push(p);
  }
  if (raw.some((p) => !p.vatIncluded))
    for await (const page of readAhead((pageToken) => ctx.erp.listProducts({ pageToken })))
      for (const p of page.items) for (const v of p.variants) vat.set(v.sku, p.vatRate);
  for (const p of raw) {
    // Marketplaces take prices with VAT (Trendyol salePrice is what the customer pays).
    const amount = convertVat(p.amount, vat.get(p.sku) ?? 0, p.vatIncluded, true);
    if (amount > 0) out.set(p.sku, rule ? applyPriceRule(amount, rule) : amount);
  }
  return out;
}

/**
 * Gives a channel its listing job (the channel's "Ürün Aktarımı") once a category is mapped: channels
 * without a mapping, and marketplaces that list nothing by API, never get one.
 */
export function ensureChannelListingJob(
  db: Executor,
  companyId: number,
  connectionId: number,
  now: Date,
): Promise<void> {
  return ensureChannelJobs(db, companyId, connectionId, now, ["ProductIntegration"]);
}
