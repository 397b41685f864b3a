/**
 * Sentos orders (read only): `GET /orders` pages, changed since a day (`updated_start_date`), oldest change
 * first. Row keys are the source's SentosOrder type; numbers may come as strings.
 */

import { compact, paymentMeansOfText, saleDate } from "../sdk/internet-sale";
import type { Address, Order, OrderDelivery, OrderLine, OrderPayment, Page, PageQuery } from "../sdk/model";
import { decodeToken, encodeToken, round2, shopOrderLine, splitName } from "../sdk/util";
import { type Row, type SentosClient, sentosList } from "./client";
import { SENTOS_PAGE_SIZE } from "./descriptor";

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v).trim());
const num = (v: unknown): number => {
  const n = Number(str(v).replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};
/** First read without a cursor goes this far back (our choice). */
const FIRST_READ_DAYS = 30;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** 'yyyy-MM-dd HH:mm:ss' (read as UTC; the source does not say) or ISO, to ISO. */
function isoOf(v: unknown): string {
  const s = str(v);
  const d = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s)
    ? new Date(`${s.replace(" ", "T")}Z`)
    : new Date(s);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

function address(a: unknown, fallbackName: string): Address {
  const r = (a && typeof a === "object" ? a : {}) as Row;
  const [firstName, lastName] = splitName(str(r.name) || fallbackName);
  return {
    firstName,
    lastName,
    line1: str(r.address),
    district: str(r.district) || undefined,
    city: str(r.city),
    postalCode: str(r.zipCode) || undefined,
    country: str(r.country) || "Türkiye",
    phone: str(r.phone) || undefined,
  };
}

/** Sentos's status for "Kargoya verildi" (shops.md: 5). */
const SHIPPED_STATUS = "5";

/**
 * Payment means from `payment_method` (free text: "Kredi Kartı", "Havale/EFT", "Kapıda Ödeme"). Sentos
 * keeps no payment time: an online payment is made when the order is placed, so its date is the order
 * date; a transfer or a payment at the door has none.
 */
function sentosPayment(o: Row): OrderPayment | undefined {
  const means = paymentMeansOfText(str(o.payment_method));
  if (!means) return undefined;
  const online = means === "KREDIKARTI/BANKAKARTI" || means === "ODEMEARACISI";
  return compact<OrderPayment>({
    means,
    date: online ? saleDate(isoOf(o.order_date ?? o.created_at)) : undefined,
  });
}

/**
 * Carrier and tracking number: `tracking_info` when the order has one, else `cargo_provider` /
 * `cargo_number`. No dispatch time is kept: while the order is "Kargoya verildi" its last change is it.
 */
function sentosDelivery(o: Row): OrderDelivery | undefined {
  const t = (o.tracking_info && typeof o.tracking_info === "object" ? o.tracking_info : {}) as Row;
  return compact<OrderDelivery>({
    carrier: str(t.cargo_company) || str(o.cargo_provider) || undefined,
    trackingNumber: str(t.tracking_number) || str(o.cargo_number) || undefined,
    dispatchDate: str(o.status) === SHIPPED_STATUS ? saleDate(isoOf(o.updated_at)) : undefined,
  });
}

export function mapSentosOrder(o: Row): Order {
  const customer = (o.customer && typeof o.customer === "object" ? o.customer : {}) as Row;
  const name = str(customer.name);
  const [firstName, lastName] = splitName(name);
  const billing = address(o.invoice_address, name);
  const lines: OrderLine[] = (Array.isArray(o.lines) ? (o.lines as Row[]) : []).map((l) =>
    shopOrderLine({
      sku: str(l.sku),
      name: str(l.name),
      qty: num(l.quantity),
      price: num(l.price),
      total: num(l.amount),
      vatRate: num(l.vat_rate),
      discount: num(l.discount),
    }),
  );
  const shipping = num(o.shipping_total);
  const subtotal = round2(lines.reduce((s, l) => s + l.total, 0));
  return {
    id: str(o.id),
    orderNo: str(o.order_code) || str(o.order_id) || str(o.id),
    createdAt: isoOf(o.created_at ?? o.order_date),
    updatedAt: isoOf(o.updated_at ?? o.created_at ?? o.order_date),
    status: str(o.status),
    paymentType: str(o.payment_method) || undefined,
    salesChannel: str(o.source) || str(o.shop) || undefined,
    currency: str((o.lines as Row[] | undefined)?.[0]?.currency) || "TRY",
    customer: {
      ref: str(customer.id)
        ? `SENTOS-${str(customer.id)}`
        : str(customer.mail_address) || `SENTOS-ORDER-${str(o.id)}`,
      firstName,
      lastName,
      email: str(customer.mail_address) || undefined,
      phone: str(customer.phone) || undefined,
      isCompany: false,
      billingAddress: billing,
    },
    billingAddress: billing,
    shippingAddress: address(o.shipment_address, name),
    lines,
    shipping: { method: str(o.cargo_provider) || undefined, cost: shipping },
    totals: {
      subtotal,
      discount: 0,
      shipping,
      tax: 0,
      grandTotal: num(o.total) || round2(subtotal + shipping),
    },
    note: str(o.note) || undefined,
    payment: sentosPayment(o),
    delivery: sentosDelivery(o),
  };
}

interface OrderPageToken {
  page: number;
  from: string;
}

export class SentosOrders {
  constructor(
    private readonly client: SentosClient,
    private readonly now: () => number,
  ) {}

  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const token = decodeToken<OrderPageToken>(q.pageToken, "sentos");
    const from =
      token?.from ?? (q.since ? day(Date.parse(q.since)) : day(this.now() - FIRST_READ_DAYS * 86_400_000));
    const page = token?.page ?? 1;
    const started = this.now();
    const rows = sentosList(
      await this.client.get("/orders", "listOrders", {
        page: String(page),
        size: String(SENTOS_PAGE_SIZE),
        updated_start_date: from,
        orderby_field: "updated_at",
        orderby_direction: "ASC",
      }),
    );
    const more = rows.length >= SENTOS_PAGE_SIZE;
    return {
      items: rows.map(mapSentosOrder),
      nextPageToken: more ? encodeToken({ page: page + 1, from }) : undefined,
      // Day precision: the next read starts on the day of this one (the engine dedupes the overlap).
      cursor: more ? undefined : new Date(started).toISOString(),
    };
  }
}
