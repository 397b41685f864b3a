import type { ErpConnectorModule } from "../sdk/connector-module";
import { createNetsisConnector } from "./connector";
import { netsisDescriptor } from "./descriptor";
import { netsisSandbox } from "./sandbox";

export { classifyNetsisResponse } from "./api";
export { createNetsisConnector, NetsisConnector } from "./connector";
export { netsisDescriptor } from "./descriptor";
export * from "./emulator/server";

export const netsisModule: ErpConnectorModule = {
  sandbox: netsisSandbox,
  descriptor: netsisDescriptor,
  create: createNetsisConnector,
};
