/**
 * T-Soft orders: `order/get` by order date window with `start`/`limit` paging; lines under
 * `OrderDetails`. Statuses are read only (no status write call is verified). Keys besides the lines
 * are the capitalised names public code tries (inferred; ./judge/answers.ts).
 */

import { compact, paymentMeansOfText, saleDate } from "../sdk/internet-sale";
import type * as M from "../sdk/model";
import { decodeToken, encodeToken, round2, shopOrderLine } from "../sdk/util";
import { type Row, rest1Rows, type TsoftClient } from "./client";
import { TSOFT_ORDER_PAGE } from "./descriptor";
import { num } from "./products";

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v).trim());

/** Statuses the sources name (code id 55903059532: 9 cancelled, 10 returned); the others come with each order. */
export const TSOFT_KNOWN_STATUSES: M.Option[] = [
  { id: "9", name: "İptal" },
  { id: "10", name: "İade" },
];

/** First read without a cursor goes this far back (our choice). */
const FIRST_READ_DAYS = 30;

/** REST1 date-time parameters: 'yyyy-MM-dd HH:mm:ss', formatted in UTC as the public clients do (time zone inferred). */
export function rest1DateTime(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}

/** An order date as REST1 sends it ('yyyy-MM-dd HH:mm:ss', read as UTC) to ISO. */
function isoOf(v: unknown): string {
  const s = str(v);
  const d = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s)
    ? new Date(`${s.replace(" ", "T")}Z`)
    : new Date(s);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

function address(o: Row, prefix: "Invoice" | "Delivery", first: string, last: string): M.Address {
  return {
    firstName: first,
    lastName: last,
    line1: str(o[`${prefix}Address`]),
    district: str(o[`${prefix}Town`]) || undefined,
    city: str(o[`${prefix}City`]),
    country: "Türkiye",
    phone: str(o.CustomerPhone) || undefined,
  };
}

/**
 * Payment means from `PaymentType` (the store's payment name: "Kredi Kartı", "Havale/EFT", "Kapıda
 * Ödeme"). REST1 keeps no payment time in the order: a card is charged at checkout, so its date is the
 * order date; a transfer or a payment at the door has none.
 */
function tsoftPayment(o: Row, createdAt: string): M.OrderPayment | undefined {
  const means = paymentMeansOfText(str(o.PaymentType));
  if (!means) return undefined;
  const online = means === "KREDIKARTI/BANKAKARTI" || means === "ODEMEARACISI";
  return compact<M.OrderPayment>({ means, date: online ? saleDate(createdAt) : undefined });
}

/**
 * The line rate of the order's currency (`SellingCurrencyExchangeRate` beside `SellingCurrency` in
 * OrderDetails, code id 46404093210), only when every line agrees: TRY per unit, as the store keeps TL.
 */
function tsoftExchangeRate(currency: string, lines: Row[]): number | undefined {
  if (currency === "TRY") return undefined;
  const rates = new Set(lines.map((l) => num(l.SellingCurrencyExchangeRate)));
  const [rate] = [...rates];
  return rates.size === 1 && rate !== undefined && rate > 0 ? rate : undefined;
}

export function mapTsoftOrder(o: Row): M.Order {
  const first = str(o.CustomerName);
  const last = str(o.CustomerSurname);
  const details = Array.isArray(o.OrderDetails) ? (o.OrderDetails as Row[]) : [];
  const lines: M.OrderLine[] = details.map((l) =>
    shopOrderLine({
      sku: str(l.ProductCode),
      name: str(l.ProductName),
      qty: num(l.Quantity),
      price: num(l.Price),
      total: num(l.TotalPrice),
      vatRate: num(l.Vat),
      discount: num(l.Discount),
    }),
  );
  const billing = address(o, "Invoice", first, last);
  const subtotal = round2(lines.reduce((s, l) => s + l.total, 0));
  const shipping = num(o.CargoPrice);
  const discount = num(o.DiscountAmount);
  const customer: M.Customer = {
    ref: str(o.CustomerCode)
      ? `TSOFT-${str(o.CustomerCode)}`
      : str(o.CustomerEmail) || `TSOFT-ORDER-${str(o.OrderId)}`,
    firstName: first,
    lastName: last,
    email: str(o.CustomerEmail) || undefined,
    phone: str(o.CustomerPhone) || undefined,
    isCompany: false,
    billingAddress: billing,
  };
  const createdAt = isoOf(o.OrderDate);
  const currency = str(o.Currency) === "TL" || !str(o.Currency) ? "TRY" : str(o.Currency);
  return {
    id: str(o.OrderId),
    orderNo: str(o.OrderCode) || str(o.OrderId),
    createdAt,
    updatedAt: isoOf(o.UpdateDate ?? o.OrderDate),
    status: str(o.OrderStatusId),
    paymentType: str(o.PaymentType) || undefined,
    currency,
    customer,
    billingAddress: billing,
    shippingAddress: address(o, "Delivery", first, last),
    lines,
    shipping: { cost: shipping },
    totals: {
      subtotal,
      discount,
      shipping,
      tax: 0,
      grandTotal: num(o.TotalAmount) || round2(subtotal - discount + shipping),
    },
    payment: tsoftPayment(o, createdAt),
    // The tracking code under the name order2/updateOrderStatusAsSentToCargo writes it (shops.md); REST1
    // names no carrier or dispatch time in the order.
    delivery: compact<M.OrderDelivery>({ trackingNumber: str(o.CargoTrackingCode) || undefined }),
    exchangeRate: tsoftExchangeRate(currency, details),
  };
}

interface OrderPageToken {
  start: number;
  from: number;
  to: number;
}

export class TsoftOrders {
  constructor(
    private readonly client: TsoftClient,
    private readonly now: () => number,
  ) {}

  async listOrders(q: M.PageQuery = {}): Promise<M.Page<M.Order>> {
    const token = decodeToken<OrderPageToken>(q.pageToken, "tsoft");
    const to = token?.to ?? this.now();
    const from = token?.from ?? (q.since ? Date.parse(q.since) : to - FIRST_READ_DAYS * 86_400_000);
    const start = token?.start ?? 0;
    const res = await this.client.call("order/get", "read", {
      OrderDateTimeStart: rest1DateTime(from),
      OrderDateTimeEnd: rest1DateTime(to),
      FetchProductData: "true",
      start: String(start),
      limit: String(TSOFT_ORDER_PAGE),
    });
    const rows = rest1Rows(res);
    const items = rows.map(mapTsoftOrder);
    const more = rows.length >= TSOFT_ORDER_PAGE;
    return {
      items,
      nextPageToken: more ? encodeToken({ start: start + TSOFT_ORDER_PAGE, from, to }) : undefined,
      // The window's end: the next read starts there (the engine dedupes the overlap).
      cursor: more ? undefined : new Date(to).toISOString(),
    };
  }

  listOrderStatuses(): M.Option[] {
    return TSOFT_KNOWN_STATUSES;
  }
}
