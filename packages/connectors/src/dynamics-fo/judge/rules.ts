/**
 * Runtime rules of this connector (issue 32): none yet. VERIFIED.md says which sources were read and why
 * none of them gives a rule the judge does not already apply. The version pin lives here.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const D365_VERSION_PIN: ApiVersionPin = {
  system: "dynamics-fo",
  api: "Dynamics 365 Finance & Operations OData",
  version: "/data (OData v4, no version in the URL)",
  endOfSupport: null,
  noDateReason:
    "the /data endpoint carries no API version; F&O service updates follow Microsoft's Modern Lifecycle Policy and the customer's environment decides which update runs",
  source: "MicrosoftDocs/common-data-model-and-service@fb44b33; learn.microsoft.com F&O lifecycle policy",
};

export const D365_RULES: RuntimeRule[] = [];
