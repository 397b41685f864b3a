/**
 * Dynamics 365 F&O's connection check calls (issue 36): an OAuth token first; a product page reads the
 * products, their variants and their category assignments; the category tree (kept) serves products and
 * categories; a stock page reads on-hand rows and, when they carry dimensions, the variants they name.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const d365Check: ConnectorCheckSpec = {
  system: "dynamics-ax-rest",
  setupCalls: 1,
  calls: { products: 3, categories: 0, stock: 2 },
  // The variants call of a stock page is sent only when its on-hand rows carry product dimensions.
  atMost: ["stock"],
  shared: [{ reads: ["products", "categories"], calls: 1 }],
};
