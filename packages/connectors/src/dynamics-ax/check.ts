/**
 * Dynamics AX (AIF)'s connection check calls (issue 36): the company's item keys (ItemService findKeys,
 * kept) serve every item read, then one call each reads the page's items or their on-hand rows;
 * categories and price groups are the connector's own (no call).
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const axCheck: ConnectorCheckSpec = {
  system: "dynamics-ax",
  free: ["categories", "priceGroups"],
  shared: [{ reads: ["products", "stockLocations", "stock", "prices"], calls: 1 }],
};
