/**
 * Writes a marketplace answers later: the call returns a batch id, and the outcome per item is read from a
 * result call until the batch is done (Trendyol `batchRequestId`, Hepsiburada upload ids). One helper for
 * both: poll, then turn per-item failures into a `BatchResult`.
 */

import { type BatchResult, ConnectorError } from "./errors";
import { sleep } from "./rate-limit";

/** How often and how long a connector reads a batch result before it reports the rest as pending. */
export interface AsyncBatchPolicy {
  intervalMs: number;
  maxPolls: number;
}

/** Trendyol keeps results 4 hours and processes most batches in seconds; 2 s × 30 is a minute. */
export const DEFAULT_ASYNC_BATCH: AsyncBatchPolicy = { intervalMs: 2_000, maxPolls: 30 };

/**
 * Reads the result of every batch in rounds (wait `intervalMs`, then read each batch not done yet) until
 * all are done or the rounds run out. Batches are sent first and read together afterwards, so a run of
 * many batches waits for results once, not once per batch. `reads` counts the result calls made.
 */
export async function pollBatchResults<K, T>(
  keys: readonly K[],
  read: (key: K) => Promise<T>,
  done: (answer: T, key: K) => boolean,
  policy: AsyncBatchPolicy = DEFAULT_ASYNC_BATCH,
): Promise<{ answers: Map<K, T>; reads: number }> {
  const answers = new Map<K, T>();
  let open = [...keys];
  let reads = 0;
  for (let round = 0; open.length > 0 && round < policy.maxPolls; round++) {
    await sleep(policy.intervalMs);
    const still: K[] = [];
    for (const key of open) {
      const answer = await read(key);
      reads++;
      answers.set(key, answer);
      if (!done(answer, key)) still.push(key);
    }
    open = still;
  }
  return { answers, reads };
}

/** What one item of an asynchronous batch came to: applied, refused with the system's words, or not yet known. */
export type AsyncItemOutcome =
  | { key: string; state: "applied" }
  | { key: string; state: "failed"; message: string }
  | { key: string; state: "pending" };

/**
 * The batch's `BatchResult`: refused items are permanent `validation` failures with the system's message;
 * items the result call never settled are transient (`unavailable`) so the engine sends them again.
 */
export function asyncBatchResult(
  system: string,
  operation: string,
  outcomes: readonly AsyncItemOutcome[],
  calls: number,
): BatchResult {
  const result: BatchResult = { applied: 0, failed: [], calls };
  for (const o of outcomes) {
    if (o.state === "applied") result.applied++;
    else
      result.failed.push({
        key: o.key,
        error: new ConnectorError(
          `${system} ${operation}: ${o.state === "failed" ? "item refused" : "result not ready"}`,
          {
            reason: o.state === "failed" ? "validation" : "unavailable",
            system,
            operation,
            systemMessage: o.state === "failed" ? o.message : undefined,
            itemKeys: [o.key],
          },
        ),
      });
  }
  return result;
}
