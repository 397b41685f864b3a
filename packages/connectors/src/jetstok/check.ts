/**
 * JetStok's connection check (issue 37, item 7): JetStok has no API, so every read is answered from
 * the company's files or from memory and sends nothing; the check says 0 calls and sends 0.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const jetstokCheck: ConnectorCheckSpec = {
  system: "jetstok",
  free: ["shopCategories", "shopStockLocations", "priceLists", "orderStatuses", "orders"],
};
