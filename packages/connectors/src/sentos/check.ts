/** Sentos's connection check calls (issue 36): warehouses and orders are read; the other reads are the connector's own. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const sentosCheck: ConnectorCheckSpec = {
  system: "sentos",
  free: ["shopCategories", "priceLists", "orderStatuses"],
};
