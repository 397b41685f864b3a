import type { ErpConnectorModule } from "../sdk/connector-module";
import { createUyumsoftConnector, createUyumsoftPortalConnector } from "./connector";
import { uyumsoftDescriptor, uyumsoftPortalDescriptor } from "./descriptor";
import { createUyumsoftProvider } from "./provider";

export { callOperation, classifySoapFault, soapOperation, UYUMSOFT_WRITES } from "./client";
export { createUyumsoftConnector, createUyumsoftPortalConnector, UyumsoftConnector } from "./connector";
export {
  NOT_A_PRODUCT_SOURCE,
  UYUMSOFT_LIVE_ENDPOINT,
  UYUMSOFT_TEST_ENDPOINT,
  uyumsoftDescriptor,
  uyumsoftPortalDescriptor,
} from "./descriptor";

import { uyumsoftSandbox } from "./sandbox";

export * from "./emulator/server";
export { tinyPdf, UYUMSOFT_TEST_ACCOUNT, type UyumsoftAccount, UyumsoftState } from "./emulator/state";
export { WSDL_PATH as UYUMSOFT_WSDL_PATH } from "./judge/artifact";
export { createUyumsoftProvider, UYUMSOFT_STATUS, UyumsoftProvider } from "./provider";

export const uyumsoftModule: ErpConnectorModule = {
  sandbox: uyumsoftSandbox,
  descriptor: uyumsoftDescriptor,
  create: createUyumsoftConnector,
  einvoice: createUyumsoftProvider,
};

/** UyumsoftPortal has no API of its own: the same e-Dönüşüm web service, registered under type 18. */
export const uyumsoftPortalModule: ErpConnectorModule = {
  descriptor: uyumsoftPortalDescriptor,
  create: createUyumsoftPortalConnector,
  einvoice: (credentials, ctx) => createUyumsoftProvider(credentials, ctx, uyumsoftPortalDescriptor),
};
