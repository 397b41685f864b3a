import type { ErpConnectorModule } from "../sdk/connector-module";
import { createAxConnector } from "./connector";
import { axDescriptor } from "./descriptor";

export {
  AX_WRITES,
  AxClient,
  aifFaultMessages,
  axOperation,
  classifyAxFault,
} from "./client";

import { axSandbox } from "./sandbox";

export { AX_SALES_PRICE_GROUP, AxConnector, createAxConnector, vatFromTaxItemGroup } from "./connector";
export { AX_ENDPOINT_EXAMPLE, axDescriptor } from "./descriptor";
// The server side of NTLM, written from MS-NLMP: also the loopback proxy of the agent's NTLM proxy test.
export { ntlmMessage, type2Message, verifyType3, type WindowsAccount } from "./emulator/ntlm";
export * from "./emulator/server";
export { AX_ENVELOPE_XSD, AX_WSDL_PATH, axOperations, validateAxEnvelope } from "./judge/artifact";
export { axJudge, judgeAxRecorded } from "./judge/conformance";

export const axModule: ErpConnectorModule = {
  sandbox: axSandbox,
  descriptor: axDescriptor,
  create: createAxConnector,
};
