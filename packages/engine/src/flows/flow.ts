import type { ErpConnector, ShopConnector } from "@ep/connectors";
import { isConnectorError } from "@ep/connectors";
import { type JobType, message, type RunTrigger } from "@ep/contracts";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db.ts";
import type { SalesChannel, StockPoolView } from "../deps.ts";
import type { SyncLedger } from "../ledger/sync-ledger.ts";
import type { ItemFailure } from "../runs/error-reports.ts";
import { failureText, systemNamesOf } from "../runs/failure-text.ts";
import { orderLedger, type RunCounts } from "../store/schema.ts";
import type { CompanyMappings } from "./mappings.ts";

/** What a flow gets for one run: both systems, the ledger, the company's mappings, and its tallies. */
export type FlowContext = {
  db: Db;
  companyId: number;
  runId: number;
  job: { id: number; type: JobType; name: string; options: Record<string, unknown> };
  erp: ErpConnector;
  shop: ShopConnector;
  erpConnectionId: number;
  shopConnectionId: number;
  /** The sales channel whose connector is `shop` here; null: the company's shop. */
  channel?: SalesChannel | null;
  /** Set when the company sells on several channels: the stock run writes this channel's share only. */
  stockPool?: StockPoolView | null;
  ledger: SyncLedger;
  mappings: CompanyMappings;
  /** A retry of selected failed tasks moves only these records; null = everything. */
  onlyKeys: Set<string> | null;
  /** What started the run; `change` (the stock probe saw ERP changes) reads only what changed since the cursor. */
  trigger: RunTrigger;
  now(): Date;
  tally: RunTally;
  signal: AbortSignal;
  /** A unique owner id of this worker (for per-record locks). */
  workerId: string;
  /** How long a per-record lock holds before another worker may take the record over. */
  lockMs: number;
  /**
   * New orders (or cancellations) of these SKUs arrived on this shop/channel: the other channels' stock
   * jobs update them now (`requestOtherChannelsStock`). Absent: nothing to tell (tests, previews).
   */
  ordersMoved?: (skus: string[]) => Promise<void>;
};

export type Flow = (ctx: FlowContext) => Promise<void>;

/**
 * Counts of a run, the failures to file, the records that moved, and report lines. `changed()`
 * ticks progress that the long-poll call shows while the run goes on.
 */
export class RunTally {
  readonly counts: RunCounts = { read: 0, changed: 0, written: 0, failed: 0 };
  readonly failures: ItemFailure[] = [];
  /** Records that moved and have an open failed task to resolve (all that moved when none are given). */
  readonly movedKeys: string[] = [];
  readonly lines: string[] = [];
  private readonly failedAt = new Map<string, number>();

  /**
   * `openFailures`: the keys of the job's open failed tasks when the run started. Only those are kept
   * in `movedKeys`: a 100,000-SKU run otherwise held every key it wrote until its end (about 4 MB a
   * flow, issue 13's memory goal), though only the few with a failed task are ever looked at.
   */
  constructor(
    private readonly onProgress: (counts: RunCounts) => void = () => {},
    private readonly openFailures?: ReadonlySet<string>,
  ) {}

  read(n: number) {
    this.counts.read += n;
    this.onProgress(this.counts);
  }
  changed(n: number) {
    this.counts.changed += n;
    this.onProgress(this.counts);
  }
  written(keys: string[]) {
    this.counts.written += keys.length;
    this.moved(keys);
    this.onProgress(this.counts);
  }
  /** A record that moved without a write (e.g. already in the ERP): its failed task resolves too. */
  moved(keys: string[]) {
    for (const key of keys) if (this.openFailures?.has(key) ?? true) this.movedKeys.push(key);
  }
  /** One failed task per record and run: a record that fails again (read twice) keeps the last failure. */
  fail(failure: ItemFailure) {
    const at = this.failedAt.get(failure.key);
    if (at !== undefined) {
      this.failures[at] = failure;
      return;
    }
    this.failedAt.set(failure.key, this.failures.length);
    this.counts.failed++;
    this.failures.push(failure);
    this.onProgress(this.counts);
  }
  note(line: string) {
    this.lines.push(line);
  }
}

/**
 * The records of a compared chunk that need no write, by their failed-task key (`recordOf`: a stock
 * key `sku@location` is the SKU's): what a retry reports as moved, so their failed tasks resolve.
 */
export function inSync(keys: string[], changed: string[], recordOf = (key: string) => key): string[] {
  const differs = new Set(changed);
  return [...new Set(keys.filter((k) => !differs.has(k)).map(recordOf))];
}

/** Files one record's failure as a failed task, in the merchant's words; the error goes to the log. */
export function failRecord(ctx: FlowContext, key: string, error: unknown, payload: unknown) {
  ctx.tally.fail({
    key,
    errorType: isConnectorError(error) ? error.reason : "unexpected",
    message: failureText(error, systemNamesOf(ctx.erp, ctx.shop)),
    payload,
    cause: error,
  });
}

/** Records the ERP listed but its connector could not read: each is its own failed task; the scan goes on. */
export function failRejected(ctx: FlowContext, page: { rejected?: { key: string; error: unknown }[] }) {
  for (const r of page.rejected ?? []) failRecord(ctx, r.key, r.error, { key: r.key });
}

/**
 * A record not moved because the shop record it would be bound to is already bound to another key
 * (see `SyncLedger.put`: the binding that came first keeps it).
 */
export function failBindingConflict(
  ctx: FlowContext,
  failedTaskKey: string,
  conflict: { key: string; heldBy: string },
  payload: unknown,
) {
  ctx.tally.fail({
    key: failedTaskKey,
    errorType: "binding_conflict",
    message: message("failure.bindingConflict", { key: conflict.key, heldBy: conflict.heldBy }),
    payload,
  });
}

/** The order ledger's rows of the run's company and shop or channel connection (every order flow's scope). */
export const ordersOfConnection = (ctx: Pick<FlowContext, "companyId" | "shopConnectionId">) =>
  and(eq(orderLedger.companyId, ctx.companyId), eq(orderLedger.shopConnectionId, ctx.shopConnectionId));
