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
import { itemStatuses, readBatchResults, type SentBatch } from "./batch-results";
import type { TrendyolCatalog } from "./catalog";
import { type Row, rows, type TrendyolClient } from "./client";
import { TRENDYOL_BATCH, TRENDYOL_MAX_QUANTITY, TRENDYOL_SAME_REQUEST_MS } from "./descriptor";

type Item = { barcode: string; quantity?: number; salePrice?: number; listPrice?: number };

/** The refusal of a body sent twice within 15 minutes (Trendyol's own words). */
export const SAME_REQUEST_REFUSAL = /15 dakika boyunca aynı isteği/;

export class TrendyolStockPrices {
  /** Bodies sent (sha-256) → when, for the 15-minute rule. */
  private readonly sent = new Map<string, number>();
  /** Barcode → the values of the last body that carried it (see `heldValues`). */
  private readonly last = new Map<string, string>();

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
    const sent: SentBatch[] = [];
    for (const part of chunk(items, this.client.ctx.batch?.stock ?? TRENDYOL_BATCH)) {
      const r = await this.sendBatch(part, skuOf, operation);
      result.calls += r.calls;
      result.applied += r.applied;
      result.failed.push(...r.failed);
      sent.push(...r.batches);
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
   * One batch. Trendyol refuses a body it received in the last 15 minutes, so a body is skipped when it
   * went out in that window and every item's value is still the last one sent for its barcode (Trendyol
   * holds them). A body that is the same as an earlier one while a later body changed some barcode
   * (low → high → low) must still go out: its stale items are sent alone, and a refusal is settled below.
   */
  private async sendBatch(
    items: Item[],
    skuOf: ReadonlyMap<string, string>,
    operation: string,
  ): Promise<Sent> {
    const body = { items };
    const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
    const now = this.now();
    for (const [h, at] of this.sent) if (at <= now - TRENDYOL_SAME_REQUEST_MS) this.sent.delete(h);
    if (this.sent.has(hash)) {
      const stale = items.filter((i) => this.last.get(i.barcode) !== heldValues(i));
      if (stale.length === 0) return { ...NOTHING_SENT, applied: items.length };
      if (stale.length < items.length) {
        const r = await this.sendBatch(stale, skuOf, operation);
        return { ...r, applied: r.applied + items.length - stale.length };
      }
    }
    try {
      const res = await this.client.send(
        "POST",
        this.client.seller("inventory", "/products/price-and-inventory"),
        "updatePriceAndInventory",
        body,
        { idempotent: true },
      );
      this.remember(hash, items, now);
      const id = String((res.json as Row)?.batchRequestId ?? "");
      return id
        ? { ...NOTHING_SENT, calls: 1, batches: [{ id, barcodes: items.map((i) => i.barcode) }] }
        : { ...NOTHING_SENT, calls: 1, applied: items.length };
    } catch (e) {
      if (!(isConnectorError(e) && SAME_REQUEST_REFUSAL.test(e.systemMessage ?? ""))) throw e;
      // A repeat inside this call (its first answer was lost) is refused because the first arrived.
      if (e.afterRetry) {
        this.remember(hash, items, now);
        return { ...NOTHING_SENT, calls: 1, applied: items.length };
      }
      // Refused at the first try: an earlier run sent this very body, and Trendyol may since have taken
      // another value. Halves are bodies of their own; a single item is checked against Trendyol.
      if (items.length > 1) {
        const half = Math.ceil(items.length / 2);
        const [a, b] = [
          await this.sendBatch(items.slice(0, half), skuOf, operation),
          await this.sendBatch(items.slice(half), skuOf, operation),
        ];
        return {
          calls: 1 + a.calls + b.calls,
          applied: a.applied + b.applied,
          failed: [...a.failed, ...b.failed],
          batches: [...a.batches, ...b.batches],
        };
      }
      return { ...(await this.settleRefused(items[0] as Item, skuOf, operation, e)), calls: 2 };
    }
  }

  /**
   * A one-item body Trendyol refused as a repeat: applied if Trendyol already shows the value, else left
   * for the next run (after the window the same body is accepted) and said so, never counted applied.
   */
  private async settleRefused(
    item: Item,
    skuOf: ReadonlyMap<string, string>,
    operation: string,
    e: ConnectorError,
  ): Promise<Sent> {
    const body = (await this.client.get(this.client.seller("product", "/products"), "filterProducts", {
      barcode: item.barcode,
    })) as Row;
    const shown = rows(body?.content).find((p) => String(p.barcode) === item.barcode);
    const holds =
      shown !== undefined &&
      (item.quantity === undefined || Number(shown.quantity) === item.quantity) &&
      (item.salePrice === undefined || Number(shown.salePrice) === item.salePrice) &&
      (item.listPrice === undefined || Number(shown.listPrice) === item.listPrice);
    if (holds) return { ...NOTHING_SENT, applied: 1 };
    const key = skuOf.get(item.barcode) ?? item.barcode;
    return {
      ...NOTHING_SENT,
      failed: [
        {
          key,
          error: e.with({
            reason: "rate_limited",
            retryAfterMs: TRENDYOL_SAME_REQUEST_MS,
            itemKeys: [key],
            operation,
            merchantMessage:
              "Trendyol aynı stok/fiyat isteğini 15 dakika içinde ikinci kez kabul etmiyor; bu değer bir sonraki çalışmada yeniden gönderilecek.",
          }),
        },
      ],
    };
  }

  private remember(hash: string, items: Item[], at: number): void {
    this.sent.set(hash, at);
    for (const i of items) this.last.set(i.barcode, heldValues(i));
  }
}

/** What one batch came to: the result so far and the batches whose item results are still to read. */
type Sent = BatchResult & { batches: SentBatch[] };

const NOTHING_SENT: Sent = { applied: 0, failed: [], calls: 0, batches: [] };

/** An item's values without its barcode: what Trendyol holds for that barcode once the item is applied. */
const heldValues = (i: Item): string => JSON.stringify([i.quantity, i.salePrice, i.listPrice]);
