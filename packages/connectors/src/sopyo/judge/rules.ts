/**
 * Runtime rules of this connector (issue 32): none yet. VERIFIED.md says which sources were read and why
 * none of them gives a rule the judge does not already apply. The version pin lives here.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const SOPYO_VERSION_PIN: ApiVersionPin = {
  system: "sopyo",
  api: "Sopyo API",
  version: "api/v2",
  endOfSupport: null,
  noDateReason: "Sopyo publishes no end-of-support date for api/v2",
  source: "public code ids 70163041287 (TS client) and 36896114704 (Python client)",
};

export const SOPYO_RULES: RuntimeRule[] = [];
