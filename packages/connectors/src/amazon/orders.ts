/**
 * Amazon orders through the Orders API v2026-01-01: searchOrders by last update (a window that ends two
 * minutes before the scan began, as the model requires, and is the next run's cursor), 100 a page through
 * `paginationToken` with every other parameter repeated; items, buyer, recipient, fulfilment, cancellation,
 * proceeds and packages come in the same answer (`includedData`), so no getOrderItems call and no
 * Restricted Data Token (v2026-01-01 replaced the RDT with role-based access). Cancellations come back as
 * orders whose fulfilment status turns CANCELLED. Returns are not in any Orders API: they live in a report,
 * read once a scan after the orders (returns.ts) and given as the returned orders (status Returned, with
 * each returned line in `returned`). Shipment: confirmShipment (Orders v0, not deprecated) with the
 * tracking number.
 */

import { message } from "@ep/contracts";
import type { OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Address, Option, Order, Page, PageQuery, ReturnedLine } from "../sdk/model";
import { decodeToken, encodeToken, round2, shopOrderLine, splitName } from "../sdk/util";
import type { AmazonClient, Row } from "./client";
import { AMAZON_ORDER_PAGE } from "./descriptor";
import { AmazonReturns, returnsWindow } from "./returns";

/** Fulfilment statuses of an order (`FulfillmentStatus` in the model). */
export const AMAZON_FULFILLMENT_STATUSES = [
  "PENDING_AVAILABILITY",
  "PENDING",
  "UNSHIPPED",
  "PARTIALLY_SHIPPED",
  "SHIPPED",
  "CANCELLED",
  "UNFULFILLABLE",
] as const;

/** What each order is read with (one answer per order, no second call). */
export const AMAZON_INCLUDED_DATA = [
  "BUYER",
  "RECIPIENT",
  "FULFILLMENT",
  "CANCELLATION",
  "PROCEEDS",
  "PACKAGES",
];

/** lastUpdatedBefore must be at least two minutes before the request (searchOrders' own note). */
export const AMAZON_ORDERS_LAG_MS = 2 * 60_000;
/** Changes read again on each run, for orders whose update lands late. */
const OVERLAP_MS = 5 * 60_000;
/** A first run reads the last 30 days of changes. */
const FIRST_WINDOW_MS = 30 * 86_400_000;

interface ScanToken {
  after: string;
  before: string;
  paginationToken?: string;
  /** After the orders: the returns report (a report id an earlier run left in its cursor, if any). */
  phase?: "returns";
  report?: string;
}

/** A cursor carries a returns report still being made: `<before>#report=<id>`. */
const PENDING = "#report=";

const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const money = (m: unknown) => Number((m as Row | undefined)?.amount ?? 0) || 0;

function address(a: Row | undefined): Address {
  const r = a ?? {};
  const [firstName, lastName] = splitName(text(r.name));
  return {
    firstName,
    lastName,
    company: text(r.companyName) || undefined,
    line1: text(r.addressLine1),
    line2: [text(r.addressLine2), text(r.addressLine3)].filter(Boolean).join(" ") || undefined,
    district: text(r.districtOrCounty) || undefined,
    city: text(r.city) || text(r.stateOrRegion),
    postalCode: text(r.postalCode) || undefined,
    country: text(r.countryCode) || "TR",
    phone: text(r.phone) || undefined,
  };
}

/** One v2026-01-01 order as ours. */
export function mapAmazonOrder(o: Row): Order {
  const buyer = (o.buyer ?? {}) as Row;
  const shipping = address(((o.recipient ?? {}) as Row).deliveryAddress as Row | undefined);
  const billing = shipping;
  const fulfillment = (o.fulfillment ?? {}) as Row;
  const items = Array.isArray(o.orderItems) ? (o.orderItems as Row[]) : [];
  const lines = items.map((i) => {
    const product = (i.product ?? {}) as Row;
    const qty = Number(i.quantityOrdered ?? 0) || 0;
    const unit = money(((product.price ?? {}) as Row).unitPrice);
    const total = money(((i.proceeds ?? {}) as Row).proceedsTotal) || round2(unit * qty);
    return {
      ...shopOrderLine({
        sku: text(product.sellerSku),
        name: text(product.title),
        qty,
        price: unit,
        total,
        discount: 0,
      }),
      // Amazon.com.tr prices include VAT; the rate is the ERP item's (the answer carries amounts only).
      vatRateUnknown: true,
      externalProductId: text(product.asin),
      externalVariantId: text(i.orderItemId),
    };
  });
  const grand =
    money(((o.proceeds ?? {}) as Row).grandTotal) || round2(lines.reduce((s, l) => s + l.total, 0));
  const packages = Array.isArray(o.packages) ? (o.packages as Row[]) : [];
  const firstPackage = packages[0] ?? {};
  const [firstName, lastName] = buyer.buyerName
    ? splitName(text(buyer.buyerName))
    : [billing.firstName, billing.lastName];
  const created = text(o.createdTime);
  return {
    id: text(o.orderId),
    orderNo: text(o.orderId),
    createdAt: created,
    updatedAt: text(o.lastUpdatedTime) || created,
    status: text(fulfillment.fulfillmentStatus),
    salesChannel: "Amazon Türkiye",
    currency: text((((o.proceeds ?? {}) as Row).grandTotal as Row | undefined)?.currencyCode) || "TRY",
    customer: {
      ref: `AMAZON-${text(buyer.buyerEmail) || text(o.orderId)}`,
      firstName,
      lastName,
      companyName: text(buyer.buyerCompanyName) || undefined,
      email: text(buyer.buyerEmail) || undefined,
      isCompany: !!buyer.buyerCompanyName,
      billingAddress: billing,
      shippingAddress: shipping,
    },
    billingAddress: billing,
    shippingAddress: shipping,
    lines,
    shipping: { method: text(fulfillment.fulfillmentServiceLevel) || undefined, cost: 0 },
    totals: { subtotal: grand, discount: 0, shipping: 0, tax: 0, grandTotal: grand },
    // Amazon collects the payment: GİB's "ödeme aracısı".
    payment: { means: "ODEMEARACISI", date: created.slice(0, 10), agent: "Amazon" },
    delivery: {
      carrier: text(firstPackage.carrier) || undefined,
      trackingNumber: text(firstPackage.trackingNumber) || undefined,
    },
  };
}

export class AmazonOrders {
  private readonly returns: AmazonReturns;
  constructor(
    private readonly client: AmazonClient,
    private readonly now: () => number,
  ) {
    this.returns = new AmazonReturns(client, client.ctx.asyncBatch?.intervalMs ?? 2_000);
  }

  listOrderStatuses(): Option[] {
    return AMAZON_FULFILLMENT_STATUSES.map((s) => ({ id: s, name: s }));
  }

  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const token = decodeToken<ScanToken>(q.pageToken, "amazon");
    if (token?.phase === "returns") return this.listReturns(token);
    const [since, report] = (q.since ?? "").split(PENDING);
    const before = token?.before ?? new Date(this.now() - AMAZON_ORDERS_LAG_MS).toISOString();
    const after =
      token?.after ??
      new Date(
        Math.min(
          Date.parse(before),
          since ? Math.max(0, Date.parse(since) - OVERLAP_MS) : Date.parse(before) - FIRST_WINDOW_MS,
        ),
      ).toISOString();
    const body = await this.client.get("searchOrders", "/orders/2026-01-01/orders", {
      marketplaceIds: [this.client.marketplaceId],
      lastUpdatedAfter: after,
      lastUpdatedBefore: before,
      maxResultsPerPage: String(Math.min(q.pageSize ?? AMAZON_ORDER_PAGE, AMAZON_ORDER_PAGE)),
      includedData: AMAZON_INCLUDED_DATA,
      paginationToken: token?.paginationToken,
    });
    const items = (Array.isArray(body.orders) ? (body.orders as Row[]) : []).map(mapAmazonOrder);
    const next = text((body.pagination as Row | undefined)?.nextToken);
    if (next) return { items, nextPageToken: encodeToken({ after, before, paginationToken: next, report }) };
    return {
      items,
      nextPageToken: encodeToken({ after, before, phase: "returns", report } satisfies ScanToken),
    };
  }

  /** The scan's returns report (returns.ts) as the returned orders; the cursor keeps a report still being made. */
  private async listReturns(t: ScanToken): Promise<Page<Order>> {
    const read = await this.returns.read(returnsWindow(t.after, t.before), t.report || undefined);
    if ("pending" in read) return { items: [], cursor: `${t.before}${PENDING}${read.pending}` };
    const byOrder = new Map<string, ReturnedLine[]>();
    for (const r of read.rows) byOrder.set(r.orderId, [...(byOrder.get(r.orderId) ?? []), r.line]);
    const items: Order[] = [];
    for (const [orderId, returned] of byOrder) {
      const read = await this.readOrder(orderId, AMAZON_INCLUDED_DATA).catch((e: unknown) => {
        // An order the seller's account no longer answers for has nothing of ours to take back.
        if (e instanceof ConnectorError && e.reason === "not_found") return undefined;
        throw e;
      });
      if (read) items.push({ ...mapAmazonOrder(read), status: "Returned", returned });
    }
    return { items, cursor: t.before };
  }

  /** The order as Amazon has it now (its items), by id. */
  private async readOrder(orderId: string, includedData = ["FULFILLMENT", "PACKAGES"]): Promise<Row> {
    const body = await this.client.get(
      "getOrder",
      `/orders/2026-01-01/orders/${encodeURIComponent(orderId)}`,
      { includedData },
    );
    const order = body.order as Row | undefined;
    if (!order)
      throw new ConnectorError(`amazon: order ${orderId} not found`, {
        reason: "not_found",
        system: "amazon",
        operation: "getOrder",
      });
    return order;
  }

  /**
   * The seller's one status: shipped, with its tracking number (confirmShipment, one package of every
   * item). Other statuses are Amazon's own.
   */
  async updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void> {
    if (!update.trackingNumber)
      throw new ConnectorError(
        `amazon: status ${update.status} is set by Amazon; the seller confirms shipment with a tracking number`,
        {
          reason: "validation",
          system: "amazon",
          operation: "confirmShipment",
          merchantMessage: message("connectors.amazonTrackingRequired"),
        },
      );
    const order = await this.readOrder(orderId);
    const items = (Array.isArray(order.orderItems) ? (order.orderItems as Row[]) : []).map((i) => ({
      orderItemId: text(i.orderItemId),
      quantity: Number(i.quantityOrdered ?? 0) || 0,
    }));
    await this.client.call(
      "confirmShipment",
      "POST",
      `/orders/v0/orders/${encodeURIComponent(orderId)}/shipmentConfirmation`,
      {
        json: {
          marketplaceId: this.client.marketplaceId,
          packageDetail: {
            packageReferenceId: "1",
            // The carrier by name: Amazon's code list has no Turkish carriers we could verify ("Other").
            carrierCode: "Other",
            carrierName: update.cargoCompany || "Kargo",
            trackingNumber: update.trackingNumber,
            shipDate: new Date(this.now()).toISOString(),
            orderItems: items,
          },
        },
        // The same package again edits the shipment (confirmShipment's own description): safe to resend.
        idempotent: true,
      },
    );
  }
}
