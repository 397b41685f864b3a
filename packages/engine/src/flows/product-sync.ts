import type { Product } from "@ep/connectors";
import { isConnectorError } from "@ep/connectors";
import { message } from "@ep/contracts";
import { contentHash } from "../ledger/sync-ledger.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";
import { categoryKey, ShopCategories } from "./category-sync.ts";
import { type Flow, type FlowContext, failBindingConflict, failRecord, failRejected } from "./flow.ts";
import { bindVariants, resolveVariantBindings } from "./shop-bindings.ts";

const LOOKUP_CHUNK = 500;

/**
 * One shop product per ERP model. ERPs keep one stock card per SKU and tie the variants of a model
 * together by a model code (`groupKey`); shops keep one product with variants. The model key
 * (group key, or the SKU of a lone card) binds the two.
 */
export type Model = { key: string; product: Product };

const commonPrefix = (names: string[]): string => {
  const words = names.map((n) => n.split(/\s+/));
  const first = words[0] ?? [];
  let n = first.length;
  for (const w of words) {
    let i = 0;
    while (i < n && w[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n).join(" ");
};

export function toModels(cards: Product[]): Model[] {
  const groups = new Map<string, Product[]>();
  for (const card of cards) {
    const key = card.groupKey ?? card.sku;
    const list = groups.get(key) ?? [];
    list.push(card);
    groups.set(key, list);
  }
  return [...groups].map(([key, list]) => {
    const head = list[0]!;
    if (list.length === 1) return { key, product: { ...head, sku: key } };
    const name = commonPrefix(list.map((c) => c.name)) || head.name;
    return {
      key,
      product: {
        ...head,
        sku: key,
        name,
        isActive: list.some((c) => c.isActive),
        variants: list.flatMap((c) =>
          c.variants.map((v) => {
            const option = c.name.slice(name.length).trim();
            return Object.keys(v.options).length === 0 && option ? { ...v, options: { Seçenek: option } } : v;
          }),
        ),
      },
    };
  });
}

/** What a product update would change in the shop; prices and stock have their own jobs. */
export const productContentHash = (p: Product) =>
  contentHash({
    name: p.name,
    brand: p.brand,
    categoryPath: p.categoryPath,
    vatRate: p.vatRate,
    unit: p.unit,
    description: p.description,
    isActive: p.isActive,
    images: p.images,
    variants: p.variants.map((v) => ({
      sku: v.sku,
      barcodes: v.barcodes,
      options: v.options,
      isActive: v.isActive,
    })),
  });

function inFilter(ctx: FlowContext, m: Model): boolean {
  if (ctx.onlyKeys && !ctx.onlyKeys.has(m.key)) return false;
  const filter = ctx.mappings.categoryFilter;
  if (filter.length === 0) return true;
  const key = categoryKey(m.product.categoryPath);
  return filter.some((f) => key === f || key.startsWith(`${f} > `));
}

/** Every ERP stock card, grouped into models (a model's cards may lie on different pages). */
async function readModels(ctx: FlowContext): Promise<Model[]> {
  const cards: Product[] = [];
  let pageToken: string | undefined;
  do {
    const page = await ctx.erp.listProducts({ pageToken, pageSize: ctx.erp.descriptor.batch.page });
    ctx.tally.read(page.items.length);
    failRejected(ctx, page);
    cards.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  // A card listed twice (the ERP paged while it was edited) is one card, as last read.
  return toModels(uniqueByKey(cards, (c) => c.sku)).filter((m) => inFilter(ctx, m));
}

function failModel(ctx: FlowContext, m: Model, error: unknown) {
  if (!isConnectorError(error) || error.kind !== "permanent") throw error;
  failRecord(ctx, m.key, error, m.product);
}

async function bindCreated(ctx: FlowContext, ref: { productId: string; variants: Record<string, string> }) {
  await bindVariants(
    ctx,
    Object.entries(ref.variants).map(([sku, variantId]) => ({
      sku,
      binding: { productId: ref.productId, variantId },
    })),
  );
}

/**
 * ProductSync (ProductIntegration): every ERP model is bound to a shop product. One the shop already
 * has (a variant with the same SKU) is adopted, never created again; a missing one is created in its
 * category when the company allows it. A create whose answer was lost is found by SKU next run.
 */
export const productSync: Flow = async (ctx) => {
  const categories = new ShopCategories(ctx);
  await categories.load();
  const models = await readModels(ctx);
  let skipped = 0;
  for (let i = 0; i < models.length; i += LOOKUP_CHUNK) {
    const chunk = models.slice(i, i + LOOKUP_CHUNK);
    const bound = await ctx.ledger.get(
      "product",
      chunk.map((m) => m.key),
    );
    const unbound = chunk.filter((m) => !bound.get(m.key)?.externalId);
    if (unbound.length === 0) continue;
    const { bound: variants, conflicts } = await resolveVariantBindings(
      ctx,
      unbound.flatMap((m) => m.product.variants.map((v) => v.sku)),
    );
    for (const m of unbound) {
      // A variant whose shop record another ERP code holds: neither adopt nor create (that would
      // make a second shop product with its SKU); the model waits as a failed task.
      const held = m.product.variants.find((v) => conflicts.has(v.sku));
      if (held) {
        failBindingConflict(ctx, m.key, { key: held.sku, heldBy: conflicts.get(held.sku)! }, m.product);
        continue;
      }
      const found = m.product.variants.map((v) => variants.get(v.sku));
      const existing = found.find(Boolean);
      if (existing) {
        // Already in the shop: adopt it. If some variants are missing there, ProductUpdate adds them.
        const complete = found.every(Boolean);
        const [clash] = await ctx.ledger.put("product", [
          {
            key: m.key,
            externalId: existing.productId,
            hash: complete ? productContentHash(m.product) : "incomplete",
          },
        ]);
        // Two ERP models whose variants sit in one shop product: the first one bound keeps it.
        if (clash) failBindingConflict(ctx, m.key, { key: m.key, heldBy: clash.heldBy }, m.product);
        else ctx.tally.moved([m.key]);
        continue;
      }
      if (!ctx.mappings.createMissingProducts) {
        skipped++;
        continue;
      }
      ctx.tally.changed(1);
      try {
        const categoryId =
          m.product.categoryPath.length > 0
            ? (await categories.ensure(m.product.categoryPath)).id
            : undefined;
        const ref = await ctx.shop.createProduct({ product: m.product, categoryId });
        await ctx.ledger.put("product", [
          { key: m.key, externalId: ref.productId, hash: productContentHash(m.product) },
        ]);
        await bindCreated(ctx, ref);
        ctx.tally.written([m.key]);
      } catch (error) {
        failModel(ctx, m, error);
      }
    }
  }
  if (skipped > 0) ctx.tally.note(message("engine.reportCreateDisabled", { count: skipped }));
};

/** ProductUpdate: bound products whose ERP content changed since the last push are updated in the shop. */
export const productUpdate: Flow = async (ctx) => {
  const categories = new ShopCategories(ctx);
  await categories.load();
  const models = await readModels(ctx);
  for (let i = 0; i < models.length; i += LOOKUP_CHUNK) {
    const chunk = models.slice(i, i + LOOKUP_CHUNK);
    const bound = await ctx.ledger.get(
      "product",
      chunk.map((m) => m.key),
    );
    for (const m of chunk) {
      const row = bound.get(m.key);
      if (!row?.externalId) continue;
      const hash = productContentHash(m.product);
      if (row.hash === hash) continue;
      ctx.tally.changed(1);
      try {
        const categoryId =
          m.product.categoryPath.length > 0
            ? (await categories.ensure(m.product.categoryPath)).id
            : undefined;
        const ref = await ctx.shop.updateProduct(row.externalId, { product: m.product, categoryId });
        await ctx.ledger.put("product", [{ key: m.key, hash }]);
        await bindCreated(ctx, ref);
        ctx.tally.written([m.key]);
      } catch (error) {
        failModel(ctx, m, error);
      }
    }
  }
};
