/**
 * Reading Trendyol's asynchronous batches back (getBatchRequestResult): stock/price and product create
 * batches alike answer per item with `requestItem`, `status` and `failureReasons`; the batches of a run
 * are read together in rounds until `done` says each is settled.
 */

import { type AsyncItemOutcome, asyncBatchResult, pollBatchResults } from "../sdk/async-batch";
import type { BatchResult } from "../sdk/errors";
import type { Row, TrendyolClient } from "./client";

/** One sent batch: its id and the barcodes it carried. */
export type SentBatch = { id: string; barcodes: string[] };

/** Item statuses of a batch by barcode (the request item is the product, or holds it). */
export function itemStatuses(batch: Row): Map<string, { status: string; reasons: string[] }> {
  const out = new Map<string, { status: string; reasons: string[] }>();
  for (const i of Array.isArray(batch?.items) ? (batch.items as Row[]) : []) {
    const req = (i.requestItem ?? {}) as Row;
    const barcode = String(req.barcode ?? (req.product as Row | undefined)?.barcode ?? "");
    const reasons = Array.isArray(i.failureReasons) ? (i.failureReasons as unknown[]).map(String) : [];
    out.set(barcode, { status: String(i.status ?? ""), reasons });
  }
  return out;
}

/**
 * Polls every sent batch until `done`, then reports each barcode (by its key in `skuOf`) as applied,
 * refused with Trendyol's reasons, or not settled yet; `calls` counts the result reads.
 */
export async function readBatchResults(
  client: TrendyolClient,
  sent: SentBatch[],
  skuOf: ReadonlyMap<string, string>,
  operation: string,
  done: (answer: Row, batch: SentBatch) => boolean,
): Promise<BatchResult> {
  const byId = new Map(sent.map((b) => [b.id, b]));
  const { answers, reads } = await pollBatchResults(
    sent.map((b) => b.id),
    async (id) =>
      (await client.get(
        client.seller("product", `/products/batch-requests/${encodeURIComponent(id)}`),
        "getBatchRequestResult",
      )) as Row,
    (b: Row, id) => done(b, byId.get(id) ?? { id, barcodes: [] }),
    client.ctx.asyncBatch,
  );
  const outcomes: AsyncItemOutcome[] = sent.flatMap(({ id, barcodes }) => {
    const statuses = itemStatuses(answers.get(id) ?? {});
    return barcodes.map((barcode): AsyncItemOutcome => {
      const key = skuOf.get(barcode) ?? barcode;
      const st = statuses.get(barcode);
      if (st?.status === "SUCCESS") return { key, state: "applied" };
      if (st?.status === "FAILED")
        return { key, state: "failed", message: st.reasons.join("; ") || "FAILED" };
      return { key, state: "pending" };
    });
  });
  return asyncBatchResult("trendyol", operation, outcomes, reads);
}
