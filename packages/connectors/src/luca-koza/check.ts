/**
 * Luca Koza's connection check calls (issue 36): the session (Giris.do, the branch list when the form
 * names no branch, the branch choice); a product page reads every card and the category tree (kept, also
 * the categories' read); stock reads the depots and the first depot's quantities; price lists are one call
 * per card, so the price groups cost the card list and twenty cards' lists and the check asks five cards' prices.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

const PRICE_CARDS = 5;
/** Cards whose price lists name the firm's price groups (catalog.ts, `listPriceGroups`). */
const GROUP_CARDS = 20;

export const kozaCheck: ConnectorCheckSpec = {
  system: "luca-koza",
  setupCallsFor: (credentials) => (credentials.branchId ? 2 : 3),
  pageSizes: { prices: PRICE_CARDS },
  calls: { categories: 0, stock: 2, priceGroups: 1 + GROUP_CARDS, prices: 1 + PRICE_CARDS },
  shared: [{ reads: ["products", "categories"], calls: 1 }],
};
