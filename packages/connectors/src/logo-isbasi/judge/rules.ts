/**
 * Runtime rules of this connector (issue 32): none yet. VERIFIED.md says which sources were read and why
 * none of them gives a rule the judge does not already apply. The version pin lives here.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const ISBASI_VERSION_PIN: ApiVersionPin = {
  system: "logo-isbasi",
  api: "Logo İşbaşı REST",
  version: "/api/v1.0 (Swagger 1.0.9)",
  endOfSupport: null,
  noDateReason:
    "Logo publishes no end-of-support date for the İşbaşı API; the Swagger 1.0.9 sits behind a login and names none",
  source: "public code id 70569358786 (notes of the vendor Swagger 1.0.9)",
};

export const ISBASI_RULES: RuntimeRule[] = [];
