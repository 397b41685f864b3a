/** IKAS emulator: orders, packages (fulfillOrder, package statuses) and invoices. */

import { GraphQLError } from "graphql";
import type { IkasOrder, IkasPackage } from "../types";
import {
  type DateFilter,
  type IkasResolverContext,
  matchDate,
  matchString,
  type Pagination,
  page,
  type Resolvers,
  type StringFilter,
  sortBy,
  validationError,
} from "./common";

type TrackingInput = {
  trackingNumber?: string | null;
  cargoCompany?: string | null;
  trackingLink?: string | null;
};

/** Tracking input as stored: absent fields are null, as the schema's nullable fields answer them. */
function trackingInfo(t: TrackingInput): NonNullable<IkasPackage["trackingInfo"]> {
  return {
    trackingNumber: t.trackingNumber ?? null,
    cargoCompany: t.cargoCompany ?? null,
    trackingLink: t.trackingLink ?? null,
  };
}

function derivePackageStatus(order: IkasOrder): void {
  const statuses = (order.orderPackages ?? []).map((p) => p.orderPackageFulfillStatus);
  const all = (s: string) => statuses.length > 0 && statuses.every((x) => x === s);
  for (const s of [
    "DELIVERED",
    "FULFILLED",
    "READY_FOR_SHIPMENT",
    "CANCELLED",
    "UNABLE_TO_DELIVER",
    "READY_FOR_PICK_UP",
  ]) {
    if (all(s)) order.orderPackageStatus = s;
  }
  if (all("CANCELLED")) order.status = "CANCELLED";
  if (all("REFUND_REQUEST_ACCEPTED")) order.status = "REFUNDED";
}

export function orderResolvers(ctx: IkasResolverContext): Resolvers {
  const { state, limits } = ctx;
  return {
    listOrder: (a) => {
      const args = a as {
        pagination?: Pagination;
        id?: StringFilter;
        orderNumber?: StringFilter;
        updatedAt?: DateFilter;
        orderedAt?: DateFilter;
        sort?: string;
      };
      const items = state.orders.filter(
        (o) =>
          matchString(o.id, args.id) &&
          matchString(o.orderNumber, args.orderNumber) &&
          matchDate(o.updatedAt, args.updatedAt) &&
          matchDate(o.orderedAt, args.orderedAt),
      );
      return page(sortBy(items, args.sort), args.pagination, limits.maxPageLimit);
    },
    updateOrderPackageStatus: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            packages: Array<{
              packageId: string;
              status: string;
              trackingInfo?: TrackingInput | null;
            }>;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order) throw validationError(`Order not found: ${input.orderId}`);
      for (const p of input.packages) {
        if (!order.orderPackages.some((x) => x.id === p.packageId))
          throw validationError(`Package not found: ${p.packageId}`);
      }
      for (const p of input.packages) {
        const pkg = order.orderPackages.find((x) => x.id === p.packageId);
        if (!pkg) continue;
        pkg.orderPackageFulfillStatus = p.status;
        pkg.updatedAt = state.tick();
        if (p.trackingInfo) pkg.trackingInfo = trackingInfo(p.trackingInfo);
      }
      derivePackageStatus(order);
      state.touchOrder(order);
      return order;
    },

    fulfillOrder: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            lines: Array<{ orderLineItemId: string; quantity: number }>;
            markAsReadyForShipment?: boolean | null;
            trackingInfoDetail?: TrackingInput | null;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order) throw validationError(`Order not found: ${input.orderId}`);
      if (input.lines.length === 0) throw validationError("lines must not be empty");
      const packaged = new Set(order.orderPackages.flatMap((p) => p.orderLineItemIds));
      for (const l of input.lines) {
        const line = order.orderLineItems.find((x) => x.id === l.orderLineItemId);
        if (!line) throw validationError(`Order line not found: ${l.orderLineItemId}`);
        if (packaged.has(l.orderLineItemId)) {
          throw new GraphQLError(`Order line is already packaged: ${l.orderLineItemId}`, {
            extensions: { code: "ORDER_LINE_IS_ALREADY_PACKAGED" },
          });
        }
        if (!(l.quantity > 0 && l.quantity <= line.quantity))
          throw validationError(`Invalid quantity for order line ${l.orderLineItemId}`);
      }
      const status = input.markAsReadyForShipment ? "READY_FOR_SHIPMENT" : "FULFILLED";
      const t = input.trackingInfoDetail;
      const at = state.tick();
      order.orderPackages.push({
        createdAt: at,
        updatedAt: at,
        id: state.uuid(),
        deleted: false,
        stockLocationId: state.stockLocations[0]?.id ?? "",
        orderPackageNumber: `${order.orderNumber}-${order.orderPackages.length + 1}`,
        orderPackageFulfillStatus: status,
        orderLineItemIds: input.lines.map((l) => l.orderLineItemId),
        trackingInfo: t ? trackingInfo(t) : null,
      });
      for (const l of order.orderLineItems)
        if (input.lines.some((x) => x.orderLineItemId === l.id)) l.status = status;
      derivePackageStatus(order);
      state.touchOrder(order);
      return order;
    },

    addOrderInvoice: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            appId: string;
            invoiceNumber: string;
            type: string;
            sendNotificationToCustomer: boolean;
            createdAt?: number | null;
            base64?: string | null;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order) throw validationError(`Order not found: ${input.orderId}`);
      if (input.appId !== state.authorizedApp.id) throw validationError(`App not found: ${input.appId}`);
      if (!input.invoiceNumber.trim()) throw validationError("invoiceNumber is required");
      if (input.base64 && !/^[A-Za-z0-9+/]*={0,2}$/.test(input.base64))
        throw validationError("base64 must be base64-encoded");
      // No de-duplication is documented, so none is emulated: every call adds an invoice.
      order.invoices.push({
        id: state.uuid(),
        appId: input.appId,
        appName: state.authorizedApp.name,
        storeAppId: state.authorizedApp.storeAppId,
        invoiceNumber: input.invoiceNumber,
        type: input.type,
        createdAt: input.createdAt ?? state.tick(),
        hasPdf: Boolean(input.base64),
        size: input.base64 ? Math.floor((input.base64.length * 3) / 4) : 0,
      });
      state.touchOrder(order);
      return order;
    },
  };
}
