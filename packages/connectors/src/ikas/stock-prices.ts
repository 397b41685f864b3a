/** IKAS stock per location and prices per list: absolute values, batched, with a result per row. */

import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import { chunk } from "../sdk/util";
import type { IkasClient } from "./client";
import { IKAS_DEFAULT_PRICE_LIST, ikasDescriptor } from "./descriptor";

type Resolver = (skus: string[]) => Promise<Map<string, { productId: string; variantId: string }>>;

/** Row-level refusal codes inside `extensions.inputErrors` that mean "no such product/variant/location". */
const UNKNOWN_ROW_CODES = new Set(["NOT_FOUND"]);

export class IkasStockPrices {
  private readonly batchStock: number;
  private readonly batchPrices: number;

  constructor(
    private readonly client: IkasClient,
    private readonly findProductsBySku: Resolver,
    batch: { stock?: number; prices?: number } = {},
  ) {
    this.batchStock = Math.min(batch.stock ?? Number.POSITIVE_INFINITY, ikasDescriptor.batch.stock ?? 1000);
    this.batchPrices = Math.min(
      batch.prices ?? Number.POSITIVE_INFINITY,
      ikasDescriptor.batch.prices ?? 3000,
    );
  }

  private async resolveIds<T extends { sku: string; productId?: string; variantId?: string }>(
    items: T[],
  ): Promise<{ ready: Array<T & { productId: string; variantId: string }>; unknown: T[] }> {
    const missing = items.filter((i) => !i.productId || !i.variantId).map((i) => i.sku);
    const ids = missing.length > 0 ? await this.findProductsBySku(missing) : new Map();
    const ready: Array<T & { productId: string; variantId: string }> = [];
    const unknown: T[] = [];
    for (const i of items) {
      if (i.productId && i.variantId) ready.push({ ...i, productId: i.productId, variantId: i.variantId });
      else {
        const hit = ids.get(i.sku);
        if (hit) ready.push({ ...i, productId: hit.productId, variantId: hit.variantId });
        else unknown.push(i);
      }
    }
    return { ready, unknown };
  }

  /**
   * Send one batch. A refusal (`ARGUMENT_VALIDATION_ERROR`) that names its rows in
   * `extensions.invalidInputIndexes` fails those rows and sends the rest once more (a corrected
   * request, not a blind retry). Nothing is read from the message text.
   */
  private async sendBatch<T extends { sku: string }>(
    rows: T[],
    send: (rows: T[]) => Promise<void>,
    result: BatchResult,
  ): Promise<ConnectorError | undefined> {
    try {
      result.calls++;
      await send(rows);
      result.applied += rows.length;
      return undefined;
    } catch (e) {
      if (!(e instanceof ConnectorError)) throw e;
      const raw = e.reason === "validation" ? e.details?.invalidInputIndexes : undefined;
      const idx = Array.isArray(raw) ? raw.filter((n): n is number => Number.isInteger(n)) : [];
      if (idx.length > 0) {
        const bad = new Set(idx);
        const codes = new Map<number, string>();
        const inputErrors = e.details?.inputErrors;
        if (Array.isArray(inputErrors)) {
          for (const x of inputErrors as Array<{ index?: unknown; code?: unknown }>) {
            if (typeof x.index === "number" && typeof x.code === "string") codes.set(x.index, x.code);
          }
        }
        rows.forEach((r, i) => {
          if (!bad.has(i)) return;
          // Unknown ids are unknown items (the engine refreshes its id map); other refusals are validation.
          const code = codes.get(i);
          const reason = code === undefined || UNKNOWN_ROW_CODES.has(code) ? "unknown_item" : "validation";
          result.failed.push({ key: r.sku, error: e.with({ reason, itemKeys: [r.sku] }) });
        });
        const rest = rows.filter((_, i) => !bad.has(i));
        return rest.length > 0 ? this.sendBatch(rest, send, result) : undefined;
      }
      for (const r of rows) result.failed.push({ key: r.sku, error: e.with({ itemKeys: [r.sku] }) });
      // Systemic failures stop the whole run of batches.
      return e.reason === "auth" || e.reason === "blocked" || e.reason === "rate_limited" ? e : undefined;
    }
  }

  private static unknown(sku: string, operation: string): ConnectorError {
    return new ConnectorError(`ikas: no product with sku ${sku}`, {
      reason: "unknown_item",
      system: "ikas",
      operation,
      itemKeys: [sku],
    });
  }

  /**
   * Send batches in order. A systemic failure (auth, blocked, rate limited) stops the run and fails every
   * row not sent yet with it; rows of batches already sent keep their own outcome.
   */
  private async sendBatches<T extends { sku: string }>(
    batches: Array<{ rows: T[]; send: (rows: T[]) => Promise<void> }>,
    result: BatchResult,
  ): Promise<void> {
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b];
      if (!batch) continue;
      const stop = await this.sendBatch(batch.rows, batch.send, result);
      if (!stop) continue;
      for (const r of batches.slice(b + 1).flatMap((x) => x.rows))
        result.failed.push({ key: r.sku, error: stop.with({ itemKeys: [r.sku] }) });
      return;
    }
  }

  async setStock(items: StockUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const { ready, unknown } = await this.resolveIds(items);
    for (const u of unknown) {
      result.failed.push({ key: u.sku, error: IkasStockPrices.unknown(u.sku, "saveProductStockLocations") });
    }
    const send = async (part: typeof ready) => {
      await this.client.gql<{ saveProductStockLocations: boolean }>(
        "saveProductStockLocations",
        "write",
        "mutation SaveStock($input: SaveStockLocationsInput!) { saveProductStockLocations(input: $input) }",
        {
          input: {
            productStockLocationInputs: part.map((r) => ({
              productId: r.productId,
              variantId: r.variantId,
              stockLocationId: r.locationId,
              stockCount: r.qty,
            })),
          },
        },
        // Absolute quantities: sending twice is harmless.
        { idempotent: true },
      );
    };
    await this.sendBatches(
      chunk(ready, this.batchStock).map((rows) => ({ rows, send })),
      result,
    );
    return result;
  }

  async setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const { ready, unknown } = await this.resolveIds(items);
    for (const u of unknown) {
      result.failed.push({ key: u.sku, error: IkasStockPrices.unknown(u.sku, "saveVariantPrices") });
    }
    const byList = new Map<string, typeof ready>();
    for (const r of ready) {
      const k = r.priceListId ?? IKAS_DEFAULT_PRICE_LIST;
      const list = byList.get(k) ?? [];
      list.push(r);
      byList.set(k, list);
    }
    const sendTo = (listId: string) => async (part: typeof ready) => {
      await this.client.gql<{ saveVariantPrices: boolean }>(
        "saveVariantPrices",
        "write",
        "mutation SavePrices($input: SaveVariantPricesInput!) { saveVariantPrices(input: $input) }",
        {
          input: {
            priceListId: listId === IKAS_DEFAULT_PRICE_LIST ? null : listId,
            variantPriceInputs: part.map((r) => ({
              productId: r.productId,
              variantId: r.variantId,
              price: {
                sellPrice: r.listAmount ?? r.amount,
                discountPrice: r.listAmount !== undefined ? r.amount : null,
                currency: r.currency,
              },
            })),
          },
        },
        { idempotent: true },
      );
    };
    await this.sendBatches(
      [...byList].flatMap(([listId, rows]) =>
        chunk(rows, this.batchPrices).map((part) => ({ rows: part, send: sendTo(listId) })),
      ),
      result,
    );
    return result;
  }
}
