import type { BatchResult, PriceUpdate, ShopConnector, StockUpdate } from "@ep/connectors";
import { CallCounter } from "@ep/connectors";
import { type MessageKey, message, type RunPreview } from "@ep/contracts";
import {
  channelMappings,
  FLOWS,
  type LedgerConflict,
  type LedgerEntity,
  type LedgerRow,
  loadMappings,
  RunTally,
  SyncLedger,
} from "@ep/engine";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { MissingConnectionError, openCompanyConnectors } from "../connections/connector-factory.ts";

type PreviewJob = RunPreview["jobType"];
const SHOWN_ROWS = 50;

/** A ledger that reads like the real one and writes nothing; it remembers what it read (the "before"). */
class ReadOnlyLedger extends SyncLedger {
  readonly seen = new Map<string, string | null>();
  override async get(entity: LedgerEntity, keys: string[]): Promise<Map<string, LedgerRow>> {
    const rows = await super.get(entity, keys);
    for (const [key, row] of rows) this.seen.set(`${entity}:${key}`, row.hash);
    return rows;
  }
  override async put(): Promise<LedgerConflict[]> {
    return [];
  }
  override async saveCursor(): Promise<void> {}
}

/** The shop as the flow sees it, except that price and stock writes are only recorded. */
function recordingShop(shop: ShopConnector, prices: PriceUpdate[], stock: StockUpdate[]): ShopConnector {
  const applied = (n: number): BatchResult => ({ applied: n, failed: [], calls: 0 });
  return new Proxy(shop, {
    get(target, prop, receiver) {
      if (prop === "setPrices") {
        return async (items: PriceUpdate[]) => {
          prices.push(...items);
          return applied(items.length);
        };
      }
      if (prop === "setStock") {
        return async (items: StockUpdate[]) => {
          stock.push(...items);
          return applied(items.length);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The last written value from a ledger hash ("12.50 TRY" for a price, "7" for stock); null if unknown. */
const lastWritten = (hash: string | null | undefined): number | null => {
  const n = hash ? Number.parseFloat(hash) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * What the next price or stock run would write: the engine's own flow runs against the live systems
 * with its writes and ledger updates held back, so the preview computes exactly what a run would.
 * Guard rails: prices falling by more than the set percentage, or more than the set share of the
 * items read going to 0 stock, mark the run for a confirmation.
 */
export async function previewRun(
  ctx: AppContext,
  companyId: number,
  jobType: PreviewJob,
  /** A sales channel's run (issue 37): its share of the stock pool, its price rule; another company's: 409. */
  channelId?: number,
): Promise<RunPreview> {
  const db = ctx.database.db;
  let opened: Awaited<ReturnType<typeof openCompanyConnectors>>;
  try {
    opened = await openCompanyConnectors(
      ctx,
      companyId,
      new CallCounter(),
      { timeoutMs: ctx.config.connectorTimeoutMs },
      channelId,
    );
  } catch (error) {
    if (error instanceof MissingConnectionError) throw new AppError(409, "connectionSettings.notConnected");
    throw error;
  }
  const companyMappings = await loadMappings(db, companyId);
  const mappings = opened.channel ? channelMappings(companyMappings, opened.channel) : companyMappings;
  const prices: PriceUpdate[] = [];
  const stock: StockUpdate[] = [];
  const ledger = new ReadOnlyLedger(db, opened.shopConnectionId, companyId);
  const tally = new RunTally();
  try {
    await FLOWS[jobType]({
      db,
      companyId,
      runId: 0,
      job: { id: 0, type: jobType, name: jobType, options: {} },
      erp: opened.erp,
      shop: recordingShop(opened.shop, prices, stock),
      erpConnectionId: opened.erpConnectionId,
      shopConnectionId: opened.shopConnectionId,
      channel: opened.channel ?? null,
      stockPool: opened.stockPool ?? null,
      ledger,
      mappings,
      onlyKeys: null,
      trigger: "manual",
      now: () => ctx.clock.now(),
      tally,
      signal: new AbortController().signal,
      workerId: `preview-${companyId}`,
      lockMs: 60_000,
    });
  } catch (error) {
    ctx.logger.warn(
      { companyId, jobType, err: error instanceof Error ? error.name : "error" },
      "preview failed",
    );
    throw new AppError(409, "connectionSettings.listFailed");
  }

  const read = tally.counts.read;
  if (jobType === "PriceIntegration") {
    const limit = mappings.priceGuardMaxDropPercent;
    const rows = prices.map((p) => ({
      sku: p.sku,
      location: p.priceListId ?? null,
      before: lastWritten(ledger.seen.get(`price:${p.sku}@${p.priceListId ?? "default"}`)),
      after: p.amount,
    }));
    const flagged = rows.filter(
      (r) => r.before !== null && r.before > 0 && r.after < r.before * (1 - limit / 100),
    );
    // The worst drops first: they are what the user must look at.
    const drop = (r: (typeof rows)[number]) => (r.before ? (r.before - r.after) / r.before : 0);
    rows.sort((a, b) => drop(b) - drop(a));
    const tripped = flagged.length > 0;
    return result(jobType, rows, read, flagged.length, limit, tripped, {
      key:
        rows.length === 0
          ? "connectionSettings.previewNothing"
          : tripped
            ? "connectionSettings.previewPriceTripped"
            : "connectionSettings.previewPriceOk",
      params: { total: rows.length, flagged: flagged.length, limit },
    });
  }
  const limit = mappings.stockGuardMaxZeroPercent;
  const rows = stock.map((s) => ({
    sku: s.sku,
    location: s.locationId,
    before: lastWritten(ledger.seen.get(`stock:${s.sku}@${s.locationId}`)),
    after: s.qty,
  }));
  const zeroed = rows.filter((r) => r.after === 0 && r.before !== 0);
  rows.sort((a, b) => Number(b.after === 0) - Number(a.after === 0));
  const share = read > 0 ? Math.round((zeroed.length / read) * 100) : 0;
  const tripped = share > limit;
  return result(jobType, rows, read, zeroed.length, limit, tripped, {
    key:
      rows.length === 0
        ? "connectionSettings.previewNothing"
        : tripped
          ? "connectionSettings.previewStockTripped"
          : "connectionSettings.previewStockOk",
    params: { total: rows.length, flagged: zeroed.length, limit, share },
  });
}

function result(
  jobType: PreviewJob,
  rows: RunPreview["rows"],
  read: number,
  flagged: number,
  limitPercent: number,
  tripped: boolean,
  text: { key: MessageKey; params: Record<string, number> },
): RunPreview {
  return {
    jobType,
    total: rows.length,
    read,
    rows: rows.slice(0, SHOWN_ROWS),
    flagged,
    limitPercent,
    tripped,
    message: message(text.key, text.params),
  };
}
