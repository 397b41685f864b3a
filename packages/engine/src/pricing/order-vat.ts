import type { ErpConnector, Order } from "@ep/connectors";
import { readAhead } from "../flows/read-ahead.ts";

/** The ERP's VAT rate (percent) per SKU, read once when first asked. */
export type VatRatesOf = () => Promise<ReadonlyMap<string, number>>;

/** Whether some line's source gave no VAT rate (Amazon: amounts only) and the ERP item's must fill it. */
// An order without readable lines lacks nothing here: what reads its lines next reports it.
export const lacksVatRates = (order: Order): boolean => order.lines?.some((l) => l.vatRateUnknown) ?? false;

/**
 * The ERP's item rates, from its product/stock cards (the rate the product sync sends the shops): the
 * ERP has no read by SKU, so its cards are read once, only when an order first needs them.
 */
export function erpVatRates(erp: Pick<ErpConnector, "listProducts">): VatRatesOf {
  let rates: Promise<Map<string, number>> | undefined;
  const read = async () => {
    const out = new Map<string, number>();
    for await (const page of readAhead((pageToken) => erp.listProducts({ pageToken }))) {
      for (const p of page.items) {
        out.set(p.sku, p.vatRate);
        for (const v of p.variants) out.set(v.sku, p.vatRate);
      }
    }
    return out;
  };
  return () => {
    rates ??= read();
    // A failed read is not remembered: the next order asks again.
    rates.catch(() => {
      rates = undefined;
    });
    return rates;
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
