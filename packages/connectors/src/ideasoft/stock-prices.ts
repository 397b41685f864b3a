/**
 * Stock and prices. Ideasoft has no bulk endpoint: each item is one product read and one product PUT
 * (`stockAmount`, `price1`, `discount`); price lists 2–6 are `/product_prices` rows (`type` 2–6).
 */

import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import { type IdeasoftCatalog, type SkuRef, stripProduct } from "./catalog";
import type { IdeasoftClient } from "./client";
import { IDEASOFT_DEFAULT_PRICE_LIST } from "./descriptor";
import type { IdeaProductPrice } from "./types";

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

export class IdeasoftStockPrices {
  constructor(
    private readonly client: IdeasoftClient,
    private readonly catalog: IdeasoftCatalog,
  ) {}

  private async resolve(items: Array<{ sku: string; variantId?: string }>): Promise<Map<string, SkuRef>> {
    const missing = items.filter((i) => !i.variantId).map((i) => i.sku);
    return missing.length > 0 ? this.catalog.findProductsBySku(missing) : new Map();
  }

  private async each<T extends { sku: string; variantId?: string }>(
    items: T[],
    apply: (item: T, id: string) => Promise<number>,
  ): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const refs = await this.resolve(items);
    for (const item of items) {
      const id = item.variantId ?? refs.get(item.sku)?.variantId;
      if (!id) {
        result.failed.push({ key: item.sku, error: this.client.notFound("product", item.sku, "setStock") });
        continue;
      }
      try {
        result.calls += await apply(item, id);
        result.applied++;
      } catch (e) {
        if (!(e instanceof ConnectorError) || e.kind === "transient") throw e;
        result.failed.push({ key: item.sku, error: e });
      }
    }
    return result;
  }

  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.each(items, async (item, id) => {
      const p = await this.catalog.get(id, "setStock", item.sku);
      if (p.stockAmount === item.qty) return 1;
      p.stockAmount = Math.max(0, item.qty);
      await this.catalog.put(p, "setStock");
      return 2;
    });
  }

  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    return this.each(items, async (item, id) => {
      const list = item.priceListId ?? IDEASOFT_DEFAULT_PRICE_LIST;
      if (list === IDEASOFT_DEFAULT_PRICE_LIST) {
        const p = await this.catalog.get(id, "setPrices", item.sku);
        const listAmount =
          item.listAmount !== undefined && item.listAmount > item.amount ? item.listAmount : undefined;
        p.price1 = round2(listAmount ?? item.amount);
        p.discountType = 0;
        p.discount = listAmount !== undefined ? round2(listAmount - item.amount) : 0;
        await this.catalog.put(p, "setPrices");
        return 2;
      }
      const type = Number(list);
      if (![2, 3, 4, 5, 6].includes(type)) {
        throw new ConnectorError(`ideasoft: unknown price list ${list}`, {
          reason: "config",
          system: "ideasoft",
          operation: "setPrices",
          itemKeys: [item.sku],
        });
      }
      const rows = await this.client.page<IdeaProductPrice>(
        "listProductPrices",
        "/product_prices",
        { product: Number(id) },
        1,
        10,
      );
      const row = rows.find((r) => r.type === type);
      // The body's `product` is a whole Product in the file: read it and send it back as read.
      const product = stripProduct(await this.catalog.get(id, "setPrices", item.sku));
      const value = round2(item.amount);
      if (row?.id !== undefined) {
        await this.client.call("updateProductPrice", "write", "PUT", `/product_prices/${row.id}`, {
          body: { id: row.id, type, value, product },
        });
      } else {
        await this.client.call("createProductPrice", "write", "POST", "/product_prices", {
          body: { type, value, product },
        });
      }
      return 3;
    });
  }
}
