/**
 * Entegra API: no runtime rules beyond the schema judge yet (VERIFIED.md says why); the version pin.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const ENTEGRA_VERSION_PIN: ApiVersionPin = {
  system: "entegra",
  api: "Entegra API",
  version: "apiv2",
  endOfSupport: null,
  noDateReason: "Entegra publishes no retirement date for apiv2.entegrabilisim.com",
  source: "tap-entegra README (apiv2.entegrabilisim.com); six more clients",
};
