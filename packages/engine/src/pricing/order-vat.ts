import type { ErpConnector, Order } from "@ep/connectors";
import { readAhead } from "../flows/read-ahead.ts";

/** The ERP's VAT rate (percent) of each SKU asked for that it has a card for. */
export type VatRatesOf = (skus: readonly string[]) => Promise<ReadonlyMap<string, number>>;

/** Whether some line's source gave no VAT rate (Amazon: amounts only) and the ERP item's must fill it. */
// An order without readable lines lacks nothing here: what reads its lines next reports it.
export const lacksVatRates = (order: Order): boolean => order.lines?.some((l) => l.vatRateUnknown) ?? false;

/** The SKUs of an order's lines without a rate of their own. */
export const skusLackingVat = (orders: readonly Order[]): string[] => [
  ...new Set(orders.flatMap((o) => (o.lines ?? []).filter((l) => l.vatRateUnknown).map((l) => l.sku))),
];

/**
 * The ERP's item rates, from its product/stock cards (the rate the product sync sends the shops). The ERP
 * has no read by SKU, so its cards are paged through only as far as the SKUs asked for: one scan at
 * most for the object's life (a run), resumed where it stopped when a later order asks for another SKU,
 * and only the rates (numbers by SKU) are kept.
 */
type CardPage = Awaited<ReturnType<ErpConnector["listProducts"]>>;

export function erpVatRates(erp: Pick<ErpConnector, "listProducts">): VatRatesOf {
  const seen = new Map<string, number>();
  let pages: AsyncIterator<CardPage> | undefined;
  let ended = false;
  let queue: Promise<unknown> = Promise.resolve();
  const scanFor = async (skus: readonly string[]) => {
    while (!ended && skus.some((s) => !seen.has(s))) {
      pages ??= readAhead((pageToken) => erp.listProducts({ pageToken }))[Symbol.asyncIterator]();
      let next: IteratorResult<CardPage>;
      try {
        next = await pages.next();
      } catch (e) {
        // A failed read is not remembered: the next order asks again, from the first page.
        pages = undefined;
        throw e;
      }
      if (next.done) {
        ended = true;
        break;
      }
      for (const p of next.value.items) {
        seen.set(p.sku, p.vatRate);
        for (const v of p.variants) seen.set(v.sku, p.vatRate);
      }
    }
    const out = new Map<string, number>();
    for (const s of skus) {
      const rate = seen.get(s);
      if (rate !== undefined) out.set(s, rate);
    }
    return out;
  };
  // One scan at a time: a second order waits for the pages the first is reading.
  return (skus) => {
    const run = queue.then(() => scanFor(skus));
    queue = run.catch(() => undefined);
    return run;
  };
}

/**
 * The order with each line of unknown rate given its ERP item's rate; `missing`: the SKUs the ERP has
 * no rate for (the order must wait, never go out at 0 %).
 */
export function fillVatRates(
  order: Order,
  rates: ReadonlyMap<string, number>,
): { order: Order; missing: string[] } {
  const missing: string[] = [];
  const lines = order.lines.map((l) => {
    if (!l.vatRateUnknown) return l;
    const rate = rates.get(l.sku);
    if (rate === undefined) {
      if (!missing.includes(l.sku)) missing.push(l.sku);
      return l;
    }
    const { vatRateUnknown: _, ...known } = l;
    return { ...known, vatRate: rate };
  });
  return { order: { ...order, lines }, missing };
}
