/**
 * n11 orders: shipment packages from `GET /rest/delivery/v1/shipmentPackages`, read in windows of at most
 * 15 days (n11 clamps wider ones silently) and pages of 100, oldest change first, never before November
 * 2024 (n11 serves no older orders). A package is our order; its order number is the order's reference (a
 * split order is several packages with one number). Cancellations (Cancelled, UnSupplied, a split's
 * UnPacked parent) come back as packages whose status changed; a returned package carries `isReturned`.
 * The seller's one status write is the approval: `PUT /rest/order/v1/update` sets the package's lines
 * Created → Picking. Shipped and Delivered come from the carrier, and the cargo number is n11's own
 * campaign code (`cargoTrackingNumber`), read with the package, not sent to n11.
 */

import { message } from "@ep/contracts";
import type { OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Address, Option, Order, Page, PageQuery } from "../sdk/model";
import { decodeToken, encodeToken, round2, shopOrderLine, splitName } from "../sdk/util";
import type { N11Client, Row } from "./client";
import { N11_ORDER_PAGE, N11_ORDER_WINDOW_MS, N11_ORDERS_FROM } from "./descriptor";

/** Package statuses (shipmentPackageStatus; one per request as a filter). */
export const N11_PACKAGE_STATUSES = [
  "Created",
  "Picking",
  "Shipped",
  "Delivered",
  "Cancelled",
  "UnPacked",
  "UnSupplied",
] as const;

/** Changes read again on each run, for packages whose change lands late. */
const OVERLAP_MS = 5 * 60_000;

interface WindowToken {
  from: number;
  to: number;
  /** "Now" when the scan began: windows walk up to it. */
  until: number;
  page: number;
}

const num = (v: unknown) => (typeof v === "number" ? v : Number(String(v ?? 0).replace(",", "."))) || 0;
const text = (v: unknown) => (v === undefined || v === null ? "" : String(v).trim());
const iso = (ms: unknown) => new Date(num(ms)).toISOString();

function address(a: Row | undefined, fallback: string): Address {
  const r = a ?? {};
  const [firstName, lastName] = splitName(text(r.fullName) || fallback);
  return {
    firstName,
    lastName,
    line1: text(r.address),
    line2: text(r.neighborhood) || undefined,
    district: text(r.district) || undefined,
    city: text(r.city),
    postalCode: text(r.postalCode) || undefined,
    country: text(r.countryCode) || "TR",
    phone: text(r.gsm) || undefined,
  };
}

/** A shipment package as our order. */
export function mapN11Package(p: Row): Order {
  // n11 spells the buyer's name `customerfullName`; the billing name is the fallback.
  const bill = (p.billingAddress ?? {}) as Row;
  const name = text(p.customerfullName ?? p.customerFullName) || text(bill.fullName);
  const billing = address(bill, name);
  const shipping = address(p.shippingAddress as Row | undefined, name);
  const taxNumber = text(bill.taxId ?? p.taxId) || text(p.tcIdentityNumber ?? bill.tcId) || undefined;
  const lines = (Array.isArray(p.lines) ? (p.lines as Row[]) : []).map((l) => {
    // sellerInvoiceAmount = price × quantity − (sellerDiscount + sellerCouponDiscount); mallDiscount is n11's.
    const gross = round2(num(l.price) * (num(l.quantity) || 1));
    const total = l.sellerInvoiceAmount !== undefined ? num(l.sellerInvoiceAmount) : gross;
    return {
      ...shopOrderLine({
        sku: text(l.stockCode) || text(l.barcode),
        name: text(l.productName),
        qty: num(l.quantity),
        price: num(l.price),
        total,
        vatRate: l.vatRate === undefined ? undefined : num(l.vatRate),
        discount: round2(num(l.sellerDiscount) + num(l.sellerCouponDiscount)),
      }),
      externalProductId: text(l.orderLineId),
      externalVariantId: text(l.stockCode),
    };
  });
  const histories = Array.isArray(p.packageHistories) ? (p.packageHistories as Row[]) : [];
  const created = histories.reduce(
    (m, h) => (num(h.createdDate) > 0 ? Math.min(m, num(h.createdDate)) : m),
    num(p.lastModifiedDate) || Date.now(),
  );
  const grand = num(p.totalAmount) || round2(lines.reduce((s, l) => s + l.total, 0));
  const status = p.isReturned === true ? "Returned" : text(p.shipmentPackageStatus ?? p.status);
  return {
    id: text(p.id) || text(p.orderNumber),
    orderNo: text(p.orderNumber),
    createdAt: iso(created),
    updatedAt: iso(p.lastModifiedDate ?? created),
    status,
    salesChannel: "N11",
    currency: "TRY",
    customer: {
      ref: `N11-${text(p.customerId) || text(p.customerEmail) || text(p.orderNumber)}`,
      firstName: billing.firstName,
      lastName: billing.lastName,
      email: text(p.customerEmail) || undefined,
      taxNumber,
      taxOffice: text(bill.taxHouse ?? p.taxOffice) || undefined,
      isCompany: (text(bill.taxId ?? p.taxId).length || 0) === 10,
      billingAddress: billing,
      shippingAddress: shipping,
    },
    billingAddress: billing,
    shippingAddress: shipping,
    lines,
    shipping: { method: text(p.cargoProviderName) || undefined, cost: 0 },
    totals: {
      subtotal: grand + num(p.totalDiscountAmount),
      discount: num(p.totalDiscountAmount),
      shipping: 0,
      tax: 0,
      grandTotal: grand,
    },
    // n11 collects the payment: GİB's "ödeme aracısı".
    payment: { means: "ODEMEARACISI", date: iso(created).slice(0, 10), agent: "n11" },
    delivery: {
      carrier: text(p.cargoProviderName) || undefined,
      trackingNumber: text(p.cargoTrackingNumber) || undefined,
    },
  };
}

export class N11Orders {
  constructor(
    private readonly client: N11Client,
    private readonly now: () => number,
  ) {}

  listOrderStatuses(): Option[] {
    return N11_PACKAGE_STATUSES.map((s) => ({ id: s, name: s }));
  }

  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const token = decodeToken<WindowToken>(q.pageToken, "n11");
    const until = token?.until ?? this.now();
    const start = q.since ? Number(q.since) - OVERLAP_MS : until - N11_ORDER_WINDOW_MS;
    const from = token?.from ?? Math.max(N11_ORDERS_FROM, start);
    const to = token?.to ?? Math.min(from + N11_ORDER_WINDOW_MS, until);
    const page = token?.page ?? 0;
    const size = Math.min(q.pageSize ?? N11_ORDER_PAGE, N11_ORDER_PAGE);
    const body = (await this.client.get("/rest/delivery/v1/shipmentPackages", "getShipmentPackages", {
      startDate: String(from),
      endDate: String(to),
      page: String(page),
      size: String(size),
      orderByDirection: "ASC",
    })) as Row;
    const content = Array.isArray(body?.content) ? (body.content as Row[]) : [];
    const items = content.map(mapN11Package);
    // n11's stopping rule: page from 0, totalPages as a hint, an empty page is the last.
    if (content.length > 0 && page + 1 < Number(body?.totalPages ?? 0))
      return { items, nextPageToken: encodeToken({ from, to, until, page: page + 1 }) };
    if (to < until)
      return {
        items,
        nextPageToken: encodeToken({
          from: to,
          to: Math.min(to + N11_ORDER_WINDOW_MS, until),
          until,
          page: 0,
        }),
      };
    return { items, cursor: String(to) };
  }

  /** The package as n11 has it now, by its id. */
  private async readPackage(packageId: string): Promise<Row> {
    const body = (await this.client.get("/rest/delivery/v1/shipmentPackages", "getShipmentPackages", {
      packageIds: packageId,
      page: "0",
      size: "1",
    })) as Row;
    const pkg = (Array.isArray(body?.content) ? (body.content as Row[]) : [])[0];
    if (!pkg)
      throw new ConnectorError(`n11: package ${packageId} not found`, {
        reason: "not_found",
        system: "n11",
        operation: "getShipmentPackages",
      });
    return pkg;
  }

  async updateOrderStatus(packageId: string, update: OrderStatusUpdate): Promise<void> {
    if (update.trackingNumber)
      throw new ConnectorError("n11: the cargo number is n11's campaign code, not sent by the seller", {
        reason: "unsupported",
        system: "n11",
        operation: "updateOrder",
        merchantMessage: message("connectors.n11TrackingNumberIsN11s"),
      });
    // n11's one seller step is the approval (Picking); an "Invoiced" order is approved first.
    if (update.status !== "Picking" && update.status !== "Invoiced")
      throw new ConnectorError(`n11: status ${update.status ?? ""} is set by n11, not by the seller`, {
        reason: "validation",
        system: "n11",
        operation: "updateOrder",
      });
    const pkg = await this.readPackage(packageId);
    if (text(pkg.shipmentPackageStatus) !== "Created") return;
    const lines = (Array.isArray(pkg.lines) ? (pkg.lines as Row[]) : []).map((l) => ({
      lineId: num(l.orderLineId),
    }));
    const answer = (await this.client.send(
      "PUT",
      "/rest/order/v1/update",
      "updateOrder",
      { lines, status: "Picking" },
      { idempotent: true },
    )) as Row;
    // One result per line: a line n11 refused fails the call with n11's words.
    const refused = (Array.isArray(answer?.content) ? (answer.content as Row[]) : []).filter(
      (r) => String(r.status).toUpperCase() !== "SUCCESS",
    );
    if (refused.length > 0)
      throw new ConnectorError(`n11 updateOrder: ${refused.length} line(s) refused`, {
        reason: "validation",
        system: "n11",
        operation: "updateOrder",
        systemMessage: refused.map((r) => `${text(r.lineId)}: ${text(r.reason ?? r.reasons)}`).join("; "),
      });
  }
}
