import type { BatchResult, ConnectorError } from "@ep/connectors";
import type { LedgerEntity } from "../ledger/sync-ledger.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";
import { type FlowContext, failRecord } from "./flow.ts";

/** `key` names the record for reports (SKU); `ledgerKey` is its ledger row (e.g. `sku@location`). */
export type PendingWrite<T> = { key: string; ledgerKey?: string; hash: string; item: T; payload: unknown };

/**
 * Writes changed records to the shop in the largest batches it allows, records each applied one in
 * the ledger (so the next run skips it), files permanent item failures as failed tasks and leaves
 * transient ones for the next run.
 *
 * Full batches queue up (a few at most) while the flow goes on reading and comparing: the shop's
 * rate limit, not the flow's own work, sets the pace, and when the limit frees several calls at once
 * the batches are ready. They still go out one at a time and in order; after a failed one the rest
 * is not sent. `flush()` sends what is left, waits for the last answer and rethrows a failure.
 */
export class BatchWriter<T> {
  private buffer: PendingWrite<T>[] = [];
  /** Batches queued or in flight, oldest first; each settles (never rejects) when done. */
  private queued: Promise<void>[] = [];
  private failure: { error: unknown } | null = null;
  transientLeft = 0;

  constructor(
    private readonly ctx: FlowContext,
    private readonly entity: LedgerEntity,
    private readonly batchSize: number,
    private readonly send: (items: T[]) => Promise<BatchResult>,
    private readonly itemKey: (item: T) => string,
    /** Full batches that may wait behind the one in flight before `add` waits too. */
    private readonly maxQueued = 2,
  ) {}

  async add(write: PendingWrite<T>) {
    this.buffer.push(write);
    if (this.buffer.length >= this.batchSize) await this.dispatch();
  }

  async flush() {
    while (this.buffer.length > 0) await this.dispatch();
    await this.drain();
    if (this.failure) throw this.failure.error;
  }

  /** Waits for every queued batch; a flow that stops early calls it before it gives up. */
  async drain() {
    while (this.queued.length > 0) await this.queued.shift();
  }

  private async dispatch() {
    // A record queued twice (read twice) goes out once, with its last value.
    const batch = uniqueByKey(this.buffer.splice(0, this.batchSize), (w) => w.ledgerKey ?? w.key);
    while (this.queued.length > this.maxQueued) await this.queued.shift();
    if (this.failure) throw this.failure.error;
    const previous = this.queued[this.queued.length - 1] ?? Promise.resolve();
    this.queued.push(
      previous
        .then(() => (this.failure ? undefined : this.write(batch)))
        .catch((error: unknown) => {
          this.failure ??= { error };
        }),
    );
  }

  private async write(batch: PendingWrite<T>[]) {
    const result = await this.send(batch.map((w) => w.item));
    const failed = new Map<string, ConnectorError>();
    for (const f of result.failed) failed.set(f.key, f.error);
    const applied: PendingWrite<T>[] = [];
    for (const w of batch) {
      const error = failed.get(this.itemKey(w.item));
      if (!error) {
        applied.push(w);
      } else if (error.kind === "permanent") {
        failRecord(this.ctx, w.key, error, w.payload);
      } else {
        this.transientLeft++;
      }
    }
    await this.ctx.ledger.put(
      this.entity,
      applied.map((w) => ({ key: w.ledgerKey ?? w.key, hash: w.hash })),
    );
    this.ctx.tally.written(applied.map((w) => w.key));
  }
}
