/**
 * Entegra's connection check calls (issue 36): a token first; the category list (kept) serves products
 * and categories; a price page reads the prices and the product page they belong to; depots are the connector's own.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const entegraCheck: ConnectorCheckSpec = {
  system: "entegra",
  setupCalls: 1,
  calls: { categories: 0, prices: 2 },
  free: ["stockLocations"],
  shared: [{ reads: ["products", "categories"], calls: 1 }],
};
