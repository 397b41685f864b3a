/**
 * Netsis's connection check calls (issue 36): a token first; the item groups (one `Queries/` read, kept)
 * serve products and categories, the depots (kept) serve depots and stock; price groups are the
 * connector's fixed sale-price columns.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const netsisCheck: ConnectorCheckSpec = {
  system: "netsis",
  setupCalls: 1,
  calls: { categories: 0, stockLocations: 0 },
  free: ["priceGroups"],
  shared: [
    { reads: ["products", "categories"], calls: 1 },
    { reads: ["stockLocations", "stock"], calls: 1 },
  ],
};
