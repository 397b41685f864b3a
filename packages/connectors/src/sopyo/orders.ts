/**
 * Sopyo orders (read only): list pages `{ data, meta: { current_page, last_page } }` checked as the
 * public client checks them, then each order's detail. The detail comes bare or under `data` (the two
 * public test files disagree): both are read, and the connector reports which one it saw.
 */

import { compact } from "../sdk/internet-sale";
import type { HttpLogger } from "../sdk/logging";
import type { Address, Order, OrderDelivery, OrderLine, Page, PageQuery } from "../sdk/model";
import { decodeToken, encodeToken, round2, shopOrderLine, splitName } from "../sdk/util";
import { isRow, malformed, type Row, type SopyoClient } from "./client";
import { SOPYO_MAX_ORDER_PAGES } from "./descriptor";

export type DetailWrapper = "bare" | "data";

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v).trim());
const num = (v: unknown): number => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};
const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;

/** The detail record and which wrapper carried it; `data` wins when both are present (as the wrapped test expects). */
export function unwrapDetail(body: unknown): { order: Row; wrapper: DetailWrapper } | undefined {
  if (!isRow(body)) return undefined;
  if (isRow(body.data)) return { order: body.data, wrapper: "data" };
  if ("data" in body) return undefined;
  return { order: body, wrapper: "bare" };
}

function checkDetail(o: Row): string | undefined {
  if (!isId(o.id)) return "id must be a positive integer";
  if (typeof o.order_code !== "string" || o.order_code === "") return "order_code must be a non-empty string";
  if (!Number.isSafeInteger(o.order_status)) return "order_status must be an integer";
  return undefined;
}

function address(a: unknown, fallback: string): Address {
  const r = isRow(a) ? a : {};
  const [firstName, lastName] = splitName(str(r.full_name) || fallback);
  return {
    firstName,
    lastName,
    line1: str(r.address),
    district: str(r.district) || undefined,
    city: str(r.city),
    country: "Türkiye",
    phone: str(r.gsm) || undefined,
  };
}

/**
 * The only internet-sale data the sources show on a Sopyo order: `cargo_info.tracking_no` (the client's
 * list check) and `cargo_info.company` (shops.md's reading of the detail). No payment or dispatch date.
 */
function sopyoDelivery(o: Row): OrderDelivery | undefined {
  const cargo = isRow(o.cargo_info) ? o.cargo_info : {};
  return compact<OrderDelivery>({
    carrier: str(cargo.company) || undefined,
    trackingNumber: str(cargo.tracking_no) || undefined,
  });
}

export function mapSopyoOrder(o: Row): Order {
  const customer = isRow(o.customer_info) ? o.customer_info : {};
  const name = str(customer.name);
  const [firstName, lastName] = splitName(name);
  const billing = address(o.billing_info, name);
  // Sopyo gives a line's total only: the unit price is total ÷ quantity.
  const lines: OrderLine[] = (Array.isArray(o.order_items) ? (o.order_items as Row[]) : []).map((l) =>
    shopOrderLine({
      sku: str(l.stock_code),
      name: str(l.product_name),
      qty: num(l.quantity),
      price: 0,
      total: num(l.total_price),
    }),
  );
  const subtotal = round2(lines.reduce((s, l) => s + l.total, 0));
  const created = str(o.created_at);
  const at =
    created && !Number.isNaN(Date.parse(created))
      ? new Date(created).toISOString()
      : new Date(0).toISOString();
  return {
    id: str(o.id),
    orderNo: str(o.order_code),
    createdAt: at,
    updatedAt:
      str(o.updated_at) && !Number.isNaN(Date.parse(str(o.updated_at)))
        ? new Date(str(o.updated_at)).toISOString()
        : at,
    status: str(o.order_status),
    salesChannel: str(o.order_type) || undefined,
    currency: "TRY",
    customer: {
      ref: str(customer.email) || `SOPYO-${str(o.id)}`,
      firstName,
      lastName,
      email: str(customer.email) || undefined,
      phone: str((isRow(o.shipping_info) ? o.shipping_info : {}).gsm) || undefined,
      isCompany: false,
      billingAddress: billing,
    },
    billingAddress: billing,
    shippingAddress: address(o.shipping_info, name),
    lines,
    shipping: { cost: 0 },
    totals: { subtotal, discount: 0, shipping: 0, tax: 0, grandTotal: num(o.total_price) || subtotal },
    delivery: sopyoDelivery(o),
  };
}

export class SopyoOrders {
  /** How many details came in each wrapper (the two public fixtures disagree; we report what we saw). */
  readonly wrappersSeen: Record<DetailWrapper, number> = { bare: 0, data: 0 };

  constructor(
    private readonly client: SopyoClient,
    private readonly logger?: HttpLogger,
  ) {}

  async getOrder(id: string): Promise<Order> {
    const body = await this.client.request(
      "GET",
      `/api/v2/orders/${encodeURIComponent(id)}`,
      "getOrder",
      "read",
    );
    const found = unwrapDetail(body);
    if (!found) throw malformed("getOrder", "the detail is neither an order nor { data: order }");
    const problem = checkDetail(found.order);
    if (problem) throw malformed("getOrder", problem);
    if (this.wrappersSeen[found.wrapper]++ === 0) {
      // The first detail of each wrapper goes to the log: the open question the fixtures leave.
      this.logger?.({
        system: "sopyo",
        operation: `getOrder: detail wrapper "${found.wrapper}"`,
        kind: "read",
        method: "GET",
        url: `/api/v2/orders/${id}`,
        attempt: 0,
        durationMs: 0,
      });
    }
    return mapSopyoOrder(found.order);
  }

  /**
   * A page of orders, each read in full (one call per order). `pageSize` reads fewer of the API page's
   * orders (the connection check's word on its calls); the next token goes on from the first unread one.
   */
  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const token = decodeToken<{ page: number; from?: number }>(q.pageToken, "sopyo");
    const page = token?.page ?? 1;
    const from = token?.from ?? 0;
    const body = await this.client.request("GET", `/api/v2/orders?page=${page}`, "listOrders", "read");
    const meta = isRow(body) && isRow(body.meta) ? body.meta : undefined;
    if (
      !isRow(body) ||
      !Array.isArray(body.data) ||
      !meta ||
      meta.current_page !== page ||
      !Number.isSafeInteger(meta.last_page) ||
      (meta.last_page as number) < page
    ) {
      throw malformed(
        "listOrders",
        "expected { data: [...], meta: { current_page, last_page } } for this page",
      );
    }
    const rows = body.data as unknown[];
    const to = q.pageSize ? Math.min(rows.length, from + q.pageSize) : rows.length;
    const items: Order[] = [];
    for (const row of rows.slice(from, to)) {
      if (!isRow(row) || !isId(row.id)) throw malformed("listOrders", "a row without a positive integer id");
      items.push(await this.getOrder(String(row.id)));
    }
    if (to < rows.length) return { items, nextPageToken: encodeToken({ page, from: to }) };
    const more = page < (meta.last_page as number) && page < SOPYO_MAX_ORDER_PAGES;
    return { items, nextPageToken: more ? encodeToken({ page: page + 1 }) : undefined };
  }
}
