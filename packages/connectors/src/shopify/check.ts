/** Shopify's connection check calls (issue 36): one GraphQL call per read; order statuses are the connector's own list. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const shopifyCheck: ConnectorCheckSpec = { system: "shopify", free: ["orderStatuses"] };
