/**
 * Runtime rules of this connector (issue 32): none yet. VERIFIED.md says which sources were read and why
 * none of them gives a rule the judge does not already apply. The version pin lives here.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const DIA_VERSION_PIN: ApiVersionPin = {
  system: "dia",
  api: "DİA WS",
  version: "v3 (JSON)",
  endOfSupport: null,
  noDateReason:
    "DİA publishes no end-of-support date for WS v3 (the older JSONRPC v1 is superseded, without a date)",
  source: "doc.dia.com.tr gelistirici:wsapi pages (public code id 38003910331)",
};

export const DIA_RULES: RuntimeRule[] = [];
