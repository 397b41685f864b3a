import type { Order, OrderLine } from "@ep/connectors";
import { fromKurus, orderDiscountShares, toKurus } from "./amounts.ts";

/** Units of one sale line that came back: `qty` of `order.lines[line]`, after `before` units returned earlier. */
export interface ReturnedUnits {
  line: number;
  qty: number;
  before?: number;
}

/**
 * The part of a sale that came back, as an order its return document (an IADE, or the amounts of the
 * merchant's gider pusulası) is built from: only the returned lines and units. Each line's amount and
 * discount (its own, and its share of the order's discount as `computeAmounts` spreads it) go in proportion
 * to the units, counted cumulatively on the line (units [before, before + qty)), so the returns of a line
 * and what stays add up to the sale's line to the kuruş however many returns there are. The part carries no
 * order discount of its own (its grand total is the sum of its lines) and no shipping: the cargo is not
 * returned. VAT is then computed per line by `computeAmounts`, as for any document.
 */
export function returnedPart(order: Order, returned: readonly ReturnedUnits[]): Order {
  const shares = orderDiscountShares(order);
  const lines: OrderLine[] = returned.map((r) => {
    const line = order.lines[r.line];
    if (!line) throw new RangeError(`Siparişte ${r.line + 1}. kalem yok`);
    const before = r.before ?? 0;
    if (!(r.qty > 0) || before < 0 || before + r.qty > line.qty)
      throw new RangeError(
        `İade miktarı satılandan fazla olamaz (${line.sku}: ${before} + ${r.qty} > ${line.qty})`,
      );
    // Cumulative rounding: the amount of units [0, u) of the line is round(amount × u / qty).
    const upTo = (amountK: number, units: number) => Math.round((amountK * units) / line.qty);
    const part = (amountK: number) => upTo(amountK, before + r.qty) - upTo(amountK, before);
    const afterK = part(toKurus(line.total) - (shares[r.line] ?? 0));
    const discountK = part(toKurus(line.discount) + (shares[r.line] ?? 0));
    return {
      ...line,
      qty: r.qty,
      unitPrice: Number(((afterK + discountK) / 100 / r.qty).toFixed(8)),
      discount: Number(fromKurus(discountK)),
      total: Number(fromKurus(afterK)),
    };
  });
  const totalK = lines.reduce((sum, l) => sum + toKurus(l.total), 0);
  const discountK = lines.reduce((sum, l) => sum + toKurus(l.discount), 0);
  return {
    ...order,
    lines,
    shipping: { ...order.shipping, cost: 0 },
    totals: {
      subtotal: Number(fromKurus(totalK + discountK)),
      discount: Number(fromKurus(discountK)),
      shipping: 0,
      tax: 0,
      grandTotal: Number(fromKurus(totalK)),
    },
  };
}
