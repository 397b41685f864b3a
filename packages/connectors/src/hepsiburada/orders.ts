/**
 * Hepsiburada orders: lines, not orders, are listed — the paid lines waiting to be packaged (with a
 * `begindate` in Turkish wall-clock time `yyyy-MM-dd HH:mm`), then the cancelled lines (that list takes
 * no date: production refuses one), then the accepted or refunded claims (returns). Each order number seen is read whole (`ordernumber/{no}`), so an order
 * whose lines span two pages still arrives complete. The order number is the order's id and reference;
 * writes go to its packages: packaging the open lines, the tracking number of the merchant's own carrier,
 * and the invoice link.
 */

import type { InvoiceAttachment, OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Address, Option, Order, OrderLine, Page, PageQuery } from "../sdk/model";
import { turkishDateTime } from "../sdk/turkish-time";
import { decodeToken, encodeToken, round2, shopOrderLine, splitName } from "../sdk/util";
import type { HepsiburadaClient, Row } from "./client";
import { HEPSIBURADA_CANCELLED_PAGE, HEPSIBURADA_ORDER_PAGE } from "./descriptor";

export const HEPSIBURADA_LINE_STATUSES = [
  "Open",
  "Packaged",
  "InTransit",
  "Delivered",
  "Undelivered",
  "Cancelled",
];

const OVERLAP_MS = 5 * 60_000;
/** Claims per page (Talep Listeleme: limit 1..100). */
const CLAIM_PAGE = 100;
/** Claim statuses after which the goods come back: the order reads as returned. */
const RETURNED_CLAIM = /^(Accepted|Refunded)$/;
const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);
const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const money = (v: unknown) => Number((v as Row | undefined)?.amount ?? 0) || 0;
/** Hepsiburada's own date format for the order filter: Turkish wall clock to the minute. */
export const hbDate = (ms: number) => turkishDateTime(ms).slice(0, 16);
const isoOf = (v: unknown) => {
  const ms = Date.parse(text(v));
  return Number.isNaN(ms) ? new Date(0).toISOString() : new Date(ms).toISOString();
};

interface Token {
  phase: "paid" | "cancelled" | "claims";
  offset: number;
  /** Scan start ("now"), the next cursor. */
  until: number;
  begin?: number;
}

function address(a: Row | undefined, fallbackName: string): Address {
  const r = a ?? {};
  const [firstName, lastName] = splitName(text(r.name) || fallbackName);
  return {
    firstName,
    lastName,
    line1: text(r.address),
    district: text(r.district) || undefined,
    city: text(r.city),
    postalCode: text(r.postalCode) || undefined,
    country: text(r.countryCode) || "TR",
    phone: text(r.phoneNumber) || undefined,
  };
}

/** An order as `ordernumber/{no}` gives it. */
export function mapHepsiburadaOrder(o: Row): Order {
  const items = rows(o.items);
  const customer = (o.customer ?? {}) as Row;
  const invoice = (o.invoice ?? {}) as Row;
  const name = text(customer.name) || text(items[0]?.customerName);
  const billing = address(invoice.address as Row | undefined, name);
  const shipping = address((o.deliveryAddress ?? items[0]?.shippingAddress) as Row | undefined, name);
  const taxNumber = text(invoice.taxNumber) || text(invoice.turkishIdentityNumber) || undefined;
  const lines: OrderLine[] = items.map((l) => ({
    ...shopOrderLine({
      sku: text(l.merchantSKU ?? l.merchantSku) || text(l.sku),
      name: text(l.name ?? l.productName),
      qty: Number(l.quantity ?? 0),
      price: money(l.unitPrice ?? l.price),
      total: money(l.totalPrice),
      vatRate: Number(l.vatRate ?? 0),
      discount: money((l.merchantDiscount as Row | undefined)?.totalPrice),
    }),
    externalProductId: text(l.id ?? l.lineItemId),
    externalVariantId: text(l.sku ?? l.hbSku),
  }));
  const grand = round2(lines.reduce((s, l) => s + l.total, 0));
  const email =
    text((o.deliveryAddress as Row | undefined)?.email) ||
    text(billing && (invoice.address as Row | undefined)?.email);
  return {
    id: text(o.orderNumber),
    orderNo: text(o.orderNumber),
    createdAt: isoOf(o.orderDate ?? items[0]?.orderDate),
    updatedAt: isoOf(
      items
        .map((l) => text(l.lastStatusUpdateDate))
        .sort()
        .pop() || o.orderDate,
    ),
    status: text(items.find((l) => l.status)?.status) || "Open",
    paymentStatus: text(o.paymentStatus) || undefined,
    salesChannel: "Hepsiburada",
    currency: text((items[0]?.unitPrice as Row | undefined)?.currency) || "TRY",
    customer: {
      ref: `HEPSIBURADA-${text(customer.customerId) || text(o.orderNumber)}`,
      firstName: billing.firstName,
      lastName: billing.lastName,
      email: email || undefined,
      taxNumber,
      taxOffice: text(invoice.taxOffice) || undefined,
      isCompany: (taxNumber?.length ?? 0) === 10,
      billingAddress: billing,
      shippingAddress: shipping,
    },
    billingAddress: billing,
    shippingAddress: shipping,
    lines,
    shipping: { method: text(items[0]?.cargoCompany) || undefined, cost: 0 },
    totals: { subtotal: grand, discount: 0, shipping: 0, tax: 0, grandTotal: grand },
    // Hepsiburada collects the payment: GİB's "ödeme aracısı".
    payment: { means: "ODEMEARACISI", date: isoOf(o.orderDate).slice(0, 10), agent: "Hepsiburada" },
    delivery: { carrier: text(items[0]?.cargoCompany) || undefined },
  };
}

export class HepsiburadaOrders {
  constructor(
    private readonly client: HepsiburadaClient,
    private readonly now: () => number,
  ) {}

  listOrderStatuses(): Option[] {
    return HEPSIBURADA_LINE_STATUSES.map((s) => ({ id: s, name: s }));
  }

  private async detail(orderNumber: string): Promise<Row> {
    return (await this.client.get(
      "order",
      this.client.merchant("/orders", `/ordernumber/${encodeURIComponent(orderNumber)}`),
      "getOrderByNumber",
    )) as Row;
  }

  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const t = decodeToken<Token>(q.pageToken, "hepsiburada") ?? {
      phase: "paid" as const,
      offset: 0,
      until: this.now(),
      begin: q.since ? Math.max(0, Number(q.since) - OVERLAP_MS) : undefined,
    };
    if (t.phase === "paid") {
      const body = (await this.client.get("order", this.client.merchant("/orders"), "getPaidOrders", {
        offset: String(t.offset),
        limit: String(HEPSIBURADA_ORDER_PAGE),
        begindate: t.begin === undefined ? undefined : hbDate(t.begin),
        enddate: t.begin === undefined ? undefined : hbDate(t.until),
      })) as Row;
      const lines = rows(body?.items);
      const numbers = [...new Set(lines.map((l) => text(l.orderNumber)).filter(Boolean))];
      const items: Order[] = [];
      for (const no of numbers) items.push(mapHepsiburadaOrder(await this.detail(no)));
      const next: Token =
        lines.length === HEPSIBURADA_ORDER_PAGE
          ? { ...t, offset: t.offset + lines.length }
          : { phase: "cancelled", offset: 0, until: t.until, begin: t.begin };
      return { items, nextPageToken: encodeToken(next) };
    }
    if (t.phase === "claims") return this.listReturns(t);
    // Cancelled lines: no date filter (production answers 400 to one); the cut is made here.
    const body = (await this.client.get(
      "order",
      this.client.merchant("/orders", "/cancelled"),
      "getCancelledOrders",
      {
        offset: String(t.offset),
        limit: String(HEPSIBURADA_CANCELLED_PAGE),
      },
    )) as Row;
    const cancelled = rows(body?.items).filter(
      (l) => t.begin === undefined || Date.parse(text(l.cancelDate)) >= t.begin,
    );
    const byOrder = new Map<string, Row[]>();
    for (const l of cancelled)
      byOrder.set(text(l.orderNumber), [...(byOrder.get(text(l.orderNumber)) ?? []), l]);
    const items: Order[] = [];
    for (const no of byOrder.keys()) {
      const o = mapHepsiburadaOrder(await this.detail(no));
      items.push({ ...o, status: "Cancelled" });
    }
    if (rows(body?.items).length === HEPSIBURADA_CANCELLED_PAGE)
      return { items, nextPageToken: encodeToken({ ...t, offset: t.offset + HEPSIBURADA_CANCELLED_PAGE }) };
    return { items, nextPageToken: encodeToken({ ...t, phase: "claims", offset: 0 }) };
  }

  /** Returns: accepted or refunded claims (Talep Listeleme), created since the last run. */
  private async listReturns(t: Token): Promise<Page<Order>> {
    const claims = rows(
      await this.client.get(
        "order",
        `/claims/merchantId/${encodeURIComponent(this.client.merchantId)}`,
        "getClaims",
        {
          offset: String(t.offset),
          limit: String(CLAIM_PAGE),
          beginDate: t.begin === undefined ? undefined : hbDate(t.begin),
          endDate: t.begin === undefined ? undefined : hbDate(t.until),
        },
      ),
    );
    const items: Order[] = [];
    const byOrder = new Map<string, Row[]>();
    for (const c of claims)
      if (RETURNED_CLAIM.test(text(c.status)))
        byOrder.set(text(c.orderNumber), [...(byOrder.get(text(c.orderNumber)) ?? []), c]);
    for (const [no, ofOrder] of byOrder) {
      const o = mapHepsiburadaOrder(await this.detail(no));
      items.push({
        ...o,
        status: "Returned",
        paymentStatus: ofOrder.some((c) => text(c.status) === "Refunded") ? "Refunded" : o.paymentStatus,
        // Each claim names one line (its Hepsiburada SKU) and the units coming back: recorded once by number.
        returned: ofOrder.map((c) => ({
          ref: `claim:${text(c.number) || text(c.id)}`,
          sku: text(c.sku),
          qty: Number(c.quantity ?? 0) || 1,
        })),
      });
    }
    if (claims.length === CLAIM_PAGE)
      return { items, nextPageToken: encodeToken({ ...t, offset: t.offset + CLAIM_PAGE }) };
    return { items, cursor: String(t.until) };
  }

  /** Package numbers of the order's lines (empty until the lines are packaged). */
  private packagesOf(order: Row): string[] {
    return [
      ...new Set(
        rows(order.items)
          .map((l) => text(l.packageNumber))
          .filter(Boolean),
      ),
    ];
  }

  async updateOrderStatus(orderNumber: string, update: OrderStatusUpdate): Promise<void> {
    const order = await this.detail(orderNumber);
    if (/^pack/i.test(update.status)) {
      const open = rows(order.items).filter((l) => !text(l.packageNumber) && text(l.status) !== "Cancelled");
      if (open.length > 0)
        await this.client.send("order", "POST", this.client.merchant("/packages"), "createPackage", {
          lineItemRequests: open.map((l) => ({ id: text(l.id), quantity: Number(l.quantity ?? 0) })),
        });
    } else if (!update.trackingNumber) {
      throw new ConnectorError(
        `hepsiburada: status ${update.status} is set by Hepsiburada, not by the seller`,
        {
          reason: "validation",
          system: "hepsiburada",
          operation: "updateOrderStatus",
        },
      );
    }
    if (update.trackingNumber) {
      const packages = this.packagesOf(/^pack/i.test(update.status) ? await this.detail(orderNumber) : order);
      for (const pn of packages)
        await this.client.send(
          "order",
          "POST",
          this.client.merchant("/packages", `/packagenumber/${encodeURIComponent(pn)}/intransit`),
          "packageInTransit",
          {
            trackingNumber: update.trackingNumber,
            trackingUrl: update.trackingUrl,
            shippedDate: new Date(this.now()).toISOString(),
          },
          { idempotent: true },
        );
    }
  }

  async attachInvoice(orderNumber: string, { invoice }: InvoiceAttachment): Promise<void> {
    if (!invoice.url)
      throw new ConnectorError("hepsiburada: the invoice has no link to send", {
        reason: "validation",
        system: "hepsiburada",
        operation: "sendInvoiceLink",
      });
    const packages = this.packagesOf(await this.detail(orderNumber));
    if (packages.length === 0)
      throw new ConnectorError("hepsiburada: the order has no package yet; invoices go to packages", {
        reason: "conflict",
        system: "hepsiburada",
        operation: "sendInvoiceLink",
      });
    for (const pn of packages)
      await this.client.send(
        "order",
        "PUT",
        this.client.merchant("/packages", `/packagenumber/${encodeURIComponent(pn)}/invoice`),
        "sendInvoiceLink",
        { invoiceLink: invoice.url },
        { idempotent: true },
      );
  }
}
