/**
 * Sopyo's connection check calls (issue 36): one login, then the order list and one detail call per
 * order, so the check asks a page of five orders (at most seven calls, exactly seven with five orders).
 */

import type { ConnectorCheckSpec } from "../sdk/check";

const ORDERS = 5;

export const sopyoCheck: ConnectorCheckSpec = {
  system: "sopyo",
  setupCalls: 1,
  pageSizes: { orders: ORDERS },
  calls: { orders: 1 + ORDERS },
  free: ["shopCategories", "shopStockLocations", "priceLists", "orderStatuses"],
};
