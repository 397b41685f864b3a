/**
 * Runtime rules of this connector (issue 32): none yet. VERIFIED.md says which sources were read and why
 * none of them gives a rule the judge does not already apply. The version pin lives here.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const LUCA_KOZA_VERSION_PIN: ApiVersionPin = {
  system: "luca-koza",
  api: "Luca Koza web services",
  version: "*.do methods (vendor Postman collection)",
  endOfSupport: null,
  noDateReason: "TÜRMOB publishes neither the API nor any end-of-support date for it",
  source: "gamzeaydinnn/katana@3ef520e docs/Luca-Koza-API.md",
};

export const LUCA_KOZA_RULES: RuntimeRule[] = [];
