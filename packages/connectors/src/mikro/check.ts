/**
 * Mikro's connection check calls (issue 36), as the connector sends them: a product page reads the VAT
 * table (kept for the connector's life), StokListesiV2 and its barcodes; the groups, subgroups and brands
 * (three SQL reads, kept) serve products and categories alike; price groups are read once for both price reads.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const mikroCheck: ConnectorCheckSpec = {
  system: "mikro",
  calls: { products: 3, categories: 0, stock: 2, priceGroups: 0 },
  shared: [
    { reads: ["products", "categories"], calls: 3 },
    { reads: ["priceGroups", "prices"], calls: 1 },
  ],
};
