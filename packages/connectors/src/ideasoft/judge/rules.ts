/**
 * Ideasoft Admin API (Ideashop API): no runtime rules beyond the schema judge yet (VERIFIED.md says why); the version pin.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const IDEASOFT_VERSION_PIN: ApiVersionPin = {
  system: "ideasoft",
  api: "Ideasoft Admin API (Ideashop API)",
  version: "3.0.0",
  endOfSupport: null,
  noDateReason: "the OpenAPI file carries 3.0.0 and no deprecation; Ideasoft publishes no end of support",
  source: "admin-swagger-prod.json info.version (Turkmen87ai/IdeaSoftApiIntegration @699ed392)",
};
