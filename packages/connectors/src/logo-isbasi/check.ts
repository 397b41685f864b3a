/**
 * Logo İşbaşı's connection check data (issue 36): its account has a monthly call quota, so the check
 * says its count first: one `integrationLogin` and one page per read.
 */

import type { ConnectorCheckSpec } from "../sdk/check";

export const isbasiCheck: ConnectorCheckSpec = {
  system: "logo-isbasi",
  setupCalls: 1,
  verified: "packages/connectors/src/logo-isbasi/VERIFIED.md",
};
