/** IKAS orders: polling by updatedAt (keyset), package statuses, and the mapping to the canonical order. */

import type { OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { compact, saleDate } from "../sdk/internet-sale";
import type * as M from "../sdk/model";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import type { IkasClient } from "./client";

/**
 * `OrderPackageFulfillStatusEnum` of `@ikas/api-client@1.0.97` (the statuses a package can be set to),
 * with Turkish names. Kept in the code because production may close introspection; a test checks the
 * list against the derived schema.
 */
export const IKAS_PACKAGE_STATUSES: ReadonlyArray<readonly [string, string]> = [
  ["PLANNED", "Planlandı"],
  ["READY_FOR_SHIPMENT", "Kargoya Hazır"],
  ["FULFILLED", "Kargoya Verildi"],
  ["DELIVERED", "Teslim Edildi"],
  ["UNABLE_TO_DELIVER", "Teslim Edilemedi"],
  ["READY_FOR_PICK_UP", "Mağazadan Teslime Hazır"],
  ["CANCELLED", "İptal Edildi"],
  ["CANCEL_REQUESTED", "İptal Talep Edildi"],
  ["CANCEL_REJECTED", "İptal Reddedildi"],
  ["REFUND_REQUESTED", "İade Talep Edildi"],
  ["REFUND_REQUEST_ACCEPTED", "İade Kabul Edildi"],
  ["REFUND_REJECTED", "İade Reddedildi"],
  ["REFUNDED", "İade Edildi"],
  ["RETURN_PARCEL_WAITING", "İade Paketi Bekleniyor"],
  ["RETURN_IN_TRANSIT", "İade Kargoda"],
  ["RETURN_DELIVERED", "İade Teslim Alındı"],
  ["RETURN_REJECTED", "İade Gönderisi Reddedildi"],
  ["ERROR", "Hata"],
];

/**
 * Values of `OrderPackageStatusEnum` (the order's summary status, what order filters compare) that a
 * package cannot be set to. Listed with the settable ones so a merchant can pick e.g. "Hazırlanmadı"
 * as the orders to transfer; a test checks both lists against the derived schema.
 */
export const IKAS_ORDER_ONLY_STATUSES: ReadonlyArray<readonly [string, string]> = [
  ["UNFULFILLED", "Hazırlanmadı"],
  ["PARTIALLY_READY_FOR_SHIPMENT", "Kısmen Kargoya Hazır"],
  ["PARTIALLY_FULFILLED", "Kısmen Kargoya Verildi"],
  ["PARTIALLY_DELIVERED", "Kısmen Teslim Edildi"],
  ["PARTIALLY_CANCELLED", "Kısmen İptal Edildi"],
  ["PARTIALLY_REFUNDED", "Kısmen İade Edildi"],
];

/**
 * Statuses that ship the goods: an order without a package gets one from `fulfillOrder` first (an
 * unfulfilled IKAS order has no package to set a status on).
 */
const SHIPPING_STATUSES = new Set([
  "READY_FOR_SHIPMENT",
  "FULFILLED",
  "DELIVERED",
  "UNABLE_TO_DELIVER",
  "READY_FOR_PICK_UP",
]);

/** Order scans re-read this much before the cursor, so an order saved at the edge is never missed. */
const ORDER_CURSOR_OVERLAP_MS = 5 * 60_000;

const ORDER_FIELDS = `
  id orderNumber status orderPaymentStatus orderPackageStatus currencyCode totalPrice totalFinalPrice
  orderedAt createdAt updatedAt salesChannelId note
  customer { id firstName lastName email phone }
  billingAddress { ...Addr }
  shippingAddress { ...Addr }
  shippingLines { title price finalPrice }
  paymentMethods { type paymentGatewayName price }
  orderLineItems { id status quantity price finalPrice discountPrice taxValue variant { id sku name productId barcodeList } }
  orderPackages { id orderPackageNumber orderPackageFulfillStatus orderLineItemIds createdAt updatedAt
    trackingInfo { trackingNumber cargoCompany trackingLink } }
`;
const ADDRESS_FRAGMENT = `
  fragment Addr on OrderAddress {
    firstName lastName company addressLine1 addressLine2 city { name } district { name } country { name }
    postalCode phone identityNumber taxNumber taxOffice
  }
`;

interface IkasAddressDto {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  city?: { name?: string | null } | null;
  district?: { name?: string | null } | null;
  country?: { name?: string | null } | null;
  postalCode?: string | null;
  phone?: string | null;
  identityNumber?: string | null;
  taxNumber?: string | null;
  taxOffice?: string | null;
}

interface IkasOrderDto {
  id: string;
  orderNumber: string | null;
  status: string;
  orderPaymentStatus: string | null;
  orderPackageStatus: string | null;
  currencyCode: string;
  totalPrice: number;
  totalFinalPrice: number;
  orderedAt: number | null;
  createdAt: number | null;
  updatedAt: number | null;
  salesChannelId: string | null;
  note: string | null;
  customer: {
    id: string | null;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phone: string | null;
  } | null;
  billingAddress: IkasAddressDto | null;
  shippingAddress: IkasAddressDto | null;
  shippingLines: Array<{ title: string | null; price: number | null; finalPrice: number | null }> | null;
  paymentMethods: Array<{
    type: string | null;
    paymentGatewayName: string | null;
    price: number | null;
  }> | null;
  orderLineItems: Array<{
    id: string;
    /** OrderLineItemStatusEnum: a refunded part of an order is its own line item in REFUNDED. */
    status?: string | null;
    quantity: number;
    price: number;
    finalPrice: number | null;
    discountPrice: number | null;
    taxValue: number | null;
    variant: {
      id: string;
      sku: string | null;
      name: string | null;
      productId: string | null;
      barcodeList: string[] | null;
    };
  }>;
  orderPackages: Array<{
    id: string;
    orderPackageFulfillStatus: string;
    createdAt?: number | null;
    updatedAt?: number | null;
    trackingInfo?: {
      trackingNumber: string | null;
      cargoCompany: string | null;
      trackingLink: string | null;
    } | null;
  }> | null;
}

interface OrderPageToken {
  /** updatedAt lower bound (inclusive). */
  gte: number;
  page: number;
  /** Ids already returned with updatedAt == gte. */
  seen: string[];
  /** Highest updatedAt seen so far in this scan. */
  max: number;
}

function toAddress(a: IkasAddressDto | null | undefined): M.Address {
  return {
    firstName: a?.firstName ?? "",
    lastName: a?.lastName ?? "",
    company: a?.company ?? undefined,
    line1: a?.addressLine1 ?? "",
    line2: a?.addressLine2 ?? undefined,
    district: a?.district?.name ?? undefined,
    city: a?.city?.name ?? "",
    postalCode: a?.postalCode ?? undefined,
    country: a?.country?.name ?? "Türkiye",
    phone: a?.phone ?? undefined,
  };
}

/**
 * `PaymentMethodTypeEnum` → GİB's payment means. Paid on delivery (cash or card at the door) is
 * KAPIDAODEME; wallets and pay-later services stand between buyer and shop (ödeme aracısı); cash, gift
 * cards, store credit and "pay at store" are none of GİB's named means.
 */
const IKAS_PAYMENT_MEANS: Record<string, M.InternetSalePaymentMeans> = {
  CREDIT_CARD: "KREDIKARTI/BANKAKARTI",
  CREDIT_CARD_ON_DELIVERY: "KAPIDAODEME",
  CASH_ON_DELIVERY: "KAPIDAODEME",
  MONEY_ORDER: "EFT/HAVALE",
  BANK_REDIRECT: "EFT/HAVALE",
  DIRECT_DEBIT: "EFT/HAVALE",
  WALLET: "ODEMEARACISI",
  APP_PAYMENT: "ODEMEARACISI",
  PAY_LATER: "ODEMEARACISI",
  SLICE_IT: "ODEMEARACISI",
};
/** Means settled online at checkout: the order time is the payment time once the order is PAID. */
const PAID_AT_CHECKOUT = new Set<M.InternetSalePaymentMeans>(["KREDIKARTI/BANKAKARTI", "ODEMEARACISI"]);
/** Package statuses after the goods left the store. */
const DISPATCHED = new Set(["FULFILLED", "DELIVERED", "UNABLE_TO_DELIVER"]);

/**
 * Payment of the largest payment method (IKAS has no payment date: for card and wallet payments the
 * order time once PAID; none for transfers and cash on delivery, whose date the shop does not record).
 */
function ikasPayment(o: IkasOrderDto): M.OrderPayment | undefined {
  const main = [...(o.paymentMethods ?? [])].sort((a, b) => (b.price ?? 0) - (a.price ?? 0))[0];
  if (!main?.type) return undefined;
  const means = IKAS_PAYMENT_MEANS[main.type] ?? "DIGER";
  const paid = o.orderPaymentStatus === "PAID" && PAID_AT_CHECKOUT.has(means);
  return compact<M.OrderPayment>({
    means,
    date: paid ? saleDate(o.orderedAt ?? o.createdAt) : undefined,
    agent: PAID_AT_CHECKOUT.has(means) ? (main.paymentGatewayName ?? undefined) : undefined,
  });
}

/**
 * Carrier and tracking number from the first package that has them; the dispatch date is when a package
 * became FULFILLED (its last change while it is FULFILLED, its creation once it moved on; IKAS keeps no
 * separate shipping time).
 */
function ikasDelivery(o: IkasOrderDto): M.OrderDelivery | undefined {
  const packages = o.orderPackages ?? [];
  const tracked = packages.find((p) => p.trackingInfo?.cargoCompany || p.trackingInfo?.trackingNumber);
  const shipped = packages.find((p) => DISPATCHED.has(p.orderPackageFulfillStatus));
  const shippedAt =
    shipped?.orderPackageFulfillStatus === "FULFILLED"
      ? (shipped.updatedAt ?? shipped.createdAt)
      : shipped?.createdAt;
  return compact<M.OrderDelivery>({
    carrier: tracked?.trackingInfo?.cargoCompany ?? undefined,
    trackingNumber: tracked?.trackingInfo?.trackingNumber ?? undefined,
    dispatchDate: saleDate(shippedAt),
  });
}

/** `updatedAt` is nullable in the schema: fall back to the creation times. */
function changedAt(o: IkasOrderDto): number {
  return o.updatedAt ?? o.createdAt ?? o.orderedAt ?? 0;
}

export function mapIkasOrder(o: IkasOrderDto): M.Order {
  const lines: M.OrderLine[] = o.orderLineItems.map((l) => {
    const total = l.finalPrice ?? round2(l.price * l.quantity);
    return {
      sku: l.variant.sku ?? "",
      name: l.variant.name ?? "",
      qty: l.quantity,
      unitPrice: l.price,
      vatRate: l.taxValue ?? 20,
      discount: round2(Math.max(0, l.price * l.quantity - total)),
      total,
      externalProductId: l.variant.productId ?? undefined,
      externalVariantId: l.variant.id,
    };
  });
  // Refunded line items, one return each (its id): an order "Kısmen İade Edildi" gives back only these.
  const returned = o.orderLineItems
    .filter((l) => l.status === "REFUNDED")
    .map((l) => ({ ref: `lineItem:${l.id}`, sku: l.variant.sku ?? "", qty: l.quantity }));
  const shippingCost = (o.shippingLines ?? []).reduce((a, s) => a + (s.finalPrice ?? s.price ?? 0), 0);
  const tax = round2(lines.reduce((a, l) => a + l.total - l.total / (1 + l.vatRate / 100), 0));
  const subtotal = round2(lines.reduce((a, l) => a + l.unitPrice * l.qty, 0));
  const discount = round2(lines.reduce((a, l) => a + l.discount, 0));
  const billing = toAddress(o.billingAddress);
  const firstName = o.customer?.firstName ?? billing.firstName;
  const lastName = o.customer?.lastName ?? billing.lastName;
  const taxNumber = o.billingAddress?.taxNumber ?? o.billingAddress?.identityNumber ?? undefined;
  return {
    id: o.id,
    orderNo: o.orderNumber ?? o.id,
    createdAt: new Date(o.orderedAt ?? o.createdAt ?? changedAt(o)).toISOString(),
    updatedAt: new Date(changedAt(o)).toISOString(),
    status: o.orderPackageStatus ?? o.status,
    paymentStatus: o.orderPaymentStatus ?? undefined,
    paymentType: o.paymentMethods?.[0]?.paymentGatewayName ?? o.paymentMethods?.[0]?.type ?? undefined,
    salesChannel: o.salesChannelId ?? undefined,
    currency: o.currencyCode,
    customer: {
      ref: `ikas-${o.customer?.id ?? o.customer?.email ?? o.id}`,
      firstName,
      lastName,
      companyName: o.billingAddress?.company ?? undefined,
      email: o.customer?.email ?? undefined,
      phone: o.customer?.phone ?? billing.phone,
      taxNumber,
      taxOffice: o.billingAddress?.taxOffice ?? undefined,
      isCompany: Boolean(o.billingAddress?.taxNumber),
      billingAddress: billing,
      shippingAddress: toAddress(o.shippingAddress),
    },
    billingAddress: billing,
    shippingAddress: toAddress(o.shippingAddress),
    lines,
    shipping: { method: o.shippingLines?.[0]?.title ?? undefined, cost: round2(shippingCost) },
    totals: { subtotal, discount, shipping: round2(shippingCost), tax, grandTotal: o.totalFinalPrice },
    note: o.note ?? undefined,
    payment: ikasPayment(o),
    delivery: ikasDelivery(o),
    ...(returned.length > 0 ? { returned } : {}),
  };
}

interface PackagesDto {
  id: string;
  orderLineItems: Array<{ id: string; quantity: number }>;
  orderPackages: Array<{ id: string; orderPackageFulfillStatus: string }> | null;
}
const PACKAGE_FIELDS = "id orderLineItems { id quantity } orderPackages { id orderPackageFulfillStatus }";

export class IkasOrders {
  constructor(private readonly client: IkasClient) {}

  /** Order statuses (for filters) first, then those a package can be set to. */
  listOrderStatuses(): M.Option[] {
    return [...IKAS_ORDER_ONLY_STATUSES, ...IKAS_PACKAGE_STATUSES].map(([id, name]) => ({ id, name }));
  }

  async listOrders(q: M.PageQuery = {}): Promise<M.Page<M.Order>> {
    const limit = Math.min(200, Math.max(1, q.pageSize ?? 100));
    const since = q.since !== undefined ? Number(q.since) : 0;
    if (!Number.isFinite(since)) {
      throw new ConnectorError(`ikas: invalid order cursor ${q.since}`, {
        reason: "validation",
        system: "ikas",
      });
    }
    // Re-read the last window: an order saved just before the previous scan ended may carry an
    // earlier updatedAt than the newest one seen. The caller's ledger dedupes.
    const tok = decodeToken<OrderPageToken>(q.pageToken, "ikas") ?? {
      gte: since > 0 ? Math.max(0, since - ORDER_CURSOR_OVERLAP_MS) : 0,
      page: 1,
      seen: [],
      max: since,
    };
    const d = await this.client.gql<{ listOrder: { data: IkasOrderDto[]; hasNext: boolean } }>(
      "listOrder",
      "read",
      `query OrdersChangedSince($gte: Timestamp, $limit: Int, $page: Int) {
         listOrder(updatedAt: { gte: $gte }, sort: "updatedAt", pagination: { limit: $limit, page: $page }) {
           hasNext data { ${ORDER_FIELDS} }
         }
       }
       ${ADDRESS_FRAGMENT}`,
      { gte: tok.gte, limit, page: tok.page },
    );
    const seen = new Set(tok.seen);
    const rows = d.listOrder.data.filter((o) => !(changedAt(o) === tok.gte && seen.has(o.id)));
    const max = rows.reduce((m, o) => Math.max(m, changedAt(o)), tok.max);
    let nextPageToken: string | undefined;
    if (d.listOrder.hasNext) {
      const last = d.listOrder.data[d.listOrder.data.length - 1];
      if (last && changedAt(last) > tok.gte) {
        // Keyset: continue from the last updatedAt; orders changed meanwhile move behind us, none is skipped.
        const lastAt = changedAt(last);
        const atLast = d.listOrder.data.filter((o) => changedAt(o) === lastAt).map((o) => o.id);
        nextPageToken = encodeToken({ gte: lastAt, page: 1, seen: atLast, max } satisfies OrderPageToken);
      } else {
        nextPageToken = encodeToken({
          gte: tok.gte,
          page: tok.page + 1,
          seen: tok.seen,
          max,
        } satisfies OrderPageToken);
      }
    }
    return { items: rows.map(mapIkasOrder), nextPageToken, cursor: String(max) };
  }

  private packages(orderId: string): Promise<PackagesDto> {
    return this.client.byId<PackagesDto>("listOrder", "OrderPackages", PACKAGE_FIELDS, orderId, {
      operation: "updateOrderPackageStatus",
      what: "order",
    });
  }

  async updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void> {
    if (!IKAS_PACKAGE_STATUSES.some(([id]) => id === update.status)) {
      throw new ConnectorError(`ikas: an order package cannot be set to ${update.status}`, {
        reason: "config",
        system: "ikas",
        operation: "updateOrderPackageStatus",
        itemKeys: [orderId],
      });
    }
    const tracking =
      update.trackingNumber || update.cargoCompany || update.trackingUrl
        ? {
            trackingNumber: update.trackingNumber ?? null,
            cargoCompany: update.cargoCompany ?? null,
            trackingLink: update.trackingUrl ?? null,
          }
        : null;
    let order = await this.packages(orderId);
    let trackingSent = false;
    if ((order.orderPackages ?? []).length === 0) {
      if (!SHIPPING_STATUSES.has(update.status)) {
        throw new ConnectorError(
          `ikas: order ${orderId} has no package yet, so its status cannot become ${update.status}`,
          {
            reason: "unsupported",
            system: "ikas",
            operation: "updateOrderPackageStatus",
            itemKeys: [orderId],
          },
        );
      }
      // Unfulfilled: create the package with every line, then set its status below.
      const d = await this.client.gql<{ fulfillOrder: PackagesDto }>(
        "fulfillOrder",
        "write",
        `mutation FulfillOrder($input: FulFillOrderInput!) { fulfillOrder(input: $input) { ${PACKAGE_FIELDS} } }`,
        {
          input: {
            orderId,
            lines: order.orderLineItems.map((l) => ({ orderLineItemId: l.id, quantity: l.quantity })),
            markAsReadyForShipment: update.status === "READY_FOR_SHIPMENT",
            sendNotificationToCustomer: false,
            trackingInfoDetail: tracking,
          },
        },
      );
      order = d.fulfillOrder;
      trackingSent = true;
    }
    const all = order.orderPackages ?? [];
    const pending = all.filter((p) => p.orderPackageFulfillStatus !== update.status);
    const targets = pending.length > 0 ? pending : tracking && !trackingSent ? all : [];
    if (targets.length === 0) return;
    await this.client.gql(
      "updateOrderPackageStatus",
      "write",
      "mutation UpdatePackageStatus($input: UpdateOrderPackageStatusInput!) { updateOrderPackageStatus(input: $input) { id orderPackageStatus } }",
      {
        input: {
          orderId,
          packages: targets.map((p) => ({ packageId: p.id, status: update.status, trackingInfo: tracking })),
        },
      },
      // Setting the same status again is harmless.
      { idempotent: true },
    );
  }
}
