/**
 * Orders and order status. The file has no `updatedAt` filter on `GET /orders`, so the change cursor is
 * the highest order id seen (`sinceId`): new orders arrive, later changes of old orders do not (README).
 * A status update reads the order and PUTs its scalar fields back with the new status (the body is the
 * whole Order in the file; there is no status endpoint).
 */

import type { OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { compact, paymentMeansOfText, saleDate } from "../sdk/internet-sale";
import type { Address, Option, Order, OrderDelivery, OrderPayment, Page, PageQuery } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import type { IdeasoftClient } from "./client";
import { type IdeaAddress, type IdeaOrder, ORDER_SCALARS } from "./types";

/** The file's `Order.status` enum with the panel's Turkish names (deleted orders are not offered). */
export const IDEASOFT_ORDER_STATUSES: Option[] = [
  { id: "waiting_for_approval", name: "Onay bekliyor" },
  { id: "approved", name: "Onaylandı" },
  { id: "being_prepared", name: "Hazırlanıyor" },
  { id: "fulfilled", name: "Kargoya verildi" },
  { id: "delivered", name: "Teslim edildi" },
  { id: "cancelled", name: "İptal edildi" },
  { id: "refunded", name: "İade edildi" },
  { id: "on_accumulation", name: "Tedarik sürecinde" },
  { id: "waiting_for_payment", name: "Ödeme bekleniyor" },
  { id: "personal_status_1", name: "Özel durum 1" },
  { id: "personal_status_2", name: "Özel durum 2" },
  { id: "personal_status_3", name: "Özel durum 3" },
];

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

function address(
  a: IdeaAddress | undefined,
  fallback: { first: string; last: string; phone: string },
): Address {
  return {
    firstName: a?.firstname ?? fallback.first,
    lastName: a?.surname ?? fallback.last,
    line1: a?.address ?? "",
    district: a?.subLocation,
    city: a?.location ?? "",
    postalCode: a?.zipCode,
    country: a?.country ?? "Türkiye",
    phone: a?.mobilePhoneNumber ?? a?.phoneNumber ?? fallback.phone,
  };
}

/**
 * Payment from the order's own fields: the means by `paymentTypeName` (the merchant's payment type, e.g.
 * "Kredi Kartı", "Havale/EFT", "Kapıda Ödeme") or a cash-on-delivery cargo (`shippingPaymentType`); the
 * provider (iyzico, PayTR…) of an online payment is the intermediary. The order has no payment time: a
 * successful online payment happened at checkout, so its date is the order's; others have none.
 */
function ideasoftPayment(o: IdeaOrder): OrderPayment | undefined {
  const means =
    o.shippingPaymentType === "cash_on_delivery" ? "KAPIDAODEME" : paymentMeansOfText(o.paymentTypeName);
  if (!means) return undefined;
  const online = means === "KREDIKARTI/BANKAKARTI" || means === "ODEMEARACISI";
  const provider = typeof o.paymentProviderName === "string" ? o.paymentProviderName : undefined;
  return compact<OrderPayment>({
    means,
    date: online && o.paymentStatus === "success" ? saleDate(o.createdAt) : undefined,
    agent: online ? provider : undefined,
  });
}

/**
 * Carrier and tracking code are order fields; the dispatch time is not kept, so while the order is
 * "fulfilled" (kargoya verildi) its last change is taken as the dispatch.
 */
function ideasoftDelivery(o: IdeaOrder): OrderDelivery | undefined {
  return compact<OrderDelivery>({
    carrier: o.shippingCompanyName,
    trackingNumber: o.shippingTrackingCode,
    dispatchDate: o.status === "fulfilled" ? saleDate(o.updatedAt) : undefined,
  });
}

export function mapIdeasoftOrder(o: IdeaOrder): Order {
  const person = { first: o.customerFirstname, last: o.customerSurname, phone: o.customerPhone };
  const billing = address(o.billingAddress, person);
  const shipping = address(o.shippingAddress, person);
  const corporate = o.billingAddress?.invoiceType === "corporate";
  const lines = (o.orderItems ?? []).map((i) => {
    const gross = round2(i.productPrice * (1 + i.productTax / 100));
    const discount = round2(i.productDiscount * i.productQuantity);
    return {
      sku: i.productSku,
      name: i.productName,
      qty: i.productQuantity,
      unitPrice: gross,
      vatRate: i.productTax,
      discount,
      total: round2(gross * i.productQuantity - discount),
      ...(i.product ? { externalProductId: String(i.product.id) } : {}),
    };
  });
  return {
    id: String(o.id),
    orderNo: o.transactionId,
    createdAt: o.createdAt ?? new Date(0).toISOString(),
    updatedAt: o.updatedAt ?? o.createdAt ?? new Date(0).toISOString(),
    status: o.status,
    paymentStatus: o.paymentStatus,
    paymentType: o.paymentTypeName,
    currency: o.currency === "TL" ? "TRY" : o.currency,
    customer: {
      ref: o.member ? `IDEASOFT-${o.member.id}` : o.customerEmail,
      firstName: o.customerFirstname,
      lastName: o.customerSurname,
      email: o.customerEmail,
      phone: o.customerPhone,
      isCompany: corporate,
      taxNumber: o.billingAddress?.taxNo ?? o.billingAddress?.identityRegistrationNumber,
      taxOffice: o.billingAddress?.taxOffice,
      billingAddress: billing,
      shippingAddress: shipping,
    },
    billingAddress: billing,
    shippingAddress: shipping,
    lines,
    shipping: { method: o.shippingCompanyName, cost: o.shippingAmount },
    totals: {
      subtotal: o.amount,
      discount: round2(o.couponDiscount + o.promotionDiscount),
      shipping: o.shippingAmount,
      tax: o.taxAmount,
      grandTotal: o.finalAmount,
    },
    payment: ideasoftPayment(o),
    delivery: ideasoftDelivery(o),
  };
}

export class IdeasoftOrders {
  constructor(private readonly client: IdeasoftClient) {}

  /** Pages of orders by ascending id; `since` is the highest id seen (sinceId), the cursor of the scan. */
  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const token = decodeToken<{ page: number; sinceId?: number }>(q.pageToken, "ideasoft");
    const sinceId = token?.sinceId ?? (q.since ? Number(q.since) : undefined);
    const page = token?.page ?? 1;
    const limit = Math.min(q.pageSize ?? 100, 100);
    const rows = await this.client.page<IdeaOrder>(
      "listOrders",
      "/orders",
      { sort: "id", ...(sinceId !== undefined && Number.isFinite(sinceId) ? { sinceId } : {}) },
      page,
      limit,
    );
    const maxId = rows.reduce((m, o) => Math.max(m, o.id), sinceId ?? 0);
    const more = rows.length >= limit;
    return {
      items: rows.map(mapIdeasoftOrder),
      ...(more ? { nextPageToken: encodeToken({ page: page + 1, sinceId }) } : {}),
      cursor: String(maxId),
    };
  }

  async updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void> {
    if (!IDEASOFT_ORDER_STATUSES.some((s) => s.id === update.status)) {
      throw new ConnectorError(`ideasoft: unknown order status ${update.status}`, {
        reason: "validation",
        system: "ideasoft",
        operation: "updateOrderStatus",
        itemKeys: [orderId],
      });
    }
    let o: IdeaOrder;
    try {
      o = await this.client.call<IdeaOrder>("getOrder", "read", "GET", `/orders/${orderId}`);
    } catch (e) {
      if (e instanceof ConnectorError && e.httpStatus === 404)
        throw this.client.notFound("order", orderId, "updateOrderStatus");
      throw e;
    }
    const body: Record<string, unknown> = {};
    for (const k of ORDER_SCALARS) if (o[k] !== undefined) body[k] = o[k];
    body.status = update.status;
    if (update.trackingNumber) body.shippingTrackingCode = update.trackingNumber;
    await this.client.call("updateOrder", "write", "PUT", `/orders/${orderId}`, { body });
  }
}
