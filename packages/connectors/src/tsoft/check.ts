/** T-Soft's connection check calls (issue 36): one login first; depots, price lists and statuses are the connector's own. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const tsoftCheck: ConnectorCheckSpec = {
  system: "tsoft",
  setupCalls: 1,
  free: ["shopStockLocations", "priceLists", "orderStatuses"],
};
