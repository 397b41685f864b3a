import type { ErpConnectorModule } from "../sdk/connector-module";
import { createNebimConnector } from "./connector";
import { nebimDescriptor } from "./descriptor";
import { nebimSandbox } from "./sandbox";

export { classifyNebimResponse, NebimApi } from "./api";
export { createNebimConnector, NebimConnector } from "./connector";
export { NEBIM_DEFAULT_PROCS, nebimDescriptor } from "./descriptor";
export * from "./emulator/server";
export { judgeNebimRequest, NEBIM_MODELS } from "./judge/requests";
export { itemKeyOf, variantSku } from "./reads";

export const nebimModule: ErpConnectorModule = {
  sandbox: nebimSandbox,
  descriptor: nebimDescriptor,
  create: createNebimConnector,
};
