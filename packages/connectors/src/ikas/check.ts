/** IKAS's connection check calls (issue 36): one OAuth token first; order statuses are the connector's own list. */

import type { ConnectorCheckSpec } from "../sdk/check";

export const ikasCheck: ConnectorCheckSpec = { system: "ikas", setupCalls: 1, free: ["orderStatuses"] };
