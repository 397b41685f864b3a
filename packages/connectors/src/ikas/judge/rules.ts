/**
 * ikas Admin GraphQL API: no runtime rules beyond the schema judge yet (VERIFIED.md says why); the version pin.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const IKAS_VERSION_PIN: ApiVersionPin = {
  system: "ikas",
  api: "ikas Admin GraphQL API",
  version: "v1",
  endOfSupport: null,
  noDateReason: "ikas publishes no retirement date; its official client still defaults to v1",
  source: "@ikas/admin-api-client@2.0.12 globals/constants.js DEFAULT_API_VERSION = 'v1'; ikas.dev",
};
