/** Shopier's connection check calls (issue 36): one call per read; depots and price groups are the connector's own. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const shopierCheck: ConnectorCheckSpec = {
  system: "shopier",
  free: ["stockLocations", "priceGroups"],
};
