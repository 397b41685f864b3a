/** Uyumsoft's connection check (issue 36): an e-invoice service reads no catalogue, so the check sends nothing. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const uyumsoftCheck: ConnectorCheckSpec = {
  system: "uyumsoft",
  free: ["products", "categories", "stockLocations", "stock", "priceGroups", "prices"],
};
