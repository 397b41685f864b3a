/**
 * Logo İşbaşı's connection check data (issue 36): its account has a monthly call quota, so the check
 * says its count first: one `integrationLogin`, one product page and one price page.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const isbasiCheck: ConnectorCheckSpec = {
  system: "logo-isbasi",
  setupCalls: 1,
  // One product page; the categories are those its products name (read alone, they scan every page,
  // which the plan does not allow: a metered check then says "denenemedi"). Depots, their stock and
  // the price group are not in the API or are the connector's own.
  calls: { products: 0, categories: 0 },
  shared: [{ reads: ["products", "categories"], calls: 1 }],
  free: ["stockLocations", "stock", "priceGroups"],
  verified: "packages/connectors/src/logo-isbasi/VERIFIED.md",
};
