import type { Category } from "@ep/connectors";
import { isConnectorError } from "@ep/connectors";
import { message } from "@ep/contracts";
import { type Flow, type FlowContext, failRecord } from "./flow.ts";

export const categoryKey = (path: string[]) => path.join(" > ");

/**
 * Makes sure a category path exists in the shop, parents first, and answers its shop id. A path
 * already bound in the ledger costs nothing; an unbound one is matched by name under its parent
 * before anything is created, so a category is never made twice.
 */
export class ShopCategories {
  private byKey = new Map<string, string>();
  private shopTree: Array<{ id: string; name: string; parentId?: string }> | undefined;

  constructor(private readonly ctx: FlowContext) {}

  async load() {
    for (const row of await this.ctx.ledger.all("category"))
      if (row.externalId) this.byKey.set(row.key, row.externalId);
  }

  bound(path: string[]): string | undefined {
    return this.byKey.get(categoryKey(path));
  }

  async ensure(path: string[]): Promise<{ id: string; created: boolean }> {
    const existing = this.bound(path);
    if (existing) return { id: existing, created: false };
    const parentPath = path.slice(0, -1);
    const parentId = parentPath.length > 0 ? (await this.ensure(parentPath)).id : undefined;
    const name = path[path.length - 1]!;
    this.shopTree ??= await this.ctx.shop.listCategories();
    const match = this.shopTree.find(
      (c) =>
        c.name.toLocaleLowerCase("tr-TR") === name.toLocaleLowerCase("tr-TR") &&
        (c.parentId ?? undefined) === parentId,
    );
    const id = match?.id ?? (await this.ctx.shop.createCategory({ name, parentId })).id;
    if (!match) this.shopTree.push({ id, name, parentId });
    this.byKey.set(categoryKey(path), id);
    // A shop category another path already holds (names equal but for case) stays unbound in the
    // ledger; this run still uses it, and the next one matches it by name again.
    await this.ctx.ledger.put("category", [{ key: categoryKey(path), externalId: id }]);
    return { id, created: !match };
  }
}

/** CategorySync: every ERP category path exists in the shop, bound in the ledger. */
export const categorySync: Flow = async (ctx) => {
  const categories: Category[] = [];
  let pageToken: string | undefined;
  do {
    const page = await ctx.erp.listCategories({ pageToken, pageSize: ctx.erp.descriptor.batch.page });
    categories.push(...page.items);
    ctx.tally.read(page.items.length);
    pageToken = page.nextPageToken;
  } while (pageToken);
  const shopCategories = new ShopCategories(ctx);
  await shopCategories.load();
  const wanted = categories
    .filter((c) => c.path.length > 0)
    .filter((c) => !ctx.onlyKeys || ctx.onlyKeys.has(categoryKey(c.path)))
    .sort((a, b) => a.path.length - b.path.length);
  // A category the shop already has is bound, not written: it is no change, and the report says so
  // (a first run on an existing shop read "25 changed, 0 written").
  let adopted = 0;
  for (const category of wanted) {
    if (shopCategories.bound(category.path)) continue;
    const key = categoryKey(category.path);
    try {
      const { created } = await shopCategories.ensure(category.path);
      if (created) {
        ctx.tally.changed(1);
        ctx.tally.written([key]);
      } else {
        adopted++;
        ctx.tally.moved([key]);
      }
    } catch (error) {
      if (!isConnectorError(error) || error.kind !== "permanent") throw error;
      ctx.tally.changed(1);
      failRecord(ctx, key, error, category);
    }
  }
  if (adopted > 0) ctx.tally.note(message("engine.reportCategoriesAdopted", { count: adopted }));
};
