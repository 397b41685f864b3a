/**
 * Runtime rules of this connector (issue 32): none yet. VERIFIED.md says which sources were read and why
 * none of them gives a rule the judge does not already apply. The version pin lives here.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const LOGO_VERSION_PIN: ApiVersionPin = {
  system: "logo",
  api: "Logo REST service + Tiger/Go SQL",
  version: "/api/v1; LG_{firm}_{period} tables",
  endOfSupport: null,
  noDateReason:
    "Logo publishes no end-of-support date for the REST service /api/v1 or the database schema; both run on the customer's own server",
  source: "docs.logo.com.tr GET page; erkan-dirikcan/Koala.Yedpa@1f711265",
};

export const LOGO_RULES: RuntimeRule[] = [];
