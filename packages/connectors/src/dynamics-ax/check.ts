/** Dynamics AX (AIF)'s connection check calls (issue 36): the item groups (kept) serve products and categories; price groups are the connector's own. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const axCheck: ConnectorCheckSpec = {
  system: "dynamics-ax",
  calls: { categories: 0 },
  free: ["priceGroups"],
  shared: [{ reads: ["products", "categories"], calls: 1 }],
};
