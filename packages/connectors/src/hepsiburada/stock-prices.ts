/**
 * Stock and prices to Hepsiburada: a stock upload (`availableStock`) and a price upload (`price`) per
 * merchant SKU, each answered with an upload id whose result is read afterwards: the result lists only
 * the refused rows (`errors`, price `priceValidations`), so every other row of a finished upload applied.
 */

import { type AsyncItemOutcome, asyncBatchResult, pollBatchResults } from "../sdk/async-batch";
import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import { chunk, round2 } from "../sdk/util";
import type { HepsiburadaClient, Row } from "./client";
import { HEPSIBURADA_BATCH } from "./descriptor";

/** A finished upload: "Done" in a live client, "Completed" in another author's fixtures (both read). */
const FINISHED = /^(done|completed)$/i;

export class HepsiburadaStockPrices {
  constructor(private readonly client: HepsiburadaClient) {}

  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.upload("stock-uploads", "setStock", items, (u) => ({
      merchantSku: u.sku,
      availableStock: Math.max(0, Math.floor(u.qty)),
    }));
  }

  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    return this.upload("price-uploads", "setPrices", items, (u) => ({
      merchantSku: u.sku,
      price: round2(u.amount),
    }));
  }

  private async upload<U extends { sku: string }>(
    kind: "stock-uploads" | "price-uploads",
    operation: string,
    updates: U[],
    toRow: (u: U) => Row,
  ): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const size =
      (kind === "stock-uploads" ? this.client.ctx.batch?.stock : this.client.ctx.batch?.prices) ??
      HEPSIBURADA_BATCH;
    const post = kind === "stock-uploads" ? "uploadStock" : "uploadPrice";
    const read = kind === "stock-uploads" ? "getStockUpload" : "getPriceUpload";
    // Every upload goes out first; their results are read together afterwards (one wait per run).
    const sent: Array<{ id: string; part: U[] }> = [];
    for (const part of chunk(updates, size)) {
      const res = await this.client.send(
        "listing",
        "POST",
        this.client.merchant("/listings", `/${kind}`),
        post,
        part.map(toRow),
        { idempotent: true },
      );
      sent.push({ id: String((res.json as Row)?.id ?? ""), part });
    }
    const { answers, reads } = await pollBatchResults(
      sent.map((u) => u.id),
      async (id) =>
        (await this.client.get(
          "listing",
          this.client.merchant("/listings", `/${kind}/id/${encodeURIComponent(id)}`),
          read,
        )) as Row,
      (a) => FINISHED.test(String(a?.status ?? "")),
      this.client.ctx.asyncBatch,
    );
    const outcomes: AsyncItemOutcome[] = sent.flatMap(({ id, part }) => {
      const answer = answers.get(id) ?? {};
      const finished = FINISHED.test(String(answer.status ?? ""));
      const refused = refusals(
        answer,
        part.map((u) => u.sku),
      );
      return part.map((u): AsyncItemOutcome => {
        const why = refused.get(u.sku);
        if (why) return { key: u.sku, state: "failed", message: why };
        return finished ? { key: u.sku, state: "applied" } : { key: u.sku, state: "pending" };
      });
    });
    const r = asyncBatchResult("hepsiburada", operation, outcomes, sent.length + reads);
    result.applied += r.applied;
    result.failed.push(...r.failed);
    result.calls += r.calls;
    return result;
  }
}

/** Refused rows by merchant SKU (row number when the SKU is missing), with Hepsiburada's words. */
function refusals(answer: Row, skus: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const skuOf = (r: Row) => String(r.merchantSku ?? skus[Number(r.elementNo)] ?? "");
  for (const e of Array.isArray(answer?.errors) ? (answer.errors as Row[]) : [])
    out.set(skuOf(e), (Array.isArray(e.errors) ? e.errors : []).map(String).join("; ") || "Hata");
  for (const v of Array.isArray(answer?.priceValidations) ? (answer.priceValidations as Row[]) : [])
    out.set(
      skuOf(v),
      `${String(v.description ?? v.type ?? "Fiyat reddedildi")} (${String(v.minPrice)} – ${String(v.maxPrice)})`,
    );
  return out;
}
