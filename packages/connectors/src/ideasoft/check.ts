/** IdeaSoft's connection check calls (issue 36): categories and orders are read; the other reads are the connector's own. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const ideasoftCheck: ConnectorCheckSpec = {
  system: "ideasoft",
  free: ["shopStockLocations", "priceLists", "orderStatuses"],
};
