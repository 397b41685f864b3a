import type { Product, ShopProductRef } from "@ep/connectors";
import { isConnectorError } from "@ep/connectors";
import { message } from "@ep/contracts";
import { contentHash } from "../ledger/sync-ledger.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";
import { GroupSpill } from "./card-spill.ts";
import { categoryKey, ShopCategories } from "./category-sync.ts";
import { type Flow, type FlowContext, failBindingConflict, failRecord, failRejected } from "./flow.ts";
import { bindVariants, resolveVariantBindings } from "./shop-bindings.ts";

const LOOKUP_CHUNK = 500;
/** Created products whose bindings are written in one go, at most… */
const BINDINGS_BATCH = 100;
/** …and at most this long after the oldest of them was created. */
const BINDINGS_WAIT_MS = 250;

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

/**
 * Every ERP stock card, grouped into models, a chunk of at most `LOOKUP_CHUNK` models at a time.
 * A model's cards may lie on different pages, so the listing is read to its end first; a large one
 * is spread over files by model key (`GroupSpill`), and memory holds one file's models, not the
 * catalogue (issue 34: a first sync of 100,000 cards held 200 MB).
 */
async function* readModels(ctx: FlowContext): AsyncGenerator<Model[]> {
  const cards = new GroupSpill<Product>((c) => c.groupKey ?? c.sku);
  try {
    let pageToken: string | undefined;
    do {
      const page = await ctx.erp.listProducts({ pageToken, pageSize: ctx.erp.descriptor.batch.page });
      ctx.tally.read(page.items.length);
      failRejected(ctx, page);
      // A retry of chosen models needs only their cards.
      const only = ctx.onlyKeys;
      await cards.add(only ? page.items.filter((c) => only.has(c.groupKey ?? c.sku)) : page.items);
      pageToken = page.nextPageToken;
    } while (pageToken);
    for await (const group of cards.groups()) {
      // A card listed twice (the ERP paged while it was edited) is one card, as last read.
      const models = toModels(uniqueByKey(group, (c) => c.sku)).filter((m) => inFilter(ctx, m));
      for (let i = 0; i < models.length; i += LOOKUP_CHUNK) yield models.slice(i, i + LOOKUP_CHUNK);
    }
  } finally {
    await cards.close();
  }
}

function failModel(ctx: FlowContext, m: Model, error: unknown) {
  if (!isConnectorError(error) || error.kind !== "permanent") throw error;
  failRecord(ctx, m.key, error, m.product);
}

const variantBindings = (ref: ShopProductRef) =>
  Object.entries(ref.variants).map(([sku, variantId]) => ({
    sku,
    binding: { productId: ref.productId, variantId },
  }));

async function bindCreated(ctx: FlowContext, ref: ShopProductRef) {
  await bindVariants(ctx, variantBindings(ref));
}

/**
 * The bindings of created products, written to the ledger two statements per group rather than two
 * per product: a group closes at `BINDINGS_BATCH` products or `BINDINGS_WAIT_MS` after its oldest
 * one was created, and when the flow ends or stops. Against a fast shop a first sync of 20,000 SKUs
 * made 2 statements per product (PostgreSQL's CPU was the most of the run's); against a slow one
 * (300 ms a create) a group is one or two products, as before. A product created but not yet written
 * when the worker dies is found by SKU on the next run, as one whose answer was lost.
 */
class CreatedProducts {
  private pending: Array<{ model: Model; ref: ShopProductRef }> = [];
  private oldest = 0;

  constructor(private readonly ctx: FlowContext) {}

  async add(model: Model, ref: ShopProductRef) {
    const now = this.ctx.now().getTime();
    if (this.pending.length === 0) this.oldest = now;
    this.pending.push({ model, ref });
    if (this.pending.length >= BINDINGS_BATCH || now - this.oldest >= BINDINGS_WAIT_MS) await this.flush();
  }

  async flush() {
    const group = this.pending.splice(0);
    if (group.length === 0) return;
    await this.ctx.ledger.put(
      "product",
      group.map(({ model, ref }) => ({
        key: model.key,
        externalId: ref.productId,
        hash: productContentHash(model.product),
      })),
    );
    await bindVariants(
      this.ctx,
      group.flatMap(({ ref }) => variantBindings(ref)),
    );
    this.ctx.tally.written(group.map(({ model }) => model.key));
  }
}

/**
 * ProductSync (ProductIntegration): every ERP model is bound to a shop product. One the shop already
 * has (a variant with the same SKU) is adopted, never created again; a missing one is created in its
 * category when the company allows it. A create whose answer was lost is found by SKU next run.
 */
export const productSync: Flow = async (ctx) => {
  const categories = new ShopCategories(ctx);
  await categories.load();
  const created = new CreatedProducts(ctx);
  let skipped = 0;
  try {
    for await (const chunk of readModels(ctx)) skipped += await bindModels(ctx, chunk, categories, created);
  } finally {
    await created.flush();
  }
  if (skipped > 0) ctx.tally.note(message("engine.reportCreateDisabled", { count: skipped }));
};

/** Binds or creates each unbound model of a chunk; answers how many were left out (creating is off). */
async function bindModels(
  ctx: FlowContext,
  chunk: Model[],
  categories: ShopCategories,
  created: CreatedProducts,
): Promise<number> {
  let skipped = 0;
  const bound = await ctx.ledger.get(
    "product",
    chunk.map((m) => m.key),
  );
  const unbound = chunk.filter((m) => !bound.get(m.key)?.externalId);
  if (unbound.length === 0) return 0;
  const { bound: variants, conflicts } = await resolveVariantBindings(
    ctx,
    unbound.flatMap((m) => m.product.variants.map((v) => v.sku)),
  );
  const adopted: Array<{ model: Model; row: { key: string; externalId: string; hash: string } }> = [];
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
      adopted.push({
        model: m,
        row: {
          key: m.key,
          externalId: existing.productId,
          hash: complete ? productContentHash(m.product) : "incomplete",
        },
      });
      continue;
    }
    if (!ctx.mappings.createMissingProducts) {
      skipped++;
      continue;
    }
    ctx.tally.changed(1);
    let ref: ShopProductRef;
    try {
      const categoryId =
        m.product.categoryPath.length > 0 ? (await categories.ensure(m.product.categoryPath)).id : undefined;
      ref = await ctx.shop.createProduct({ product: m.product, categoryId });
    } catch (error) {
      failModel(ctx, m, error);
      continue;
    }
    await created.add(m, ref);
  }
  // The chunk's adoptions in one statement (nothing was written to the shop for them).
  const clashes = new Map(
    (
      await ctx.ledger.put(
        "product",
        adopted.map((a) => a.row),
      )
    ).map((c) => [c.key, c]),
  );
  for (const { model, row } of adopted) {
    const clash = clashes.get(row.key);
    // Two ERP models whose variants sit in one shop product: the first one bound keeps it.
    if (clash) failBindingConflict(ctx, row.key, { key: row.key, heldBy: clash.heldBy }, model.product);
    else ctx.tally.moved([row.key]);
  }
  return skipped;
}

/** ProductUpdate: bound products whose ERP content changed since the last push are updated in the shop. */
export const productUpdate: Flow = async (ctx) => {
  const categories = new ShopCategories(ctx);
  await categories.load();
  for await (const chunk of readModels(ctx)) {
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
