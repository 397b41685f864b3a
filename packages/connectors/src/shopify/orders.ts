/**
 * Shopify orders: read through the `orders` query (cursor paging, `updated_at` search filter, sorted by
 * update time), marked through `fulfillmentCreate` (every open fulfillment order, with tracking) and
 * `orderMarkAsPaid`; invoices are attached as an order metafield.
 */

import type { InvoiceAttachment, OrderStatusUpdate } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { compact, paymentMeansOfText, saleDate } from "../sdk/internet-sale";
import type * as M from "../sdk/model";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import { gid, ShopifyClient, type UserError } from "./client";

const MONEY = "shopMoney { amount currencyCode }";
/**
 * Page sizes that keep one call under Shopify's 1,000-point single-query limit: 8 orders with 10 lines
 * each cost ~850 points; an order with more lines has the rest read by `order(id:)` pages.
 */
export const ORDERS_PER_PAGE = 8;
const LINES_PER_PAGE = 10;
const LINE_FIELDS = `id sku name quantity originalUnitPriceSet { ${MONEY} } discountedTotalSet { ${MONEY} }
    totalDiscountSet { ${MONEY} } taxLines { ratePercentage } variant { id } product { id }`;
const MORE_LINES = `query OrderLines($id: ID!, $after: String) {
  order(id: $id) { lineItems(first: 50, after: $after) { nodes { ${LINE_FIELDS} } pageInfo { hasNextPage endCursor } } }
}`;
/** The internet-sale data needs the sale's transaction and the first shipment (lists: 1 point each). */
const TRANSACTIONS_PER_ORDER = 5;
const FULFILLMENTS_PER_ORDER = 3;
const ADDRESS = "firstName lastName company address1 address2 city province zip countryCodeV2 phone";

export const ORDER_FIELDS = `id name createdAt updatedAt displayFinancialStatus displayFulfillmentStatus
  currencyCode email phone note taxesIncluded paymentGatewayNames sourceName
  customer { id firstName lastName email phone }
  billingAddress { ${ADDRESS} }
  shippingAddress { ${ADDRESS} }
  shippingLine { title originalPriceSet { ${MONEY} } }
  subtotalPriceSet { ${MONEY} } totalDiscountsSet { ${MONEY} } totalShippingPriceSet { ${MONEY} }
  totalTaxSet { ${MONEY} } totalPriceSet { ${MONEY} }
  lineItems(first: ${LINES_PER_PAGE}) { nodes { ${LINE_FIELDS} } pageInfo { hasNextPage endCursor } }
  transactions(first: ${TRANSACTIONS_PER_ORDER}) { kind status gateway formattedGateway processedAt paymentDetails { __typename } }
  fulfillments(first: ${FULFILLMENTS_PER_ORDER}) { createdAt status trackingInfo(first: 1) { company number } }`;

const LIST_ORDERS = `query Orders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes { ${ORDER_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface Money {
  shopMoney: { amount: string; currencyCode: string };
}
interface ShopifyAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  zip: string | null;
  countryCodeV2: string | null;
  phone: string | null;
}
export interface ShopifyOrderNode {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string;
  currencyCode: string;
  email: string | null;
  phone: string | null;
  note: string | null;
  taxesIncluded: boolean;
  paymentGatewayNames: string[];
  sourceName: string | null;
  customer: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phone: string | null;
  } | null;
  billingAddress: ShopifyAddress | null;
  shippingAddress: ShopifyAddress | null;
  shippingLine: { title: string; originalPriceSet: Money } | null;
  subtotalPriceSet: Money | null;
  totalDiscountsSet: Money | null;
  totalShippingPriceSet: Money;
  totalTaxSet: Money | null;
  totalPriceSet: Money;
  lineItems: {
    pageInfo?: { hasNextPage: boolean; endCursor: string | null };
    nodes: Array<{
      id: string;
      sku: string | null;
      name: string;
      quantity: number;
      originalUnitPriceSet: Money;
      discountedTotalSet: Money;
      totalDiscountSet: Money;
      taxLines: Array<{ ratePercentage: number | null }>;
      variant: { id: string } | null;
      product: { id: string } | null;
    }>;
  };
  transactions?: Array<{
    kind: string;
    status: string;
    gateway: string | null;
    formattedGateway: string | null;
    processedAt: string | null;
    paymentDetails: { __typename: string } | null;
  }>;
  fulfillments?: Array<{
    createdAt: string;
    status: string;
    trackingInfo: Array<{ company: string | null; number: string | null }>;
  }>;
}

/** `PaymentDetails` union members → GİB's means: a card, or PayPal / Shop Pay Installments in between. */
const DETAILS_MEANS: Record<string, M.InternetSalePaymentMeans> = {
  CardPaymentDetails: "KREDIKARTI/BANKAKARTI",
  PaypalWalletPaymentDetails: "ODEMEARACISI",
  ShopPayInstallmentsPaymentDetails: "ODEMEARACISI",
};

/**
 * The payment from the sale's transaction (SALE or CAPTURE; its `processedAt` once SUCCESS is the payment
 * date). Manual methods ("Cash on Delivery (COD)", "Bank Deposit", "Money Order") carry no details and
 * are read by name; an order without transactions falls back to its gateway names, with no date.
 */
function shopifyPayment(o: ShopifyOrderNode): M.OrderPayment | undefined {
  const sales = (o.transactions ?? []).filter((t) => t.kind === "SALE" || t.kind === "CAPTURE");
  const paid = sales.find((t) => t.status === "SUCCESS");
  const t = paid ?? sales[0] ?? (o.transactions ?? []).find((x) => x.kind === "AUTHORIZATION");
  const gateway = t ? (t.formattedGateway ?? t.gateway ?? undefined) : o.paymentGatewayNames[0];
  const means =
    (t?.paymentDetails && DETAILS_MEANS[t.paymentDetails.__typename]) ?? paymentMeansOfText(gateway);
  if (!means) return undefined;
  const online = means === "KREDIKARTI/BANKAKARTI" || means === "ODEMEARACISI";
  return compact<M.OrderPayment>({
    means,
    date: saleDate(paid?.processedAt),
    agent: online && gateway && gateway !== "manual" ? gateway : undefined,
  });
}

/** Carrier and tracking number from the first fulfillment that has them; its creation is the dispatch. */
function shopifyDelivery(o: ShopifyOrderNode): M.OrderDelivery | undefined {
  const shipped = (o.fulfillments ?? []).filter((f) => f.status === "SUCCESS");
  const tracked = shipped.find((f) => f.trackingInfo.length > 0);
  return compact<M.OrderDelivery>({
    carrier: tracked?.trackingInfo[0]?.company ?? undefined,
    trackingNumber: tracked?.trackingInfo[0]?.number ?? undefined,
    dispatchDate: saleDate(shipped[0]?.createdAt),
  });
}

const amount = (m: Money | null | undefined) => round2(Number(m?.shopMoney.amount ?? 0));

function mapAddress(a: ShopifyAddress | null, fallbackName: { first: string; last: string }): M.Address {
  return {
    firstName: a?.firstName ?? fallbackName.first,
    lastName: a?.lastName ?? fallbackName.last,
    company: a?.company ?? undefined,
    line1: a?.address1 ?? "",
    line2: a?.address2 ?? undefined,
    // Turkish addresses: Shopify's province is the il, city the ilçe (inferred from Turkish checkouts).
    district: a?.province ? (a.city ?? undefined) : undefined,
    city: a?.province ?? a?.city ?? "",
    postalCode: a?.zip ?? undefined,
    country: a?.countryCodeV2 ?? "TR",
    phone: a?.phone ?? undefined,
  };
}

/** Shopify order → the canonical order. Prices are made VAT-included when the store enters them without. */
export function mapShopifyOrder(o: ShopifyOrderNode): M.Order {
  const name = {
    first: o.customer?.firstName ?? o.billingAddress?.firstName ?? "",
    last: o.customer?.lastName ?? o.billingAddress?.lastName ?? "",
  };
  const billing = mapAddress(o.billingAddress ?? o.shippingAddress, name);
  const shippingAddress = mapAddress(o.shippingAddress ?? o.billingAddress, name);
  const lines: M.OrderLine[] = o.lineItems.nodes.map((l) => {
    const vatRate = l.taxLines[0]?.ratePercentage ?? 0;
    const gross = (n: number) => (o.taxesIncluded ? n : round2(n * (1 + vatRate / 100)));
    return {
      sku: l.sku ?? "",
      name: l.name,
      qty: l.quantity,
      unitPrice: gross(amount(l.originalUnitPriceSet)),
      vatRate,
      discount: gross(amount(l.totalDiscountSet)),
      total: gross(amount(l.discountedTotalSet)),
      externalProductId: l.product?.id,
      externalVariantId: l.variant?.id,
    };
  });
  const isCompany = Boolean(o.billingAddress?.company);
  return {
    id: o.id,
    orderNo: o.name.replace(/^#/, ""),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    status: o.displayFulfillmentStatus,
    paymentStatus: o.displayFinancialStatus ?? undefined,
    paymentType: o.paymentGatewayNames[0],
    salesChannel: o.sourceName ?? undefined,
    currency: o.currencyCode,
    customer: {
      ref: o.customer ? `SHOPIFY-${o.customer.id.split("/").pop()}` : (o.email ?? `SHOPIFY-ORDER-${o.name}`),
      firstName: name.first,
      lastName: name.last,
      companyName: o.billingAddress?.company ?? undefined,
      email: o.customer?.email ?? o.email ?? undefined,
      phone: o.customer?.phone ?? o.phone ?? billing.phone,
      isCompany,
      billingAddress: billing,
      shippingAddress,
    },
    billingAddress: billing,
    shippingAddress,
    lines,
    shipping: { method: o.shippingLine?.title, cost: amount(o.totalShippingPriceSet) },
    totals: {
      subtotal: amount(o.subtotalPriceSet),
      discount: amount(o.totalDiscountsSet),
      shipping: amount(o.totalShippingPriceSet),
      tax: amount(o.totalTaxSet),
      grandTotal: amount(o.totalPriceSet),
    },
    note: o.note ?? undefined,
    payment: shopifyPayment(o),
    delivery: shopifyDelivery(o),
  };
}

/** Turkish names of the statuses we read (Shopify's `OrderDisplayFulfillmentStatus`) and can set. */
export const SHOPIFY_ORDER_STATUSES: M.Option[] = [
  { id: "UNFULFILLED", name: "Gönderilmedi" },
  { id: "PARTIALLY_FULFILLED", name: "Kısmen gönderildi" },
  { id: "IN_PROGRESS", name: "Hazırlanıyor" },
  { id: "ON_HOLD", name: "Beklemede" },
  { id: "FULFILLED", name: "Gönderildi (kargo bilgisiyle karşılama oluşturulur)" },
  { id: "PAID", name: "Ödendi olarak işaretle" },
];

interface PageState {
  after?: string;
  since?: string;
  high?: string;
}

export class ShopifyOrders {
  constructor(private readonly client: ShopifyClient) {}

  /** Orders changed since `q.since` (ISO), oldest change first; `cursor` is the newest `updatedAt` seen. */
  async listOrders(q: M.PageQuery = {}): Promise<M.Page<M.Order>> {
    const state = decodeToken<PageState>(q.pageToken, "shopify") ?? { since: q.since };
    const first = Math.min(q.pageSize ?? ORDERS_PER_PAGE, ORDERS_PER_PAGE);
    const d = await this.client.gql<{
      orders: { nodes: ShopifyOrderNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
    }>("orders", "read", LIST_ORDERS, {
      first,
      after: state.after ?? null,
      query: state.since ? `updated_at:>='${state.since}'` : null,
    });
    for (const o of d.orders.nodes) {
      let info = o.lineItems.pageInfo;
      while (info?.hasNextPage && info.endCursor) {
        const more = await this.client.gql<{ order: { lineItems: ShopifyOrderNode["lineItems"] } | null }>(
          "order",
          "read",
          MORE_LINES,
          { id: o.id, after: info.endCursor },
        );
        if (!more.order) break;
        o.lineItems.nodes.push(...more.order.lineItems.nodes);
        info = more.order.lineItems.pageInfo;
      }
    }
    const items = d.orders.nodes.map(mapShopifyOrder);
    let high = state.high ?? state.since;
    for (const o of items) if (!high || o.updatedAt > high) high = o.updatedAt;
    const more = d.orders.pageInfo.hasNextPage && d.orders.pageInfo.endCursor;
    return {
      items,
      cursor: high,
      nextPageToken: more
        ? encodeToken({ after: d.orders.pageInfo.endCursor, since: state.since, high })
        : undefined,
    };
  }

  async listOrderStatuses(): Promise<M.Option[]> {
    return SHOPIFY_ORDER_STATUSES;
  }

  /** Payment gateways and sales channels as the store's recent orders name them (Shopify has no list of either). */
  async recentFacets(): Promise<{ gateways: M.Option[]; sources: M.Option[] }> {
    const d = await this.client.gql<{
      orders: { nodes: Array<{ paymentGatewayNames: string[]; sourceName: string | null }> };
    }>(
      "orders",
      "read",
      "query OrderFacets { orders(first: 100, sortKey: CREATED_AT, reverse: true) { nodes { paymentGatewayNames sourceName } } }",
    );
    const gateways = [...new Set(d.orders.nodes.flatMap((o) => o.paymentGatewayNames))];
    const sources = [
      ...new Set(d.orders.nodes.map((o) => o.sourceName).filter((s): s is string => Boolean(s))),
    ];
    return {
      gateways: gateways.map((g) => ({ id: g, name: g })),
      sources: sources.map((s) => ({ id: s, name: s })),
    };
  }

  /**
   * `FULFILLED`: one fulfillment over every open fulfillment order, with tracking; `PAID`: mark as paid.
   * Both look the order up first, so a repeated call changes nothing.
   */
  async updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void> {
    const id = gid("Order", orderId);
    if (update.status !== "FULFILLED" && update.status !== "PAID") {
      throw new ConnectorError(`shopify: status ${update.status} cannot be set`, {
        reason: "unsupported",
        system: "shopify",
        operation: "updateOrderStatus",
        itemKeys: [orderId],
      });
    }
    const d = await this.client.gql<{
      order: {
        id: string;
        displayFinancialStatus: string | null;
        canMarkAsPaid: boolean;
        fulfillmentOrders: { nodes: Array<{ id: string; status: string }> };
      } | null;
    }>(
      "order",
      "read",
      "query OrderForUpdate($id: ID!) { order(id: $id) { id displayFinancialStatus canMarkAsPaid fulfillmentOrders(first: 50) { nodes { id status } } } }",
      { id },
    );
    if (!d.order) {
      throw new ConnectorError(`shopify: order ${orderId} not found`, {
        reason: "unknown_item",
        system: "shopify",
        operation: "updateOrderStatus",
        itemKeys: [orderId],
      });
    }
    if (update.status === "PAID") {
      if (!d.order.canMarkAsPaid) return;
      const r = await this.client.gql<{ orderMarkAsPaid: { userErrors: UserError[] } }>(
        "orderMarkAsPaid",
        "write",
        "mutation MarkPaid($input: OrderMarkAsPaidInput!) { orderMarkAsPaid(input: $input) { order { id displayFinancialStatus } userErrors { field message } } }",
        { input: { id } },
      );
      const failure = ShopifyClient.userErrorsFailure("orderMarkAsPaid", r.orderMarkAsPaid.userErrors, [
        orderId,
      ]);
      if (failure) throw failure;
      return;
    }
    const open = d.order.fulfillmentOrders.nodes.filter(
      (f) => f.status === "OPEN" || f.status === "IN_PROGRESS",
    );
    if (open.length === 0) return;
    const tracking =
      update.trackingNumber || update.cargoCompany || update.trackingUrl
        ? {
            trackingInfo: {
              ...(update.cargoCompany ? { company: update.cargoCompany } : {}),
              ...(update.trackingNumber ? { number: update.trackingNumber } : {}),
              ...(update.trackingUrl ? { url: update.trackingUrl } : {}),
            },
          }
        : {};
    const r = await this.client.gql<{ fulfillmentCreate: { userErrors: UserError[] } }>(
      "fulfillmentCreate",
      "write",
      "mutation Fulfill($fulfillment: FulfillmentInput!) { fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } } }",
      {
        fulfillment: {
          lineItemsByFulfillmentOrder: open.map((f) => ({ fulfillmentOrderId: f.id })),
          notifyCustomer: true,
          ...tracking,
        },
      },
    );
    const failure = ShopifyClient.userErrorsFailure("fulfillmentCreate", r.fulfillmentCreate.userErrors, [
      orderId,
    ]);
    if (failure) throw failure;
  }

  /** The invoice's number, ETTN, date and link as a JSON metafield of the order (namespace `entegrasyon`). */
  async attachInvoice(orderId: string, attachment: InvoiceAttachment): Promise<void> {
    const inv = attachment.invoice;
    const r = await this.client.gql<{ metafieldsSet: { userErrors: UserError[] } }>(
      "metafieldsSet",
      "write",
      "mutation AttachInvoice($metafields: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } } }",
      {
        metafields: [
          {
            ownerId: gid("Order", orderId),
            namespace: "entegrasyon",
            key: "fatura",
            type: "json",
            value: JSON.stringify({
              number: inv.number,
              ettn: inv.uuid,
              date: inv.date,
              url: inv.url ?? null,
            }),
          },
        ],
      },
      // Same key, same value: a repeat overwrites with itself.
      { idempotent: true },
    );
    const failure = ShopifyClient.userErrorsFailure("metafieldsSet", r.metafieldsSet.userErrors, [orderId]);
    if (failure) throw failure;
  }
}
