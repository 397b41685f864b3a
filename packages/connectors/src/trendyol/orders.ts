/**
 * Trendyol orders: shipment packages read from the cursor stream (getShipmentPackagesStream) by last
 * change, at most 14 days a request, so cancellations ("Cancelled") and returns ("Returned",
 * "UnDelivered") come back as changes of packages already read. A package is our order (its id is what
 * status, tracking number and invoice link are sent to); its order number is the order's reference.
 * Writes: Picking → Invoiced (updatePackage, Picking first), tracking number, invoice link.
 */

import type { InvoiceAttachment, OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError, isConnectorError } from "../sdk/errors";
import type { Address, Option, Order, Page, PageQuery } from "../sdk/model";
import { decodeToken, encodeToken, round2, shopOrderLine } from "../sdk/util";
import { type ClaimsToken, claimsStart, listTrendyolReturns } from "./claims";
import type { Row, TrendyolClient } from "./client";
import { TRENDYOL_ORDER_PAGE, TRENDYOL_STREAM_RANGE_MS } from "./descriptor";

/** Package statuses (getShipmentPackages `status`). */
export const TRENDYOL_PACKAGE_STATUSES = [
  "Awaiting",
  "Created",
  "Picking",
  "Invoiced",
  "Shipped",
  "Delivered",
  "UnDelivered",
  "Returned",
  "Cancelled",
  "UnSupplied",
  "Repack",
] as const;

/** Changes read again on each run, for packages whose change lands late in the stream. */
const OVERLAP_MS = 5 * 60_000;
/** First run: the stream's own default window. */
const FIRST_WINDOW_MS = TRENDYOL_STREAM_RANGE_MS;

interface StreamToken {
  from: number;
  to: number;
  /** "Now" when the scan began: windows walk up to it, so the scan ends while packages keep changing. */
  until: number;
  cursor?: string;
}

const iso = (ms: unknown) => new Date(Number(ms) || 0).toISOString();
const num = (v: unknown) => (typeof v === "number" ? v : Number(v ?? 0)) || 0;
const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));

function address(a: Row | undefined, fallbackName: [string, string]): Address {
  const r = a ?? {};
  return {
    firstName: text(r.firstName) || fallbackName[0],
    lastName: text(r.lastName) || fallbackName[1],
    company: text(r.company) || undefined,
    line1: text(r.address1 ?? r.fullAddress),
    line2: text(r.address2) || undefined,
    district: text(r.district) || undefined,
    city: text(r.city),
    postalCode: text(r.postalCode) || undefined,
    country: text(r.countryCode) || "TR",
    phone: text(r.phone) || undefined,
  };
}

/** A shipment package as our order. */
export function mapTrendyolPackage(p: Row): Order {
  const name: [string, string] = [text(p.customerFirstName), text(p.customerLastName)];
  const inv = (p.invoiceAddress ?? {}) as Row;
  const billing = address(inv, name);
  const shipping = address(p.shipmentAddress as Row | undefined, name);
  const taxNumber = text(inv.taxNumber) || text(p.tcIdentityNumber) || undefined;
  const lines = (Array.isArray(p.lines) ? (p.lines as Row[]) : []).map((l) => ({
    ...shopOrderLine({
      sku: text(l.merchantSku) || text(l.barcode),
      name: text(l.productName),
      qty: num(l.quantity),
      price: num(l.price),
      total: round2(num(l.price) * (num(l.quantity) || 1)),
      vatRate: num(l.vatBaseAmount),
      discount: num(l.discount),
    }),
    externalProductId: text(l.id),
    externalVariantId: text(l.barcode),
  }));
  const grand = num(p.totalPrice);
  const orderDay = iso(p.orderDate).slice(0, 10);
  return {
    id: text(p.id),
    orderNo: text(p.orderNumber),
    createdAt: iso(p.orderDate),
    updatedAt: iso(p.lastModifiedDate ?? p.orderDate),
    status: text(p.status ?? p.shipmentPackageStatus),
    salesChannel: "Trendyol",
    currency: text(p.currencyCode) || "TRY",
    customer: {
      ref: `TRENDYOL-${text(p.customerId) || text(p.customerEmail) || text(p.orderNumber)}`,
      firstName: billing.firstName,
      lastName: billing.lastName,
      companyName: billing.company,
      email: text(p.customerEmail) || undefined,
      taxNumber,
      taxOffice: text(inv.taxOffice) || undefined,
      isCompany: !!inv.company && (taxNumber?.length ?? 0) === 10,
      billingAddress: billing,
      shippingAddress: shipping,
    },
    billingAddress: billing,
    shippingAddress: shipping,
    lines,
    shipping: { method: text(p.cargoProviderName) || undefined, cost: 0 },
    totals: {
      subtotal: num(p.grossAmount) || grand,
      discount: num(p.totalDiscount),
      shipping: 0,
      tax: 0,
      grandTotal: grand,
    },
    // Trendyol collects the payment: GİB's "ödeme aracısı".
    payment: { means: "ODEMEARACISI", date: orderDay, agent: "Trendyol" },
    delivery: {
      carrier: text(p.cargoProviderName) || undefined,
      trackingNumber: text(p.cargoTrackingNumber) || undefined,
    },
  };
}

export class TrendyolOrders {
  constructor(
    private readonly client: TrendyolClient,
    private readonly now: () => number,
  ) {}

  listOrderStatuses(): Option[] {
    return TRENDYOL_PACKAGE_STATUSES.map((s) => ({ id: s, name: s }));
  }

  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const read = decodeToken<StreamToken | ClaimsToken>(q.pageToken, "trendyol");
    // After the stream, the accepted claims (returns): claims.ts.
    if (read && "phase" in read) return listTrendyolReturns(this.client, read, mapTrendyolPackage);
    const token = read;
    const until = token?.until ?? this.now();
    const from =
      token?.from ?? (q.since ? Math.max(0, Number(q.since) - OVERLAP_MS) : until - FIRST_WINDOW_MS);
    const to = token?.to ?? Math.min(from + TRENDYOL_STREAM_RANGE_MS, until);
    const body = (await this.client.get(
      this.client.seller("order", "/orders/stream"),
      "getShipmentPackagesStream",
      {
        lastModifiedStartDate: String(from),
        lastModifiedEndDate: String(to),
        size: String(Math.min(q.pageSize ?? TRENDYOL_ORDER_PAGE, TRENDYOL_ORDER_PAGE)),
        cursor: token?.cursor,
      },
    )) as Row;
    const items = (Array.isArray(body?.content) ? (body.content as Row[]) : []).map(mapTrendyolPackage);
    if (body?.hasMore === true && body.nextCursor)
      return { items, nextPageToken: encodeToken({ from, to, until, cursor: String(body.nextCursor) }) };
    // The window is read; the next one starts where it ended, up to the scan's start.
    if (to < until)
      return {
        items,
        nextPageToken: encodeToken({ from: to, to: Math.min(to + TRENDYOL_STREAM_RANGE_MS, until), until }),
      };
    return { items, nextPageToken: claimsStart(from, until, String(to)) };
  }

  /** The package as Trendyol has it now (lines and status), by its id. */
  private async readPackage(packageId: string): Promise<Row> {
    const body = (await this.client.get(this.client.seller("order", "/orders"), "getShipmentPackages", {
      shipmentPackageIds: packageId,
      page: "0",
      size: "1",
    })) as Row;
    const pkg = (Array.isArray(body?.content) ? (body.content as Row[]) : [])[0];
    if (!pkg)
      throw new ConnectorError(`trendyol: package ${packageId} not found`, {
        reason: "not_found",
        system: "trendyol",
        operation: "getShipmentPackages",
      });
    return pkg;
  }

  async updateOrderStatus(packageId: string, update: OrderStatusUpdate): Promise<void> {
    if (update.status === "Picking" || update.status === "Invoiced") {
      const pkg = await this.readPackage(packageId);
      const lines = (Array.isArray(pkg.lines) ? (pkg.lines as Row[]) : []).map((l) => ({
        lineId: num(l.id),
        quantity: num(l.quantity),
      }));
      const current = text(pkg.status);
      const put = (status: string) =>
        this.client.send(
          "PUT",
          this.client.seller("order", `/shipment-packages/${encodeURIComponent(packageId)}`),
          "updatePackage",
          { lines, params: {}, status },
          { idempotent: true },
        );
      // Invoiced only follows Picking (paket statü bildirimi): send Picking first when the package is new.
      if (current === "Created" || current === "Awaiting") await put("Picking");
      if (update.status === "Invoiced" && current !== "Invoiced") await put("Invoiced");
    } else if (update.status && !update.trackingNumber) {
      throw new ConnectorError(`trendyol: status ${update.status} is set by Trendyol, not by the seller`, {
        reason: "validation",
        system: "trendyol",
        operation: "updatePackage",
      });
    }
    if (update.trackingNumber) {
      await this.client.send(
        "PUT",
        this.client.seller(
          "order",
          `/shipment-packages/${encodeURIComponent(packageId)}/update-tracking-number`,
        ),
        "updateTrackingNumber",
        { trackingNumber: update.trackingNumber },
        { idempotent: true },
      );
    }
  }

  async attachInvoice(packageId: string, { invoice }: InvoiceAttachment): Promise<void> {
    if (!invoice.url)
      throw new ConnectorError("trendyol: the invoice has no link to send", {
        reason: "validation",
        system: "trendyol",
        operation: "sendInvoiceLink",
      });
    const body: Row = {
      invoiceLink: invoice.url,
      shipmentPackageId: Number(packageId),
      invoiceDateTime: Date.parse(invoice.date) || undefined,
    };
    // Trendyol checks the number's form: 3 alphanumerics, a year, 9 digits (16 characters).
    if (/^[A-Za-z0-9]{3}20\d{2}\d{9}$/.test(invoice.number)) body.invoiceNumber = invoice.number;
    try {
      await this.client.send(
        "POST",
        this.client.seller("", "/seller-invoice-links"),
        "sendInvoiceLink",
        body,
      );
    } catch (e) {
      // 409: this package already has an invoice link (sent before, answer lost) — nothing to do.
      if (isConnectorError(e) && e.httpStatus === 409) return;
      throw e;
    }
  }
}
