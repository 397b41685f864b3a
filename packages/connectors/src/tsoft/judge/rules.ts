/**
 * T-Soft REST1: no runtime rules beyond the schema judge yet (VERIFIED.md says why); the version pin.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const TSOFT_VERSION_PIN: ApiVersionPin = {
  system: "tsoft",
  api: "T-Soft REST1",
  version: "REST1 (document v1.0.2)",
  endOfSupport: null,
  noDateReason: "T-Soft publishes no versions or retirement dates for REST1",
  source: "REST API Dokümanı v1.0.2 (table of contents); public clients of /rest1/",
};
