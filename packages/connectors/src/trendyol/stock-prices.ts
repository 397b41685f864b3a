/**
 * Stock and prices to Trendyol: one call (updatePriceAndInventory) takes either or both per barcode, at most
 * 1,000 items, and answers with a batchRequestId whose item results are read afterwards. Trendyol refuses
 * the same body twice within 15 minutes: this connector never repeats a body it sent in that window, and
 * when a retry meets the refusal (the first send arrived, its answer was lost) the items count as applied.
 */

import { createHash } from "node:crypto";
import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError, isConnectorError } from "../sdk/errors";
import { chunk, round2 } from "../sdk/util";
import { itemStatuses, readBatchResults } from "./batch-results";
import type { TrendyolCatalog } from "./catalog";
import type { Row, TrendyolClient } from "./client";
import { TRENDYOL_BATCH, TRENDYOL_MAX_QUANTITY, TRENDYOL_SAME_REQUEST_MS } from "./descriptor";

type Item = { barcode: string; quantity?: number; salePrice?: number; listPrice?: number };

/** The refusal of a body sent twice within 15 minutes (Trendyol's own words). */
export const SAME_REQUEST_REFUSAL = /15 dakika boyunca aynı isteği/;

export class TrendyolStockPrices {
  /** Bodies sent (sha-256) → when, for the 15-minute rule. */
  private readonly sent = new Map<string, number>();

  constructor(
    private readonly client: TrendyolClient,
    private readonly catalog: TrendyolCatalog,
    private readonly now: () => number,
  ) {}

  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.write(items, "setStock", (u, barcode) => ({
      barcode,
      quantity: Math.min(TRENDYOL_MAX_QUANTITY, Math.max(0, Math.floor(u.qty))),
    }));
  }

  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    // listPrice may not be below salePrice: without a list price the sale price is both.
    return this.write(items, "setPrices", (u, barcode) => ({
      barcode,
      salePrice: round2(u.amount),
      listPrice: round2(Math.max(u.listAmount ?? u.amount, u.amount)),
    }));
  }

  private async write<U extends { sku: string; variantId?: string }>(
    updates: U[],
    operation: string,
    toItem: (u: U, barcode: string) => Item,
  ): Promise<BatchResult> {
    const need = updates.filter((u) => !u.variantId).map((u) => u.sku);
    const ids = need.length > 0 ? await this.catalog.findProductsBySku(need) : new Map();
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const items: Item[] = [];
    const skuOf = new Map<string, string>();
    for (const u of updates) {
      const barcode = u.variantId ?? ids.get(u.sku)?.variantId;
      if (!barcode) {
        result.failed.push({
          key: u.sku,
          error: new ConnectorError(`trendyol ${operation}: no Trendyol product with this stock code`, {
            reason: "unknown_item",
            system: "trendyol",
            operation,
            itemKeys: [u.sku],
          }),
        });
        continue;
      }
      skuOf.set(barcode, u.sku);
      items.push(toItem(u, barcode));
    }
    // Every batch goes out first; their results are read together afterwards (one wait per run).
    const sent: Array<{ id: string; barcodes: string[] }> = [];
    for (const part of chunk(items, this.client.ctx.batch?.stock ?? TRENDYOL_BATCH)) {
      const r = await this.sendBatch(part);
      result.calls += r.calls;
      if (r.batchRequestId) sent.push({ id: r.batchRequestId, barcodes: part.map((i) => i.barcode) });
      else result.applied += part.length;
    }
    // Stock/price batches report per item only (no batch status): done when every item has one.
    const read = await readBatchResults(this.client, sent, skuOf, operation, (b, batch) => {
      const byBarcode = itemStatuses(b);
      return batch.barcodes.every((k) => {
        const st = byBarcode.get(k)?.status;
        return st === "SUCCESS" || st === "FAILED";
      });
    });
    result.applied += read.applied;
    result.failed.push(...read.failed);
    result.calls += read.calls;
    return result;
  }

  /**
   * One batch: skipped when its body went out in the last 15 minutes (Trendyol has those values), else
   * sent; the batchRequestId to read, or none when nothing is left to read.
   */
  private async sendBatch(items: Item[]): Promise<{ batchRequestId?: string; calls: number }> {
    const body = { items };
    const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
    const now = this.now();
    for (const [h, at] of this.sent) if (at <= now - TRENDYOL_SAME_REQUEST_MS) this.sent.delete(h);
    if (this.sent.has(hash)) return { calls: 0 };
    try {
      const res = await this.client.send(
        "POST",
        this.client.seller("inventory", "/products/price-and-inventory"),
        "updatePriceAndInventory",
        body,
        { idempotent: true },
      );
      this.sent.set(hash, now);
      return { batchRequestId: String((res.json as Row)?.batchRequestId ?? ""), calls: 1 };
    } catch (e) {
      // A retry after a lost answer meets the 15-minute refusal: the first send was received.
      if (isConnectorError(e) && SAME_REQUEST_REFUSAL.test(e.systemMessage ?? "")) {
        this.sent.set(hash, now);
        return { calls: 1 };
      }
      throw e;
    }
  }
}
