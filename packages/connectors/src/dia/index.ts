import type { ErpConnectorModule } from "../sdk/connector-module";
import { createDiaConnector } from "./connector";
import { diaDescriptor } from "./descriptor";
import { diaSandbox } from "./sandbox";

export { classifyDiaResponse } from "./api";
export { createDiaConnector, DiaConnector } from "./connector";
export { diaDescriptor } from "./descriptor";
export * from "./emulator/server";

export const diaModule: ErpConnectorModule = {
  sandbox: diaSandbox,
  descriptor: diaDescriptor,
  create: createDiaConnector,
};
