import type { BatchResult, ConnectorError } from "@ep/connectors";
import type { LedgerEntity } from "../ledger/sync-ledger.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";
import { type FlowContext, failRecord } from "./flow.ts";

/** `key` names the record for reports (SKU); `ledgerKey` is its ledger row (e.g. `sku@location`). */
export type PendingWrite<T> = { key: string; ledgerKey?: string; hash: string; item: T };

export type BatchWriterOptions<T> = {
  /**
   * Batches sent at the same time. The connector's rate limiter decides when each one leaves, so
   * with several in flight the shop's answer time overlaps the next calls and a window's burst is
   * used: the shop's limit, not its latency, sets the pace. Default 8 (never above the shop's budget).
   */
  inFlight?: number;
  /**
   * Full batches that may wait for a free slot before `add` waits too (bounds memory). Default: as
   * many as bring the batches held, in flight and waiting, to `HELD_RECORDS` records, at most one
   * window of the shop's budget (more could not go out at once anyway), at least 2.
   */
  waiting?: number;
  /**
   * What a permanently failed record's task keeps (shown, and read by its retry); the item itself by
   * default. Built only when a record fails: a writer may hold 32,000 records, and most never fail.
   */
  failurePayload?: (item: T) => unknown;
};

/**
 * Records a writer may hold, in flight and waiting for the shop. When the shop's window closes after
 * its burst, the flow goes on reading the ERP until this many are held, so the next window's burst is
 * ready when it opens: with 8 batches of 1,000 stock records waiting the reads stopped within a second
 * and the last window was paced by the ERP (100,000-SKU sync 1.21× its least time, 1.10× with 32,000
 * waiting). Counted in records, not batches: a record costs the same memory whatever the shop's batch
 * size. The batches in flight count too: 8 price batches of 3,000 are 24,000 records, and with 32,000
 * waiting besides, the two flows could hold 94,000 records (a heap snapshot in a 100,000-SKU sync:
 * 62 MB live for 78,000 held, against issue 13's 300 MB); counted in all, 62,000, with the same
 * least-time ratios (bench/README.md).
 */
const HELD_RECORDS = 32_000;

/**
 * Writes changed records to the shop in the largest batches it allows, records each applied one in
 * the ledger (so the next run skips it), files permanent item failures as failed tasks and leaves
 * transient ones for the next run.
 *
 * Batches are pipelined: up to `inFlight` are sent at once (each waits for the rate limiter), up to
 * `waiting` more wait for a slot while the flow goes on reading and comparing, and then `add` waits.
 * Each batch is recorded in the ledger as soon as it is answered, whatever the order of the answers.
 * A record is never in two batches in flight at once: a batch holding a record that is still in
 * flight waits for that batch first, so the last value read is the last one written.
 * After a failed batch no new batch is sent; those already in flight still land and are recorded.
 * `flush()` sends what is left, waits for every answer and rethrows the first failure.
 */
export class BatchWriter<T> {
  private buffer: PendingWrite<T>[] = [];
  /** Batches sent or waiting to be sent; each settles (never rejects) when done. */
  private readonly active = new Set<Promise<void>>();
  /** Ledger key → the batch that carries it while it is in flight. */
  private readonly carrying = new Map<string, Promise<void>>();
  private sending = 0;
  private readonly slotFreed: Array<() => void> = [];
  private failure: { error: unknown } | null = null;
  private readonly inFlight: number;
  private readonly waiting: number;
  private readonly failurePayload: (item: T) => unknown;
  transientLeft = 0;

  constructor(
    private readonly ctx: FlowContext,
    private readonly entity: LedgerEntity,
    private readonly batchSize: number,
    private readonly send: (items: T[]) => Promise<BatchResult>,
    private readonly itemKey: (item: T) => string,
    options: BatchWriterOptions<T> = {},
  ) {
    this.failurePayload = options.failurePayload ?? ((item) => item);
    const budget = ctx.shop.descriptor.budget?.requests ?? Number.POSITIVE_INFINITY;
    this.inFlight = Math.max(1, Math.min(options.inFlight ?? 8, budget));
    const held = Math.min(Math.floor(HELD_RECORDS / batchSize), budget);
    this.waiting = Math.max(0, options.waiting ?? Math.max(2, held - this.inFlight));
  }

  async add(write: PendingWrite<T>) {
    this.buffer.push(write);
    if (this.buffer.length >= this.batchSize) await this.dispatch();
  }

  async flush() {
    while (this.buffer.length > 0) await this.dispatch();
    await this.drain();
    if (this.failure) throw this.failure.error;
  }

  /** Waits for every batch sent or waiting; a flow that stops early calls it before it gives up. */
  async drain() {
    while (this.active.size > 0) await Promise.all([...this.active]);
  }

  private async dispatch() {
    // A record queued twice (read twice) goes out once, with its last value.
    const batch = uniqueByKey(this.buffer.splice(0, this.batchSize), (w) => w.ledgerKey ?? w.key);
    // Memory stays bounded: at most `inFlight + waiting` batches are held.
    while (this.active.size >= this.inFlight + this.waiting) await Promise.race([...this.active]);
    if (this.failure) throw this.failure.error;
    const keys = batch.map((w) => w.ledgerKey ?? w.key);
    const before = new Set<Promise<void>>();
    for (const key of keys) {
      const other = this.carrying.get(key);
      if (other) before.add(other);
    }
    const done: Promise<void> = Promise.all(before)
      .then(() => this.slot())
      .then(async () => {
        try {
          if (!this.failure) await this.write(batch);
        } finally {
          this.sending--;
          this.slotFreed.shift()?.();
        }
      })
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.active.delete(done);
        for (const key of keys) if (this.carrying.get(key) === done) this.carrying.delete(key);
      });
    this.active.add(done);
    for (const key of keys) this.carrying.set(key, done);
  }

  /** Waits for one of the `inFlight` sending slots. */
  private async slot() {
    while (this.sending >= this.inFlight) await new Promise<void>((resolve) => this.slotFreed.push(resolve));
    this.sending++;
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
        failRecord(this.ctx, w.key, error, this.failurePayload(w.item));
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
