/**
 * T-Soft stock and price writes: a main product without variants through `product/updateProducts`, a sub
 * product through `subProduct/setSubProducts`, each a JSON `data` list per call. REST1 answers a batch as
 * a whole, so a refused call fails every item in it.
 */

import type { BatchSizes, PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError, isConnectorError } from "../sdk/errors";
import { chunk } from "../sdk/util";
import type { Row, TsoftClient } from "./client";
import { tsoftDescriptor } from "./descriptor";
import { money } from "./products";

type Ids = Map<string, { productId: string; variantId: string }>;

interface Target {
  key: string;
  productId: string;
  variantId: string;
}

export class TsoftStockPrices {
  constructor(
    private readonly client: TsoftClient,
    private readonly lookup: (skus: string[]) => Promise<Ids>,
    private readonly batch: BatchSizes = {},
  ) {}

  /** Items with their codes (looked up when the engine did not pass them); unknown SKUs fail alone. */
  private async targets<T extends { sku: string; productId?: string; variantId?: string }>(
    items: T[],
    result: BatchResult,
  ): Promise<Array<Target & { item: T }>> {
    const missing = items.filter((i) => !i.productId || !i.variantId).map((i) => i.sku);
    const ids: Ids = missing.length > 0 ? await this.lookup(missing) : new Map();
    const out: Array<Target & { item: T }> = [];
    for (const item of items) {
      const id =
        item.productId && item.variantId
          ? { productId: item.productId, variantId: item.variantId }
          : ids.get(item.sku);
      if (!id) {
        result.failed.push({
          key: item.sku,
          error: new ConnectorError(`tsoft: ${item.sku} is not in the store`, {
            reason: "unknown_item",
            system: "tsoft",
            itemKeys: [item.sku],
          }),
        });
        continue;
      }
      out.push({ key: item.sku, ...id, item });
    }
    return out;
  }

  private async send(
    rows: Array<{ key: string; main: boolean; row: Row }>,
    size: number,
    result: BatchResult,
  ): Promise<void> {
    for (const main of [true, false]) {
      const group = rows.filter((r) => r.main === main);
      for (const part of chunk(group, size)) {
        if (part.length === 0) continue;
        result.calls++;
        try {
          await this.client.write(
            main ? "product/updateProducts" : "subProduct/setSubProducts",
            part.map((p) => p.row),
          );
          result.applied += part.length;
        } catch (e) {
          if (!isConnectorError(e) || e.kind === "transient") throw e;
          for (const p of part) result.failed.push({ key: p.key, error: e.with({ itemKeys: [p.key] }) });
        }
      }
    }
  }

  async setStock(items: StockUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const targets = await this.targets(items, result);
    const rows = targets.map((t) => {
      const qty = String(Math.max(0, Math.floor(t.item.qty)));
      const main = t.productId === t.variantId;
      return {
        key: t.key,
        main,
        row: main
          ? { ProductCode: t.productId, Stock: qty }
          : { MainProductCode: t.productId, SubProductCode: t.variantId, Stock: qty },
      };
    });
    await this.send(rows, this.batch.stock ?? tsoftDescriptor.batch.stock ?? 100, result);
    return result;
  }

  async setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const targets = await this.targets(items, result);
    const rows = targets.map((t) => {
      const main = t.productId === t.variantId;
      const row: Row = main
        ? { ProductCode: t.productId, SellingPrice: money(t.item.amount) }
        : { MainProductCode: t.productId, SubProductCode: t.variantId, SellingPrice: money(t.item.amount) };
      // The price before discount: no source shows a list-price field on writes, so it is not sent (inferred).
      return { key: t.key, main, row };
    });
    await this.send(rows, this.batch.prices ?? tsoftDescriptor.batch.prices ?? 100, result);
    return result;
  }
}
