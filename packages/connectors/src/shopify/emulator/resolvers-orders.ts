/** Order writes of the Shopify emulator: fulfillmentCreate (with tracking) and orderMarkAsPaid. */

import type { Resolver, ResolverDeps } from "./resolver-types";

export function orderMutations(deps: ResolverDeps): Record<string, Resolver> {
  const { state } = deps;
  return {
    fulfillmentCreate: (a) => {
      const f = a.fulfillment as {
        lineItemsByFulfillmentOrder: Array<{ fulfillmentOrderId: string }>;
        trackingInfo?: { company?: string; number?: string; url?: string } | null;
      };
      const orders = new Set<string>();
      for (const [i, g] of f.lineItemsByFulfillmentOrder.entries()) {
        const order = [...state.orders.values()].find((o) =>
          o.fulfillmentOrders.some((x) => x.id === g.fulfillmentOrderId),
        );
        const fo = order?.fulfillmentOrders.find((x) => x.id === g.fulfillmentOrderId);
        if (!order || !fo)
          return {
            fulfillment: null,
            userErrors: [
              {
                field: ["fulfillment", "lineItemsByFulfillmentOrder", String(i)],
                message: "Fulfillment order does not exist.",
              },
            ],
          };
        if (fo.status === "CLOSED")
          return {
            fulfillment: null,
            userErrors: [
              { field: ["fulfillment"], message: "Fulfillment order is not in an acceptable state." },
            ],
          };
        orders.add(order.id);
      }
      if (orders.size !== 1)
        return {
          fulfillment: null,
          userErrors: [
            { field: ["fulfillment"], message: "All fulfillment orders must belong to the same order." },
          ],
        };
      const order = state.orders.get([...orders][0] as string);
      if (!order)
        return { fulfillment: null, userErrors: [{ field: ["fulfillment"], message: "Order not found" }] };
      for (const g of f.lineItemsByFulfillmentOrder) {
        const fo = order.fulfillmentOrders.find((x) => x.id === g.fulfillmentOrderId);
        if (fo) fo.status = "CLOSED";
      }
      const id = state.newId("Fulfillment");
      order.fulfillments.push({
        id,
        createdAt: new Date(state.now()).toISOString(),
        company: f.trackingInfo?.company,
        number: f.trackingInfo?.number,
        url: f.trackingInfo?.url,
      });
      if (order.fulfillmentOrders.every((x) => x.status === "CLOSED")) order.fulfillment = "FULFILLED";
      state.touchOrder(order);
      return {
        fulfillment: {
          __typename: "Fulfillment",
          id,
          status: "SUCCESS",
          name: `${order.name}-F${order.fulfillments.length}`,
        },
        userErrors: [],
      };
    },

    orderMarkAsPaid: (a) => {
      const id = String((a.input as { id: string }).id);
      const order = state.orders.get(id);
      if (!order) return { order: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] };
      if (order.financial === "PAID")
        return {
          order: state.orderView(order),
          userErrors: [{ field: ["id"], message: "Order cannot be marked as paid." }],
        };
      order.financial = "PAID";
      order.paidAt = new Date(state.now()).toISOString();
      state.touchOrder(order);
      return { order: state.orderView(order), userErrors: [] };
    },
  };
}
