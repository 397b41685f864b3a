/**
 * Uyumsoft e-Dönüşüm Integration service: no runtime rules beyond the schema judge yet (VERIFIED.md says why); the version pin.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const UYUMSOFT_VERSION_PIN: ApiVersionPin = {
  system: "uyumsoft",
  api: "Uyumsoft e-Dönüşüm Integration service",
  version: "Integration.wsdl (GIBFramework 4fe3c197)",
  endOfSupport: null,
  noDateReason: "the SOAP service is unversioned; GİB dates changes of UBL-TR, not of this service",
  source: "../shared/ground-truth/uyumsoft/Integration.wsdl",
};
